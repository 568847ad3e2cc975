"""Keras 3's mixing augmentation layers (``tf.keras.layers``): MixUp and CutMix, which blend
each image (and its label) with another image of the batch, drawn from the layer's own
``keras.random.SeedGenerator`` as Keras does."""
import tapeflow as tf

from .... import random as _kr
from .augmentation_base import AugmentationLayer, batch_size, draw_shape

__all__ = ["MixUp", "CutMix"]


class MixUp(AugmentationLayer):
    """MixUp (``tf.keras.layers.MixUp``): the batch is shuffled (``keras.random.shuffle``)
    and each image becomes ``w x + (1 - w) x_other``, ``w`` drawn per image from
    Beta(alpha, alpha); a dict's ``labels`` (batch, classes) mix alike, its segmentation
    masks too, its bounding boxes are joined with the partner's.

    Args:
        alpha: the Beta distribution's parameter (default 0.2).
        seed: the seed of the layer's SeedGenerator.

    Input: (batch, h, w, c) images or a dict with ``images``; only when ``training``.
    """

    _USE_BASE_FACTOR = False

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.alpha = alpha
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self._images(data)
        n = batch_size(images)
        seed = self._seed(seed)
        order = _kr.shuffle(tf.range(0, n, dtype=tf.int64), seed=seed)
        weight = _kr.beta(draw_shape(n), self.alpha, self.alpha, seed=seed)
        return {"mix_weight": weight, "permutation_order": order}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        weight = tf.cast(tf.reshape(transformation["mix_weight"], [-1, 1, 1, 1]),
                         self.compute_dtype)
        other = tf.gather(images, transformation["permutation_order"], axis=0)
        return weight * images + (1.0 - weight) * other

    def transform_labels(self, labels, transformation, training=True):
        if not training:
            return labels
        weight = tf.reshape(transformation["mix_weight"], [-1, 1])
        labels = tf.cast(labels, weight.dtype)
        other = tf.gather(labels, transformation["permutation_order"], axis=0)
        return weight * labels + (1.0 - weight) * other

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        order = transformation["permutation_order"]
        boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
        # Keras joins the boxes per image (axis 1) and the labels along the batch (axis 0)
        return {"boxes": tf.concat([boxes, tf.gather(boxes, order, axis=0)], axis=1),
                "labels": tf.concat([labels, tf.gather(labels, order, axis=0)], axis=0)}

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not training:
            return segmentation_masks
        weight = tf.reshape(transformation["mix_weight"], [-1, 1, 1, 1])
        masks = tf.cast(segmentation_masks, weight.dtype)
        # Keras takes the partner masks from the flattened tensor (numpy.take without axis)
        other = tf.gather(tf.reshape(masks, [-1]), transformation["permutation_order"])
        return weight * masks + (1.0 - weight) * other

    def get_config(self):
        return dict(super().get_config(), alpha=self.alpha, seed=self.seed)


class CutMix(AugmentationLayer):
    """CutMix (``tf.keras.layers.CutMix``): the batch is shuffled and each image gets a
    rectangle of its partner pasted in; the rectangle's area fraction is ``1 - w``, ``w``
    drawn per image from Beta(a, a) with ``a`` drawn per call from ``factor``'s range (plus
    1e-6), its place at random; a dict's ``labels`` mix by the area actually pasted. A single
    image (rank 3) passes unchanged.

    Args:
        factor: the range of ``a`` within ``[0, 1]`` (default 1.0: ``[0, 1]``).
        seed: the seed of the layer's SeedGenerator.

    Raises:
        ValueError: for a factor outside ``[0, 1]``.
        NotImplementedError: for bounding boxes (as Keras).
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self._set_seed(seed)
        last = self.data_format == "channels_last"
        self.height_axis, self.width_axis = (-3, -2) if last else (-2, -1)
        self.channel_axis = -1 if last else -3

    def _bounds(self, n, length, ratio, seed):
        crop = tf.cast(ratio * length, self.compute_dtype)
        start = _kr.uniform(draw_shape(n), 0, 1, dtype=self.compute_dtype, seed=seed) * (
            length - crop)
        return start, start + crop

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        if len(images.shape) == 3:
            return None
        n = batch_size(images)
        h, w = images.shape[self.height_axis], images.shape[self.width_axis]
        seed = self._seed(seed)
        alpha = _kr.uniform((), self.factor[0], self.factor[1], dtype=self.compute_dtype,
                            seed=seed) + 1e-6
        weight = _kr.beta(draw_shape(n), alpha, alpha, seed=seed, dtype=self.compute_dtype)
        ratio = tf.sqrt(1.0 - weight)
        x0, x1 = self._bounds(n, w, ratio, seed)
        y0, y1 = self._bounds(n, h, ratio, seed)
        gy, gx = tf.meshgrid(tf.range(h, dtype=self.compute_dtype),
                             tf.range(w, dtype=self.compute_dtype), indexing="ij")
        if self.data_format == "channels_last":
            gy, gx = gy[None, :, :, None], gx[None, :, :, None]
        else:
            gy, gx = gy[None, None], gx[None, None]
        x0, x1, y0, y1 = (tf.reshape(v, [-1, 1, 1, 1]) for v in (x0, x1, y0, y1))
        masks = (gx >= x0) & (gx < x1) & (gy >= y0) & (gy < y1)
        masks = tf.repeat(masks, images.shape[self.channel_axis], axis=self.channel_axis)
        weight = 1.0 - (x1 - x0) * (y1 - y0) / (w * h)
        order = _kr.shuffle(tf.range(0, n, dtype=tf.int32), seed=seed)
        return {"permutation_order": order, "batch_masks": masks, "mix_weight": weight}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if training and transformation is not None:
            other = tf.gather(images, transformation["permutation_order"], axis=0)
            images = tf.where(transformation["batch_masks"], other, images)
        return images

    def transform_labels(self, labels, transformation, training=True):
        if not training or transformation is None:
            return labels
        weight = tf.reshape(transformation["mix_weight"], [-1, 1])
        labels = tf.cast(labels, weight.dtype)
        other = tf.gather(labels, transformation["permutation_order"], axis=0)
        return weight * labels + (1.0 - weight) * other

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        raise NotImplementedError()

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_images(segmentation_masks, transformation, training)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, seed=self.seed)
