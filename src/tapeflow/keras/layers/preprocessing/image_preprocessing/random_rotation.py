"""``tf.keras.layers.RandomRotation``."""
import math

from .....ops import array_ops as _a
from .....ops import math_ops as _m
from .....ops import random_ops as _r
from .base_image_preprocessing_layer import _AffineLayer, _factor_range

__all__ = ["RandomRotation"]


class RandomRotation(_AffineLayer):
    """Rotate each image by a random angle about its centre
    (``tf.keras.layers.RandomRotation``).

    Args:
        factor: a fraction of a full turn: ``f`` draws the angle from
            ``[-f * 360, f * 360]`` degrees, ``(lo, hi)`` from ``[lo * 360, hi * 360]``.
        fill_mode: how points outside the image are filled: 'reflect' (default), 'wrap',
            'constant' (``fill_value``) or 'nearest'.
        interpolation: 'bilinear' (default) or 'nearest'.
        seed: an op seed for ``tf.random.uniform``.
        fill_value: the value for ``fill_mode='constant'``.

    Raises:
        ValueError: for a factor outside ``[-1, 1]``.
        NotImplementedError: for an unknown fill mode or interpolation (Keras's class).

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> quarter = tf.keras.layers.RandomRotation((0.25, 0.25))  # exactly 90 degrees
    >>> [[round(v) for v in row] for row in quarter(x)[0, :, :, 0].numpy().tolist()]
    [[2, 5, 8], [1, 4, 7], [0, 3, 6]]
    """

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = _factor_range(factor, (-1, 1))

    def _matrix(self, n, h, w):
        angle = _m.multiply(_r.uniform((n,), self.factor[0] * 360.0, self.factor[1] * 360.0,
                                       seed=self.seed), math.pi / 180.0)
        cx, cy = 0.5 * (w - 1), 0.5 * (h - 1)
        cos, sin = _m.cos(angle), _m.sin(angle)
        a2 = _m.subtract(_m.subtract(cx, _m.multiply(cos, cx)), _m.multiply(_m.negative(sin),
                                                                             cy))
        b2 = _m.subtract(_m.subtract(cy, _m.multiply(sin, cx)), _m.multiply(cos, cy))
        zero = _a.zeros_like(angle)
        return _a.stack([cos, _m.negative(sin), a2, sin, cos, b2, zero, zero], axis=1)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, fill_mode=self.fill_mode,
                    fill_value=self.fill_value, interpolation=self.interpolation,
                    seed=self.seed)
