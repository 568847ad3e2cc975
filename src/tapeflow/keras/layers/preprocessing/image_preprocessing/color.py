"""Colour preprocessing layers: RandomInvert, RandomGrayscale, AutoContrast
(``tf.keras.layers``; channels-last images, a batch or one image)."""
from .....ops import array_ops as _a
from .....ops import image_ops as _img
from .....ops import math_ops as _m
from .....ops import random_ops as _rand
from .....ops import reduction_ops as _red
from .base_image_preprocessing_layer import _batch, _factor_range, _ImageLayer

__all__ = ["AutoContrast", "RandomGrayscale", "RandomInvert", "Solarization"]


def _chosen(images, probability_low, probability_high, seed):
    """A ``(batch, 1, 1, 1)`` bool: each image chosen with a probability drawn from
    ``[low, high)`` (Keras's two uniform draws: probability, then threshold)."""
    b = _batch(images)
    p = _rand.uniform(_a.reshape(b, [1]), probability_low, probability_high, seed=seed)
    threshold = _rand.uniform(_a.reshape(b, [1]), 0.0, 1.0, seed=seed)
    return _a.reshape(_m.less(threshold, p), [-1, 1, 1, 1])


class RandomInvert(_ImageLayer):
    """Invert some images, ``value_range[1] - x`` (``tf.keras.layers.RandomInvert``).

    Args:
        factor: the probability of inverting an image: a number ``f`` draws it from
            ``[0, f]``, a pair ``(lo, hi)`` from ``[lo, hi]`` (within ``[0, 1]``; default 1.0).
        value_range: the images' range (default ``(0, 255)``).
        seed: an op seed.

    Only when ``training``; the output is in the layer's compute dtype.

    Raises:
        ValueError: for a factor outside ``[0, 1]``.
    """

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.factor = _factor_range(factor, (0, 1))
        self.value_range, self.seed = value_range, seed

    def _transform(self, images, training):
        if not training:
            return images
        images = _a.cast(images, self.compute_dtype)
        chosen = _chosen(images, self.factor[0], self.factor[1], self.seed)
        return _a.where(chosen, _m.subtract(float(self.value_range[1]), images), images)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)


class RandomGrayscale(_ImageLayer):
    """Turn some RGB images to grayscale, the luma repeated in the three channels
    (``tf.keras.layers.RandomGrayscale``).

    Args:
        factor: the probability of converting an image, in ``[0, 1]`` (default 0.5).
        seed: an op seed.

    Raises:
        ValueError: for a factor outside ``[0, 1]``.
    """

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        self.factor, self.seed = factor, seed

    def _transform(self, images, training):
        if not training:
            return images
        draw = _rand.uniform(_a.reshape(_batch(images), [1]), 0.0, 1.0, seed=self.seed)
        chosen = _a.reshape(_m.less(draw, self.factor), [-1, 1, 1, 1])
        gray = _img.rgb_to_grayscale(images)
        return _a.where(chosen, _m.add(gray, _a.zeros_like(images)), images)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor)


def _rescale(images, source, target):
    if tuple(source) == tuple(target):
        return images
    images = _m.divide(_m.subtract(images, float(source[0])), float(source[1] - source[0]))
    return _m.add(_m.multiply(images, float(target[1] - target[0])), float(target[0]))


class AutoContrast(_ImageLayer):
    """Stretch each image's channels to the full ``value_range``: per image and channel,
    ``(x - min) * 255 / (max - min)`` on the 0..255 scale, clipped; a constant channel
    (0/0) keeps its input (``tf.keras.layers.AutoContrast``). Always applied.

    Args:
        value_range: the images' range, a pair (default ``(0, 255)``).

    Raises:
        ValueError: for a value_range that is not a pair.
    """

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. "
                             f"Received: value_range={value_range}")
        self.value_range = sorted(value_range)

    def _transform(self, images, training):
        original = images
        x = _a.cast(_rescale(images, self.value_range, (0, 255)), self.compute_dtype)
        low = _red.reduce_min(x, axis=[1, 2], keepdims=True)
        high = _red.reduce_max(x, axis=[1, 2], keepdims=True)
        scale = _m.divide(255.0, _m.subtract(high, low))
        out = _m.add(_m.multiply(x, scale), _m.multiply(_m.negative(low), scale))
        out = _m.minimum(_m.maximum(out, 0.0), 255.0)
        out = _rescale(out, (0, 255), self.value_range)
        return _a.where(_m.is_nan(out), _a.cast(original, out.dtype), out)

    def get_config(self):
        return dict(super().get_config(), value_range=self.value_range)


_SOLARIZE_FACTOR = ("The `addition_factor` and `threshold_factor` arguments should be a number "
                    "(or a list of two numbers) in the range [0, 1]. ")


def _unit_factor(factor, name):
    """Keras's Solarization factor: ``f`` gives ``(0, f)``, a pair is sorted; in [0, 1]."""
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(_SOLARIZE_FACTOR + f"Received: {name}={factor}")
        values = factor
    elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
        values = (0, factor)
    else:
        raise ValueError(_SOLARIZE_FACTOR + f"Received: {name}={factor}")
    for v in values:
        if v > 1.0 or v < 0:
            raise ValueError(_SOLARIZE_FACTOR + f"Received: input_number={v}")
    return tuple(sorted(values)) if isinstance(factor, (tuple, list)) else tuple(values)


class Solarization(_ImageLayer):
    """Invert the pixels at or above a random threshold, after adding a random offset
    (``tf.keras.layers.Solarization``), on the 0..255 scale of ``value_range``:
    ``y = x + a`` clipped to [0, 255], then ``y`` where ``y < t`` else ``255 - y``.

    Args:
        addition_factor: ``a`` is drawn per image from ``[lo, hi * 255]`` (Keras's bounds:
            the low end is not scaled); a number ``f`` means ``(0, f)`` (default 0).
        threshold_factor: ``t`` likewise (default 0: every pixel inverted).
        value_range: the images' range (default ``(0, 255)``).
        seed: an op seed.

    Only when ``training``; the output is in the layer's compute dtype.

    Raises:
        ValueError: for factors outside [0, 1] or a value_range that is not a pair.
    """

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255),
                 seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.addition_factor = _unit_factor(addition_factor, "addition_factor")
        self.threshold_factor = _unit_factor(threshold_factor, "threshold_factor")
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. "
                             f"Received: value_range={value_range}")
        self.value_range = sorted(value_range)

    def _transform(self, images, training):
        images = _a.cast(images, self.compute_dtype)
        if not training:
            return images
        shape = _a.concat([_a.reshape(_batch(images), [1]), [1, 1, 1]], 0)
        additions = _rand.uniform(shape, self.addition_factor[0],
                                  self.addition_factor[1] * 255, seed=self.seed,
                                  dtype=images.dtype)
        thresholds = _rand.uniform(shape, self.threshold_factor[0],
                                   self.threshold_factor[1] * 255, seed=self.seed,
                                   dtype=images.dtype)
        x = _rescale(images, self.value_range, (0, 255))
        y = _m.minimum(_m.maximum(_m.add(x, additions), 0.0), 255.0)
        y = _a.where(_m.less(y, thresholds), y, _m.subtract(255.0, y))
        return _rescale(y, (0, 255), self.value_range)

    def get_config(self):
        return dict(super().get_config(), value_range=self.value_range,
                    addition_factor=self.addition_factor,
                    threshold_factor=self.threshold_factor, seed=self.seed)
