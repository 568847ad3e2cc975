"""Keras 3's augmentation pipelines (``tf.keras.layers``): RandomColorJitter, AugMix and
RandAugment. Each owns Keras's sub-layers and draws their transformations from its own
``keras.random.SeedGenerator`` (AugMix picks its operations with Python's ``random``, as
Keras), so under the same seeds the images are Keras-on-TensorFlow's.

The brightness, contrast, rotation, translation, solarization and auto-contrast steps are
written here in Keras's transformation form (``get_random_transformation`` and
``transform_images``): tapeflow's public RandomBrightness, RandomContrast, RandomRotation,
RandomTranslation, Solarization and AutoContrast draw from TensorFlow's stateful random ops
instead.
"""
import random as _py_random

import tapeflow as tf

from .... import random as _kr
from .augmentation_base import (
    AugmentationLayer,
    affine_matrix,
    batch_size,
    draw_shape,
    sorted_value_range,
    transform_value_range,
)
from .augmentation_color import (
    Equalization,
    RandomColorDegeneration,
    RandomHue,
    RandomPosterization,
    RandomSaturation,
    RandomSharpness,
)
from .augmentation_geometry import RandomShear, _Resampling
from .bounding_boxes import affine, clip_to_image_size, convert_format

__all__ = ["RandomColorJitter", "AugMix", "RandAugment"]


def _images(data):
    return tf.convert_to_tensor(data["images"] if isinstance(data, dict) else data)


def _hw(images, data_format):
    shape = images.shape
    return (shape[-3], shape[-2]) if data_format == "channels_last" else (shape[-2], shape[-1])


class _Brightness(AugmentationLayer):
    """Keras's RandomBrightness in transformation form."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor=factor, **kwargs)
        self._set_seed(seed)
        self.value_range = sorted_value_range(value_range)

    def get_random_transformation(self, data, training=True, seed=None):
        images = _images(data)
        shape = (1, 1, 1) if len(images.shape) == 3 else draw_shape(batch_size(images), 1, 1, 1)
        if not training:
            return {"rgb_delta": tf.zeros(shape)}
        delta = _kr.uniform(shape, self.factor[0], self.factor[1], seed=self._seed(seed))
        return {"rgb_delta": delta * (self.value_range[1] - self.value_range[0])}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = images + tf.cast(transformation["rgb_delta"], images.dtype)
        return tf.clip_by_value(images, float(self.value_range[0]), float(self.value_range[1]))


class _Contrast(AugmentationLayer):
    """Keras's RandomContrast in transformation form."""

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = _images(data)
        shape = (1, 1, 1) if len(images.shape) == 3 else draw_shape(batch_size(images), 1, 1, 1)
        if not training:
            return {"contrast_factor": tf.zeros(shape)}
        return {"contrast_factor": _kr.uniform(shape, 1.0 - self.factor[0],
                                               1.0 + self.factor[1], seed=self._seed(seed),
                                               dtype=self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        h_axis, w_axis = (-3, -2) if self.data_format == "channels_last" else (-2, -1)
        mean = tf.reduce_mean(tf.reduce_mean(images, axis=h_axis, keepdims=True), axis=w_axis,
                              keepdims=True)
        out = (images - mean) * transformation["contrast_factor"] + mean
        return tf.clip_by_value(out, float(self.value_range[0]), float(self.value_range[1]))


class _Rotation(_Resampling):
    """Keras's RandomRotation in transformation form."""

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS = (-1, 1)

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(factor=factor, data_format=data_format, **kwargs)
        self._set_seed(seed)
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, \
            fill_value

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = _images(data)
        n = batch_size(images)
        h, w = _hw(images, self.data_format)
        angle = _kr.uniform(draw_shape(n), self.factor[0] * 360.0, self.factor[1] * 360.0,
                            seed=self._seed(seed))
        zeros, ones = tf.zeros_like(angle), tf.ones_like(angle)
        return {"angle": angle, "image_height": h, "image_width": w,
                "rotation_matrix": affine_matrix(0.5, 0.5, angle, zeros, zeros, ones, zeros,
                                                 zeros, h, w)}

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        h, w = transformation["image_height"], transformation["image_width"]
        angle = transformation["angle"]
        zeros, ones = tf.zeros_like(angle), tf.ones_like(angle)
        out = dict(bounding_boxes)   # Keras takes these boxes as xyxy
        out["boxes"] = affine(bounding_boxes["boxes"], angle, zeros, zeros, ones, zeros, zeros,
                              h, w)
        out = clip_to_image_size(out, h, w, "xyxy")
        return convert_format(out, "xyxy", self.bounding_box_format, h, w)

    def _transform_images(self, images, transformation, interpolation):
        from .... import ops as K
        return K.image.affine_transform(images, transformation["rotation_matrix"],
                                        interpolation=interpolation, fill_mode=self.fill_mode,
                                        fill_value=self.fill_value,
                                        data_format=self.data_format)


_TRANSLATION_FACTOR = ("The `factor` argument should be a number (or a list of two numbers) in "
                       "the range [-1.0, 1.0]. ")


class _Translation(_Resampling):
    """Keras's RandomTranslation in transformation form."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_lower, self.height_upper = self._range(height_factor, "height_factor")
        self.width_lower, self.width_upper = self._range(width_factor, "width_factor")
        self.fill_mode, self.fill_value, self.interpolation = fill_mode, fill_value, \
            interpolation
        self._set_seed(seed)

    @staticmethod
    def _range(factor, name):
        values = factor if isinstance(factor, (tuple, list)) else (factor,)
        if isinstance(factor, (tuple, list)) and len(factor) != 2:
            raise ValueError(_TRANSLATION_FACTOR + f"Received: {name}={factor}")
        for v in values:
            if v > 1.0 or v < -1.0:
                raise ValueError(_TRANSLATION_FACTOR + f"Received: input_number={v}")
        if isinstance(factor, (tuple, list)):
            return tuple(sorted(factor))
        return (-abs(factor), abs(factor))

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = _images(data)
        n = batch_size(images)
        h, w = _hw(images, self.data_format)
        seed = self._seed(seed)
        dy = _kr.uniform(draw_shape(n, 1), self.height_lower, self.height_upper,
                         seed=seed) * h
        dx = _kr.uniform(draw_shape(n, 1), self.width_lower, self.width_upper, seed=seed) * w
        return {"translations": tf.cast(tf.concat([dx, dy], axis=1), tf.float32),
                "input_shape": tuple(images.shape)}

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        h, w = self._size(transformation)
        out = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", h, w)
        t = transformation["translations"]
        dx, dy = t[:, 0:1], t[:, 1:]   # minus the matrix's offsets, -t
        boxes = out["boxes"]
        if len(boxes.shape) == 3:
            dx, dy = dx[..., None], dy[..., None]
        x1, y1, x2, y2 = tf.split(boxes, 4, axis=-1)
        out["boxes"] = tf.concat([x1 + dx, y1 + dy, x2 + dx, y2 + dy], -1)
        out = clip_to_image_size(out, h, w, "xyxy")
        return convert_format(out, "xyxy", self.bounding_box_format, h, w)

    def _transform_images(self, images, transformation, interpolation):
        from .... import ops as K
        if transformation is None:
            return images
        t = transformation["translations"]
        one, zero = tf.ones_like(t[:, :1]), tf.zeros_like(t[:, :1])
        matrix = tf.concat([one, zero, -t[:, 0:1], zero, one, -t[:, 1:], zero, zero], axis=1)
        return K.image.affine_transform(images, matrix, interpolation=interpolation,
                                        fill_mode=self.fill_mode, fill_value=self.fill_value,
                                        data_format=self.data_format)


def _solarize_range(factor, name):
    message = ("The `addition_factor` and `threshold_factor` arguments should be a number (or "
               "a list of two numbers) in the range [0, 1]. ")
    values = factor if isinstance(factor, (tuple, list)) else (factor,)
    if isinstance(factor, (tuple, list)) and len(factor) != 2:
        raise ValueError(message + f"Received: {name}={factor}")
    for v in values:
        if v > 1.0 or v < 0:
            raise ValueError(message + f"Received: input_number={v}")
    return tuple(sorted(factor)) if isinstance(factor, (tuple, list)) else (0, factor)


class _Solarization(AugmentationLayer):
    """Keras's Solarization in transformation form (float images)."""

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
        images = _images(data)
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


class _AutoContrast(AugmentationLayer):
    """Keras's AutoContrast in transformation form (float images)."""

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


class RandomColorJitter(AugmentationLayer):
    """Random brightness, contrast, saturation and hue in turn
    (``tf.keras.layers.RandomColorJitter``): each step given a factor runs as Keras's
    RandomBrightness, RandomContrast, RandomSaturation, RandomHue would, all drawing from this
    layer's SeedGenerator. Only when ``training``.

    Args:
        value_range: the images' range (default ``(0, 255)``).
        brightness_factor, contrast_factor, saturation_factor, hue_factor: each step's
            ``factor`` (None, the default, skips it).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for a step's factor its layer refuses.
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), brightness_factor=None, contrast_factor=None,
                 saturation_factor=None, hue_factor=None, seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.brightness_factor, self.contrast_factor = brightness_factor, contrast_factor
        self.saturation_factor, self.hue_factor = saturation_factor, hue_factor
        self._set_seed(seed)
        self.random_brightness = self.random_contrast = None
        self.random_saturation = self.random_hue = None
        if brightness_factor is not None:
            self.random_brightness = _Brightness(brightness_factor, value_range, seed=seed)
        if contrast_factor is not None:
            self.random_contrast = _Contrast(contrast_factor, value_range, seed=seed)
        if saturation_factor is not None:
            self.random_saturation = RandomSaturation(saturation_factor, value_range, seed=seed)
        if hue_factor is not None:
            self.random_hue = RandomHue(hue_factor, value_range, seed=seed)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        for step in (self.random_brightness, self.random_contrast, self.random_saturation,
                     self.random_hue):
            if step is None:
                continue
            t = step.get_random_transformation(images, seed=self.generator)
            if step is self.random_contrast:
                t["contrast_factor"] = tf.cast(t["contrast_factor"], self.compute_dtype)
            images = step.transform_images(images, t)
        return tf.cast(images, self.compute_dtype)

    def get_config(self):
        return dict(super().get_config(), value_range=self.value_range,
                    brightness_factor=self.brightness_factor,
                    contrast_factor=self.contrast_factor,
                    saturation_factor=self.saturation_factor, hue_factor=self.hue_factor,
                    seed=self.seed)


def _sub_layers(owner, factor, value_range, interpolation, seed, data_format, kwargs, every):
    """Keras's AugMix/RandAugment sub-layers, made in Keras's order (each made without a
    seed draws one from Python's ``random``, as Keras's)."""
    owner.random_shear = RandomShear(x_factor=factor, y_factor=factor,
                                     interpolation=interpolation, seed=seed,
                                     data_format=data_format, **kwargs)
    owner.random_translation = _Translation(height_factor=factor, width_factor=factor,
                                            interpolation=interpolation, seed=seed,
                                            data_format=data_format, **kwargs)
    owner.random_rotation = _Rotation(factor=factor, interpolation=interpolation, seed=seed,
                                      data_format=data_format, **kwargs)
    if every == "randaugment":
        owner.random_brightness = _Brightness(factor, value_range, seed=seed,
                                              data_format=data_format, **kwargs)
        owner.random_color_degeneration = RandomColorDegeneration(
            factor, value_range, seed=seed, data_format=data_format, **kwargs)
        owner.random_contrast = _Contrast(factor, value_range, seed=seed,
                                          data_format=data_format, **kwargs)
        owner.random_sharpness = RandomSharpness(factor, value_range, seed=seed,
                                                 data_format=data_format, **kwargs)
    owner.solarization = _Solarization(addition_factor=factor, threshold_factor=factor,
                                       value_range=value_range, seed=seed,
                                       data_format=data_format, **kwargs)
    owner.random_posterization = RandomPosterization(
        max(1, int(8 * factor[1])), value_range, seed=seed, data_format=data_format, **kwargs)
    owner.auto_contrast = _AutoContrast(value_range, data_format=data_format, **kwargs)
    owner.equalization = Equalization(value_range, data_format=data_format, **kwargs)
    if every is True:
        owner.random_brightness = _Brightness(factor, value_range, seed=seed,
                                              data_format=data_format, **kwargs)
        owner.random_color_degeneration = RandomColorDegeneration(
            factor, value_range, seed=seed, data_format=data_format, **kwargs)
        owner.random_contrast = _Contrast(factor, value_range, seed=seed,
                                          data_format=data_format, **kwargs)
        owner.random_sharpness = RandomSharpness(factor, value_range, seed=seed,
                                                 data_format=data_format, **kwargs)


_AUGMIX_SOME = ["random_shear", "random_translation", "random_rotation",
                "random_posterization", "solarization", "auto_contrast", "equalization"]
_AUGMIX_ALL = _AUGMIX_SOME + ["random_brightness", "random_color_degeneration",
                              "random_contrast", "random_sharpness"]


class AugMix(AugmentationLayer):
    """AugMix (``tf.keras.layers.AugMix``): ``num_chains`` chains of up to ``chain_depth``
    operations each (each step picked with Python's ``random.choice`` among the operations
    and "none"), mixed with Dirichlet(alpha) weights, then blended with the input by a
    Beta(alpha, alpha) weight and clipped to ``value_range``.

    Args:
        value_range: the images' range (default ``(0, 255)``).
        num_chains: the number of chains (default 3).
        chain_depth: the steps per chain (default 3).
        factor: the operations' strength within [0, 1] (default 0.3).
        alpha: the Dirichlet and Beta parameter (default 1.0).
        all_ops: with brightness, colour degeneration, contrast and sharpness too
            (default True).
        interpolation: the geometric operations' interpolation (default 'bilinear').
        seed: the seed of the layer's SeedGenerator (and its operations').

    Raises:
        ValueError: for a factor outside [0, 1].
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3,
                 alpha=1.0, all_ops=True, interpolation="bilinear", seed=None,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.num_chains, self.chain_depth = value_range, num_chains, \
            chain_depth
        self._set_factor(factor)
        self.alpha, self.all_ops, self.interpolation = alpha, all_ops, interpolation
        self._set_seed(seed)
        self._augment_layers = list(_AUGMIX_ALL if all_ops else _AUGMIX_SOME)
        _sub_layers(self, self.factor, value_range, interpolation, seed, data_format, kwargs,
                    bool(all_ops))

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        seed = self._seed(seed)
        g = _kr.gamma([self.num_chains], self.alpha, seed=seed)
        weights = g / tf.reduce_sum(g, axis=-1, keepdims=True)
        # Keras's scalar draw is the first of a (1,) draw; tapeflow's scalar
        # stateless_gamma returns 0 (tiny) at present, so the (1,) draw is taken
        weight = tf.reshape(_kr.beta((1,), self.alpha, self.alpha, seed=seed), [])
        chains = []
        for _ in range(self.num_chains):
            steps = []
            for _ in range(self.chain_depth):
                name = _py_random.choice(self._augment_layers + [None])
                if name is None:
                    continue
                layer = getattr(self, name)
                steps.append((name, layer.get_random_transformation(data, seed=self.generator)))
            chains.append(steps)
        return {"chain_mixing_weights": weights, "weight_sample": weight,
                "chain_transforms": chains}

    def _mix(self, images, transformation, method):
        weights = tf.cast(transformation["chain_mixing_weights"], self.compute_dtype)
        weight = tf.cast(transformation["weight_sample"], self.compute_dtype)
        mixed = tf.zeros_like(images)
        for i, chain in enumerate(transformation["chain_transforms"]):
            x = images
            for name, t in chain:
                x = getattr(getattr(self, name), method)(x, t)
            mixed = mixed + x * weights[i]
        return weight * images + (1 - weight) * mixed

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if training:
            images = self._mix(images, transformation, "transform_images")
            images = tf.clip_by_value(images, float(self.value_range[0]),
                                      float(self.value_range[1]))
        return tf.cast(images, self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not training:
            return segmentation_masks
        return self._mix(segmentation_masks, transformation, "transform_segmentation_masks")

    def get_config(self):
        return dict(super().get_config(), value_range=self.value_range,
                    num_chains=self.num_chains, chain_depth=self.chain_depth,
                    factor=self.factor, alpha=self.alpha, all_ops=self.all_ops,
                    interpolation=self.interpolation, seed=self.seed)


_RANDAUGMENT = ["random_shear", "random_translation", "random_rotation", "random_brightness",
                "random_color_degeneration", "random_contrast", "random_sharpness",
                "random_posterization", "solarization", "auto_contrast", "equalization"]


class RandAugment(AugmentationLayer):
    """RandAugment (``tf.keras.layers.RandAugment``): ``num_ops`` times, one of eleven
    operations (shear, translation, rotation, brightness, colour degeneration, contrast,
    sharpness, posterization, solarization, auto-contrast, equalization) drawn per call by
    ``keras.random.randint`` is applied to the whole batch; every operation's transformation
    is drawn each call, in that order, from this layer's SeedGenerator.

    Args:
        value_range: the images' range (default ``(0, 255)``).
        num_ops: the number of operations applied (default 2).
        factor: the operations' strength within [0, 1] (default 0.5).
        interpolation: the geometric operations' interpolation (default 'bilinear').
        seed: the seed of the layer's SeedGenerator (and its operations').

    Raises:
        ValueError: for a factor outside [0, 1].
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5, interpolation="bilinear",
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.num_ops = value_range, num_ops
        self._set_factor(factor)
        self.interpolation = interpolation
        self._set_seed(seed)
        _sub_layers(self, self.factor, value_range, interpolation, seed, data_format, kwargs,
                    "randaugment")

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        chosen = _kr.randint((self.num_ops,), 0, len(_RANDAUGMENT), seed=self.generator)
        transforms = {name: getattr(self, name).get_random_transformation(
            data, training=training, seed=self.generator) for name in _RANDAUGMENT}
        return {"transforms": transforms, "layer_idxes": chosen}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if training:
            chosen = transformation["layer_idxes"]
            for i in range(self.num_ops):
                for index, (name, t) in enumerate(transformation["transforms"].items()):
                    out = getattr(self, name).transform_images(images, t)
                    images = tf.where(chosen[i] == index, out, images)
        return tf.cast(images, self.compute_dtype)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        chosen = transformation["layer_idxes"]
        boxes = dict(bounding_boxes)
        for index, (name, t) in enumerate(transformation["transforms"].items()):
            moved = getattr(self, name).transform_bounding_boxes(dict(boxes), t)
            for i in range(self.num_ops):
                boxes["boxes"] = tf.where(chosen[i] == index, moved["boxes"], boxes["boxes"])
                boxes["labels"] = tf.where(chosen[i] == index, moved["labels"],
                                           boxes["labels"])
        return boxes

    def get_config(self):
        return dict(super().get_config(), value_range=self.value_range, num_ops=self.num_ops,
                    factor=self.factor, interpolation=self.interpolation, seed=self.seed)

