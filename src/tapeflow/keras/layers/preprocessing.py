"""Normalization: standardise features with statistics learned by ``adapt``."""
from ..._core.backend import np
from ..._core.tensor import Tensor, _TensorLike
from ...data.dataset import Dataset
from ...ops import math_ops as _m
from ..backend import epsilon
from .layer import Layer

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
        self.mean = self.variance = self.count = None

    def _keep(self, ndim):
        if self.axis is None:
            return []
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        return [a % ndim for a in axes]

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the mean and variance of ``data`` (an array, a tensor or a Dataset of
        batches)."""
        if isinstance(data, Dataset):
            parts = [np.asarray(b._value if isinstance(b, _TensorLike) else b)
                     for b in data]
            values = np.concatenate(parts)
        else:
            values = np.asarray(data._value if isinstance(data, _TensorLike) else data)
        values = values.astype(np.float64)
        keep = self._keep(values.ndim)
        reduce = tuple(a for a in range(values.ndim) if a not in keep)
        shape = tuple(values.shape[a] if a in keep else 1 for a in range(values.ndim))
        mean = values.mean(axis=reduce).reshape(shape)
        variance = values.var(axis=reduce).reshape(shape)
        if self.mean is None:
            self.mean = self.add_weight(shape=shape, initializer="zeros", trainable=False,
                                        name="mean")
            self.variance = self.add_weight(shape=shape, initializer="ones", trainable=False,
                                            name="variance")
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                         name="count", dtype="int64")
        self.mean.assign(mean.astype(np.float32))
        self.variance.assign(variance.astype(np.float32))
        self.count.assign(np.int64(values.size // max(int(np.prod(shape)), 1)))
        self.built = True

    def build(self, input_shape):
        self.built = True

    def call(self, inputs):
        if self._fixed is not None:
            mean, variance = (Tensor(v) for v in self._fixed)
        elif self.mean is not None:
            mean, variance = self.mean, self.variance
        else:
            raise ValueError("You must call `.adapt()` on the Normalization layer before "
                             "using it, or pass `mean` and `variance`.")
        scale = _m.maximum(_m.sqrt(variance), epsilon())
        if self.invert:
            return _m.add(mean, _m.multiply(inputs, scale))
        return _m.divide(_m.subtract(inputs, mean), scale)
