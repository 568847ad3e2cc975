"""Colour preprocessing layers (``tf.keras.layers``): RandomInvert, RandomGrayscale,
AutoContrast, Solarization, on Keras 3's augmentation base: each random one draws its
transformation from its own ``keras.random.SeedGenerator``, as Keras 3 does."""
import tapeflow as tf

from .... import ops as K
from .... import random as _kr
from .augmentation_base import (
    AugmentationLayer,
    batch_size,
    draw_shape,
    sorted_value_range,
    transform_value_range,
)

__all__ = ["AutoContrast", "RandomGrayscale", "RandomInvert", "Solarization"]


class RandomInvert(AugmentationLayer):
    """Invert some images, ``value_range[1] - x`` (``tf.keras.layers.RandomInvert``): per
    image a probability drawn in ``factor``'s range, then a threshold in ``[0, 1)``, from
    the layer's SeedGenerator; the image is inverted when the threshold is below it.

    Args:
        factor: the probability's range: a number ``f`` means ``[0, f]``, a pair
            ``(lo, hi)`` within ``[0, 1]`` (default 1.0).
        value_range: the images' range (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator (None: one from Python's ``random``).

    When ``training`` the output is in the compute dtype; otherwise the images return
    unchanged. Labels, boxes and masks pass unchanged.

    Raises:
        ValueError: for a factor outside ``[0, 1]``.
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        n = batch_size(self._images(data))
        seed = seed or self.generator
        probability = _kr.uniform(draw_shape(n), self.factor[0], self.factor[1], seed=seed)
        threshold = _kr.uniform(draw_shape(n), 0, 1, seed=seed)
        return {"apply_inversion": threshold < probability}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        chosen = tf.reshape(transformation["apply_inversion"], [-1, 1, 1, 1])
        return tf.where(chosen, self.value_range[1] - images, images)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)


class RandomGrayscale(AugmentationLayer):
    """Turn some RGB images to grayscale, the luma repeated in the channels
    (``tf.keras.layers.RandomGrayscale``): one draw per image from the layer's
    SeedGenerator, below ``factor`` converts. As in Keras the draw is made on every call,
    ``training=False`` included (the images then pass unchanged).

    Args:
        factor: the probability of converting an image, in ``[0, 1]`` (default 0.5).
        data_format: 'channels_last' (default) or 'channels_first'.
        seed: the seed of the layer's SeedGenerator (None: one from Python's ``random``).

    Raises:
        ValueError: for a factor outside ``[0, 1]``.
    """

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        self.factor = factor
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        seed = self._seed(seed)
        images = self._images(data)
        n = 1 if len(images.shape) == 3 else batch_size(images)
        draws = _kr.uniform(draw_shape(n), 0, 1, seed=seed)
        return tf.reshape(draws < self.factor, [-1, 1, 1, 1])

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        gray = K.image.rgb_to_grayscale(images, data_format=self.data_format)
        return tf.where(transformation, gray, images)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor)


class AutoContrast(AugmentationLayer):
    """Stretch each image's channels to the full ``value_range``: per image and channel,
    ``(x - min) * 255 / (max - min)`` on the 0..255 scale, clipped; a constant channel
    (0/0) keeps its input (``tf.keras.layers.AutoContrast``). Applied whatever ``training``
    says, as in Keras; the output is in the compute dtype.

    Args:
        value_range: the images' range, a pair (default ``(0, 255)``).

    Raises:
        ValueError: for a value_range that is not a pair.
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        self.value_range = sorted_value_range(value_range)

    def transform_images(self, images, transformation=None, training=True):
        original = images
        x = tf.cast(transform_value_range(images, self.value_range, (0, 255),
                                          self.compute_dtype), self.compute_dtype)
        low = tf.reduce_min(x, axis=(1, 2), keepdims=True)
        high = tf.reduce_max(x, axis=(1, 2), keepdims=True)
        scale = 255.0 / (high - low)
        out = tf.clip_by_value(x * scale + (-low * scale), 0.0, 255.0)
        out = transform_value_range(out, (0, 255), self.value_range, self.compute_dtype)
        return tf.where(tf.math.is_nan(out), tf.cast(original, out.dtype), out)

    def get_config(self):
        return dict(super().get_config(), value_range=self.value_range)


_SOLARIZE_FACTOR = ("The `addition_factor` and `threshold_factor` arguments should be a number "
                    "(or a list of two numbers) in the range [0, 1]. ")


def _solarize_range(factor, name):
    """Keras's Solarization factor: ``f`` gives ``(0, f)``, a pair is sorted; in [0, 1].

    Raises:
        ValueError: otherwise (Keras's text).
    """
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(_SOLARIZE_FACTOR + f"Received: {name}={factor}")
        values = factor
    elif isinstance(factor, (int, float)):
        values = (factor,)
    else:
        raise ValueError(_SOLARIZE_FACTOR + f"Received: {name}={factor}")
    for v in values:
        if v > 1.0 or v < 0:
            raise ValueError(_SOLARIZE_FACTOR + f"Received: input_number={v}")
    return tuple(sorted(factor)) if isinstance(factor, (tuple, list)) else (0, factor)


class Solarization(AugmentationLayer):
    """Invert the pixels at or above a random threshold, after adding a random offset
    (``tf.keras.layers.Solarization``), on the 0..255 scale of ``value_range``:
    ``y = x + a`` clipped to [0, 255], then ``y`` where ``y < t`` else ``255 - y``. Per
    image ``a`` then ``t`` are drawn from the layer's SeedGenerator, as Keras 3 does.

    Args:
        addition_factor: ``a`` is drawn from ``[lo, hi * 255]`` (Keras's bounds: the low
            end is not scaled); a number ``f`` means ``(0, f)`` (default 0).
        threshold_factor: ``t`` likewise (default 0: every pixel inverted).
        value_range: the images' range (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator (None: one from Python's ``random``).

    The output is in the compute dtype (``training=False``: the images, cast).

    Raises:
        ValueError: for factors outside [0, 1] or a value_range that is not a pair.
    """

    _USE_BASE_FACTOR = False

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255),
                 seed=None, **kwargs):
        super().__init__(**kwargs)
        self._set_seed(seed)
        self.addition_factor = _solarize_range(addition_factor, "addition_factor")
        self.threshold_factor = _solarize_range(threshold_factor, "threshold_factor")
        self.value_range = sorted_value_range(value_range)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        shape = (1, 1, 1) if len(images.shape) == 3 else draw_shape(batch_size(images), 1, 1, 1)
        seed = self._seed(seed)
        return {"additions": _kr.uniform(shape, self.addition_factor[0],
                                         self.addition_factor[1] * 255, seed=seed,
                                         dtype=self.compute_dtype),
                "thresholds": _kr.uniform(shape, self.threshold_factor[0],
                                          self.threshold_factor[1] * 255, seed=seed,
                                          dtype=self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        x = transform_value_range(images, self.value_range, (0, 255), self.compute_dtype)
        y = tf.clip_by_value(x + transformation["additions"], 0.0, 255.0)
        y = tf.where(y < transformation["thresholds"], y, 255 - y)
        return transform_value_range(y, (0, 255), self.value_range, self.compute_dtype)

    def get_config(self):
        return dict(super().get_config(), value_range=self.value_range,
                    addition_factor=self.addition_factor,
                    threshold_factor=self.threshold_factor, seed=self.seed)
