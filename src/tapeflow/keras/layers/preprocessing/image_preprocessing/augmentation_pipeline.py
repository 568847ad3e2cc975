"""Keras 3's augmentation pipelines (``tf.keras.layers``): RandomColorJitter, AugMix and
RandAugment. Each owns Keras's sub-layers and draws their transformations from its own
``keras.random.SeedGenerator`` (AugMix picks its operations with Python's ``random``, as
Keras), so under the same seeds the images are Keras-on-TensorFlow's.

Their steps are the public layers (RandomBrightness, RandomContrast, RandomRotation,
RandomTranslation, Solarization, AutoContrast, ...), driven through their
``get_random_transformation`` and ``transform_images`` as Keras drives them.
"""
import random as _py_random

import tapeflow as tf

from .... import random as _kr
from .augmentation_base import AugmentationLayer
from .augmentation_color import (
    Equalization,
    RandomColorDegeneration,
    RandomHue,
    RandomPosterization,
    RandomSaturation,
    RandomSharpness,
)
from .augmentation_geometry import RandomShear
from .color import AutoContrast, Solarization
from .random_brightness import RandomBrightness
from .random_contrast import RandomContrast
from .random_rotation import RandomRotation
from .random_translation import RandomTranslation

__all__ = ["RandomColorJitter", "AugMix", "RandAugment"]


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
            self.random_brightness = RandomBrightness(brightness_factor, value_range, seed=seed)
        if contrast_factor is not None:
            self.random_contrast = RandomContrast(contrast_factor, value_range, seed=seed)
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
    owner.random_translation = RandomTranslation(height_factor=factor, width_factor=factor,
                                            interpolation=interpolation, seed=seed,
                                            data_format=data_format, **kwargs)
    owner.random_rotation = RandomRotation(factor=factor, interpolation=interpolation, seed=seed,
                                      data_format=data_format, **kwargs)
    if every == "randaugment":
        owner.random_brightness = RandomBrightness(factor, value_range, seed=seed,
                                              data_format=data_format, **kwargs)
        owner.random_color_degeneration = RandomColorDegeneration(
            factor, value_range, seed=seed, data_format=data_format, **kwargs)
        owner.random_contrast = RandomContrast(factor, value_range, seed=seed,
                                          data_format=data_format, **kwargs)
        owner.random_sharpness = RandomSharpness(factor, value_range, seed=seed,
                                                 data_format=data_format, **kwargs)
    owner.solarization = Solarization(addition_factor=factor, threshold_factor=factor,
                                       value_range=value_range, seed=seed,
                                       data_format=data_format, **kwargs)
    owner.random_posterization = RandomPosterization(
        max(1, int(8 * factor[1])), value_range, seed=seed, data_format=data_format, **kwargs)
    owner.auto_contrast = AutoContrast(value_range, data_format=data_format, **kwargs)
    owner.equalization = Equalization(value_range, data_format=data_format, **kwargs)
    if every is True:
        owner.random_brightness = RandomBrightness(factor, value_range, seed=seed,
                                              data_format=data_format, **kwargs)
        owner.random_color_degeneration = RandomColorDegeneration(
            factor, value_range, seed=seed, data_format=data_format, **kwargs)
        owner.random_contrast = RandomContrast(factor, value_range, seed=seed,
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

