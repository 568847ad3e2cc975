"""The nested structures tf.data elements are made of (tuples, namedtuples, mappings of
NumPy values), their specs, and the argument checks every transformation shares."""
import collections.abc as _abc
import itertools

from .._core import dispatch as _dispatch
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, static_value
from .._core.tensor_spec import TensorSpec
from ..ops import random_ops as _random
from . import composite as _composite

# The Dataset class: data/dataset.py sets it when it loads (it imports this module, so
# this module cannot import it).
Dataset = None

INFINITE = -1
UNKNOWN = -2
AUTOTUNE = -1


# -- arguments ---------------------------------------------------------------------------
def _int64(value):
    """An int64 argument (count, size, index) as TensorFlow converts it, or its error."""
    if isinstance(value, _TensorLike):
        value = static_value(value)
    if value is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type "
                         "(<class 'NoneType'>) to a Tensor.")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu":
            return int(value)
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int64")
    return int(value)


def _init_scope():
    from .._core.recording import init_scope
    return init_scope()


def _op_error(text, op):
    from .._core import errors
    return errors.op_error(errors.InvalidArgumentError, text, op)


def _dims(spec):
    """A TensorSpec's shape as a tuple (``None`` for unknown dimensions)."""
    return tuple(spec.shape.as_list())


def _chunks(source, size, drop_remainder):
    """Lists of ``size`` consecutive elements of the iterator ``source`` (a shorter last one
    unless ``drop_remainder``): the batches of ``batch`` and ``padded_batch``."""
    while True:
        chunk = list(itertools.islice(source, size))
        if not chunk or (drop_remainder and len(chunk) < size):
            return
        yield chunk


# -- nested structures -------------------------------------------------------------------
def _is_struct(x):
    return isinstance(x, (tuple, _abc.Mapping))


def _map(fn, structure):
    """``fn`` applied to every leaf; tuples, namedtuples and mappings keep their type."""
    if isinstance(structure, _abc.Mapping):
        return type(structure)((k, _map(fn, v)) for k, v in structure.items())
    if isinstance(structure, tuple):
        items = [_map(fn, v) for v in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    return fn(structure)


def _leaves(structure):
    if isinstance(structure, _abc.Mapping):
        return [leaf for v in structure.values() for leaf in _leaves(v)]
    if isinstance(structure, tuple):
        return [leaf for v in structure for leaf in _leaves(v)]
    return [structure]


def _zip_map(fn, structures):
    """``fn(leaves...)`` over several structures of one shape (the first one's)."""
    first = structures[0]
    if isinstance(first, _abc.Mapping):
        return type(first)((k, _zip_map(fn, [s[k] for s in structures])) for k in first)
    if isinstance(first, tuple):
        items = [_zip_map(fn, [s[i] for s in structures]) for i in range(len(first))]
        return type(first)(*items) if hasattr(first, "_fields") else tuple(items)
    return fn(structures)


def _to_numpy(x):
    """A leaf as a NumPy value with TensorFlow's dtype rules (Python float -> float32)."""
    if isinstance(x, _TensorLike) or (isinstance(x, np.ndarray) and x.dtype.kind not in "US"):
        return np.asarray(x)
    if _composite.is_composite(x):      # a RaggedTensor / SparseTensor stays one
        return x
    return np.asarray(convert_to_tensor(x))  # NumPy strings: object arrays of bytes


def _row(a, i):
    """Row ``i`` of ``a``; a string (object) array's scalar row kept as a 0-d array."""
    v = a[i]
    return np.asarray(v, object) if a.dtype == object and not isinstance(v, np.ndarray) else v


def _from_user(structure):
    """A user's structure as NumPy leaves; a list is one leaf (read as a tensor, as in TF)."""
    return _map(_to_numpy, structure)


def _from_fn_output(structure):
    if isinstance(structure, list):
        structure = tuple(structure)
    return _map(_to_numpy, structure)


def _tensors(element):
    return _map(_wrap, element)


def _spec_of(element, batch_axis=None):
    def spec(v):
        if isinstance(v, Dataset):
            return DatasetSpec(v.element_spec)
        if _composite.is_composite(v):
            return _composite.spec_of_composite(v)
        shape = tuple(np.shape(v))
        if batch_axis is not None:
            shape = (batch_axis,) + shape
        return TensorSpec(shape, _dt.FROM_NUMPY[np.asarray(v).dtype])
    return _map(spec, element)


def _seeded_rng(seed):
    """A generator fixed by (global seed, op seed), or fresh entropy if neither is set."""
    global_seed = _random.get_global_seed()
    if seed is None and global_seed is None:
        return np.random.default_rng()
    if seed is None:
        seed = _random._rng(None).integers(2**31)
    return np.random.default_rng([int(seed), global_seed or 0])


def _stack(elements):
    return _zip_map(lambda leaves: np.stack([np.asarray(v) for v in leaves]), elements)


class DatasetSpec:
    """The spec of an element that is itself a dataset (``window``'s components;
    ``tf.data.DatasetSpec``): the inner ``element_spec`` and the (scalar) dataset shape."""

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self.shape = tuple(dataset_shape)

    def __eq__(self, other):
        return (isinstance(other, DatasetSpec) and self.element_spec == other.element_spec
                and self.shape == other.shape)

    def __hash__(self):
        return hash(self.shape)

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, TensorShape({list(self.shape)}))"


def _wrap(value):
    """A leaf of an element as the user sees it: a Tensor, or a Dataset (window's)."""
    if type(value) is np.ndarray or isinstance(value, np.generic):
        return Tensor(value)
    if isinstance(value, Dataset) or _composite.is_composite(value):
        return value
    if type(value) is Tensor:   # a row of a RaggedTensor component is already one
        return value
    return Tensor(value)


def _call(fn, element, *before):
    """``fn(*before, *element)`` for a tuple element, ``fn(*before, element)`` otherwise,
    on Tensors; run eagerly when a traced ``for`` loop pulls the element."""
    def run():
        args = _tensors(element)
        return fn(*before, *args) if type(element) is tuple else fn(*before, args)
    if _dispatch._state.tracer is not None:
        with _init_scope():
            return run()
    return run()


def _eager(fn, *args):
    """``fn(*args)`` run eagerly even when a traced loop pulls the element."""
    if _dispatch._state.tracer is not None:
        with _init_scope():
            return fn(*args)
    return fn(*args)


def _shape_dims(shape):
    """A padded shape (list, tuple, TensorShape, Tensor, int) as a tuple of ints/None."""
    if isinstance(shape, _TensorLike):
        shape = static_value(shape).tolist()
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    if hasattr(shape, "as_list") and getattr(shape, "rank", 0) is None:
        return None
    dims = []
    for d in (shape.as_list() if hasattr(shape, "as_list") else list(shape)):
        d = getattr(d, "value", d)
        dims.append(None if d is None or int(d) == -1 else int(d))
    return tuple(dims)


def _spec_leaf(spec):
    """This module's TensorSpec for a user's spec (``tf.TensorSpec`` or this module's)."""
    if isinstance(spec, (TensorSpec, DatasetSpec, _composite.RaggedTensorSpec,
                         _composite.SparseTensorSpec)):
        return spec
    return TensorSpec(_shape_dims(spec.shape), spec.dtype)


def _default_pad(dtype):
    return np.array(b"" if dtype == _dt.string else 0, dtype=dtype._np)


def _from_dataset_fn(out, what):
    if not isinstance(out, Dataset):
        raise TypeError(f"The `{what}` argument must return a `Dataset` object. Got "
                        f"{type(out)}.")
    return out
