"""``tf.keras.layers.Resizing``."""
from .. import _image
from .base_image_preprocessing_layer import _ImageLayer

__all__ = ["Resizing"]


class Resizing(_ImageLayer):
    """Resize images to ``(height, width)`` (``tf.keras.layers.Resizing``).

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

    Raises:
        ValueError: when called with another interpolation (Keras's text), for another
            data format, or inputs of rank other than 3 or 4.

    >>> import tapeflow as tf
    >>> tf.keras.layers.Resizing(4, 6)(tf.ones((2, 8, 8, 3))).shape
    TensorShape([2, 4, 6, 3])
    """

    _cast_kinds = "f"  # integer images come back in their own dtype, as in Keras

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = int(height), int(width)
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self.pad_to_aspect_ratio = pad_to_aspect_ratio
        self.fill_mode, self.fill_value, self.antialias = fill_mode, fill_value, antialias

    def _transform(self, images, training):
        if self.interpolation not in _image.RESIZE_INTERPOLATIONS:
            # checked when called, as Keras's TensorFlow backend does
            raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                             f"{_image.RESIZE_INTERPOLATIONS}. Received: interpolation="
                             f"{self.interpolation}")
        if self.crop_to_aspect_ratio:
            images = _image.crop_to_aspect_ratio(images, self.height, self.width)
        elif self.pad_to_aspect_ratio:
            from ....ops.image import _pad_to_aspect_ratio
            images = _pad_to_aspect_ratio(images, self.height, self.width, self.fill_value)
        return _image.resize(images, self.height, self.width, self.interpolation,
                              self.antialias)

    def compute_output_shape(self, input_shape):
        return self._sized_output_shape(input_shape)

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width,
                    interpolation=self.interpolation,
                    crop_to_aspect_ratio=self.crop_to_aspect_ratio,
                    pad_to_aspect_ratio=self.pad_to_aspect_ratio, fill_mode=self.fill_mode,
                    fill_value=self.fill_value, antialias=self.antialias)
