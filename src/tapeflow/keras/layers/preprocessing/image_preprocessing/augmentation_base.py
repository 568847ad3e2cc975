"""What Keras 3's data-augmentation layers share (``BaseImagePreprocessingLayer``): a layer
draws one random *transformation* per call (``get_random_transformation``, from its own
``keras.random.SeedGenerator``, so Keras-on-TensorFlow's numbers), then applies it to the
images and, given a dict, to its ``labels``, ``bounding_boxes`` and ``segmentation_masks``
(``transform_images`` and friends). A single image (rank 3) goes through as a batch of one.
``training`` defaults to True, as in Keras.
"""
import math

import tapeflow as tf

from .... import backend as _backend
from .... import random as _kr
from ... import _spec
from ...layer import Layer

__all__ = ["AugmentationLayer"]


def batch_size(images):
    """Keras's batch size of a rank-3 (1) or rank-4 image tensor: an int when known, a
    scalar tensor inside a relaxed trace.

    Raises:
        ValueError: for another rank.
    """
    shape = _spec.static_shape(images)
    if len(shape) == 3:
        return 1
    if len(shape) != 4:
        raise ValueError("Expected the input image to be rank 3 or 4. Received: "
                         f"inputs.shape={tuple(shape)}")
    return shape[0] if shape[0] is not None else tf.shape(images)[0]


def draw_shape(n, *rest):
    """The shape ``(n, *rest)`` of a draw: a tuple, or a tensor when ``n`` is one."""
    if isinstance(n, int):
        return (n,) + tuple(rest)
    return tf.stack([n] + [tf.constant(r) for r in rest])


def factor_pair(factor, bounds, name="factor", label="factor"):
    """Keras's ``_set_factor``: ``f`` gives ``(max(-|f|, lo), |f|)``, a pair is sorted.

    Raises:
        ValueError: for a number outside ``bounds``, a pair missing them, or anything else.
    """
    message = (f"The `{name}` argument should be a number (or a list of two numbers) in the "
               f"range [{bounds[0]}, {bounds[1]}]. Received: {label}={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(message)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(message)
        factor = abs(factor)
        return (max(-factor, bounds[0]), factor)
    raise ValueError(message)


_VALUE_RANGE = "The `value_range` argument should be a list of two numbers. "


def sorted_value_range(value_range):
    """A value range as Keras's colour layers keep it: a sorted list.

    Raises:
        ValueError: for anything but a pair.
    """
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(_VALUE_RANGE + f"Received: value_range={value_range}")
    return sorted(value_range)


def transform_value_range(images, original, target, dtype="float32"):
    """Keras's ``_transform_value_range``: images rescaled linearly from ``original`` to
    ``target`` (in ``dtype``); the same range returns them untouched."""
    if original[0] == target[0] and original[1] == target[1]:
        return images
    images = tf.cast(images, dtype)
    lo, hi = tf.cast(original[0], dtype), tf.cast(original[1], dtype)
    tlo, thi = tf.cast(target[0], dtype), tf.cast(target[1], dtype)
    images = (images - lo) / (hi - lo)
    return images * (thi - tlo) + tlo


def affine_matrix(center_x, center_y, angle, translate_x, translate_y, scale, shear_x,
                  shear_y, height, width):
    """Keras's ``_compute_affine_matrix``: per image the 8 projective-transform numbers of a
    rotation by ``angle`` and shears (degrees) about the centre, scaled and translated."""
    rad = tf.constant(math.pi / 180.0)
    angle, shear_x, shear_y = angle * rad, shear_x * rad, shear_y * rad
    n = tf.shape(angle)[0]
    dtype = angle.dtype
    width, height = tf.cast(width, dtype), tf.cast(height, dtype)
    cx, cy = center_x * (width - 1), center_y * (height - 1)
    cos, sin = tf.cos(angle), tf.sin(angle)
    shear_x, shear_y = tf.tan(shear_x), tf.tan(shear_y)
    a0 = scale * (cos + shear_x * sin)
    a1 = scale * (-sin + shear_x * cos)
    a2 = translate_x + cx - cx * a0 - cy * a1
    b0 = scale * (shear_y * cos + sin)
    b1 = scale * (shear_y * -sin + cos)
    b2 = translate_y + cy - cx * b0 - cy * b1
    zeros = tf.zeros(tf.stack([n, 2]), dtype)
    return tf.concat([a0[:, None], a1[:, None], a2[:, None], b0[:, None], b1[:, None],
                      b2[:, None], zeros], axis=1)


class AugmentationLayer(Layer):
    """The base of Keras 3's augmentation layers (``BaseImagePreprocessingLayer``).

    A subclass sets ``_USE_BASE_FACTOR``/``_FACTOR_BOUNDS`` (whether ``factor`` is taken
    here and its range) and writes ``get_random_transformation(data, training, seed)`` and
    ``transform_images(images, transformation, training)``; labels, bounding boxes and
    segmentation masks pass through unless it overrides their ``transform_*``.

    Raises:
        ValueError: a factor outside the bounds, a factor given to a layer without one,
            inputs of rank other than 3 or 4, or bounding boxes without a format.
    """

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS = (-1, 1)
    _BOXES_UNCHANGED = True   # Keras's colour layers; the base raises NotImplementedError
    _cast_kinds = "f"

    def __init__(self, factor=None, bounding_box_format=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.bounding_box_format = bounding_box_format
        if data_format not in (None, "channels_last", "channels_first"):
            raise ValueError("The `data_format` argument must be one of {'channels_first', "
                             f"'channels_last'}}. Received: data_format={data_format}")
        self.data_format = data_format or _backend.image_data_format()
        if self._USE_BASE_FACTOR:
            self._set_factor(factor or 0.0)
        elif factor is not None:
            raise ValueError(f"Layer {type(self).__name__} does not take a `factor` argument. "
                             f"Received: factor={factor}")
        self.built = True

    def _set_factor(self, factor):
        self.factor = factor_pair(factor, self._FACTOR_BOUNDS)

    # -- the transformation and its parts ---------------------------------------------------
    def get_random_transformation(self, data, training=True, seed=None):
        return None

    def transform_images(self, images, transformation, training=True):
        return images

    def transform_labels(self, labels, transformation, training=True):
        return labels

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if self._BOXES_UNCHANGED:
            return bounding_boxes
        raise NotImplementedError(f"{type(self).__name__} does not transform bounding boxes "
                                  "(as in Keras)")

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return segmentation_masks

    def _set_seed(self, seed):
        """The layer's ``seed`` and the ``keras.random.SeedGenerator(seed)`` its draws come
        from (every Keras augmentation layer has both)."""
        self.seed = seed
        self.generator = _kr.SeedGenerator(seed)

    def _seed(self, seed):
        return seed if seed is not None else self.generator

    @staticmethod
    def _images(data):
        """The images of a call's ``data``: the tensor itself or its ``images`` entry."""
        return tf.convert_to_tensor(data["images"] if isinstance(data, dict) else data)

    def _hw_axes(self):
        """The (height, width) axes, counted from the end, of this layer's data format."""
        return (-3, -2) if self.data_format == "channels_last" else (-2, -1)

    def _size(self, transformation):
        """The (height, width) of the images a transformation was drawn for."""
        shape = transformation["input_shape"]
        h_axis, w_axis = self._hw_axes()
        return shape[h_axis], shape[w_axis]

    # -- the call ---------------------------------------------------------------------------
    def call(self, data, training=True):
        training = True if training is None else bool(training)
        transformation = self.get_random_transformation(data, training=training)
        if not isinstance(data, dict):
            return self._per_rank(self.transform_images, tf.convert_to_tensor(data),
                                  transformation, training)
        data = dict(data)
        images = tf.convert_to_tensor(data["images"])
        batched = len(images.shape) == 4
        data["images"] = self._per_rank(self.transform_images, images, transformation,
                                        training)
        if "bounding_boxes" in data:
            if not self.bounding_box_format:
                raise ValueError(
                    "You passed an input with a 'bounding_boxes' key, but you didn't specify "
                    "a bounding box format. Pass a `bounding_box_format` argument to your "
                    f"{type(self).__name__} layer, e.g. `bounding_box_format='xyxy'`.")
            boxes = {k: tf.convert_to_tensor(v) for k, v in data["bounding_boxes"].items()}
            if not batched:
                boxes = {k: (tf.expand_dims(v, 0) if k in ("boxes", "labels") else v)
                         for k, v in boxes.items()}
            boxes = self.transform_bounding_boxes(boxes, transformation, training=training)
            if not batched:
                boxes = {k: (tf.squeeze(v, [0]) if k in ("boxes", "labels") else v)
                         for k, v in boxes.items()}
            data["bounding_boxes"] = boxes
        if "labels" in data:
            data["labels"] = self._per_rank(self.transform_labels,
                                            tf.convert_to_tensor(data["labels"]),
                                            transformation, training, batched)
        if "segmentation_masks" in data:
            data["segmentation_masks"] = self._per_rank(
                self.transform_segmentation_masks,
                tf.convert_to_tensor(data["segmentation_masks"]), transformation, training,
                batched)
        return data

    @staticmethod
    def _per_rank(fn, x, transformation, training, batched=None):
        if batched is None:
            shape = _spec.static_shape(x)
            if len(shape) not in (3, 4):
                raise ValueError("Expected image tensor to have rank 3 (single image) or 4 "
                                 f"(batch of images). Received: data.shape={tuple(shape)}")
            batched = len(shape) == 4
        if batched:
            return fn(x, transformation, training=training)
        out = fn(tf.expand_dims(x, 0), transformation, training=training)
        return tf.squeeze(out, [0])

    def compute_output_shape(self, input_shape):
        return input_shape

    @classmethod
    def from_config(cls, config):
        """The layer ``get_config`` describes.

        Raises:
            TypeError: wrapping the constructor's error, with Keras's text (Keras's
                RandomShear, for one, cannot read back its own ``(-f, f)`` factors).
        """
        try:
            return super().from_config(dict(config))
        except Exception as e:  # noqa: BLE001 - re-raised as Keras's Operation does
            raise TypeError(f"Error when deserializing class '{cls.__name__}' using "
                            f"config={config}.\n\nException encountered: {e}") from e

    def get_config(self):
        config = dict(super().get_config(), data_format=self.data_format)
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config
