"""``tf.keras.layers.RandomCrop``."""
import tapeflow as tf

from .... import random as _kr
from .. import _image
from .augmentation_base import AugmentationLayer
from .bounding_boxes import convert_format

__all__ = ["RandomCrop"]


class RandomCrop(AugmentationLayer):
    """Crop a random ``(height, width)`` window (``tf.keras.layers.RandomCrop``): one
    offset per call, shared by the batch (a row then a column start drawn from the layer's
    ``keras.random.SeedGenerator``), as Keras 3. Images not larger than the window in both
    dimensions are cut from the window of the target's aspect ratio centred in them and
    resized to it. With ``training=False`` the images pass unchanged.

    Args:
        height, width: the window's size.
        seed: the seed of the layer's SeedGenerator (None: one from Python's ``random``;
            the config then records another such draw, as Keras's).
        data_format: 'channels_last' (default) or 'channels_first'.

    Inputs: images, one image, or a dict with ``images`` and optionally ``labels``
    (unchanged), ``segmentation_masks`` (cropped, as Keras, whatever ``training``) and
    ``bounding_boxes`` (moved by Keras's rule: x by the row start, y by the column start).

    Raises:
        ValueError: for images without a static height and width.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(36.0), (1, 6, 6, 1))
    >>> y = tf.keras.layers.RandomCrop(2, 3, seed=1)(x, training=True)
    >>> y.shape, float(y[0, 1, 0, 0] - y[0, 0, 0, 0])  # a window: rows 6 apart
    (TensorShape([1, 2, 3, 1]), 6.0)
    """

    _USE_BASE_FACTOR = False
    _cast_kinds = ""   # Keras's ``_convert_input_args = False``
    _BOXES_UNCHANGED = False

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(data_format=data_format, name=name, **kwargs)
        self.height, self.width = height, width
        self.seed = seed if seed is not None else _kr.make_default_seed()
        self.generator = _kr.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        seed = self._seed(seed)
        shape = self._images(data).shape
        h_axis, w_axis = self._hw_axes()
        h, w = shape[h_axis], shape[w_axis]
        if h is None or w is None:
            raise ValueError("RandomCrop requires the input to have a fully defined height "
                             f"and width. Received: images.shape={tuple(shape)}")
        if training and h > self.height and w > self.width:
            top = tf.cast(_kr.uniform((), 0, float(h - self.height + 1), seed=seed), "int32")
            left = tf.cast(_kr.uniform((), 0, float(w - self.width + 1), seed=seed), "int32")
            return top, left
        crop_h = max(min(h, int(float(w * self.height) / self.width)), 1)
        crop_w = max(min(w, int(float(h * self.width) / self.height)), 1)
        return int(float(h - crop_h) / 2), int(float(w - crop_w) / 2)

    def _window(self, images, start, size, axis):
        if isinstance(start, int):
            index = [slice(None)] * len(images.shape)
            index[axis] = slice(start, start + size)
            return images[tuple(index)]
        # a drawn start leaves room for the whole window
        return tf.gather(images, start + tf.range(size), axis=axis)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        top, left = transformation
        h_axis, w_axis = self._hw_axes()
        rank = len(images.shape)
        images = self._window(images, top, self.height, rank + h_axis)
        images = self._window(images, left, self.width, rank + w_axis)
        if (images.shape[h_axis], images.shape[w_axis]) != (self.height, self.width):
            last = self.data_format == "channels_last"
            x = images if last else tf.transpose(images, [0, 2, 3, 1])
            x = tf.cast(_image.resize(x, self.height, self.width, "bilinear"),
                        self.compute_dtype)
            images = x if last else tf.transpose(x, [0, 3, 1, 2])
        return images

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_images(segmentation_masks, transformation)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        top, left = transformation
        boxes = convert_format(bounding_boxes["boxes"], self.bounding_box_format, "xyxy",
                               self.height, self.width)
        top, left = tf.cast(top, boxes.dtype), tf.cast(left, boxes.dtype)
        x1, y1, x2, y2 = tf.unstack(boxes, axis=-1)
        boxes = tf.stack([tf.maximum(x1 - top, 0), tf.maximum(y1 - left, 0),
                          tf.maximum(x2 - top, 0), tf.maximum(y2 - left, 0)], axis=-1)
        boxes = convert_format(boxes, "xyxy", self.bounding_box_format, self.height,
                               self.width)
        return {"boxes": boxes, "labels": bounding_boxes["labels"]}

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        h_axis, w_axis = self._hw_axes()
        shape[h_axis], shape[w_axis] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width, seed=self.seed,
                    data_format=self.data_format)
