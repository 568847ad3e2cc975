"""``tf.keras.layers.RandomCrop``."""
from .....ops import array_ops as _a
from .....ops import creation_ops as _cr
from .....ops import indexing_ops as _ix
from .....ops import math_ops as _m
from .....ops import random_ops as _r
from .. import _image
from .base_image_preprocessing_layer import _ImageLayer

__all__ = ["RandomCrop"]


class RandomCrop(_ImageLayer):
    """Crop a random ``(height, width)`` window (``tf.keras.layers.RandomCrop``): one offset
    per call, shared by the batch, as in Keras 3. With ``training=False`` the images pass
    unchanged; images not larger than the window in both dimensions are centre-cropped to
    its aspect ratio and resized to it.

    Args:
        height, width: the window's size.
        seed: an op seed for ``tf.random.uniform``.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(36.0), (1, 6, 6, 1))
    >>> y = tf.keras.layers.RandomCrop(2, 3)(x, training=True)
    >>> y.shape, float(y[0, 1, 0, 0] - y[0, 0, 0, 0])  # a window: rows 6 apart
    (TensorShape([1, 2, 3, 1]), 6.0)
    """

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(data_format=data_format, name=name, **kwargs)
        self.height, self.width, self.seed = int(height), int(width), seed

    def _transform(self, images, training):
        if not training:
            return images
        h, w = images.shape[1], images.shape[2]
        if h > self.height and w > self.width:
            def window(size, target):
                start = _a.cast(_r.uniform((), 0.0, float(size - target + 1), seed=self.seed),
                                "int32")
                return _m.add(start, _cr.range(target))
            images = _ix.gather(images, window(h, self.height), axis=1)
            return _ix.gather(images, window(w, self.width), axis=2)
        # Keras centres a window of the target's aspect ratio, but slices the target's size
        # from its corner (clipped by the image), then resizes what it got.
        crop_h = max(min(h, int(float(w * self.height) / self.width)), 1)
        crop_w = max(min(w, int(float(h * self.width) / self.height)), 1)
        top, left = int(float(h - crop_h) / 2), int(float(w - crop_w) / 2)
        images = images[:, top:top + self.height, left:left + self.width, :]
        if tuple(images.shape[1:3]) != (self.height, self.width):
            images = _image.resize(images, self.height, self.width, "bilinear")
        return images

    def compute_output_shape(self, input_shape):
        return (*input_shape[:-3], self.height, self.width, input_shape[-1])

    def get_config(self):
        return dict(super().get_config(), height=self.height, width=self.width, seed=self.seed)
