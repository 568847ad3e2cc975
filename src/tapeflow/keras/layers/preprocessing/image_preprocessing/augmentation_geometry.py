"""Keras 3's resampling augmentation layers (``tf.keras.layers``): RandomShear,
RandomPerspective, RandomElasticTransform. Each draws from its own
``keras.random.SeedGenerator(seed)`` as Keras does and resamples through ``keras.ops.image``
(``affine_transform``, ``perspective_transform``, ``map_coordinates``); segmentation masks
are resampled with nearest-neighbour interpolation; RandomShear and RandomPerspective move
bounding boxes as Keras does (RandomElasticTransform, as Keras, does not)."""
import tapeflow as tf

from .... import ops as K
from .... import random as _kr
from .. import _image
from .augmentation_base import AugmentationLayer, batch_size, draw_shape, factor_pair
from .bounding_boxes import clip_to_image_size, convert_format

__all__ = ["RandomShear", "RandomPerspective", "RandomElasticTransform"]

_INTERPOLATIONS = ("nearest", "bilinear")
_FILL_MODES = ("reflect", "wrap", "constant", "nearest")


def _check_interpolation(interpolation):
    if interpolation not in _INTERPOLATIONS:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                  f"{_INTERPOLATIONS}.")


def _check_fill_mode(fill_mode):
    if fill_mode not in _FILL_MODES:
        raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                  f"{_FILL_MODES}.")


def resample(images, matrix, interpolation, fill_mode, fill_value, data_format):
    """``keras.ops.image.affine_transform`` of a batch for the layers: the same sampling
    (TensorFlow's ``ImageProjectiveTransformV3``), also for a batch of unknown size (a
    relaxed trace, a ``Dataset.map`` of batches)."""
    last = data_format == "channels_last"
    x = images if last else tf.transpose(images, [0, 2, 3, 1])
    out = _image.affine_transform(x, matrix, interpolation, fill_mode, fill_value)
    return out if last else tf.transpose(out, [0, 3, 1, 2])


class _Resampling(AugmentationLayer):
    """Keras's base behaviour for layers that resample: images in the compute dtype through
    ``_transform_images`` with the layer's interpolation, masks with 'nearest'."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def _axes(self):
        last = self.data_format == "channels_last"
        self.height_axis, self.width_axis = (-3, -2) if last else (-2, -1)
        self.channel_axis = -1 if last else -3

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if training:
            images = self._transform_images(images, transformation, self.interpolation)
        return images

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if training:
            segmentation_masks = self._transform_images(segmentation_masks, transformation,
                                                        "nearest")
        return segmentation_masks

    _BOXES_UNCHANGED = False



_SHEAR_FACTOR = ("The `factor` argument should be a number (or a list of two numbers) in the "
                 "range [0, 1.0]. ")


class RandomShear(_Resampling):
    """Shear each image by random amounts along x and y (``tf.keras.layers.RandomShear``):
    per image ``sx`` from ``x_factor``'s range and ``sy`` from ``y_factor``'s, both with one
    random sign, each output point (x, y) read from ``(x + sx y, sy x + y)``.

    Args:
        x_factor, y_factor: a number ``f`` in [0, 1] (the range ``[-f, f]``) or a pair
            within [0, 1] (default 0).
        interpolation: 'bilinear' (default) or 'nearest'.
        fill_mode: 'reflect' (default), 'wrap', 'constant' or 'nearest'.
        fill_value: the value for 'constant'.
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for factors outside [0, 1].
        NotImplementedError: for an unknown fill mode or interpolation.
    """

    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear",
                 fill_mode="reflect", fill_value=0.0, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.x_factor = self._shear_factor(x_factor, "x_factor")
        self.y_factor = self._shear_factor(y_factor, "y_factor")
        _check_fill_mode(fill_mode)
        _check_interpolation(interpolation)
        self.fill_mode, self.fill_value, self.interpolation = fill_mode, fill_value, interpolation
        self._set_seed(seed)

    @staticmethod
    def _shear_factor(factor, name):
        def check(v):
            if v > 1.0 or v < 0.0:
                raise ValueError(_SHEAR_FACTOR + f"Received: input_number={v}")

        if isinstance(factor, (tuple, list)):
            if len(factor) != 2:
                raise ValueError(_SHEAR_FACTOR + f"Received: {name}={factor}")
            check(factor[0])
            check(factor[1])
            return tuple(sorted(factor))
        if isinstance(factor, (int, float)):
            check(factor)
            return (-abs(factor), abs(factor))
        raise ValueError(_SHEAR_FACTOR + f"Received: {name}={factor}")

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        n = batch_size(images)
        seed = self._seed(seed)
        dtype = self.compute_dtype
        invert = _kr.uniform(draw_shape(n, 1), 0, 1, seed=seed, dtype=dtype)
        invert = tf.where(invert > 0.5, -tf.ones_like(invert), tf.ones_like(invert))
        sy = _kr.uniform(draw_shape(n, 1), self.y_factor[0], self.y_factor[1], seed=seed,
                         dtype=dtype)
        sx = _kr.uniform(draw_shape(n, 1), self.x_factor[0], self.x_factor[1], seed=seed,
                         dtype=dtype)
        return {"shear_factor": tf.concat([sx, sy], axis=1) * invert,
                "input_shape": tuple(images.shape)}

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        shear = transformation["shear_factor"]
        one = tf.ones_like(shear[:, 0])
        zero = tf.zeros_like(one)
        matrix = tf.stack([one, shear[:, 0], zero, shear[:, 1], one, zero, zero, zero], axis=1)
        return K.image.affine_transform(images, matrix, interpolation=interpolation,
                                        fill_mode=self.fill_mode, fill_value=self.fill_value,
                                        data_format=self.data_format)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        h, w = self._size(transformation)
        fmt, dtype = self.bounding_box_format, self.compute_dtype
        boxes = convert_format(bounding_boxes, fmt, "rel_xyxy", h, w, dtype)
        shear = tf.cast(transformation["shear_factor"], dtype)
        sx, sy = shear[:, :1], shear[:, 1:]
        x1, y1, x2, y2 = (tf.squeeze(v, -1) for v in tf.split(boxes["boxes"], 4, axis=-1))
        x1, x2 = (tf.where(sx < 0, x1 - sx * y1, x1 - sx * y2),
                  tf.where(sx < 0, x2 - sx * y2, x2 - sx * y1))
        y1, y2 = (tf.where(sy > 0, y1 - sy * x2, y1 - sy * x1),
                  tf.where(sy > 0, y2 - sy * x1, y2 - sy * x2))
        boxes["boxes"] = tf.stack([x1, y1, x2, y2], axis=-1)
        boxes = clip_to_image_size(boxes, h, w, "rel_xyxy")
        return convert_format(boxes, "rel_xyxy", fmt, h, w, dtype)

    def get_config(self):
        return dict(super().get_config(), x_factor=self.x_factor, y_factor=self.y_factor,
                    fill_mode=self.fill_mode, interpolation=self.interpolation,
                    seed=self.seed, fill_value=self.fill_value)


class RandomPerspective(_Resampling):
    """Warp some images by a random perspective (``tf.keras.layers.RandomPerspective``):
    each corner moves by up to ``scale / 2`` of its coordinates (one draw per corner and
    axis), and each image is warped with a probability drawn from ``factor``'s range;
    outside points take ``fill_value``.

    Args:
        factor: the probability's range within [0, 1] (default 1.0: ``[0, 1]``).
        scale: the distortion in [0, 1] (default 1.0).
        interpolation: 'bilinear' (default) or 'nearest'.
        fill_value: the value outside the source image (default 0).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for a factor or scale outside [0, 1].
        NotImplementedError: for an unknown interpolation.
    """

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0,
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale, self.fill_value, self.interpolation = scale, fill_value, interpolation
        self._set_seed(seed)
        if scale < 0.0 or scale > 1.0:
            raise ValueError("The `scale` argument should be a number in the range [0,1]. "
                             f"Received: scale={scale}")
        _check_interpolation(interpolation)
        self._axes()

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        n = batch_size(images)
        h, w = images.shape[self.height_axis], images.shape[self.width_axis]
        seed = self._seed(seed)
        probability = _kr.uniform(draw_shape(n), self.factor[0], self.factor[1], seed=seed)
        threshold = _kr.uniform(draw_shape(n), 0.0, 1.0, seed=seed)
        shift = _kr.uniform(draw_shape(n, 4, 2), -0.5 * self.scale, 0.5 * self.scale,
                            seed=seed, dtype=self.compute_dtype)
        start = tf.constant([[[0.0, 0.0], [w - 1, 0.0], [0.0, h - 1], [w - 1, h - 1]]],
                            self.compute_dtype)
        start = tf.repeat(start, n, axis=0)
        return {"apply_perspective": threshold < probability, "start_points": start,
                "end_points": start + start * shift, "input_shape": tuple(images.shape)}

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        out = K.image.perspective_transform(images, transformation["start_points"],
                                            transformation["end_points"],
                                            interpolation=interpolation,
                                            fill_value=self.fill_value,
                                            data_format=self.data_format)
        chosen = tf.reshape(transformation["apply_perspective"], [-1, 1, 1, 1])
        return tf.where(chosen, out, images)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training or transformation is None:
            return bounding_boxes
        h, w = self._size(transformation)
        boxes = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", h, w)
        x0, y0, x1, y1 = tf.split(boxes["boxes"], 4, axis=-1)
        matrix = K.image._homography(tf.cast(transformation["start_points"], tf.float32),
                                     tf.cast(transformation["end_points"], tf.float32))
        matrix = tf.concat([matrix, tf.ones_like(matrix[:, :1])], -1)
        inverse = tf.linalg.inv(tf.reshape(tf.cast(matrix, self.compute_dtype), [-1, 3, 3]))
        xs, ys = [], []
        for x, y in ((x0, y0), (x1, y1), (x0, y1), (x1, y0)):
            p = tf.matmul(inverse, tf.transpose(tf.concat([x, y, tf.ones_like(x)], -1),
                                                [0, 2, 1]))
            p = tf.transpose(p, [0, 2, 1])
            xs.append(p[..., 0] / p[..., 2])
            ys.append(p[..., 1] / p[..., 2])
        xs, ys = tf.stack(xs, -1), tf.stack(ys, -1)
        moved = tf.stack([tf.reduce_min(xs, -1), tf.reduce_min(ys, -1), tf.reduce_max(xs, -1),
                          tf.reduce_max(ys, -1)], -1)
        chosen = tf.reshape(transformation["apply_perspective"], [-1, 1, 1])
        boxes["boxes"] = tf.where(chosen, moved, boxes["boxes"])
        return clip_to_image_size(boxes, h, w, "xyxy")

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, scale=self.scale,
                    interpolation=self.interpolation, seed=self.seed,
                    fill_value=self.fill_value)


_ELASTIC_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


class RandomElasticTransform(_Resampling):
    """Displace some images' pixels by a smooth random field
    (``tf.keras.layers.RandomElasticTransform``): per call a distortion ``d`` drawn from
    ``scale``'s range gives ``alpha = 0.1 d max(h, w)`` and ``sigma = 0.05 d min(h, w)``;
    the field is Gaussian noise (one draw for x and y, as Keras) times ``sigma``, blurred by
    a Gaussian of ``sigma`` (kernel ``6 int(sigma) + 1``), times ``alpha``; each image is
    transformed with a probability drawn from ``factor``'s range; clipped to
    ``value_range``.

    Args:
        factor: the probability's range within [0, 1] (default 1.0).
        scale: the distortion's range within [0, 1] (default 1.0).
        interpolation: 'bilinear' (default) or 'nearest'.
        fill_mode: 'reflect' (default), 'constant', 'nearest', 'wrap' or 'mirror'.
        fill_value: the value for 'constant'.
        value_range: the clipping range (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for factors outside [0, 1].
        NotImplementedError: for an unknown fill mode or interpolation.
    """

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        raise NotImplementedError("RandomElasticTransform does not transform bounding boxes "
                                  "(as in Keras)")

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_mode="reflect",
                 fill_value=0.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = factor_pair(scale, self._FACTOR_BOUNDS, "scale")
        self.interpolation, self.fill_mode = interpolation, fill_mode
        self.fill_value, self.value_range = fill_value, value_range
        self._set_seed(seed)
        _check_interpolation(interpolation)
        if fill_mode not in _ELASTIC_FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                      f"{set(_ELASTIC_FILL_MODES)}.")
        self._axes()

    def get_random_transformation(self, data, training=True, seed=None):
        if not training or self.scale[1] == 0 or self.factor[1] == 0:
            return None
        images = self._images(data)
        n = batch_size(images)
        seed = self._seed(seed)
        probability = _kr.uniform(draw_shape(n), self.factor[0], self.factor[1], seed=seed)
        threshold = _kr.uniform(draw_shape(n), 0.0, 1.0, seed=seed)
        distortion = _kr.uniform((), self.scale[0], self.scale[1], seed=seed,
                                 dtype=self.compute_dtype)
        return {"apply_transform": threshold < probability, "distortion_factor": distortion,
                "seed": seed}

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        if self.fill_mode not in _FILL_MODES:   # the layer takes 'mirror', the op does not
            raise ValueError("Invalid value for argument `fill_mode`. Expected of one "
                             "('constant', 'nearest', 'wrap', 'reflect'). Received: "
                             f"fill_mode={self.fill_mode}")
        x = images if self.data_format == "channels_last" else tf.transpose(images,
                                                                             [0, 2, 3, 1])
        n, h, w, c = x.shape
        d = transformation["distortion_factor"]
        alpha = tf.cast(max(h, w) * (0.1 * d), x.dtype)
        sigma = tf.cast(min(h, w) * (0.05 * d), x.dtype)
        noise = tf.random.stateless_normal(
            [n if n is not None else 1, h, w], seed=_kr.draw_seed(transformation["seed"]),
            dtype=x.dtype) * sigma
        # the blur kernel 6 int(sigma) + 1 wide, embedded in the widest the scale allows
        # (zero weights outside it: the same 'SAME' convolution)
        widest = (6 * int(min(h, w) * 0.05 * self.scale[1])) | 1
        half = tf.cast(3 * tf.cast(sigma, tf.int32), x.dtype)   # (k - 1) / 2
        offsets = tf.range(widest, dtype=x.dtype) - (widest - 1) / 2
        inside = tf.cast(tf.abs(offsets) <= half, x.dtype)
        g = tf.exp(-0.5 * (offsets / sigma) ** 2) * inside
        g = g / tf.reduce_sum(g)
        kernel = tf.reshape(tf.tensordot(g, g, axes=0), [widest, widest, 1, 1])
        field = tf.squeeze(tf.nn.depthwise_conv2d(noise[..., None], kernel, [1, 1, 1, 1],
                                                  "SAME"), -1)
        gx, gy = tf.meshgrid(tf.range(w, dtype=x.dtype), tf.range(h, dtype=x.dtype),
                             indexing="xy")
        ys, xs = gy[None] + alpha * field, gx[None] + alpha * field
        order = _INTERPOLATIONS.index(interpolation)
        out = tf.stack([tf.stack([K.image.map_coordinates(x[i, :, :, ch], [ys[i], xs[i]],
                                                          order, self.fill_mode,
                                                          self.fill_value)
                                  for i in range(x.shape[0])]) for ch in range(c)], axis=-1)
        out = tf.cast(out, x.dtype)
        if self.data_format != "channels_last":
            out = tf.transpose(out, [0, 3, 1, 2])
        chosen = tf.reshape(transformation["apply_transform"], [-1, 1, 1, 1])
        out = tf.where(chosen, out, images)
        out = tf.clip_by_value(out, float(self.value_range[0]), float(self.value_range[1]))
        return tf.cast(out, self.compute_dtype)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, scale=self.scale,
                    interpolation=self.interpolation, fill_mode=self.fill_mode,
                    fill_value=self.fill_value, value_range=self.value_range, seed=self.seed)
