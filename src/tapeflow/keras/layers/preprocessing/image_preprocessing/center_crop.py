"""``tf.keras.layers.CenterCrop``."""
import tapeflow as tf

from .. import _image
from .augmentation_base import AugmentationLayer
from .bounding_boxes import clip_to_image_size, convert_format
from .resizing import channels_last

__all__ = ["CenterCrop"]


class CenterCrop(AugmentationLayer):
    """The central ``(height, width)`` window of each image (``tf.keras.layers.CenterCrop``);
    an image smaller than that is first cropped to the target aspect ratio and resized up,
    as in Keras. On Keras 3's image preprocessing base: a dict input's
    ``segmentation_masks`` are cropped as the images, its ``bounding_boxes`` clipped to the
    window, its ``labels`` kept.

    Args:
        height, width: the output size.
        data_format: 'channels_last' (default: ``keras.config.image_data_format()``),
            images ``(batch, h, w, c)`` or ``(h, w, c)``, or 'channels_first',
            ``(batch, c, h, w)`` or ``(c, h, w)``.
        bounding_box_format: the format of a dict input's boxes.

    Integer images are computed in the layer's float dtype, as in Keras.

    Raises:
        ValueError: for another data format or inputs of rank other than 3 or 4.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
    >>> tf.keras.layers.CenterCrop(2, 2)(x)[0, :, :, 0].numpy().tolist()
    [[5.0, 6.0], [9.0, 10.0]]
    """

    _USE_BASE_FACTOR = False
    _BOXES_UNCHANGED = False
    _cast_kinds = "fiub"

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = int(height), int(width)

    def get_random_transformation(self, data, training=True, seed=None):
        return {"input_shape": tuple(self._images(data).shape)}

    def _crop(self, images):
        h, w = images.shape[1], images.shape[2]
        if h < self.height or w < self.width:
            cropped = _image.crop_to_aspect_ratio(images, self.height, self.width)
            return _image.resize(cropped, self.height, self.width, "bilinear")
        top, left = int((h - self.height) / 2), int((w - self.width) / 2)
        return images[:, top:top + self.height, left:left + self.width, :]

    def transform_images(self, images, transformation=None, training=True):
        images = tf.cast(images, self.compute_dtype)
        return channels_last(self._crop, images, self.data_format)

    def transform_segmentation_masks(self, segmentation_masks, transformation=None,
                                     training=True):
        return self.transform_images(segmentation_masks, transformation)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        in_h, in_w = self._size(transformation)
        out = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", in_h, in_w)
        if in_h >= self.height and in_w >= self.width:
            top, left = int((in_h - self.height) / 2), int((in_w - self.width) / 2)
            bottom, right = top + self.height, left + self.width
        else:
            crop_h = max(min(in_h, int(float(in_w * self.height) / self.width)), 1)
            crop_w = max(min(in_w, int(float(in_h * self.width) / self.height)), 1)
            top, left = int(float(in_h - crop_h) / 2), int(float(in_w - crop_w) / 2)
            bottom, right = top + crop_h, left + crop_w
        x1, y1, x2, y2 = tf.split(out["boxes"], 4, axis=-1)
        out["boxes"] = tf.concat([tf.clip_by_value(x1, left, right) - left,
                                  tf.clip_by_value(y1, top, bottom) - top,
                                  tf.clip_by_value(x2, left, right) - left,
                                  tf.clip_by_value(y2, top, bottom) - top], -1)
        if not (in_h >= self.height and in_w >= self.width):
            out = convert_format(out, "xyxy", "rel_xyxy", bottom - top, right - left)
            out = convert_format(out, "rel_xyxy", "xyxy", self.height, self.width)
        out = clip_to_image_size(out, self.height, self.width, "xyxy")
        return convert_format(out, "xyxy", self.bounding_box_format, self.height, self.width)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        h_axis, w_axis = self._hw_axes()
        shape[h_axis], shape[w_axis] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width,
                    data_format=self.data_format)
