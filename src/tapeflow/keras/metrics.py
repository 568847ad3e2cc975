"""Streaming metrics (``tf.keras.metrics``): state in non-trainable variables, read by ``result()``.

Updates run in NumPy on the variables' values, so they are never recorded on a tape.
"""
import functools
import sys

from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike
from . import _naming
from . import losses as _losses
from ._variable import KerasVariable
from .losses import (
    binary_crossentropy,
    categorical_crossentropy,
    mae,
    mse,
    sparse_categorical_crossentropy,
)

__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "MeanSquaredError",
           "MeanAbsoluteError", "sparse_categorical_accuracy", "categorical_accuracy",
           "accuracy", "binary_accuracy", "sparse_categorical_crossentropy",
           "Precision", "Recall", "RootMeanSquaredError", "SparseTopKCategoricalAccuracy",
           "TopKCategoricalAccuracy", "sparse_top_k_categorical_accuracy",
           "top_k_categorical_accuracy",
           "categorical_crossentropy", "binary_crossentropy", "mse", "mae"]


def _cross_process_comm():
    """The communicator of the multi-process strategy this metric is made under, else None."""
    ctx = sys.modules.get("tapeflow.distribute._context")
    if ctx is None or not ctx.has_strategy():
        return None
    comm = ctx.get_strategy()._comm
    return comm if comm.size > 1 else None


def _summed_over_processes(result):
    """Wrap ``result`` so that, under a multi-process strategy, it reads the state summed over
    all processes (TF's sum-on-read metric variables): one packed all-reduce, then the local
    state is put back. In one process replicas already share the state buffers."""
    @functools.wraps(result)
    def wrapper(self):
        comm = getattr(self, "_comm", None)
        if comm is None or getattr(self, "_summing", False):
            return result(self)
        from ..distribute import collective_ops
        local = [v.read_value() for v in self._variables]
        summed = collective_ops.pack_all_reduce(local, comm, "sum")
        self._summing = True
        try:
            for v, t in zip(self._variables, summed):
                v.assign(t)
            return result(self)
        finally:
            self._summing = False
            for v, t in zip(self._variables, local):
                v.assign(t)
    return wrapper


def _np(x):
    return x._value if isinstance(x, _TensorLike) else np.asarray(x)


class Metric:
    """Base class: ``update_state(...)`` accumulates, ``result()`` reads, ``reset_state()``
    clears; calling the metric updates it and returns the result (``tf.keras.metrics.Metric``).

    Args:
        name: the metric's name (default the class name in snake case).
        dtype: the dtype of the state and the result (default float32).
    """

    def __init__(self, name=None, dtype=None, **kwargs):
        self.name = name or _naming.to_snake_case(type(self).__name__)
        self._dtype = _dt.as_dtype(dtype or "float32")
        self._variables = []
        self._comm = _cross_process_comm()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "result" in cls.__dict__:
            cls.result = _summed_over_processes(cls.__dict__["result"])

    def add_variable(self, shape=(), initializer="zeros", dtype=None, aggregation="sum",
                     name=None):
        """A non-trainable state variable (``initializer`` default zeros)."""
        from . import initializers as _init
        dtype = _dt.as_dtype(dtype or self._dtype)
        value = _init.get(initializer)(tuple(shape), dtype=dtype)
        with _naming.name_scope(self.name, self):
            var = KerasVariable(value, name=name or "variable", trainable=False, dtype=dtype)
        var._initial = value._value
        values = sys.modules.get("tapeflow.distribute.values")
        if values is not None:  # under a strategy: every replica's update counts
            values.sync_on_read(var)
        self._variables.append(var)
        return var

    add_weight = add_variable

    @property
    def variables(self) -> list:
        return list(self._variables)

    @property
    def dtype(self) -> str:
        return self._dtype.name

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def reset_state(self):
        """Set every state variable back to its initial value."""
        for v in self._variables:
            v._value = np.array(getattr(v, "_initial", np.zeros_like(v._value)))

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


class Sum(Metric):
    """The running sum of the (weighted) values (``tf.keras.metrics.Sum``)."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        v = _np(values).astype(self._dtype._np)
        if sample_weight is not None:
            v = v * np.broadcast_to(_np(sample_weight).astype(v.dtype), v.shape)
        self.total._value = self.total._value + v.sum(dtype=v.dtype)

    def result(self):
        return Tensor(self.total._value.copy())


class Mean(Metric):
    """The running (weighted) mean of the values seen (``tf.keras.metrics.Mean``).

    ``result()`` is ``total / count`` (0 before any update), a float32 scalar Tensor.

    >>> import tapeflow as tf
    >>> m = tf.keras.metrics.Mean()
    >>> float(m([1.0, 2.0]))
    1.5
    >>> float(m(6.0))
    3.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        """Add ``values`` (any shape; each element counts once, or by its weight).

        Args:
            values: a tensor or array of numbers.
            sample_weight: optional weights broadcastable to ``values``.
        """
        dt = self._dtype._np
        v = _np(values).astype(dt)
        if sample_weight is None:
            total, count = v.sum(dtype=dt), dt.type(v.size)
        else:
            w = np.broadcast_to(_np(sample_weight).astype(dt), v.shape)
            total, count = (v * w).sum(dtype=dt), w.sum(dtype=dt)
        self.total._value = self.total._value + total
        self.count._value = self.count._value + count

    def result(self):
        count = self.count._value
        dt = self._dtype._np
        return Tensor(dt.type(self.total._value / count) if count else dt.type(0))


class MeanMetricWrapper(Mean):
    """The running mean of ``fn(y_true, y_pred)`` (``tf.keras.metrics.MeanMetricWrapper``).

    Args:
        fn: a function of ``(y_true, y_pred, **kwargs)`` returning per-example values.
        name, dtype: as for ``Metric``.
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name or fn.__name__, dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        super().update_state(values, sample_weight)


def _squeeze_last(a, b):
    if a.ndim == b.ndim + 1 and a.shape[-1] == 1:
        a = a[..., 0]
    return a


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where ``argmax(y_pred, -1)`` equals the integer label, else 0.0 (float32)."""
    t, p = _np(y_true), _np(y_pred)
    if t.ndim == p.ndim and t.shape[-1] == 1:
        t = t[..., 0]
    return Tensor((np.argmax(p, -1) == t).astype(np.float32))


def categorical_accuracy(y_true, y_pred):
    """1.0 where the argmaxes of one-hot labels and predictions agree, else 0.0."""
    t, p = _np(y_true), _np(y_pred)
    return Tensor((np.argmax(p, -1) == np.argmax(t, -1)).astype(np.float32))


def accuracy(y_true, y_pred):
    """1.0 where ``y_true == y_pred`` element-wise, else 0.0."""
    t, p = _np(y_true), _np(y_pred)
    return Tensor((t == p).astype(np.float32))


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1.0 where ``y_pred > threshold`` matches the 0/1 label, averaged over the last axis."""
    t, p = _np(y_true), _np(y_pred)
    t = _squeeze_last(t, p) if t.ndim == p.ndim + 1 else t
    p = _squeeze_last(p, t) if p.ndim == t.ndim + 1 else p
    return Tensor(((p > threshold) == (t > 0.5)).astype(np.float32).mean(-1))


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the label's score is among the ``k`` largest (ties count as in), else 0.0."""
    t, p = _np(y_true).astype(np.int64), _np(y_pred)
    if t.ndim == p.ndim and t.shape[-1] == 1:
        t = t[..., 0]
    p2 = p.reshape(-1, p.shape[-1])
    score = np.take_along_axis(p2, t.reshape(-1, 1), axis=1)
    hit = (p2 > score).sum(-1) < k
    return Tensor(hit.reshape(t.shape).astype(np.float32))


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """As :func:`sparse_top_k_categorical_accuracy` with one-hot labels."""
    return sparse_top_k_categorical_accuracy(np.argmax(_np(y_true), -1), y_pred, k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the label is among the top ``k`` predictions."""

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype, k=k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label is among the top ``k`` predictions."""

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)


class _Confusion(Metric):
    """True/false positives and negatives of ``y_pred > thresholds`` against 0/1 labels."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name, dtype)
        if top_k is not None or class_id is not None:
            raise NotImplementedError("tapeflow's Precision/Recall take no top_k or class_id")
        self.thresholds = 0.5 if thresholds is None else thresholds
        n = len(self.thresholds) if isinstance(self.thresholds, (list, tuple)) else None
        shape = () if n is None else (n,)
        self.true_positives = self.add_variable(shape, name="true_positives")
        self.false_positives = self.add_variable(shape, name="false_positives")
        self.false_negatives = self.add_variable(shape, name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        t = _np(y_true).astype(bool).ravel()
        p = _np(y_pred).astype(np.float64).ravel()
        th = np.asarray(self.thresholds, np.float64)
        above = p[:, None] > th.reshape(1, -1)
        w = (np.ones_like(p) if sample_weight is None
             else np.broadcast_to(_np(sample_weight), _np(y_pred).shape).ravel())[:, None]
        dt = self._dtype._np
        shape = self.true_positives._value.shape
        for var, mask in ((self.true_positives, above & t[:, None]),
                          (self.false_positives, above & ~t[:, None]),
                          (self.false_negatives, ~above & t[:, None])):
            var._value = (var._value + (mask * w).sum(0).astype(dt).reshape(shape)).astype(dt)

    def _ratio(self, num, other):
        n, d = num._value, num._value + other._value
        return Tensor(np.where(d > 0, n / np.where(d > 0, d, 1), 0).astype(self._dtype._np))


class Precision(_Confusion):
    """``true_positives / (true_positives + false_positives)`` of ``y_pred > thresholds``
    (``tf.keras.metrics.Precision``; 0 when nothing is predicted positive)."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="precision",
                 dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)

    def result(self):
        return self._ratio(self.true_positives, self.false_positives)


class Recall(_Confusion):
    """``true_positives / (true_positives + false_negatives)`` (``tf.keras.metrics.Recall``)."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="recall", dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)

    def result(self):
        return self._ratio(self.true_positives, self.false_negatives)


class RootMeanSquaredError(Mean):
    """The square root of the running mean of squared errors
    (``tf.keras.metrics.RootMeanSquaredError``)."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        p = _np(y_pred).astype(self._dtype._np)
        t = _np(y_true).astype(p.dtype)
        super().update_state(np.square(t - p), sample_weight)

    def result(self):
        return Tensor(np.sqrt(super().result()._value))


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of the predictions equals the integer label
    (``tf.keras.metrics.SparseCategoricalAccuracy``)."""

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype)


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the argmaxes of one-hot labels and predictions agree."""

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype)


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels exactly (``tf.keras.metrics.Accuracy``)."""

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """How often thresholded predictions match 0/1 labels (``tf.keras.metrics.BinaryAccuracy``)."""

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class MeanSquaredError(MeanMetricWrapper):
    """The running mean of ``mean((y_true - y_pred) ** 2, -1)``."""

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(_losses.mean_squared_error, name, dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    """The running mean of ``mean(|y_true - y_pred|, -1)``."""

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(_losses.mean_absolute_error, name, dtype)
