"""Variable updates beyond ``assign``: sliced assignment and scatter updates (TF's state_ops).

``v[1:3].assign(x)`` and ``v.scatter_nd_add(...)`` compute the new value with an op, then
``assign`` it: state changes only through ``Variable.assign``, so a traced function replays
them. Each returns the ``UnreadVariable`` that ``assign`` returns, as in TensorFlow.
"""
from .._core.backend import np
from .._core.dispatch import apply
from .._core.indexed_slices import IndexedSlices
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike, alias, convert_to_tensor
from . import array_ops as _a
from . import indexing_ops as _ix
from . import math_ops as _m

__all__ = ["variable_getitem"]


def _slice_update_forward(x, value, key):
    out = np.array(x, copy=True)
    out[key] = value
    return out


_SLICE_UPDATE = nondifferentiable("TensorStridedSliceUpdate", _slice_update_forward)


class _VariableSlice(Tensor):
    """``v[key]``: the slice's value as a tensor (taped like any slice), which also knows
    where it came from, so ``v[key].assign(x)`` updates the variable (as in TensorFlow)."""

    __slots__ = ("_var", "_key")
    _tf_path = Tensor._tf_path

    def _watchable(self, tape=None):
        return False

    def _read(self):
        return alias(self._value, self._id)

    def assign(self, value, name=None):
        """Write ``value`` (broadcast to the slice's shape) into the variable at the slice.

        Returns:
            The variable's ``UnreadVariable``.
        """
        var = self._var
        value = convert_to_tensor(value, dtype=var.dtype)
        key = _a._norm_key(self._key)
        return var.assign(apply(_SLICE_UPDATE, (var, value), {"key": key}))


_VariableSlice.__name__ = _VariableSlice.__qualname__ = "EagerTensor"


def variable_getitem(var, key):
    """``v[key]`` for a Variable: a tensor that also has ``assign`` (``v[1:3].assign(x)``)."""
    t = _ix.strided_slice_getitem(var, key)
    out = _new(_VariableSlice)
    out._value = t._value
    out._id = t._id  # the same tensor for the tapes: gradients flow through the slice
    out._var = var
    out._key = key  # normalised only if assigned to
    return out


_new = object.__new__


def _indices(x):
    return x if isinstance(x, _TensorLike) else convert_to_tensor(x)


def _updates(var, updates):
    return updates if isinstance(updates, _TensorLike) else convert_to_tensor(
        updates, dtype=var.dtype)


def scatter_nd_update(self, indices, updates, name=None):
    """Replace the slices at ``indices`` by ``updates`` (``Variable.scatter_nd_update``)."""
    return self.assign(_ix.tensor_scatter_nd_update(self, _indices(indices),
                                                   _updates(self, updates)))


def scatter_nd_add(self, indices, updates, name=None):
    """Add ``updates`` at ``indices`` (``Variable.scatter_nd_add``); duplicates add up."""
    return self.assign(_ix.tensor_scatter_nd_add(self, _indices(indices),
                                                _updates(self, updates)))


def scatter_nd_sub(self, indices, updates, name=None):
    """Subtract ``updates`` at ``indices`` (``Variable.scatter_nd_sub``)."""
    return self.assign(_ix.tensor_scatter_nd_sub(self, _indices(indices),
                                                _updates(self, updates)))


def _sparse(self, sparse_delta, combine):
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"sparse_delta is not IndexedSlices: {sparse_delta}")
    idx = _a.expand_dims(sparse_delta.indices, -1)
    return self.assign(combine(self, idx, _updates(self, sparse_delta.values)))


def _scatter_mul(t, idx, u):
    return _m.multiply(t, _ix.tensor_scatter_nd_update(_a.ones_like(t), idx, u))


def _scatter_div(t, idx, u):
    divisor = _ix.tensor_scatter_nd_update(_a.ones_like(t), idx, u)
    return _m.divide(t, divisor) if t.dtype.is_floating else _m.floordiv(t, divisor)


def scatter_update(self, sparse_delta, use_locking=False, name=None):
    """Replace the rows ``sparse_delta.indices`` by ``sparse_delta.values`` (an IndexedSlices).

    TensorFlow counterpart: ``tf.Variable.scatter_update``.

    Raises:
        TypeError: if ``sparse_delta`` is not an ``IndexedSlices``.
    """
    return _sparse(self, sparse_delta, _ix.tensor_scatter_nd_update)


def scatter_add(self, sparse_delta, use_locking=False, name=None):
    """Add an IndexedSlices' values to its rows (``tf.Variable.scatter_add``)."""
    return _sparse(self, sparse_delta, _ix.tensor_scatter_nd_add)


def scatter_sub(self, sparse_delta, use_locking=False, name=None):
    """Subtract an IndexedSlices' values from its rows (``tf.Variable.scatter_sub``)."""
    return _sparse(self, sparse_delta, _ix.tensor_scatter_nd_sub)


def scatter_max(self, sparse_delta, use_locking=False, name=None):
    """The element-wise maximum with an IndexedSlices' rows (``tf.Variable.scatter_max``)."""
    return _sparse(self, sparse_delta, _ix.tensor_scatter_nd_max)


def scatter_min(self, sparse_delta, use_locking=False, name=None):
    """The element-wise minimum with an IndexedSlices' rows (``tf.Variable.scatter_min``)."""
    return _sparse(self, sparse_delta, _ix.tensor_scatter_nd_min)


def scatter_mul(self, sparse_delta, use_locking=False, name=None):
    """Multiply rows by an IndexedSlices' values (``tf.Variable.scatter_mul``)."""
    return _sparse(self, sparse_delta, _scatter_mul)


def scatter_div(self, sparse_delta, use_locking=False, name=None):
    """Divide rows by an IndexedSlices' values (``tf.Variable.scatter_div``)."""
    return _sparse(self, sparse_delta, _scatter_div)


def batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
    """As ``scatter_update`` (TensorFlow's batched form for rank-1 indices is the same)."""
    return _sparse(self, sparse_delta, _ix.tensor_scatter_nd_update)


def sparse_read(self, indices, name=None):
    """The rows at ``indices`` (``Variable.sparse_read``): ``tf.gather(v, indices)``, whose
    gradient with respect to the variable is an IndexedSlices."""
    return _ix.gather(self, indices)


def gather_nd(self, indices, name=None):
    """``tf.gather_nd(v, indices)`` (``Variable.gather_nd``)."""
    return _ix.gather_nd(self, indices)


def _bind(cls):
    cls.__getitem__ = variable_getitem
    cls.sparse_read = sparse_read
    cls.gather_nd = gather_nd
    for f in (scatter_nd_update, scatter_nd_add, scatter_nd_sub, scatter_update,
              scatter_add, scatter_sub, scatter_max, scatter_min, scatter_mul, scatter_div,
              batch_scatter_update):
        setattr(cls, f.__name__, f)

