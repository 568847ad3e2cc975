"""``tf.keras.layers.Resizing``."""
import tapeflow as tf

from .. import _image
from .augmentation_base import AugmentationLayer
from .bounding_boxes import clip_to_image_size, convert_format

__all__ = ["Resizing"]


def channels_last(fn, images, data_format):
    """``fn`` of a channels-last batch, for images in ``data_format``."""
    if data_format == "channels_last":
        return fn(images)
    return tf.transpose(fn(tf.transpose(images, [0, 2, 3, 1])), [0, 3, 1, 2])


class Resizing(AugmentationLayer):
    """Resize images to ``(height, width)`` (``tf.keras.layers.Resizing``), on Keras 3's
    image preprocessing base: a dict input's ``segmentation_masks`` are resized with
    'nearest', its ``bounding_boxes`` moved as Keras moves them, its ``labels`` kept.

    Args:
        height, width: the output size.
        interpolation: 'bilinear' (default), 'nearest', 'bicubic', 'area', 'lanczos3' or
            'lanczos5', as ``tf.image.resize``.
        crop_to_aspect_ratio: first take the largest centred crop with the target's
            aspect ratio, so the image is not distorted.
        antialias: filter when downsampling (``tf.image.resize``'s ``antialias``).
        pad_to_aspect_ratio: first pad with ``fill_value`` to the target's aspect ratio,
            so the image is not distorted (``fill_mode`` 'constant', Keras's only one).
        data_format: 'channels_last' (default: ``keras.config.image_data_format()``),
            images ``(batch, h, w, c)`` or ``(h, w, c)``, or 'channels_first',
            ``(batch, c, h, w)`` or ``(c, h, w)``.
        bounding_box_format: the format of a dict input's boxes.

    Integer images come back in their own dtype (rounded, saturated), as in Keras.

    Raises:
        ValueError: when called with another interpolation (Keras's text), for another
            data format, or inputs of rank other than 3 or 4.

    >>> import tapeflow as tf
    >>> tf.keras.layers.Resizing(4, 6)(tf.ones((2, 8, 8, 3))).shape
    TensorShape([2, 4, 6, 3])
    """

    _USE_BASE_FACTOR = False
    _BOXES_UNCHANGED = False

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = int(height), int(width)
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self.pad_to_aspect_ratio = pad_to_aspect_ratio
        self.fill_mode, self.fill_value, self.antialias = fill_mode, fill_value, antialias

    def get_random_transformation(self, data, training=True, seed=None):
        shape = self._images(data).shape
        h_axis, w_axis = self._hw_axes()
        return shape[h_axis], shape[w_axis]

    def _resize(self, images, interpolation):
        if interpolation not in _image.RESIZE_INTERPOLATIONS:
            # checked when called, as Keras's TensorFlow backend does
            raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                             f"{_image.RESIZE_INTERPOLATIONS}. Received: interpolation="
                             f"{interpolation}")

        def resize(x):
            if self.crop_to_aspect_ratio:
                x = _image.crop_to_aspect_ratio(x, self.height, self.width)
            elif self.pad_to_aspect_ratio:
                from ....ops.image import _pad_to_aspect_ratio
                x = _pad_to_aspect_ratio(x, self.height, self.width, self.fill_value)
            return _image.resize(x, self.height, self.width, interpolation, self.antialias)
        return channels_last(resize, images, self.data_format)

    def transform_images(self, images, transformation=None, training=True):
        return self._resize(images, self.interpolation)

    def transform_segmentation_masks(self, segmentation_masks, transformation=None,
                                     training=True):
        return self._resize(segmentation_masks, "nearest")

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        in_h, in_w = transformation
        boxes = tf.convert_to_tensor(bounding_boxes["boxes"])
        empty = tf.logical_or(tf.reduce_all(boxes == -1, axis=-1),
                              tf.reduce_all(boxes == 0, axis=-1))
        out = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", in_h, in_w)
        b = out["boxes"]
        h, w = tf.cast(in_h, b.dtype), tf.cast(in_w, b.dtype)
        if self.pad_to_aspect_ratio:
            ratio = tf.minimum(tf.cast(self.height / in_h, b.dtype),
                               tf.cast(self.width / in_w, b.dtype))
            sx = sy = ratio
            dx = -tf.math.floordiv(self.width - w * ratio, 2.0)
            dy = -tf.math.floordiv(self.height - h * ratio, 2.0)
        elif self.crop_to_aspect_ratio:
            source, target = w / h, self.width / self.height
            new_w = tf.where(source > target, self.height * source, float(self.width))
            new_h = tf.where(source > target, float(self.height), self.width / source)
            sx, sy = new_w / w, new_h / h
            dx = tf.math.floordiv(new_w - self.width, 2.0)
            dy = tf.math.floordiv(new_h - self.height, 2.0)
        else:
            sx, sy = tf.cast(self.width / in_w, b.dtype), tf.cast(self.height / in_h, b.dtype)
            dx = dy = tf.zeros((), b.dtype)
        out["boxes"] = tf.stack([b[..., 0] * sx - dx, b[..., 1] * sy - dy,
                                 b[..., 2] * sx - dx, b[..., 3] * sy - dy], axis=-1)
        out = clip_to_image_size(out, self.height, self.width)
        out["boxes"] = tf.where(empty[..., None], tf.zeros((4,), out["boxes"].dtype),
                                out["boxes"])
        return convert_format(out, "xyxy", self.bounding_box_format, self.height, self.width)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        h_axis, w_axis = self._hw_axes()
        shape[h_axis], shape[w_axis] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width,
                    interpolation=self.interpolation,
                    crop_to_aspect_ratio=self.crop_to_aspect_ratio,
                    pad_to_aspect_ratio=self.pad_to_aspect_ratio, fill_mode=self.fill_mode,
                    fill_value=self.fill_value, antialias=self.antialias,
                    data_format=self.data_format)
