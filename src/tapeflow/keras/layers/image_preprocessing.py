"""Image preprocessing and augmentation layers (Keras 3): Resizing, CenterCrop, RandomFlip,
RandomRotation, RandomZoom, RandomTranslation, RandomContrast.

The random layers draw from ``tf.random.uniform`` (never NumPy's generator directly), so a
traced function draws afresh on each call. As in Keras 3, they transform when ``training``
is True or not given (``model.predict`` and ``evaluate`` pass False) and return the input
(cast to the layer's dtype) when ``training=False``. Inputs are channels-last images,
batched ``(batch, height, width, channels)`` or single ``(height, width, channels)``.
"""
import math

from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import indexing_ops as _ix
from ...ops import manip_ops as _mn
from ...ops import math_ops as _m
from ...ops import random_ops as _r
from ...ops import reduction_ops as _r2
from . import _image, _spec
from .layer import Layer

__all__ = ["CenterCrop", "RandomBrightness", "RandomContrast", "RandomCrop", "RandomFlip",
           "RandomRotation", "RandomTranslation", "RandomZoom", "Resizing"]


class _ImageLayer(Layer):
    _cast_kinds = "fiub"

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError(f"tapeflow's {type(self).__name__} supports "
                             "data_format='channels_last' only")
        self.data_format = "channels_last"
        self.built = True

    def call(self, inputs, training=None):
        shape = _spec.static_shape(inputs)
        if len(shape) not in (3, 4):
            raise ValueError("Expected the input image to be rank 3 or 4. Received "
                             f"inputs.shape={shape}")
        batched = inputs if len(shape) == 4 else _a.expand_dims(inputs, 0)
        out = self._transform(batched, True if training is None else bool(training))
        return out if len(shape) == 4 else _a.squeeze(out, [0])

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format)


def _check_interpolation(layer, fill_mode, interpolation):
    if fill_mode not in _image.FILL_MODES:
        raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                  f"{_image.FILL_MODES}.")
    if interpolation not in _image.INTERPOLATIONS:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                  f"{_image.INTERPOLATIONS}.")


def _factor_range(factor, bounds, name="factor"):
    """Keras's ``_set_factor``: a number ``f`` gives ``(-|f|, |f|)`` clipped to ``bounds``,
    a pair is sorted."""
    message = (f"The `{name}` argument should be a number (or a list of two numbers) in the "
               f"range [{bounds[0]}, {bounds[1]}]. Received: {name}={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(message)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(message)
        return (max(-abs(factor), bounds[0]), abs(factor))
    raise ValueError(message)


_ZOOM_MESSAGE = ("The `height_factor` and `width_factor` arguments should be a number (or a "
                 "list of two numbers) in the range (-1.0, 1.0]. ")
_SHIFT_MESSAGE = ("The `factor` argument should be a number (or a list of two numbers) in the "
                  "range [-1.0, 1.0]. ")


def _zoom_range(factor, name, message=_ZOOM_MESSAGE):
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(message + f"Received: {name}={factor}")
        values = checked = factor
    elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
        values, checked = (-abs(factor), abs(factor)), (factor,)
    else:
        raise ValueError(message + f"Received: {name}={factor}")
    for v in checked:  # zoom factors must stay above -1; shifts may reach it
        if v > 1.0 or v < -1.0 or (v == -1.0 and message is _ZOOM_MESSAGE):
            raise ValueError(message + f"Received: input_number={v}")
    return tuple(sorted(values))


class Resizing(_ImageLayer):
    """Resize images to ``(height, width)`` (``tf.keras.layers.Resizing``).

    Args:
        height, width: the output size.
        interpolation: 'bilinear' (default) or 'nearest', as ``tf.image.resize``.
        crop_to_aspect_ratio: first take the largest centred crop with the target's
            aspect ratio, so the image is not distorted.
        pad_to_aspect_ratio, fill_mode, fill_value, antialias: accepted for Keras's
            signature; tapeflow supports only their defaults.

    Raises:
        ValueError: for an interpolation other than 'bilinear'/'nearest', or a default
            argument tapeflow does not support.

    >>> import tapeflow as tf
    >>> tf.keras.layers.Resizing(4, 6)(tf.ones((2, 8, 8, 3))).shape
    TensorShape([2, 4, 6, 3])
    """

    _cast_kinds = "f"  # integer images come back in their own dtype, as in Keras

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if interpolation not in _image.INTERPOLATIONS:
            raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                             f"{_image.INTERPOLATIONS}. Received: interpolation="
                             f"{interpolation}")
        if pad_to_aspect_ratio or antialias:
            raise ValueError("tapeflow's Resizing supports pad_to_aspect_ratio=False and "
                             "antialias=False only")
        self.height, self.width = int(height), int(width)
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self.pad_to_aspect_ratio = pad_to_aspect_ratio
        self.fill_mode, self.fill_value, self.antialias = fill_mode, fill_value, antialias

    def _transform(self, images, training):
        if self.crop_to_aspect_ratio:
            images = _image.crop_to_aspect_ratio(images, self.height, self.width)
        return _image.resize(images, self.height, self.width, self.interpolation)

    def compute_output_shape(self, input_shape):
        return (*input_shape[:-3], self.height, self.width, input_shape[-1])

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width,
                    interpolation=self.interpolation,
                    crop_to_aspect_ratio=self.crop_to_aspect_ratio,
                    pad_to_aspect_ratio=self.pad_to_aspect_ratio, fill_mode=self.fill_mode,
                    fill_value=self.fill_value, antialias=self.antialias)


class CenterCrop(_ImageLayer):
    """The central ``(height, width)`` window of each image (``tf.keras.layers.CenterCrop``);
    an image smaller than that is first cropped to the target aspect ratio and resized up,
    as in Keras.

    Args:
        height, width: the output size.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
    >>> tf.keras.layers.CenterCrop(2, 2)(x)[0, :, :, 0].numpy().tolist()
    [[5.0, 6.0], [9.0, 10.0]]
    """

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = int(height), int(width)

    def _transform(self, images, training):
        h, w = images.shape[1], images.shape[2]
        if h < self.height or w < self.width:
            cropped = _image.crop_to_aspect_ratio(images, self.height, self.width)
            return _image.resize(cropped, self.height, self.width, "bilinear")
        top, left = int((h - self.height) / 2), int((w - self.width) / 2)
        return images[:, top:top + self.height, left:left + self.width, :]

    def compute_output_shape(self, input_shape):
        return (*input_shape[:-3], self.height, self.width, input_shape[-1])

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width)


class RandomFlip(_ImageLayer):
    """Flip each image with probability 1/2 (``tf.keras.layers.RandomFlip``).

    Args:
        mode: 'horizontal', 'vertical' or 'horizontal_and_vertical' (one draw per image
            decides both flips, as in Keras).
        seed: an op seed for ``tf.random.uniform``.

    Raises:
        ValueError: for another mode.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(4.0), (1, 1, 4, 1))
    >>> y = tf.keras.layers.RandomFlip("horizontal")(x, training=True)[0, 0, :, 0]
    >>> y.numpy().tolist() in ([0.0, 1.0, 2.0, 3.0], [3.0, 2.0, 1.0, 0.0])
    True
    """

    _MODES = ("horizontal", "vertical", "horizontal_and_vertical")

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if mode not in self._MODES:
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode "
                             f"argument {mode}")
        self.mode, self.seed = mode, seed

    def _transform(self, images, training):
        if not training:
            return images
        flips = _m.less_equal(_r.uniform((_batch(images), 1, 1, 1), seed=self.seed), 0.5)
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            images = _a.where(flips, _mn.reverse(images, [2]), images)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            images = _a.where(flips, _mn.reverse(images, [1]), images)
        return images

    def get_config(self):
        return dict(super().get_config(), seed=self.seed, mode=self.mode)


def _batch(images):
    """The batch size of ``images`` as a tensor: ``None`` in a relaxed trace (a compiled
    ``fit`` step, a ``Dataset.map``), where ``images.shape[0]`` has no value."""
    return _a.shape(images)[0]


class _AffineLayer(_ImageLayer):
    def __init__(self, fill_mode, interpolation, seed, fill_value, data_format, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        _check_interpolation(self, fill_mode, interpolation)
        self.fill_mode, self.interpolation = fill_mode, interpolation
        self.seed, self.fill_value = seed, fill_value

    def _transform(self, images, training):
        if not training:
            return images
        matrix = self._matrix(_batch(images), images.shape[1], images.shape[2])
        return _image.affine_transform(images, matrix, self.interpolation, self.fill_mode,
                                       self.fill_value)


class RandomRotation(_AffineLayer):
    """Rotate each image by a random angle about its centre
    (``tf.keras.layers.RandomRotation``).

    Args:
        factor: a fraction of a full turn: ``f`` draws the angle from
            ``[-f * 360, f * 360]`` degrees, ``(lo, hi)`` from ``[lo * 360, hi * 360]``.
        fill_mode: how points outside the image are filled: 'reflect' (default), 'wrap',
            'constant' (``fill_value``) or 'nearest'.
        interpolation: 'bilinear' (default) or 'nearest'.
        seed: an op seed for ``tf.random.uniform``.
        fill_value: the value for ``fill_mode='constant'``.

    Raises:
        ValueError: for a factor outside ``[-1, 1]``.
        NotImplementedError: for an unknown fill mode or interpolation (Keras's class).

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> quarter = tf.keras.layers.RandomRotation((0.25, 0.25))  # exactly 90 degrees
    >>> [[round(v) for v in row] for row in quarter(x)[0, :, :, 0].numpy().tolist()]
    [[2, 5, 8], [1, 4, 7], [0, 3, 6]]
    """

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = _factor_range(factor, (-1, 1))

    def _matrix(self, n, h, w):
        angle = _m.multiply(_r.uniform((n,), self.factor[0] * 360.0, self.factor[1] * 360.0,
                                       seed=self.seed), math.pi / 180.0)
        cx, cy = 0.5 * (w - 1), 0.5 * (h - 1)
        cos, sin = _m.cos(angle), _m.sin(angle)
        a2 = _m.subtract(_m.subtract(cx, _m.multiply(cos, cx)), _m.multiply(_m.negative(sin),
                                                                             cy))
        b2 = _m.subtract(_m.subtract(cy, _m.multiply(sin, cx)), _m.multiply(cos, cy))
        zero = _a.zeros_like(angle)
        return _a.stack([cos, _m.negative(sin), a2, sin, cos, b2, zero, zero], axis=1)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, fill_mode=self.fill_mode,
                    fill_value=self.fill_value, interpolation=self.interpolation,
                    seed=self.seed)


class RandomZoom(_AffineLayer):
    """Zoom each image in or out by a random factor (``tf.keras.layers.RandomZoom``).

    Args:
        height_factor: ``f`` draws the vertical zoom from ``[1 - f, 1 + f]``; ``(lo, hi)``
            from ``[1 + lo, 1 + hi]``. Positive values zoom out, negative values zoom in.
        width_factor: the same for the width; None keeps the aspect ratio (one draw).
        fill_mode, interpolation, seed, fill_value: as for ``RandomRotation``.

    Raises:
        ValueError: for a factor outside ``(-1, 1]``.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> out = tf.keras.layers.RandomZoom((-0.5, -0.5), fill_mode="constant")(x)
    >>> out[0, :, :, 0].numpy().tolist()[1]  # zoomed in 2x about the centre
    [3.5, 4.0, 4.5]
    """

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _zoom_range(height_factor, "height_factor")
        self._width = None if width_factor is None else _zoom_range(width_factor,
                                                                    "width_factor")

    def _matrix(self, n, h, w):
        zy = _r.uniform((n, 1), 1.0 + self._height[0], 1.0 + self._height[1], seed=self.seed)
        zx = zy if self._width is None else _r.uniform(
            (n, 1), 1.0 + self._width[0], 1.0 + self._width[1], seed=self.seed)
        zero = _a.zeros_like(zx)
        x_offset = _m.multiply(_m.subtract(1.0, zx), (w - 1.0) / 2.0)
        y_offset = _m.multiply(_m.subtract(1.0, zy), (h - 1.0) / 2.0)
        return _a.concat([zx, zero, x_offset, zero, zy, y_offset, zero, zero], axis=1)

    def get_config(self):
        return dict(super().get_config(), height_factor=self.height_factor,
                    width_factor=self.width_factor, fill_mode=self.fill_mode,
                    interpolation=self.interpolation, seed=self.seed,
                    fill_value=self.fill_value)


class RandomTranslation(_AffineLayer):
    """Shift each image by a random fraction of its size
    (``tf.keras.layers.RandomTranslation``).

    Args:
        height_factor: ``f`` draws the vertical shift from ``[-f, f]`` times the height;
            ``(lo, hi)`` from ``[lo, hi]`` times the height (positive moves down).
        width_factor: the same for the horizontal shift (positive moves right).
        fill_mode, interpolation, seed, fill_value: as for ``RandomRotation``.

    Raises:
        ValueError: for a factor outside ``[-1, 1]``.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(1.0, 5.0), (1, 1, 4, 1))
    >>> shift = tf.keras.layers.RandomTranslation(0.0, (0.25, 0.25), fill_mode="constant")
    >>> shift(x)[0, 0, :, 0].numpy().tolist()  # one column to the right
    [0.0, 1.0, 2.0, 3.0]
    """

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _zoom_range(height_factor, "height_factor", _SHIFT_MESSAGE)
        self._width = _zoom_range(width_factor, "width_factor", _SHIFT_MESSAGE)

    def _matrix(self, n, h, w):
        dy = _m.multiply(_r.uniform((n, 1), self._height[0], self._height[1], seed=self.seed),
                         float(h))
        dx = _m.multiply(_r.uniform((n, 1), self._width[0], self._width[1], seed=self.seed),
                         float(w))
        zero, one = _a.zeros_like(dx), _a.ones_like(dx)
        return _a.concat([one, zero, _m.negative(dx), zero, one, _m.negative(dy), zero, zero],
                         axis=1)

    def get_config(self):
        return dict(super().get_config(), height_factor=self.height_factor,
                    width_factor=self.width_factor, fill_mode=self.fill_mode,
                    interpolation=self.interpolation, seed=self.seed,
                    fill_value=self.fill_value)


class RandomContrast(_ImageLayer):
    """Scale each image's deviation from its mean by a random factor, then clip to
    ``value_range`` (``tf.keras.layers.RandomContrast``).

    Args:
        factor: ``f`` in ``[0, 1]`` draws the contrast factor from ``[1 - f, 1 + f]``;
            ``(lo, hi)`` from ``[1 - lo, 1 + hi]``.
        value_range: the range outputs are clipped to (default ``(0, 255)``).
        seed: an op seed for ``tf.random.uniform``.

    Raises:
        ValueError: for a factor outside ``[0, 1]``.

    >>> import tapeflow as tf
    >>> x = tf.constant([[[[10.0], [30.0]]]])
    >>> y = tf.keras.layers.RandomContrast(0.5)(x, training=True)[0, 0, :, 0].numpy()
    >>> bool(abs(y.mean() - 20.0) < 1e-4 and 5.0 <= y[1] - 20.0 <= 15.0)
    True
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor = _factor_range(factor, (0, 1))
        self.value_range, self.seed = value_range, seed

    def _transform(self, images, training):
        if not training:
            return images
        f = _r.uniform((_batch(images), 1, 1, 1), 1.0 - self.factor[0], 1.0 + self.factor[1],
                       seed=self.seed, dtype=images.dtype)
        mean = _r2.reduce_mean(images, axis=[1, 2], keepdims=True)
        out = _m.add(_m.multiply(_m.subtract(images, mean), f), mean)
        return _m.minimum(_m.maximum(out, float(self.value_range[0])),
                          float(self.value_range[1]))

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)


class RandomCrop(_ImageLayer):
    """Crop a random ``(height, width)`` window (``tf.keras.layers.RandomCrop``): one offset
    per call, shared by the batch, as in Keras 3. With ``training=False`` the images pass
    unchanged; images not larger than the window in both dimensions are centre-cropped to
    its aspect ratio and resized to it.

    Args:
        height, width: the window's size.
        seed: an op seed for ``tf.random.uniform``.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(36.0), (1, 6, 6, 1))
    >>> y = tf.keras.layers.RandomCrop(2, 3)(x, training=True)
    >>> y.shape, float(y[0, 1, 0, 0] - y[0, 0, 0, 0])  # a window: rows 6 apart
    (TensorShape([1, 2, 3, 1]), 6.0)
    """

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(data_format=data_format, name=name, **kwargs)
        self.height, self.width, self.seed = int(height), int(width), seed

    def _transform(self, images, training):
        if not training:
            return images
        h, w = images.shape[1], images.shape[2]
        if h > self.height and w > self.width:
            def window(size, target):
                start = _a.cast(_r.uniform((), 0.0, float(size - target + 1), seed=self.seed),
                                "int32")
                return _m.add(start, _cr.range(target))
            images = _ix.gather(images, window(h, self.height), axis=1)
            return _ix.gather(images, window(w, self.width), axis=2)
        # Keras centres a window of the target's aspect ratio, but slices the target's size
        # from its corner (clipped by the image), then resizes what it got.
        crop_h = max(min(h, int(float(w * self.height) / self.width)), 1)
        crop_w = max(min(w, int(float(h * self.width) / self.height)), 1)
        top, left = int(float(h - crop_h) / 2), int(float(w - crop_w) / 2)
        images = images[:, top:top + self.height, left:left + self.width, :]
        if tuple(images.shape[1:3]) != (self.height, self.width):
            images = _image.resize(images, self.height, self.width, "bilinear")
        return images

    def compute_output_shape(self, input_shape):
        return (*input_shape[:-3], self.height, self.width, input_shape[-1])

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width, seed=self.seed)


class RandomBrightness(_ImageLayer):
    """Add a random brightness offset to each image, then clip to ``value_range``
    (``tf.keras.layers.RandomBrightness``).

    Args:
        factor: ``f`` draws the offset from ``[-f, f]`` times the width of
            ``value_range``; ``(lo, hi)`` from ``[lo, hi]`` times it (within ``[-1, 1]``).
        value_range: the images' range (default ``(0, 255)``).
        seed: an op seed for ``tf.random.uniform``.

    Raises:
        ValueError: for a factor outside ``[-1, 1]``.

    >>> import tapeflow as tf
    >>> y = tf.keras.layers.RandomBrightness(0.1)(tf.fill((1, 2, 2, 1), 100.0), training=True)
    >>> bool(tf.reduce_all(y == y[0, 0, 0, 0]) and 74.5 <= float(y[0, 0, 0, 0]) <= 125.5)
    True
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor = _factor_range(factor, (-1, 1))
        if len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. "
                             f"Received: value_range={value_range}")
        self.value_range, self.seed = list(value_range), seed

    def _transform(self, images, training):
        if not training:
            return images
        low, high = sorted(self.value_range)
        delta = _r.uniform((_batch(images), 1, 1, 1), self.factor[0], self.factor[1],
                           seed=self.seed, dtype=images.dtype)
        out = _m.add(images, _m.multiply(delta, float(high - low)))
        return _m.minimum(_m.maximum(out, float(low)), float(high))

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)

