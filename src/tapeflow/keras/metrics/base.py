"""Metric, the streaming base, and the reductions (Mean, Sum, MeanMetricWrapper).

A metric's state lives in non-trainable variables. ``update_state`` changes it only through
``Variable.assign*`` with values computed by ops, and ``result()`` computes from the
variables with ops, so a recorder of op calls and variable reads and writes replays a
metric exactly.

Under a ``tf.distribute`` strategy the state variables are sync-on-read: in one process the
replicas share them and every replica's update adds in; across processes ``result()`` reads
the state summed over all processes (one packed all-reduce), then puts the local state back.
"""
import functools
import sys

from ..._core import dtypes as _dt
from ..._core.tensor import _TensorLike, convert_to_tensor
from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .. import _naming
from .. import initializers as _init
from .._variable import KerasVariable
from ..backend import floatx
from ..losses import _same_rank  # noqa: F401 - Keras's squeeze_or_expand_to_same_rank

__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper", "reduce_to_samplewise_values"]


def _tensor(x, dtype):
    """``x`` as a tensor of ``dtype`` (None: its own dtype)."""
    if isinstance(x, _TensorLike):
        return x if dtype is None or x.dtype == dtype else _a.cast(x, dtype)
    t = convert_to_tensor(x)
    return t if dtype is None or t.dtype == dtype else _a.cast(t, dtype)


def reduce_to_samplewise_values(values, sample_weight, reduce_fn, dtype):
    """Per-sample values (reduced over the non-batch axes) and per-sample weights, as Keras
    3 reduces them before accumulating."""
    values = _tensor(values, dtype)
    if sample_weight is not None:
        sample_weight = _tensor(sample_weight, dtype)
        values, sample_weight = _same_rank(values, sample_weight)
        w_ndim, v_ndim = sample_weight.ndim, values.ndim
        if v_ndim > w_ndim:
            values = reduce_fn(values, list(range(w_ndim, v_ndim)))
        sample_weight = _a.broadcast_to(sample_weight, _a.shape(values))
        values = _m.multiply(values, sample_weight)
        if w_ndim > 1:
            sample_weight = reduce_fn(sample_weight, list(range(1, w_ndim)))
    if values.ndim > 1:
        values = reduce_fn(values, list(range(1, values.ndim)))
    return values, sample_weight


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
        if comm is None or getattr(self, "_summing", False) or not self._variables:
            return result(self)
        from ...distribute import collective_ops
        local = [v.read_value() for v in self._variables]
        summed = collective_ops.pack_all_reduce(local, comm, "sum")
        self._summing = True
        try:
            for v, t in zip(self._variables, summed, strict=True):
                v.assign(t)
            return result(self)
        finally:
            self._summing = False
            for v, t in zip(self._variables, local, strict=True):
                v.assign(t)
    return wrapper


class Metric:
    """Base class: ``update_state(...)`` accumulates, ``result()`` reads, ``reset_state()``
    clears; calling the metric updates it and returns the result (``tf.keras.metrics.Metric``).

    Args:
        name: the metric's name (default the class name in snake case).
        dtype: the dtype of the state and the result (default float32).
    """

    def __init__(self, name=None, dtype=None, **kwargs):
        if kwargs:
            raise TypeError(f"Unexpected keyword arguments: {sorted(kwargs)}")
        self.name = name or _naming.auto_name(type(self).__name__)
        self._dtype = _dt.as_dtype(dtype or floatx())
        self._variables = []
        self._comm = _cross_process_comm()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "result" in cls.__dict__:
            cls.result = _summed_over_processes(cls.__dict__["result"])

    def add_variable(self, shape=(), initializer="zeros", dtype=None, aggregation="sum",
                     name=None) -> KerasVariable:
        """A non-trainable state variable (``initializer`` default zeros)."""
        dtype = _dt.as_dtype(dtype or self._dtype)
        value = _init.get(initializer)(tuple(shape), dtype=dtype)
        with _naming.name_scope(self.name, self):
            var = KerasVariable(value, name=name or "variable", trainable=False, dtype=dtype)
        values = sys.modules.get("tapeflow.distribute.values")
        if values is not None:  # under a strategy: every replica's update counts
            values.sync_on_read(var.value)
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
        """Set every state variable back to zeros."""
        for v in self._variables:
            v.assign(_cr.zeros(v.shape, v.dtype))

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


class Sum(Metric):
    """The running sum of the (weighted) values (``tf.keras.metrics.Sum``).

    >>> import tapeflow as tf
    >>> m = tf.keras.metrics.Sum()
    >>> float(m([1.0, 3.0, 5.0, 7.0]))
    16.0
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = reduce_to_samplewise_values(values, sample_weight, _r.reduce_sum,
                                                self._dtype)
        self.total.assign_add(_r.reduce_sum(values))

    def result(self):
        return _a.identity(self.total)


class Mean(Metric):
    """The running (weighted) mean of the values seen (``tf.keras.metrics.Mean``).

    Values of rank > 1 count once per sample (their mean over the other axes), as in
    Keras 3; ``result()`` is ``total / count`` (0 before any update), a float32 scalar.

    >>> import tapeflow as tf
    >>> m = tf.keras.metrics.Mean()
    >>> float(m([1.0, 2.0]))
    1.5
    >>> float(m(6.0))
    3.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        """Add ``values`` (one per sample, or more per sample averaged first).

        Args:
            values: a tensor or array of numbers.
            sample_weight: optional weights broadcastable to ``values``.
        """
        values, sample_weight = reduce_to_samplewise_values(values, sample_weight,
                                                            _r.reduce_mean, self._dtype)
        if sample_weight is not None:
            self.total.assign_add(_r.reduce_sum(values))
            self.count.assign_add(_r.reduce_sum(sample_weight))
            return
        # Without weights each sample counts once: the size op (a run-time count under a
        # relaxed-shape trace), or for a scalar a constant 1 made before any trace.
        if values.ndim:
            self.total.assign_add(_r.reduce_sum(values))
            self.count.assign_add(_a.cast(_a.size(values), self._dtype))
        else:
            self.total.assign_add(values)
            self.count.assign_add(_one(self._dtype))

    def reset_state(self):
        self.total.assign(_a.zeros_like(self.total))
        self.count.assign(_a.zeros_like(self.count))

    def result(self):
        return _m.divide_no_nan(self.total, self.count)


_ONES = {dt: convert_to_tensor(1, dtype=dt) for dt in (_dt.float16, _dt.float32, _dt.float64)}


def _one(dtype):
    one = _ONES.get(dtype)
    if one is None:
        one = _ONES[dtype] = convert_to_tensor(1, dtype=dtype)
    return one


class MeanMetricWrapper(Mean):
    """The running mean of ``fn(y_true, y_pred, **kwargs)``
    (``tf.keras.metrics.MeanMetricWrapper``).

    Args:
        fn: a function of ``(y_true, y_pred, **kwargs)`` returning per-example values.
        name, dtype: as for ``Metric``.
        **kwargs: passed to ``fn``.
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or getattr(fn, "__name__", None), dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs
        from .. import losses
        if getattr(fn, "__module__", None) == losses.__name__:
            # A loss function goes down as the model improves (EarlyStopping's 'auto').
            self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        super().update_state(values, sample_weight=sample_weight)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({k: v for k, v in self._fn_kwargs.items()})
        return config
