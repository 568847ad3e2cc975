"""``tf.keras.layers.RandomFlip``."""
import tapeflow as tf

from .... import random as _kr
from .augmentation_base import AugmentationLayer, batch_size, draw_shape
from .bounding_boxes import clip_to_image_size, convert_format

__all__ = ["RandomFlip"]

_MODES = ("horizontal", "vertical", "horizontal_and_vertical")


class RandomFlip(AugmentationLayer):
    """Flip each image with probability 1/2 (``tf.keras.layers.RandomFlip``): one draw
    per image from the layer's ``keras.random.SeedGenerator`` (``uniform <= 0.5``) decides
    both flips of 'horizontal_and_vertical', as in Keras 3.

    Args:
        mode: 'horizontal' (left-right), 'vertical' (top-bottom) or
            'horizontal_and_vertical' (default). Any other string is accepted, as Keras 3.15
            accepts it: the flips are still drawn (the seed advances) but nothing is flipped,
            so ``RandomFlip("diagonal")`` returns its input.
        seed: the seed of the layer's SeedGenerator (an int; None draws one from Python's
            ``random``, as Keras).
        data_format: 'channels_last' (default: ``keras.config.image_data_format()``) or
            'channels_first'.

    Inputs are images ``(batch, h, w, c)`` or one image ``(h, w, c)`` (channels first:
    ``(..., c, h, w)``), or a dict with ``images`` and optionally ``labels`` (unchanged),
    ``segmentation_masks`` (flipped as the images) and ``bounding_boxes`` (flipped; needs
    ``bounding_box_format``). The output is in the layer's compute dtype; with
    ``training=False`` the images are only cast.

    Raises:
        ValueError: on inputs of rank other than 3 or 4.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(4.0), (1, 1, 4, 1))
    >>> y = tf.keras.layers.RandomFlip("horizontal", seed=1)(x, training=True)[0, 0, :, 0]
    >>> y.numpy().tolist() in ([0.0, 1.0, 2.0, 3.0], [3.0, 2.0, 1.0, 0.0])
    True
    """

    _USE_BASE_FACTOR = False
    _cast_kinds = ""   # Keras's ``_convert_input_args = False``
    _BOXES_UNCHANGED = False

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_seed(seed)   # any mode is kept; one outside _MODES flips nothing (Keras 3.15)
        self.mode = mode

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        shape = (1, 1, 1) if len(images.shape) == 3 else draw_shape(batch_size(images), 1, 1, 1)
        flips = _kr.uniform(shape, seed=self._seed(seed)) <= 0.5
        return {"flips": flips, "input_shape": tuple(images.shape)}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        flips = transformation["flips"]
        h_axis, w_axis = self._hw_axes()
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            images = tf.where(flips, tf.reverse(images, [len(images.shape) + w_axis]), images)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            images = tf.where(flips, tf.reverse(images, [len(images.shape) + h_axis]), images)
        return images

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_images(segmentation_masks, transformation, training=training)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        flips = tf.squeeze(transformation["flips"], -1)
        h, w = self._size(transformation)
        out = convert_format(bounding_boxes, self.bounding_box_format, "rel_xyxy", h, w)
        boxes = out["boxes"]
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            x1, y1, x2, y2 = tf.split(boxes, 4, axis=-1)
            boxes = tf.where(flips, tf.concat([1 - x2, y1, 1 - x1, y2], -1), boxes)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            x1, y1, x2, y2 = tf.split(boxes, 4, axis=-1)
            boxes = tf.where(flips, tf.concat([x1, 1 - y2, x2, 1 - y1], -1), boxes)
        out["boxes"] = boxes
        # Keras clips these relative boxes as 'xyxy' within the image's pixel size
        out = clip_to_image_size(out, h, w, "xyxy")
        return convert_format(out, "rel_xyxy", self.bounding_box_format, h, w)

    def get_config(self):
        return dict(super().get_config(), seed=self.seed, mode=self.mode,
                    data_format=self.data_format)
