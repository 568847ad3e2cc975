"""``tf.keras.layers.RandomFlip``."""
from .....ops import array_ops as _a
from .....ops import manip_ops as _mn
from .....ops import math_ops as _m
from .....ops import random_ops as _r
from .base_image_preprocessing_layer import _batch, _ImageLayer

__all__ = ["RandomFlip"]


class RandomFlip(_ImageLayer):
    """Flip each image with probability 1/2 (``tf.keras.layers.RandomFlip``).

    Args:
        mode: 'horizontal', 'vertical' or 'horizontal_and_vertical' (one draw per image
            decides both flips, as in Keras).
        seed: an op seed for ``tf.random.uniform``.

    Raises:
        ValueError: for another mode.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(4.0), (1, 1, 4, 1))
    >>> y = tf.keras.layers.RandomFlip("horizontal")(x, training=True)[0, 0, :, 0]
    >>> y.numpy().tolist() in ([0.0, 1.0, 2.0, 3.0], [3.0, 2.0, 1.0, 0.0])
    True
    """

    _MODES = ("horizontal", "vertical", "horizontal_and_vertical")

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if mode not in self._MODES:
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode "
                             f"argument {mode}")
        self.mode, self.seed = mode, seed

    def _transform(self, images, training):
        if not training:
            return images
        flips = _m.less_equal(_r.uniform((_batch(images), 1, 1, 1), seed=self.seed), 0.5)
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            images = _a.where(flips, _mn.reverse(images, [2]), images)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            images = _a.where(flips, _mn.reverse(images, [1]), images)
        return images

    def get_config(self):
        return dict(super().get_config(), seed=self.seed, mode=self.mode)
