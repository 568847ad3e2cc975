"""``tf.keras.layers.RandomContrast``."""
from .....ops import math_ops as _m
from .....ops import random_ops as _r
from .....ops import reduction_ops as _r2
from .base_image_preprocessing_layer import _batch, _factor_range, _ImageLayer

__all__ = ["RandomContrast"]


class RandomContrast(_ImageLayer):
    """Scale each image's deviation from its mean by a random factor, then clip to
    ``value_range`` (``tf.keras.layers.RandomContrast``).

    Args:
        factor: ``f`` in ``[0, 1]`` draws the contrast factor from ``[1 - f, 1 + f]``;
            ``(lo, hi)`` from ``[1 - lo, 1 + hi]``.
        value_range: the range outputs are clipped to (default ``(0, 255)``).
        seed: an op seed for ``tf.random.uniform``.

    Raises:
        ValueError: for a factor outside ``[0, 1]``.

    >>> import tapeflow as tf
    >>> x = tf.constant([[[[10.0], [30.0]]]])
    >>> y = tf.keras.layers.RandomContrast(0.5)(x, training=True)[0, 0, :, 0].numpy()
    >>> bool(abs(y.mean() - 20.0) < 1e-4 and 5.0 <= y[1] - 20.0 <= 15.0)
    True
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor = _factor_range(factor, (0, 1))
        self.value_range, self.seed = value_range, seed

    def _transform(self, images, training):
        if not training:
            return images
        f = _r.uniform((_batch(images), 1, 1, 1), 1.0 - self.factor[0], 1.0 + self.factor[1],
                       seed=self.seed, dtype=images.dtype)
        mean = _r2.reduce_mean(images, axis=[1, 2], keepdims=True)
        out = _m.add(_m.multiply(_m.subtract(images, mean), f), mean)
        return _m.minimum(_m.maximum(out, float(self.value_range[0])),
                          float(self.value_range[1]))

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)
