"""Normalization: standardise features with statistics learned by ``adapt``."""
from ...._core.backend import np
from ...._core.tensor import Tensor
from ....data.dataset import Dataset
from ....ops import array_ops as _a
from ....ops import math_ops as _m
from ...backend import epsilon
from ..layer import Layer

__all__ = ["Normalization"]


class Normalization(Layer):
    """``(x - mean) / max(sqrt(variance), 1e-7)`` per feature (``tf.keras.layers.Normalization``).

    The statistics come from ``mean``/``variance`` or from :meth:`adapt` on data (population
    variance over every axis but ``axis``). With ``invert=True`` the layer undoes the
    standardisation.

    Args:
        axis: the feature axis or axes kept (default -1); None for one scalar mean.
        mean, variance: fixed statistics (broadcastable), instead of ``adapt``.
        invert: map standardised values back.
    """

    supports_masking = True

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if (mean is None) != (variance is None):
            raise ValueError("When setting values directly, both `mean` and `variance` must "
                             f"be set. Received: mean={mean} and variance={variance}")
        self.axis = axis
        self.invert = invert
        self._fixed = None if mean is None else (np.float32(mean), np.float32(variance))
        self._given = (mean, variance)
        self.adapt_mean = self.adapt_variance = self.count = None

    @property
    def input_mean(self):
        """The ``mean`` given to the constructor (None when the layer is to be adapted)."""
        return self._given[0]

    @property
    def input_variance(self):
        """The ``variance`` given to the constructor (None when the layer is to be adapted)."""
        return self._given[1]

    def _keep(self, ndim):
        if self.axis is None:
            return []
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        return sorted(a % ndim for a in axes)

    @property
    def mean(self):
        """The learned mean, shaped to broadcast against the inputs (None before build)."""
        return None if self.adapt_mean is None else _a.reshape(self.adapt_mean,
                                                                 self._broadcast)

    @property
    def variance(self):
        """The learned variance, shaped to broadcast against the inputs."""
        return None if self.adapt_variance is None else _a.reshape(self.adapt_variance,
                                                                     self._broadcast)

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the mean and variance of ``data`` (an array, a tensor or a Dataset of
        batches)."""
        if isinstance(data, Dataset):
            parts = [np.asarray(b) for b in data]
            values = np.concatenate(parts)
        else:
            values = np.asarray(data)
        values = values.astype(np.float64)
        keep = self._keep(values.ndim)
        reduce = tuple(a for a in range(values.ndim) if a not in keep)
        if self.adapt_mean is None:
            self.build((None,) + values.shape[1:])
        shape = tuple(values.shape[a] for a in keep)
        self.adapt_mean.assign(values.mean(axis=reduce).reshape(shape).astype(np.float32))
        self.adapt_variance.assign(values.var(axis=reduce).reshape(shape).astype(np.float32))
        self.count.assign(np.int64(values.size // max(int(np.prod(shape)), 1)))
        self.built = True

    def build(self, input_shape):
        """Make the ``mean``, ``variance`` and ``count`` weights (Keras 3's names and
        shapes: the kept axes' sizes) unless fixed statistics were given."""
        ndim = len(input_shape)
        keep = self._keep(ndim)
        self._broadcast = tuple(input_shape[a] if a in keep else 1 for a in range(ndim))
        if self._fixed is None and self.adapt_mean is None:
            shape = tuple(input_shape[a] for a in keep)
            self.adapt_mean = self.add_weight(shape=shape, initializer="zeros",
                                              trainable=False, name="mean")
            self.adapt_variance = self.add_weight(shape=shape, initializer="ones",
                                                  trainable=False, name="variance")
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                         name="count", dtype="int64")
        self.built = True

    def get_config(self):
        axis = None if self.axis is None else (
            [self.axis] if isinstance(self.axis, int) else list(self.axis))
        mean, variance = self._given
        return dict(super().get_config(), axis=axis, invert=self.invert,
                    mean=None if mean is None else np.asarray(mean).tolist(),
                    variance=None if variance is None else np.asarray(variance).tolist())

    def call(self, inputs):
        if self._fixed is not None:
            mean, variance = (Tensor(v) for v in self._fixed)
        else:
            mean, variance = self.mean, self.variance
        scale = _m.maximum(_m.sqrt(variance), epsilon())
        if self.invert:
            return _m.add(mean, _m.multiply(inputs, scale))
        return _m.divide(_m.subtract(inputs, mean), scale)
