"""``tf.keras.layers.RandomZoom``."""
from .....ops import array_ops as _a
from .....ops import math_ops as _m
from .....ops import random_ops as _r
from .base_image_preprocessing_layer import _AffineLayer, _zoom_range

__all__ = ["RandomZoom"]


class RandomZoom(_AffineLayer):
    """Zoom each image in or out by a random factor (``tf.keras.layers.RandomZoom``).

    Args:
        height_factor: ``f`` draws the vertical zoom from ``[1 - f, 1 + f]``; ``(lo, hi)``
            from ``[1 + lo, 1 + hi]``. Positive values zoom out, negative values zoom in.
        width_factor: the same for the width; None keeps the aspect ratio (one draw).
        fill_mode, interpolation, seed, fill_value: as for ``RandomRotation``.

    Raises:
        ValueError: for a factor outside ``(-1, 1]``.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> out = tf.keras.layers.RandomZoom((-0.5, -0.5), fill_mode="constant")(x)
    >>> out[0, :, :, 0].numpy().tolist()[1]  # zoomed in 2x about the centre
    [3.5, 4.0, 4.5]
    """

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _zoom_range(height_factor, "height_factor")
        self._width = None if width_factor is None else _zoom_range(width_factor,
                                                                    "width_factor")

    def _matrix(self, n, h, w):
        zy = _r.uniform((n, 1), 1.0 + self._height[0], 1.0 + self._height[1], seed=self.seed)
        zx = zy if self._width is None else _r.uniform(
            (n, 1), 1.0 + self._width[0], 1.0 + self._width[1], seed=self.seed)
        zero = _a.zeros_like(zx)
        x_offset = _m.multiply(_m.subtract(1.0, zx), (w - 1.0) / 2.0)
        y_offset = _m.multiply(_m.subtract(1.0, zy), (h - 1.0) / 2.0)
        return _a.concat([zx, zero, x_offset, zero, zy, y_offset, zero, zero], axis=1)

    def get_config(self):
        return dict(super().get_config(), height_factor=self.height_factor,
                    width_factor=self.width_factor, fill_mode=self.fill_mode,
                    interpolation=self.interpolation, seed=self.seed,
                    fill_value=self.fill_value)
