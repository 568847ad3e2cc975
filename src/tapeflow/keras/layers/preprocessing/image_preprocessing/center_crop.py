"""``tf.keras.layers.CenterCrop``."""
from .. import _image
from .base_image_preprocessing_layer import _ImageLayer

__all__ = ["CenterCrop"]


class CenterCrop(_ImageLayer):
    """The central ``(height, width)`` window of each image (``tf.keras.layers.CenterCrop``);
    an image smaller than that is first cropped to the target aspect ratio and resized up,
    as in Keras.

    Args:
        height, width: the output size.
        data_format: 'channels_last' (default: ``keras.config.image_data_format()``),
            images ``(batch, h, w, c)`` or ``(h, w, c)``, or 'channels_first',
            ``(batch, c, h, w)`` or ``(c, h, w)``.

    Integer images are computed in the layer's float dtype, as in Keras.

    Raises:
        ValueError: for another data format or inputs of rank other than 3 or 4.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
    >>> tf.keras.layers.CenterCrop(2, 2)(x)[0, :, :, 0].numpy().tolist()
    [[5.0, 6.0], [9.0, 10.0]]
    """

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = int(height), int(width)

    def _transform(self, images, training):
        h, w = images.shape[1], images.shape[2]
        if h < self.height or w < self.width:
            cropped = _image.crop_to_aspect_ratio(images, self.height, self.width)
            return _image.resize(cropped, self.height, self.width, "bilinear")
        top, left = int((h - self.height) / 2), int((w - self.width) / 2)
        return images[:, top:top + self.height, left:left + self.width, :]

    def compute_output_shape(self, input_shape):
        return self._sized_output_shape(input_shape)

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width)
