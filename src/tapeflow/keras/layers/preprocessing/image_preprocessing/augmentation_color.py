"""Keras 3's colour and filter augmentation layers (``tf.keras.layers``): Equalization,
RandomPosterization, RandomColorDegeneration, RandomSharpness, RandomSaturation, RandomHue,
RandomGaussianBlur, RandomErasing, ContrastLimitedAdaptiveHistogramEqualization.

Each draws from its own ``keras.random.SeedGenerator(seed)`` as Keras does, so under the same
``seed`` (or ``keras.utils.set_random_seed``) the images are Keras-on-TensorFlow's.
"""
import tapeflow as tf

from .... import ops as K
from .... import random as _kr
from ....backend import epsilon
from .augmentation_base import (
    AugmentationLayer,
    batch_size,
    draw_shape,
    factor_pair,
    sorted_value_range,
    transform_value_range,
)

__all__ = ["Equalization", "RandomPosterization", "RandomColorDegeneration",
           "RandomSharpness", "RandomSaturation", "RandomHue", "RandomGaussianBlur",
           "RandomErasing", "ContrastLimitedAdaptiveHistogramEqualization"]


def _last(images, data_format):
    """Channels-first images as channels-last (and back: the same swap)."""
    return images if data_format == "channels_last" else tf.transpose(images, [0, 2, 3, 1])


def _back(images, data_format):
    return images if data_format == "channels_last" else tf.transpose(images, [0, 3, 1, 2])


class Equalization(AugmentationLayer):
    """Histogram equalization of each channel (``tf.keras.layers.Equalization``): the
    channel's histogram over the whole batch (``bins`` bins on the 0..255 scale of
    ``value_range``) maps each value through its rounded cumulative distribution; a channel
    with one occupied bin is kept. Only when ``training``.

    Args:
        value_range: the images' range (default ``(0, 255)``), kept sorted.
        bins: the histogram's number of bins (default 256).
        data_format: 'channels_last' (default) or 'channels_first'.

    Input: (h, w, c) or (batch, h, w, c) images; output of the same shape in the layer's
    compute dtype.

    Raises:
        ValueError: for a value_range that is not a pair.
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.bins = bins
        self.value_range = sorted_value_range(value_range)

    def _equalize(self, channel):
        bins = self.bins
        lo, hi = self.value_range
        # Keras scales from a sorted list, never equal to the tuple (0, 255): always scaled
        scale = 255.0 / (hi - lo)
        channel = channel * scale + (0 - lo * scale)
        scaled = (tf.cast(channel, tf.float32) - 0.0) * (bins - 1) / 255.0
        index = tf.clip_by_value(tf.cast(scaled, tf.int32), 0, bins - 1)
        hist = tf.math.bincount(tf.reshape(index, [-1]), minlength=bins)
        cdf = tf.cumsum(hist)
        first = tf.gather(cdf, tf.reshape(tf.where(cdf != 0), [-1])[0])
        denominator = cdf[-1] - first
        denominator = tf.where(denominator == 0, tf.ones_like(denominator), denominator)
        table = tf.cast((cdf - first) * 255, tf.float64) / tf.cast(denominator, tf.float64)
        table = tf.clip_by_value(tf.round(table), 0.0, 255.0)
        position = channel / 255.0 * (bins - 1)
        looked_up = tf.gather(table, tf.cast(tf.clip_by_value(position, 0.0, bins - 1),
                                             tf.int32))
        occupied = tf.math.count_nonzero(hist)
        out = tf.where(occupied <= 1, tf.cast(channel, tf.float64), looked_up)
        inverse = (hi - lo) / 255.0
        return out * inverse + (lo - 0 * inverse)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = _last(tf.cast(images, self.compute_dtype), self.data_format)
        out = tf.stack([self._equalize(images[..., i]) for i in range(images.shape[-1])],
                       axis=-1)
        return _back(tf.cast(out, self.compute_dtype), self.data_format)

    def get_config(self):
        return dict(super().get_config(), bins=self.bins, value_range=self.value_range)


class RandomPosterization(AugmentationLayer):
    """Keep only the top bits of each 8-bit colour value (``tf.keras.layers.
    RandomPosterization``): per image ``b`` bits, an integer drawn from ``[lo, hi)``
    (``factor=(lo, hi)``; a number ``f`` means ``(1, f)``; equal ends: exactly that many).

    Args:
        factor: the bits kept, within ``[1, 8]``.
        value_range: the images' range (default ``(0, 255)``), mapped to 0..255 and back.
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for a factor outside ``[1, 8]`` or a bad value_range.
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (1, 8)

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = sorted_value_range(value_range)
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self._images(data)
        n = batch_size(images)
        if self.factor[0] != self.factor[1]:
            bits = _kr.randint(draw_shape(n), self.factor[0], self.factor[1], dtype="uint8",
                               seed=self._seed(seed))
        else:
            bits = tf.ones(draw_shape(n), tf.uint8) * self.factor[0]
        return {"shift_factor": 8 - bits}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        shift = tf.reshape(transformation["shift_factor"], [-1, 1, 1, 1])
        x = transform_value_range(images, self.value_range, (0, 255), self.compute_dtype)
        x = tf.cast(x, tf.uint8)
        x = K.bitwise_left_shift(K.bitwise_right_shift(x, shift), shift)
        x = tf.cast(x, self.compute_dtype)
        return transform_value_range(x, (0, 255), self.value_range, self.compute_dtype)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)


class RandomColorDegeneration(AugmentationLayer):
    """Blend each RGB image towards its grayscale by a random amount
    (``tf.keras.layers.RandomColorDegeneration``): ``x + f (gray(x) - x)``, ``f`` drawn per
    image from ``factor``'s range, clipped to ``value_range``.

    Args:
        factor: ``f``'s range, a number ``a`` meaning ``[-a, a]`` (within ``[-1, 1]``).
        value_range: the range outputs are clipped to (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for a factor outside ``[-1, 1]`` or a bad value_range.
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = sorted_value_range(value_range)
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self._images(data)
        n = batch_size(images)
        return {"factor": _kr.uniform(draw_shape(n, 1, 1, 1), self.factor[0], self.factor[1],
                                      seed=self._seed(seed))}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        factor = tf.cast(transformation["factor"], self.compute_dtype)
        gray = K.image.rgb_to_grayscale(images, data_format=self.data_format)
        images = images + factor * (gray - images)
        return tf.clip_by_value(images, float(self.value_range[0]), float(self.value_range[1]))

    def compute_output_shape(self, input_shape):
        if len(input_shape) not in (3, 4):
            raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                             f"(batch of images). Received: input_shape={input_shape}")
        channels = input_shape[-1 if self.data_format == "channels_last" else -3]
        if channels is not None and channels != 3:
            raise ValueError("Input images must have 3 channels, but received images with "
                             f"{channels} channels.")
        return input_shape

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)


class RandomSharpness(AugmentationLayer):
    """Sharpen or soften each image by a random amount (``tf.keras.layers.RandomSharpness``):
    ``x + (1 - 2 f) (smooth(x) - x)``, ``smooth`` the 3x3 kernel ``[1 1 1; 1 5 1; 1 1 1] / 13``
    (zero-padded), ``f`` drawn per image from ``factor``'s range, clipped to ``value_range``.

    Args:
        factor: ``f``'s range within ``[0, 1]`` (a number ``a``: ``[0, a]``).
        value_range: the clipping range (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for a factor outside ``[0, 1]`` or a bad value_range.
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = sorted_value_range(value_range)
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self._images(data)
        n = batch_size(images)
        return {"factor": _kr.uniform(draw_shape(n), self.factor[0], self.factor[1],
                                      seed=self._seed(seed))}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training:
            return images
        images = _last(images, self.data_format)
        amount = tf.reshape(tf.cast(transformation["factor"] * 2, self.compute_dtype),
                            [-1, 1, 1, 1])
        a, b = 1.0 / 13.0, 5.0 / 13.0
        kernel = tf.constant([[a, a, a], [a, b, a], [a, a, a]], self.compute_dtype)
        kernel = tf.tile(tf.reshape(kernel, [3, 3, 1, 1]), [1, 1, images.shape[-1], 1])
        smooth = tf.nn.depthwise_conv2d(images, kernel, [1, 1, 1, 1], "SAME")
        images = images + (1.0 - amount) * (smooth - images)
        images = tf.clip_by_value(images, float(self.value_range[0]), float(self.value_range[1]))
        return _back(images, self.data_format)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)


class RandomSaturation(AugmentationLayer):
    """Scale each image's HSV saturation by a random amount (``tf.keras.layers.
    RandomSaturation``): ``f`` drawn per image from ``factor``'s range, the saturation times
    ``f / (1 - f + 1e-7)`` clipped to ``value_range`` (Keras's bounds), then back to RGB.

    Args:
        factor: ``f``'s range, a number ``a`` meaning ``[-a, a]`` (within ``[-1, 1]``); 0.5
            keeps the saturation, 0 removes it, 1 saturates fully.
        value_range: the range the saturation is clipped to (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator.

    Input: float RGB images.

    Raises:
        ValueError: for a factor outside ``[-1, 1]`` or a bad value_range.
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = sorted_value_range(value_range)
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self._images(data)
        n = batch_size(images)
        f = _kr.uniform(draw_shape(n), self.factor[0], self.factor[1], seed=self._seed(seed))
        return {"factor": f / (1 - f + epsilon())}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        factors = tf.reshape(tf.cast(transformation["factor"], self.compute_dtype),
                             [-1, 1, 1])
        hsv = _last(K.image.rgb_to_hsv(images, data_format=self.data_format),
                    self.data_format)
        s = tf.clip_by_value(hsv[..., 1] * factors, float(self.value_range[0]),
                             float(self.value_range[1]))
        hsv = _back(tf.stack([hsv[..., 0], s, hsv[..., 2]], axis=-1), self.data_format)
        return K.image.hsv_to_rgb(hsv, data_format=self.data_format)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)


class RandomHue(AugmentationLayer):
    """Rotate each image's hue by a random amount (``tf.keras.layers.RandomHue``): ``f``
    drawn per image from ``factor``'s range, half of it added to the hue (with a random
    sign), wrapped into [0, 1]; on the 0..1 scale of ``value_range``, clipped.

    Args:
        factor: ``f``'s range within ``[0, 1]`` (a number ``a``: ``[0, a]``).
        value_range: the images' range (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for a factor outside ``[0, 1]``.
    """

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self._images(data)
        n = batch_size(images)
        seed = self._seed(seed)
        invert = _kr.uniform(draw_shape(n), seed=seed)
        invert = tf.where(invert > 0.5, -tf.ones_like(invert), tf.ones_like(invert))
        f = _kr.uniform(draw_shape(n), self.factor[0], self.factor[1], seed=seed)
        return {"factor": invert * f * 0.5}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        images = transform_value_range(images, self.value_range, (0, 1))
        shift = tf.reshape(tf.cast(transformation["factor"], images.dtype), [-1, 1, 1])
        hsv = _last(K.image.rgb_to_hsv(images, data_format=self.data_format),
                    self.data_format)
        h = hsv[..., 0] + shift
        h = tf.where(h > 1.0, h - 1.0, h)
        h = tf.where(h < 0.0, h + 1.0, h)
        hsv = _back(tf.stack([h, hsv[..., 1], hsv[..., 2]], axis=-1), self.data_format)
        images = tf.clip_by_value(K.image.hsv_to_rgb(hsv, data_format=self.data_format),
                                  0.0, 1.0)
        images = transform_value_range(images, (0, 1), self.value_range)
        return tf.cast(images, self.compute_dtype)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)


def _gaussian_kernel(size, sigma, channels, dtype):
    """Keras's TensorFlow kernel of ``keras.ops.image.gaussian_blur`` for a tensor ``sigma``
    (y, x): the outer product of the two normalised 1-D Gaussians, per channel."""
    def one(n, s):
        x = tf.range(n, dtype=dtype) - (n - 1) / 2
        k = tf.exp(-0.5 * (x / s) ** 2)
        return k / tf.reduce_sum(k)

    k2 = tf.tensordot(one(size[1], sigma[1]), one(size[0], sigma[0]), axes=0)
    return tf.tile(tf.reshape(k2, [size[0], size[1], 1, 1]), [1, 1, channels, 1])


class RandomGaussianBlur(AugmentationLayer):
    """Blur some images with a Gaussian of random width (``tf.keras.layers.
    RandomGaussianBlur``): each image is blurred with a probability drawn from ``factor``'s
    range; one ``(sigma_y, sigma_x)`` pair per call from ``sigma``'s range (plus 1e-6);
    zero-padded; clipped to ``value_range``.

    Args:
        factor: the blur probability's range within ``[0, 1]`` (default 1.0: ``[0, 1]``).
        kernel_size: an odd kernel size, or a pair of them (default 3).
        sigma: the standard deviation's range within ``[0, 1]`` (default 1.0).
        value_range: the clipping range (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for an even kernel size or factors outside ``[0, 1]``.
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255),
                 data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.kernel_size = self._kernel_size(kernel_size, "kernel_size")
        self.sigma = factor_pair(sigma, self._FACTOR_BOUNDS, "sigma")
        self.value_range = value_range
        self._set_seed(seed)

    @staticmethod
    def _kernel_size(size, name):
        message = f"{name} must be an odd number. Received: {name}={size}"
        if isinstance(size, (tuple, list)):
            if len(size) != 2:
                raise ValueError(f"The `{name}` argument should be a number (or a list of two "
                                 f"numbers) Received: {name}={size}")
            if size[0] % 2 == 0 or size[1] % 2 == 0:
                raise ValueError(message)
            return tuple(size)
        if isinstance(size, (int, float)):
            if size % 2 == 0:
                raise ValueError(message)
            return (size, size)
        raise ValueError(message)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        n = batch_size(images)
        seed = self._seed(seed)
        probability = _kr.uniform(draw_shape(n), self.factor[0], self.factor[1], seed=seed)
        threshold = _kr.uniform(draw_shape(n), 0.0, 1.0, seed=seed)
        sigma = _kr.uniform((2,), self.sigma[0], self.sigma[1], seed=seed,
                            dtype=self.compute_dtype) + 1e-6
        return {"should_apply_blur": threshold < probability, "blur_factor": sigma}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        x = _last(images, self.data_format)
        size = [int(k) for k in self.kernel_size]
        kernel = _gaussian_kernel(size, tf.cast(transformation["blur_factor"], x.dtype),
                                  x.shape[-1], x.dtype)
        blurred = _back(tf.nn.depthwise_conv2d(x, kernel, [1, 1, 1, 1], "SAME"),
                        self.data_format)
        chosen = tf.reshape(transformation["should_apply_blur"], [-1, 1, 1, 1])
        images = tf.where(chosen, blurred, images)
        return tf.clip_by_value(images, float(self.value_range[0]), float(self.value_range[1]))

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, kernel_size=self.kernel_size,
                    sigma=self.sigma, value_range=self.value_range, seed=self.seed)


class RandomErasing(AugmentationLayer):
    """Erase a random rectangle of some images (``tf.keras.layers.RandomErasing``): per
    image a box whose sides are ``sqrt(s)`` of the image's (``s`` drawn from ``scale``),
    placed at random, filled with ``fill_value`` (or, by default, Gaussian noise times
    ``value_range[1]``, clipped to ``value_range``); each image erased with a probability
    drawn from ``factor``'s range.

    Args:
        factor: the erasing probability's range within ``[0, 1]`` (default 1.0).
        scale: the erased area fraction's range within ``[0, 1]`` (default (0.02, 0.33)).
        fill_value: None (noise), a number, or three numbers (one per channel).
        value_range: the images' range (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for factors outside ``[0, 1]`` or a malformed fill_value.
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None, value_range=(0, 255),
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = factor_pair(scale, self._FACTOR_BOUNDS, "scale")
        self.fill_value, self.value_range = fill_value, value_range
        self._set_seed(seed)
        last = self.data_format == "channels_last"
        self.height_axis, self.width_axis = (-3, -2) if last else (-2, -1)
        self.channel_axis = -1 if last else -3

    def _bounds(self, n, length, ratio, seed):
        crop = tf.cast(ratio * length, self.compute_dtype)
        start = _kr.uniform(draw_shape(n), 0, 1, dtype=self.compute_dtype, seed=seed) * (
            length - crop)
        return start, start + crop

    def _fill(self, images, shape, seed):
        fill = self.fill_value
        if fill is None:
            fill = _kr.normal(shape, dtype=self.compute_dtype, seed=seed) * self.value_range[1]
        else:
            message = "The `fill_value` argument should be a number (or a list of three numbers) "
            if isinstance(fill, (tuple, list)):
                if len(fill) != 3:
                    raise ValueError(message)
                fill = tf.ones_like(images, self.compute_dtype) * tf.constant(
                    fill, self.compute_dtype)
            elif isinstance(fill, (int, float)):
                fill = tf.ones(shape, self.compute_dtype) * fill
            else:
                raise ValueError(message)
        return tf.clip_by_value(fill, float(self.value_range[0]), float(self.value_range[1]))

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        n = batch_size(images)
        shape = tuple(images.shape)
        if None in shape:
            shape = tf.shape(images)
        h, w = images.shape[self.height_axis], images.shape[self.width_axis]
        seed = self._seed(seed)
        weight = tf.sqrt(_kr.uniform(draw_shape(n, 2), self.scale[0], self.scale[1],
                                     dtype=self.compute_dtype, seed=seed))
        x0, x1 = self._bounds(n, w, weight[:, 0], seed)
        y0, y1 = self._bounds(n, h, weight[:, 1], seed)
        gy, gx = tf.meshgrid(tf.range(h, dtype=self.compute_dtype),
                             tf.range(w, dtype=self.compute_dtype), indexing="ij")
        if self.data_format == "channels_last":
            gy, gx = gy[None, :, :, None], gx[None, :, :, None]
        else:
            gy, gx = gy[None, None], gx[None, None]
        x0, x1, y0, y1 = (tf.reshape(v, [-1, 1, 1, 1]) for v in (x0, x1, y0, y1))
        masks = (gx >= x0) & (gx < x1) & (gy >= y0) & (gy < y1)
        masks = tf.repeat(masks, images.shape[self.channel_axis], axis=self.channel_axis)
        probability = _kr.uniform(draw_shape(n), self.factor[0], self.factor[1], seed=seed)
        threshold = _kr.uniform(draw_shape(n), 0.0, 1.0, seed=seed)
        return {"apply_erasing": threshold < probability, "batch_masks": masks,
                "fill_value": self._fill(images, shape, seed)}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training:
            return images
        fill = transformation["fill_value"]
        if len(fill.shape) == 3:   # drawn for one image: Keras's fill broadcasts
            fill = fill[None]
        erased = tf.where(transformation["batch_masks"], fill, images)
        chosen = tf.reshape(transformation["apply_erasing"], [-1, 1, 1, 1])
        return tf.where(chosen, erased, images)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, scale=self.scale,
                    fill_value=self.fill_value, value_range=self.value_range, seed=self.seed)


class ContrastLimitedAdaptiveHistogramEqualization(AugmentationLayer):
    """CLAHE (``tf.keras.layers.ContrastLimitedAdaptiveHistogramEqualization``): each
    image is cut into a ``tile_grid_size`` grid of tiles (symmetric padding to a whole number
    of tiles), each tile's 256-bin histogram is clipped at ``clip_limit`` times its mean
    count (the excess spread evenly), and each pixel maps through the bilinear blend of the
    four nearest tiles' cumulative distributions. Applied in training and inference alike,
    as Keras; the output keeps the input's dtype.

    Args:
        value_range: the images' range (default ``(0, 255)``).
        clip_limit: the histogram clip (default 4.0; 0 or less: no clipping).
        tile_grid_size: the (rows, columns) of tiles (default (8, 8)).
    """

    _USE_BASE_FACTOR = False
    _BOXES_UNCHANGED = False

    def __init__(self, value_range=(0, 255), clip_limit=4.0, tile_grid_size=(8, 8),
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.clip_limit = value_range, clip_limit
        self.tile_grid_size = tile_grid_size

    def transform_images(self, images, transformation, training=True):
        images = _last(images, self.data_format)
        dtype = images.dtype
        x = transform_value_range(images, self.value_range, (0, 255), "float32")
        x = self._clahe(tf.cast(x, tf.float32))
        x = transform_value_range(x, (0, 255), self.value_range, "float32")
        return _back(tf.cast(x, dtype), self.data_format)

    def _clahe(self, images):
        n, height, width, channels = images.shape
        if n is None:
            n = tf.shape(images)[0]
        gh, gw = self.tile_grid_size
        th, tw = (height + gh - 1) // gh, (width + gw - 1) // gw
        ph, pw = th * gh - height, tw * gw - width
        padded = images
        if ph or pw:
            padded = tf.pad(images, [[0, 0], [0, ph], [0, pw], [0, 0]], mode="SYMMETRIC")
        tiles = tf.reshape(padded, tf.stack([n, gh, th, gw, tw, channels]))
        tiles = tf.transpose(tiles, [0, 1, 3, 5, 2, 4])
        tiles = tf.reshape(tiles, tf.stack([n, gh, gw, channels, th * tw]))
        values = tf.clip_by_value(tf.cast(tiles, tf.int32), 0, 255)
        hists = tf.reduce_sum(tf.one_hot(values, 256), axis=-2)
        if self.clip_limit > 0:
            limit = tf.cast(self.clip_limit * (th * tw) / 256.0, hists.dtype)
            clipped = tf.clip_by_value(hists, 0.0, limit)
            hists = clipped + tf.reduce_sum(hists - clipped, axis=-1, keepdims=True) / 256.0
        cdf = tf.cumsum(hists, axis=-1)
        cdf_min = tf.reduce_min(cdf, axis=-1, keepdims=True)
        denominator = tf.cast(th * tw, cdf.dtype) - cdf_min
        denominator = tf.where(denominator == 0, tf.ones_like(denominator), denominator)
        cdf = tf.clip_by_value((cdf - cdf_min) * 255.0 / denominator, 0.0, 255.0)
        cdf = tf.concat([cdf[:, :1], cdf, cdf[:, -1:]], axis=1)
        cdf = tf.concat([cdf[:, :, :1], cdf, cdf[:, :, -1:]], axis=2)
        gy = (tf.range(th * gh, dtype=tf.float32) - th / 2.0) / th + 1.0
        gx = (tf.range(tw * gw, dtype=tf.float32) - tw / 2.0) / tw + 1.0
        y0, x0 = tf.floor(gy), tf.floor(gx)
        wy, wx = gy - y0, gx - x0
        y1 = tf.cast(tf.clip_by_value(y0 + 1.0, 0.0, gh + 1.0), tf.int32)
        x1 = tf.cast(tf.clip_by_value(x0 + 1.0, 0.0, gw + 1.0), tf.int32)
        y0 = tf.cast(tf.clip_by_value(y0, 0.0, gh + 1.0), tf.int32)
        x0 = tf.cast(tf.clip_by_value(x0, 0.0, gw + 1.0), tf.int32)
        sx = 256 * channels
        sy = sx * (gw + 2)
        sb = sy * (gh + 2)
        flat = tf.reshape(cdf, [-1])
        pixels = tf.cast(tf.clip_by_value(padded, 0.0, 255.0), tf.int32)
        base = (tf.range(n, dtype=tf.int32)[:, None, None, None] * sb
                + tf.range(channels, dtype=tf.int32)[None, None, None, :] * 256 + pixels)
        y0, y1 = y0[None, :, None, None] * sy, y1[None, :, None, None] * sy
        x0, x1 = x0[None, None, :, None] * sx, x1[None, None, :, None] * sx
        wy, wx = wy[None, :, None, None], wx[None, None, :, None]
        nw, ne = tf.gather(flat, base + y0 + x0), tf.gather(flat, base + y0 + x1)
        sw, se = tf.gather(flat, base + y1 + x0), tf.gather(flat, base + y1 + x1)
        top = nw * (1.0 - wx) + ne * wx
        bottom = sw * (1.0 - wx) + se * wx
        return (top * (1.0 - wy) + bottom * wy)[:, :height, :width, :]

    def get_config(self):
        return dict(super().get_config(), value_range=self.value_range,
                    clip_limit=self.clip_limit, tile_grid_size=self.tile_grid_size)
