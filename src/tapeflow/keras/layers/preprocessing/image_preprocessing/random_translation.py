"""``tf.keras.layers.RandomTranslation``."""
from .....ops import array_ops as _a
from .....ops import math_ops as _m
from .....ops import random_ops as _r
from .base_image_preprocessing_layer import _SHIFT_MESSAGE, _AffineLayer, _zoom_range

__all__ = ["RandomTranslation"]


class RandomTranslation(_AffineLayer):
    """Shift each image by a random fraction of its size
    (``tf.keras.layers.RandomTranslation``).

    Args:
        height_factor: ``f`` draws the vertical shift from ``[-f, f]`` times the height;
            ``(lo, hi)`` from ``[lo, hi]`` times the height (positive moves down).
        width_factor: the same for the horizontal shift (positive moves right).
        fill_mode, interpolation, seed, fill_value: as for ``RandomRotation``.

    Raises:
        ValueError: for a factor outside ``[-1, 1]``.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(1.0, 5.0), (1, 1, 4, 1))
    >>> shift = tf.keras.layers.RandomTranslation(0.0, (0.25, 0.25), fill_mode="constant")
    >>> shift(x)[0, 0, :, 0].numpy().tolist()  # one column to the right
    [0.0, 1.0, 2.0, 3.0]
    """

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _zoom_range(height_factor, "height_factor", _SHIFT_MESSAGE)
        self._width = _zoom_range(width_factor, "width_factor", _SHIFT_MESSAGE)

    def _matrix(self, n, h, w):
        dy = _m.multiply(_r.uniform((n, 1), self._height[0], self._height[1], seed=self.seed),
                         float(h))
        dx = _m.multiply(_r.uniform((n, 1), self._width[0], self._width[1], seed=self.seed),
                         float(w))
        zero, one = _a.zeros_like(dx), _a.ones_like(dx)
        return _a.concat([one, zero, _m.negative(dx), zero, one, _m.negative(dy), zero, zero],
                         axis=1)

    def get_config(self):
        return dict(super().get_config(), height_factor=self.height_factor,
                    width_factor=self.width_factor, fill_mode=self.fill_mode,
                    interpolation=self.interpolation, seed=self.seed,
                    fill_value=self.fill_value)
