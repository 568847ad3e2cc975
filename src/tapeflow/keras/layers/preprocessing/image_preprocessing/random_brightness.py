"""``tf.keras.layers.RandomBrightness``."""
import tapeflow as tf

from .... import random as _kr
from .augmentation_base import AugmentationLayer, batch_size, draw_shape, sorted_value_range

__all__ = ["RandomBrightness"]


class RandomBrightness(AugmentationLayer):
    """Add a random brightness offset to each image, then clip to ``value_range``
    (``tf.keras.layers.RandomBrightness``): the offset, one per image, is drawn from the
    layer's ``keras.random.SeedGenerator`` in ``factor``'s range and scaled by the width of
    ``value_range``, as Keras 3 does.

    Args:
        factor: ``f`` draws the offset from ``[-f, f]``; ``(lo, hi)`` from ``[lo, hi]``
            (within ``[-1, 1]``).
        value_range: the images' range, a pair (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator (None: one from Python's ``random``).

    Inputs: images ``(batch, h, w, c)``, one image ``(h, w, c)``, or a dict with ``images``
    (labels, boxes and masks pass unchanged). ``training=False`` returns the images.

    Raises:
        ValueError: for a factor outside ``[-1, 1]`` or a value_range that is not a pair.

    >>> import tapeflow as tf
    >>> layer = tf.keras.layers.RandomBrightness(0.1, seed=3)
    >>> y = layer(tf.fill((1, 2, 2, 1), 100.0), training=True)
    >>> bool(tf.reduce_all(y == y[0, 0, 0, 0]) and 74.5 <= float(y[0, 0, 0, 0]) <= 125.5)
    True
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor=factor, **kwargs)
        self._set_seed(seed)
        self.value_range = sorted_value_range(value_range)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self._images(data)
        shape = (1, 1, 1) if len(images.shape) == 3 else draw_shape(batch_size(images), 1, 1, 1)
        if not training:
            return {"rgb_delta": tf.zeros(shape)}
        delta = _kr.uniform(shape, self.factor[0], self.factor[1], seed=self._seed(seed))
        return {"rgb_delta": delta * (self.value_range[1] - self.value_range[0])}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = images + tf.cast(transformation["rgb_delta"], images.dtype)
        return tf.clip_by_value(images, tf.cast(self.value_range[0], images.dtype),
                                tf.cast(self.value_range[1], images.dtype))

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)
