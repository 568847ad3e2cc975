"""``tf.keras.layers.RandomContrast``."""
import tapeflow as tf

from .... import random as _kr
from .augmentation_base import AugmentationLayer, batch_size, draw_shape

__all__ = ["RandomContrast"]


class RandomContrast(AugmentationLayer):
    """Scale each image's deviation from its per-channel mean by a random factor, then clip
    to ``value_range`` (``tf.keras.layers.RandomContrast``): one factor per image, drawn
    from the layer's ``keras.random.SeedGenerator``, as Keras 3 does.

    Args:
        factor: ``f`` in ``[0, 1]`` draws the contrast factor from ``[1 - f, 1 + f]``;
            ``(lo, hi)`` from ``[1 - lo, 1 + hi]``.
        value_range: the range outputs are clipped to (default ``(0, 255)``).
        seed: the seed of the layer's SeedGenerator (None: one from Python's ``random``).
        data_format: 'channels_last' (default) or 'channels_first' (the axes averaged).

    Inputs: images ``(batch, h, w, c)``, one image, or a dict with ``images`` (labels,
    boxes and masks pass unchanged). ``training=False`` returns the images.

    Raises:
        ValueError: for a factor outside ``[0, 1]``.

    >>> import tapeflow as tf
    >>> x = tf.constant([[[[10.0], [30.0]]]])
    >>> y = tf.keras.layers.RandomContrast(0.5, seed=1)(x, training=True)[0, 0, :, 0].numpy()
    >>> bool(abs(y.mean() - 20.0) < 1e-4 and 5.0 <= y[1] - 20.0 <= 15.0)
    True
    """

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self._images(data)
        shape = (1, 1, 1) if len(images.shape) == 3 else draw_shape(batch_size(images), 1, 1, 1)
        if not training:
            return {"contrast_factor": tf.zeros(shape)}
        return {"contrast_factor": _kr.uniform(shape, 1.0 - self.factor[0],
                                               1.0 + self.factor[1], seed=self._seed(seed),
                                               dtype=self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        h_axis, w_axis = self._hw_axes()
        mean = tf.reduce_mean(tf.reduce_mean(images, axis=h_axis, keepdims=True), axis=w_axis,
                              keepdims=True)
        out = (images - mean) * transformation["contrast_factor"] + mean
        return tf.clip_by_value(out, float(self.value_range[0]), float(self.value_range[1]))

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, value_range=self.value_range,
                    seed=self.seed)
