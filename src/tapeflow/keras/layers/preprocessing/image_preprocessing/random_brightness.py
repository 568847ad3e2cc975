"""``tf.keras.layers.RandomBrightness``."""
from .....ops import math_ops as _m
from .....ops import random_ops as _r
from .base_image_preprocessing_layer import _batch, _factor_range, _ImageLayer

__all__ = ["RandomBrightness"]


class RandomBrightness(_ImageLayer):
    """Add a random brightness offset to each image, then clip to ``value_range``
    (``tf.keras.layers.RandomBrightness``).

    Args:
        factor: ``f`` draws the offset from ``[-f, f]`` times the width of
            ``value_range``; ``(lo, hi)`` from ``[lo, hi]`` times it (within ``[-1, 1]``).
        value_range: the images' range (default ``(0, 255)``).
        seed: an op seed for ``tf.random.uniform``.

    Raises:
        ValueError: for a factor outside ``[-1, 1]``.

    >>> import tapeflow as tf
    >>> y = tf.keras.layers.RandomBrightness(0.1)(tf.fill((1, 2, 2, 1), 100.0), training=True)
    >>> bool(tf.reduce_all(y == y[0, 0, 0, 0]) and 74.5 <= float(y[0, 0, 0, 0]) <= 125.5)
    True
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor = _factor_range(factor, (-1, 1))
        if len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. "
                             f"Received: value_range={value_range}")
        self.value_range, self.seed = list(value_range), seed

    def _transform(self, images, training):
        if not training:
            return images
        low, high = sorted(self.value_range)
        delta = _r.uniform((_batch(images), 1, 1, 1), self.factor[0], self.factor[1],
                           seed=self.seed, dtype=images.dtype)
        out = _m.add(images, _m.multiply(delta, float(high - low)))
        return _m.minimum(_m.maximum(out, float(low)), float(high))

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)
