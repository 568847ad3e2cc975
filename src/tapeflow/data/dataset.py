"""``tf.data.Dataset``: input pipelines over NumPy arrays, yielding tapeflow Tensors.

Elements are kept as nested structures (tuples, dicts, namedtuples) of NumPy values and
become Tensors only when iterated. ``from_tensor_slices(...).shuffle(...).batch(...)``
gathers each batch with one fancy-index per array rather than stacking element tensors.

``shuffle`` follows TensorFlow's algorithm -- a buffer of ``buffer_size`` elements from
which a uniformly random one is emitted and replaced by the next input -- but draws from
NumPy's PCG64, so the orders differ from TensorFlow's while being reproducible under
``tf.random.set_seed`` or an explicit ``seed``.
"""
import builtins
import collections.abc as _abc
import itertools
import json

from .._core import dispatch as _dispatch
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, static_value
from .._core.tensor_spec import TensorSpec
from ..ops import random_ops as _random
from . import composite as _composite

__all__ = [
    "Dataset", "DatasetSpec", "OwnedIterator", "Options", "TensorSpec", "INFINITE", "UNKNOWN",
    "AUTOTUNE",
]

INFINITE = -1
_GENERATOR_TOKENS = itertools.count()
UNKNOWN = -2
AUTOTUNE = -1


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
    from .._misc import init_scope
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


def _trace_map(dataset, map_func):
    """``(function, element_spec)`` for ``dataset.map(map_func)``, as TensorFlow makes it:
    ``map_func`` traced once, here, as a ``tf.function`` over the element spec (its
    ``print`` runs now and shows symbolic tensors named ``args_0``, ``args_1``, ...; the
    output spec keeps the input's unknown dimensions), then replayed per element. None
    (``map_func`` then runs eagerly per element, as before) when the spec is not known
    without pulling an element, holds ragged, sparse or dataset components, or the trace
    fails: the body reads values the stand-in inputs do not have (a file name), returns
    what a graph cannot, or creates variables."""
    if dataset._spec_fn is None or _dispatch._state.tracer is not None:
        return None
    try:
        spec = dataset.element_spec
    except Exception:  # noqa: BLE001 - no spec to trace with: the eager path decides
        return None
    if not all(type(s) is TensorSpec for s in _leaves(spec)):
        return None
    from ..function.polymorphic import Function

    def _map_fn(*args):
        return map_func(*args)

    fn = Function(_map_fn, name=getattr(map_func, "__name__", "map_fn"),
                  input_signature=list(spec) if type(spec) is tuple else [spec])
    from ..function.tracer import dry_python_calls
    try:
        with dry_python_calls():   # (get_concrete_function undoes the trace's draws)
            concrete = fn.get_concrete_function()
    except Exception:  # noqa: BLE001 - the eager per-element path runs (and raises) instead
        return None
    out = concrete.structured_outputs
    if isinstance(out, list):
        out = tuple(out)
    try:
        out_spec = _map(lambda t: TensorSpec(tuple(t.shape), t.dtype), out)
    except Exception:  # noqa: BLE001 - an output without a shape (None, a Python value)
        return None
    from ..function.concrete_function import direct_caller
    return direct_caller(fn, concrete), out_spec


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


def _component_dataset(values, spec):
    """A dataset over one component's values (a window's part): ``_VariantDataset``."""
    arrays = np.stack(values) if values else np.zeros(
        (0,) + tuple(d or 0 for d in spec.shape), spec.dtype._np)
    ds = Dataset._over_indices(arrays, lambda: np.arange(len(arrays)), len(arrays))
    ds._spec_fn = lambda: spec
    ds._kind = "_VariantDataset"
    return ds


def _elements_dataset(elements, spec, inferred=False):
    """A dataset over a list of elements structured as ``spec`` (a group_by_window window)."""
    if elements:
        try:
            arrays = _stack(elements)
        except ValueError:   # elements of varying shapes: a dataset over the list
            ds = Dataset(lambda: iter(elements), len(elements), lambda: spec)
            ds._kind, ds._spec_inferred = "_VariantDataset", inferred
            return ds
    else:
        arrays = _map(lambda s: np.zeros((0,) + tuple(d or 0 for d in s.shape), s.dtype._np),
                      spec)
    n = len(elements)
    ds = Dataset._over_indices(arrays, lambda: np.arange(n), n)
    ds._spec_fn = lambda: spec
    ds._kind, ds._spec_inferred = "_VariantDataset", inferred
    return ds


def _window_datasets(elements, spec):
    """A structure of component datasets over a list of elements (structured as ``spec``)."""
    if not elements:
        return _map(lambda s: _component_dataset([], s), spec)
    return _zip_map(lambda parts: _component_dataset(list(parts[1:]), parts[0]),
                    [spec] + list(elements))


def _from_dataset_fn(out, what):
    if not isinstance(out, Dataset):
        raise TypeError(f"The `{what}` argument must return a `Dataset` object. Got "
                        f"{type(out)}.")
    return out


class _OptionGroup:
    """A group of ``tf.data.Options`` settings (``threading``, ``experimental_optimization``
    ...): attributes set freely, unset ones read as None."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return None


class Options:
    """``tf.data.Options``: settings attached with ``Dataset.with_options``. tapeflow keeps
    them (``Dataset.options()`` returns them) but its pipelines do not depend on them.

    Raises:
        AttributeError: on setting a property TensorFlow's Options does not have.
    """

    _PROPERTIES = ("autotune", "dataset_name", "deterministic", "experimental_deterministic",
                   "experimental_distribute", "experimental_external_state_policy",
                   "experimental_optimization", "experimental_slack",
                   "experimental_symbolic_checkpoint", "experimental_warm_start",
                   "framework_type", "threading")
    _GROUPS = ("autotune", "experimental_distribute", "experimental_optimization",
               "threading")

    def __init__(self):
        for prop in self._PROPERTIES:
            object.__setattr__(self, prop, _OptionGroup() if prop in self._GROUPS else None)

    def __setattr__(self, name, value):
        if name not in self._PROPERTIES:
            raise AttributeError(f"Cannot set the property {name} on Options.")
        object.__setattr__(self, name, value)


class Dataset:
    """A sequence of elements with a pipeline of transformations (``tf.data.Dataset``).

    Build one with :meth:`from_tensor_slices`, :meth:`from_tensors`, :meth:`range`,
    :meth:`zip` or :meth:`from_generator`; chain ``shuffle``, ``batch``, ``map``, ...;
    iterate it with ``for``: each element is a Tensor, or a tuple/dict of Tensors packed
    like the input. Iterating again starts over (and reshuffles, by default).

    >>> import tapeflow as tf
    >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4, 5, 6])).batch(2)
    >>> [x.numpy().tolist() for x, _ in ds]
    [[1, 2], [3]]
    """

    _kind = "Dataset"
    _rngs = ()   # the [generator, first state] boxes of the shuffles upstream
    # element_spec was read off an element (a ``map`` output, say), not declared: its
    # dimensions may vary between elements where TensorFlow's traced spec says None.
    _spec_inferred = False
    _options = None

    def __init__(self, make_iter, cardinality, spec_fn=None, indices=None, arrays=None):
        self._make_iter = make_iter
        self._cardinality = cardinality
        self._spec_fn = spec_fn
        # For datasets that are an index order over arrays (slices, shuffled slices ...):
        # ``indices()`` gives one pass's order, ``arrays`` the structure of arrays.
        self._indices = indices
        self._arrays = arrays

    # -- sources -------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None) -> "Dataset":
        """Slice ``tensors`` along their first axis: one element per row.

        Args:
            tensors: an array-like, or a tuple/dict/namedtuple nesting array-likes that share
                their first dimension (a list is read as one tensor, as in TensorFlow).

        Returns:
            A Dataset of ``len`` the shared first dimension.

        Raises:
            ValueError: if a component is a scalar or the first dimensions differ.
        """
        arrays = _from_user(tensors)
        leaves = _leaves(arrays)
        for a in leaves:
            if np.ndim(a) == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        n = np.shape(leaves[0])[0]
        for a in leaves[1:]:
            if np.shape(a)[0] != n:
                raise ValueError(f"Dimensions {n} and {np.shape(a)[0]} are not compatible")
        ds = Dataset._over_indices(arrays, lambda: np.arange(n), n)
        ds._kind = "_TensorSliceDataset"
        return ds

    @staticmethod
    def _over_indices(arrays, indices, n):
        def it():
            for i in indices():
                yield _map(lambda a, i=i: _row(a, i), arrays)
        return Dataset(it, n, lambda: _map(lambda a: TensorSpec(
            np.shape(a)[1:], _dt.FROM_NUMPY[np.asarray(a).dtype]), arrays),
            indices=indices, arrays=arrays)

    @staticmethod
    def from_tensors(tensors, name=None) -> "Dataset":
        """A dataset of one element: ``tensors`` itself (a tensor or a nested structure)."""
        element = _from_user(tensors)
        ds = Dataset(lambda: iter([element]), 1, lambda: _spec_of(element))
        ds._kind = "_TensorDataset"
        return ds

    @staticmethod
    def range(*args, output_type=_dt.int64, name=None) -> "Dataset":
        """``range(stop)``, ``range(start, stop)`` or ``range(start, stop, step)`` as int64.

        Raises:
            ValueError: for a zero step.
        """
        r = range(*(_int64(a) for a in args))
        dtype = _dt.as_dtype(output_type)._np
        values = np.arange(r.start, r.stop, r.step, dtype=dtype)
        ds = Dataset._over_indices(values, lambda: np.arange(len(values)), len(values))
        ds._kind = "_RangeDataset"
        return ds

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None) -> "Dataset":
        """Elements from calling ``generator()`` afresh on every iteration.

        Args:
            generator: a callable returning an iterator of elements.
            output_types / output_signature: optional dtypes (a structure of DTypes or
                TensorSpecs) the elements are cast to.
        """
        spec = output_signature if output_signature is not None else output_types

        def leaf_cast(pair):
            want, value = pair
            # a TensorSpec (tf.TensorSpec or this module's) or a dtype
            dtype = _dt.as_dtype(want.dtype if hasattr(want, "shape") else want)
            return np.asarray(_to_numpy(value)).astype(dtype._np)

        token = next(_GENERATOR_TOKENS)

        def it(_token=token):   # each from_generator is another pipeline (a snapshot's
            # fingerprint), as TensorFlow's py_func tokens
            for item in generator(*(args or ())):
                # (eager conversions, also when a traced loop pulls the element)
                if spec is None:
                    yield _eager(_from_fn_output, item)
                else:   # the spec's structure: a list under a TensorSpec is one tensor
                    yield _eager(_zip_map, leaf_cast, [spec, item])
        spec_fn = None
        if output_signature is not None:
            declared = _map(_spec_leaf, output_signature)
            spec_fn = lambda: declared  # noqa: E731
        elif output_types is not None and output_shapes is not None:
            declared = _zip_map(lambda p: TensorSpec(_shape_dims(p[1]), p[0]),
                                [output_types, output_shapes])
            spec_fn = lambda: declared  # noqa: E731
        ds = Dataset(it, UNKNOWN, spec_fn)
        ds._kind = "_FlatMapDataset"   # TensorFlow builds it as a flat_map over ids
        return ds

    @staticmethod
    def zip(*datasets, name=None) -> "Dataset":
        """Elements of several datasets side by side, as a tuple (or the nesting given).

        Args:
            datasets: datasets, or one tuple/dict of datasets.

        Returns:
            A Dataset as long as the shortest input.
        """
        if len(datasets) == 1 and not isinstance(datasets[0], Dataset):
            structure = datasets[0]
        else:
            structure = tuple(datasets)
        parts = _leaves(structure)
        for d in parts:
            if not isinstance(d, Dataset):
                raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) "
                                "structures of `tf.data.Dataset` objects but encountered "
                                f"object of type {type(d)}.")
        cards = [d._cardinality for d in parts]
        finite = [c for c in cards if c >= 0]
        card = min(finite) if finite else (UNKNOWN if UNKNOWN in cards else INFINITE)
        if UNKNOWN in cards and card >= 0:
            card = UNKNOWN

        def it():
            for elements in zip(*(p._make_iter() for p in parts), strict=False):
                flat = iter(elements)
                yield _map(lambda _, flat=flat: next(flat), structure)
        spec_fn = None
        if all(p._spec_fn is not None for p in parts):
            def spec_fn():
                flat = iter([p.element_spec for p in parts])
                return _map(lambda _: next(flat), structure)
        ds = Dataset(it, card, spec_fn)
        ds._spec_inferred = any(p._spec_inferred for p in parts)
        ds._kind, ds._rngs = "_ZipDataset", tuple(r for d in parts for r in d._rngs)
        return ds

    # -- transformations -----------------------------------------------------------------
    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True,
                name=None) -> "Dataset":
        """Randomly reorder the elements through a buffer of ``buffer_size`` elements.

        With ``buffer_size`` at least the dataset's length the order is a uniform random
        permutation. The order differs from TensorFlow's (another generator); see the module
        docstring.

        Args:
            buffer_size: how many elements the buffer holds (>= 1).
            seed: optional op-level seed; with the global seed it fixes the orders.
            reshuffle_each_iteration: draw a new order on every pass (default) or repeat the
                first one.

        Raises:
            tf.errors.InvalidArgumentError: for a buffer size below 1 (other than -2,
                ``tf.data.UNKNOWN_CARDINALITY``), as TensorFlow.
        """
        buffer_size = _int64(buffer_size)
        if buffer_size == UNKNOWN:  # TensorFlow's UNKNOWN_CARDINALITY: the whole dataset
            buffer_size = np.iinfo(np.int64).max
        if buffer_size < 1:
            raise _op_error("buffer_size must be greater than zero or UNKNOWN_CARDINALITY",
                            "ShuffleDatasetV3")
        # [generator, its first state]: an iterator's checkpoint records and restores both.
        rng_box = [_seeded_rng(seed)]
        rng_box.append(rng_box[0].bit_generator.state)

        def rng():
            if not reshuffle_each_iteration:
                rng_box[0].bit_generator.state = rng_box[1]
            return rng_box[0]

        def order(items):
            r = rng()
            buf = []
            for item in items:
                if len(buf) < buffer_size:
                    buf.append(item)
                    continue
                j = int(r.integers(len(buf)))
                yield buf[j]
                buf[j] = item
            while buf:
                j = int(r.integers(len(buf)))
                buf[j], buf[-1] = buf[-1], buf[j]
                yield buf.pop()

        if self._indices is not None:
            parent = self._indices
            n = self._cardinality

            def indices():
                if buffer_size >= n:
                    return rng().permutation(parent())
                return np.fromiter(order(parent()), dtype=np.int64, count=n)
            ds = Dataset._over_indices(self._arrays, indices, n)
        else:
            ds = Dataset(lambda: order(self._make_iter()), self._cardinality,
                         self._spec_fn)
        ds._kind, ds._rngs = "_ShuffleDataset", self._rngs + (rng_box,)
        return ds

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None) -> "Dataset":
        """Combine consecutive elements into batches along a new first axis.

        Args:
            batch_size: elements per batch (>= 1).
            drop_remainder: drop a last, smaller batch.

        Returns:
            A Dataset whose components gain a leading axis (``None`` in ``element_spec``
            unless ``drop_remainder``).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1.
            TypeError: for a batch size that is not an integer.
        """
        batch_size = _int64(batch_size)
        if batch_size < 1:
            raise _op_error("Batch size must be greater than zero.", "BatchDatasetV2")
        card = self._cardinality
        if card >= 0:
            card = card // batch_size if drop_remainder else -(-card // batch_size)
        if self._indices is not None:
            arrays, indices = self._arrays, self._indices

            def it():
                order = indices()
                stop = len(order) - (len(order) % batch_size if drop_remainder else 0)
                for start in range(0, stop, batch_size):
                    chunk = order[start:start + batch_size]
                    if len(chunk) and chunk[-1] - chunk[0] == len(chunk) - 1 and np.all(
                            np.diff(chunk) == 1):
                        sl = slice(int(chunk[0]), int(chunk[-1]) + 1)
                        yield _map(lambda a, sl=sl: a[sl], arrays)
                    else:
                        yield _map(lambda a, chunk=chunk: a[chunk], arrays)
        else:
            parent = self._make_iter

            def it():
                for chunk in _chunks(parent(), batch_size, drop_remainder):
                    yield _stack(chunk)
        spec_fn = self._spec_fn
        size = batch_size if drop_remainder else None
        ds = Dataset(it, card, None if spec_fn is None else lambda: _map(
            lambda s: TensorSpec((size,) + _dims(s), s.dtype), spec_fn()))
        ds._kind, ds._rngs = "_BatchDataset", self._rngs
        return ds

    def unbatch(self, name=None) -> "Dataset":
        """Split each element along its first axis (the inverse of ``batch``)."""
        parent = self._make_iter

        def it():
            for element in parent():
                n = np.shape(_leaves(element)[0])[0]
                for i in range(n):
                    yield _map(lambda a, i=i: a[i], element)
        ds = Dataset(it, UNKNOWN if self._cardinality != INFINITE else INFINITE)
        ds._kind, ds._rngs = "_UnbatchDataset", self._rngs
        return ds

    def map(self, map_func, num_parallel_calls=None, deterministic=None,
            name=None) -> "Dataset":
        """Apply ``map_func`` to every element.

        A tuple element is passed as separate arguments (``map_func(x, y)``), anything else
        as one. ``map_func`` works on Tensors with tapeflow ops and returns a tensor or a
        nested structure of them (a list is read as a tuple).

        Raises:
            ValueError: if ``map_func`` is not callable.
        """
        if not callable(map_func):
            raise ValueError(f"Argument `func` must be a callable. Received func={map_func} "
                             f"(of type {type(map_func)})")
        parent = self._make_iter
        traced = _trace_map(self, map_func)

        def apply(element):
            args = _tensors(element)
            if traced is not None:
                try:
                    out = traced[0](*args) if type(element) is tuple else traced[0](args)
                    return _from_fn_output(out)
                except Exception:  # noqa: BLE001 - raised again below, by the eager body
                    pass   # an op error (raised eagerly: its class and text), or an element
                    #        the spec did not foresee (another shape): the body runs eagerly
            out = map_func(*args) if type(element) is tuple else map_func(args)
            return _from_fn_output(out)

        def call(element):
            if _dispatch._state.tracer is not None:   # pulled by a traced loop: eager code
                with _init_scope():
                    return apply(element)
            return apply(element)

        # builtins.map: a C iterator that an error in ``call`` does not end, so that, as
        # TensorFlow's iterators, a next ``next`` goes on (what ignore_errors relies on)
        ds = Dataset(lambda: builtins.map(call, parent()), self._cardinality,
                     None if traced is None else (lambda: traced[1]))
        # The traced spec is TensorFlow's where the probe of the trace can tell, but a size
        # that follows string contents may show the stand-in's: the transformations that
        # pad or stack by the spec (padded_batch, group_by_window, save) treat it as read
        # off an element, as before.
        ds._spec_inferred = True
        ds._kind, ds._rngs = "_MapDataset", self._rngs
        return ds

    def filter(self, predicate, name=None) -> "Dataset":
        """Keep the elements for which ``predicate`` (a scalar bool) is True.

        Raises:
            ValueError: (on iteration; TensorFlow raises it here, when it traces
                ``predicate``) if ``predicate`` returns anything but a scalar bool.
        """
        parent = self._make_iter

        def keep(element):
            if _dispatch._state.tracer is not None:   # pulled by a traced loop: eager code
                with _init_scope():
                    return test(element)
            return test(element)

        def test(element):
            args = _tensors(element)
            out = predicate(*args) if type(element) is tuple else predicate(args)
            if isinstance(out, _TensorLike):
                dtype, shape = out.dtype, tuple(out.shape)
            else:
                value = np.asarray(out)
                dtype, shape = _dt.FROM_NUMPY.get(value.dtype, _dt.int64), value.shape
            if dtype != _dt.bool or shape:
                spec = TensorSpec(shape, dtype)
                raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` "
                                 f"scalar tensor, but its return type is {spec}.")
            return bool(out)

        ds = Dataset(lambda: builtins.filter(keep, parent()),
                     INFINITE if self._cardinality == INFINITE else UNKNOWN, self._spec_fn)
        ds._kind, ds._rngs = "_FilterDataset", self._rngs
        return ds

    def repeat(self, count=None, name=None) -> "Dataset":
        """Repeat the dataset ``count`` times (forever for ``None`` or -1)."""
        count = None if count is None or _int64(count) < 0 else _int64(count)
        parent = self._make_iter
        card = self._cardinality
        if count is None:
            card = INFINITE if card != 0 else 0
        elif card >= 0:
            card *= count

        def it():
            passes = itertools.count() if count is None else range(count)
            for _ in passes:
                empty = True
                for element in parent():
                    empty = False
                    yield element
                if empty:
                    return
        ds = Dataset(it, card, self._spec_fn)
        ds._kind, ds._rngs = "_RepeatDataset", self._rngs
        return ds

    def take(self, count, name=None) -> "Dataset":
        """The first ``count`` elements (all of them for -1)."""
        count = _int64(count)
        if count < 0:
            return self
        card = self._cardinality
        card = count if card == INFINITE else (min(card, count) if card >= 0 else UNKNOWN)
        if self._indices is not None:
            parent = self._indices
            ds = Dataset._over_indices(self._arrays, lambda: parent()[:count], card)
        else:
            parent = self._make_iter
            ds = Dataset(lambda: itertools.islice(parent(), count), card, self._spec_fn)
        ds._kind, ds._rngs = "_TakeDataset", self._rngs
        return ds

    def skip(self, count, name=None) -> "Dataset":
        """All but the first ``count`` elements."""
        count = _int64(count)
        card = self._cardinality
        if card >= 0:
            card = max(card - count, 0) if count >= 0 else 0
        if self._indices is not None and count >= 0:
            parent = self._indices
            ds = Dataset._over_indices(self._arrays, lambda: parent()[count:], card)
        else:
            parent = self._make_iter
            stop = None if count >= 0 else 0
            ds = Dataset(lambda: itertools.islice(parent(), max(count, 0), stop), card,
                         self._spec_fn)
        ds._kind, ds._rngs = "_SkipDataset", self._rngs
        return ds

    def concatenate(self, dataset, name=None) -> "Dataset":
        """This dataset's elements followed by ``dataset``'s."""
        a, b = self._make_iter, dataset._make_iter
        c1, c2 = self._cardinality, dataset._cardinality
        card = INFINITE if INFINITE in (c1, c2) else (
            UNKNOWN if UNKNOWN in (c1, c2) else c1 + c2)
        ds = Dataset(lambda: itertools.chain(a(), b()), card, self._spec_fn)
        ds._kind, ds._rngs = "_ConcatenateDataset", self._rngs + dataset._rngs
        return ds

    def enumerate(self, start=0, name=None) -> "Dataset":
        """Pairs ``(i, element)`` with an int64 counter from ``start``."""
        counter = Dataset(lambda: (np.int64(i) for i in itertools.count(start)), INFINITE)
        ds = Dataset.zip(counter, self)
        ds._kind = "_EnumerateDataset"  # zip kept self._rngs
        return ds

    def shard(self, num_shards, index, name=None) -> "Dataset":
        """Every ``num_shards``-th element starting at ``index`` (one worker's share).

        Raises:
            tf.errors.InvalidArgumentError: unless ``0 <= index < num_shards``.
        """
        num_shards, index = _int64(num_shards), _int64(index)
        if num_shards < 1:
            raise _op_error("Number of shards must be greater than zero (currently "
                            f"num_shards = {num_shards}).", "ShardDataset")
        if not 0 <= index < num_shards:
            raise _op_error(f"Index must be between 0 and {num_shards - 1} (currently index = "
                            f"{index}).", "ShardDataset")
        card = self._cardinality
        if card >= 0:
            card = (card - index + num_shards - 1) // num_shards
        if self._indices is not None:
            parent = self._indices
            ds = Dataset._over_indices(self._arrays, lambda: parent()[index::num_shards], card)
        else:
            parent = self._make_iter
            ds = Dataset(lambda: itertools.islice(parent(), index, None, num_shards), card,
                         self._spec_fn)
        ds._kind, ds._rngs = "_ShardDataset", self._rngs
        return ds

    # -- structure-changing transformations (TF 2.21's padded_batch, flat_map, ...) ------
    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None) -> "Dataset":
        """Batch elements of varying shapes, padding each component to a common shape.

        Args:
            batch_size: elements per batch (>= 1).
            padded_shapes: per component (a structure like the element's), the shape each
                element is padded to; ``None``/-1 dimensions pad to the longest in the batch.
                Default: the element_spec's shapes (unknown dimensions pad to the batch max).
            padding_values: per component (or one for all) the fill value; default 0 (``b""``
                for strings).
            drop_remainder: drop a last, smaller batch.

        Returns:
            A Dataset whose components have shape ``(batch,) + padded_shape`` (``None`` for
            the batch axis unless ``drop_remainder``, and for padded ``None`` dimensions).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1.
            ValueError: if a padded shape's rank differs from its component's.
            tf.errors.DataLossError: (on iteration) if an element exceeds a fixed padded size.
        """
        batch_size = _int64(batch_size)
        if batch_size < 1:
            raise _op_error("Batch size must be greater than zero.", "PaddedBatchDatasetV2")
        in_spec = self.element_spec
        if padded_shapes is None and (self._spec_fn is None or self._spec_inferred):
            # element_spec read off the first element (no tracing here): its dimensions
            # may vary (a ``map`` output), so every one pads to the batch's longest.
            padded = _map(lambda s: (None,) * len(_dims(s)), in_spec)
        elif padded_shapes is None:
            padded = _map(_dims, in_spec)
        else:
            def check(pair):
                spec, shape = pair
                dims = _shape_dims(shape)
                if dims is None:
                    return _dims(spec)
                if len(dims) != len(_dims(spec)):
                    raise ValueError(f"The padded shape {dims!r} is not compatible with the "
                                     f"shape {_dims(spec)!r} of the corresponding input "
                                     "component.")
                return dims
            padded = _zip_map(check, [in_spec, padded_shapes])
        if padding_values is None:
            pads = _map(lambda s: _default_pad(s.dtype), in_spec)
        else:
            if not _is_struct(padding_values) and _is_struct(in_spec):
                padding_values = _map(lambda _: padding_values, in_spec)
            pads = _zip_map(lambda p: np.asarray(_to_numpy(p[1])).astype(p[0].dtype._np),
                            [in_spec, padding_values])
        card = self._cardinality
        if card >= 0:
            card = card // batch_size if drop_remainder else -(-card // batch_size)
        parent = self._make_iter

        def pad_component(parts):
            _, shape, pad, *values = parts
            target = []
            for axis, want in enumerate(shape):
                longest = max((np.shape(v)[axis] for v in values), default=0)
                if want is not None and longest > want:
                    from .._core import errors
                    raise errors.op_error(
                        errors.DataLossError, "Attempted to pad to a smaller size than the "
                        "input element.", "IteratorGetNext")
                target.append(longest if want is None else want)
            pad = np.asarray(pad)
            out = np.full((len(values),) + tuple(target), pad[()], dtype=pad.dtype)
            for i, v in enumerate(values):
                v = np.asarray(v)
                out[(i,) + tuple(slice(0, n) for n in v.shape)] = v if v.ndim else v[()]
            return out

        def it():
            for chunk in _chunks(parent(), batch_size, drop_remainder):
                yield _zip_map(pad_component, [in_spec, padded, pads] + chunk)
        size = batch_size if drop_remainder else None
        out_spec = _zip_map(lambda p: TensorSpec((size,) + tuple(p[1]), p[0].dtype),
                            [in_spec, padded])
        ds = Dataset(it, card, lambda: out_spec)
        ds._kind, ds._rngs = "_PaddedBatchDataset", self._rngs
        return ds

    def flat_map(self, map_func, name=None) -> "Dataset":
        """Map each element to a dataset (``map_func``) and chain those datasets' elements.

        A tuple element is passed as separate arguments. Cardinality is unknown (-2).

        Raises:
            TypeError: (on iteration) if ``map_func`` does not return a Dataset.
        """
        parent = self._make_iter

        def inner(element):
            return _from_dataset_fn(_call(map_func, element), "map_func")

        def it():
            for element in parent():
                yield from inner(element)._make_iter()

        def spec():
            for element in parent():
                return inner(element).element_spec
            raise ValueError("element_spec of a flat_map over an empty dataset")
        ds = Dataset(it, UNKNOWN, spec)
        ds._kind, ds._rngs = "_FlatMapDataset", self._rngs
        return ds

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None) -> "Dataset":
        """Map each element to a dataset and interleave ``cycle_length`` of them at a time,
        ``block_length`` consecutive elements from each, in TensorFlow's order (an exhausted
        dataset's slot takes the next input element when its turn comes again).

        Args:
            map_func: element -> Dataset.
            cycle_length: datasets open at once (default/AUTOTUNE: the number of CPU cores,
                as TensorFlow).
            block_length: consecutive elements taken from each (default 1).
            num_parallel_calls, deterministic: accepted; elements come in the deterministic
                order.

        Raises:
            tf.errors.InvalidArgumentError: for a cycle or block length below 1.
        """
        import os
        if cycle_length is None or _int64(cycle_length) == AUTOTUNE:
            cycle_length = os.cpu_count() or 1
        cycle_length = _int64(cycle_length)
        block_length = 1 if block_length is None else _int64(block_length)
        if cycle_length < 1:
            raise _op_error("cycle_length must be greater than zero.", "InterleaveDataset")
        if block_length < 1:
            raise _op_error("block_length must be greater than zero.", "InterleaveDataset")
        parent = self._make_iter

        def inner(element):
            return _from_dataset_fn(_call(map_func, element), "map_func")

        def it():
            source = parent()
            slots = [None] * cycle_length
            index = block = n_open = 0
            ended = False
            while not ended or n_open:
                if slots[index] is not None:
                    for element in slots[index]:
                        block += 1
                        if block == block_length:
                            index, block = (index + 1) % cycle_length, 0
                        yield element
                        break
                    else:
                        slots[index], n_open = None, n_open - 1
                        index, block = (index + 1) % cycle_length, 0
                elif not ended:
                    for element in source:
                        slots[index] = inner(element)._make_iter()
                        n_open += 1
                        break
                    else:
                        ended = True
                else:
                    index, block = (index + 1) % cycle_length, 0

        def spec():
            for element in parent():
                return inner(element).element_spec
            raise ValueError("element_spec of an interleave over an empty dataset")
        ds = Dataset(it, UNKNOWN, spec)
        ds._kind = "_InterleaveDataset" if num_parallel_calls is None else \
            "_ParallelInterleaveDataset"
        ds._rngs = self._rngs
        return ds

    def window(self, size, shift=None, stride=1, drop_remainder=False,
               name=None) -> "Dataset":
        """Group elements into windows, each a dataset (or a structure of per-component
        datasets, like the element) of ``size`` elements ``stride`` apart; a window starts
        every ``shift`` elements (default ``size``). Use ``flat_map``/``batch`` on them.

        Raises:
            tf.errors.InvalidArgumentError: for a size, shift or stride below 1.
        """
        size = _int64(size)
        shift = size if shift is None else _int64(shift)
        stride = _int64(stride)
        for what, value in (("size", size), ("shift", shift), ("stride", stride)):
            if value < 1:
                raise _op_error(f"Window {what} must be greater than zero.", "WindowDataset")
        card = self._cardinality
        if card >= 0:
            if drop_remainder:
                last = card - 1 - (size - 1) * stride
                card = last // shift + 1 if last >= 0 else 0
            else:
                card = -(-card // shift)
        parent = self._make_iter
        span = (size - 1) * stride + 1

        def it():
            spec = self.element_spec
            source = parent()
            buf, base, ended = [], 0, False    # buf[i] is element base + i
            start = 0
            while True:
                while not ended and len(buf) < start - base + span:
                    for element in source:
                        buf.append(element)
                        break
                    else:
                        ended = True
                offset = start - base
                if offset >= len(buf):
                    return
                items = buf[offset:offset + span:stride]
                if drop_remainder and len(items) < size:
                    return
                yield _window_datasets(items, spec)
                start += shift
                drop = min(start - base, len(buf))
                del buf[:drop]
                base += drop
                if ended and start - base >= len(buf):
                    return
        ds = Dataset(it, card, lambda: _map(DatasetSpec, self.element_spec))
        ds._kind, ds._rngs = "_WindowDataset", self._rngs
        return ds

    def scan(self, initial_state, scan_func, name=None) -> "Dataset":
        """A stateful map: ``new_state, output = scan_func(state, element)`` from
        ``initial_state``; the outputs are the elements.

        Raises:
            TypeError: (on iteration; TensorFlow raises it when it traces ``scan_func``) if
                the new state's dtypes differ from the initial state's.
        """
        init = _from_user(initial_state)
        parent = self._make_iter

        def step(state, element):
            out = scan_func(_tensors(state), _tensors(element))
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise TypeError("Invalid `scan_func`. `scan_func` should return a pair "
                                "consisting of new state and the output value but its "
                                f"return type is {type(out)}.")
            new_state = _from_fn_output(out[0])
            for old, new in zip(_leaves(init), _leaves(new_state)):
                a, b = _dt.FROM_NUMPY[np.asarray(old).dtype], _dt.FROM_NUMPY[
                    np.asarray(new).dtype]
                if a != b:
                    raise TypeError("Invalid `scan_func`. The element types for the new "
                                    "state must match the initial state. Expected "
                                    f"<dtype: '{a.name}'>, got <dtype: '{b.name}'>.")
            return new_state, _from_fn_output(out[1])

        def it():
            state = init
            for element in parent():
                state, output = _eager(step, state, element)
                yield output
        ds = Dataset(it, self._cardinality)
        ds._kind, ds._rngs = "_ScanDataset", self._rngs
        return ds

    def take_while(self, predicate, name=None) -> "Dataset":
        """The elements up to (not including) the first for which ``predicate`` is False.

        Raises:
            ValueError: (on iteration; TensorFlow raises it here) if ``predicate`` returns
                anything but a scalar bool.
        """
        parent = self._make_iter

        def test(element):
            out = _call(predicate, element)
            if isinstance(out, _TensorLike):
                dtype, shape = out.dtype, tuple(out.shape)
            else:
                value = np.asarray(out)
                dtype, shape = _dt.FROM_NUMPY.get(value.dtype, _dt.int64), value.shape
            if dtype != _dt.bool or shape:
                raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` "
                                 "scalar tensor but its return type is"
                                 f"{TensorSpec(shape, dtype)}.")
            return bool(out)
        ds = Dataset(lambda: itertools.takewhile(lambda e: _eager(test, e), parent()),
                     INFINITE if self._cardinality == INFINITE else UNKNOWN, self._spec_fn)
        ds._kind, ds._rngs = "_TakeWhileDataset", self._rngs
        return ds

    def unique(self, name=None) -> "Dataset":
        """The elements with repeats removed (first occurrences, in order).

        Raises:
            TypeError: unless the elements are int32, int64 or string tensors.
            tf.errors.InvalidArgumentError: for elements of more than one component.
        """
        spec = self.element_spec
        if _is_struct(spec):
            raise _op_error("UniqueDataset only supports inputs with a single component.",
                            "UniqueDataset")
        if spec.dtype not in (_dt.int32, _dt.int64, _dt.string):
            raise TypeError("`tf.data.Dataset.unique` does not support type <dtype: "
                            f"'{spec.dtype.name}'> "
                            "-- only `tf.int32`, `tf.int64`, and `tf.string` are supported.")
        parent = self._make_iter

        def it():
            seen = set()
            for element in parent():
                value = np.asarray(element)
                key = (value.shape, tuple(value.ravel().tolist()))
                if key not in seen:
                    seen.add(key)
                    yield element
        ds = Dataset(it, INFINITE if self._cardinality == INFINITE else UNKNOWN,
                     self._spec_fn)
        ds._kind, ds._rngs = "_UniqueDataset", self._rngs
        return ds

    def group_by_window(self, key_func, reduce_func, window_size=None,
                        window_size_func=None, name=None) -> "Dataset":
        """Group elements by ``key_func`` (an int64 scalar) into windows of ``window_size``
        (or ``window_size_func(key)``) elements; each full window, then each partial one at
        the end (in key order, as TensorFlow), goes through ``reduce_func(key, window)``,
        whose dataset's elements are the output.

        Raises:
            ValueError: unless exactly one of ``window_size``, ``window_size_func`` is given.
        """
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` "
                             "argument must be specified.")
        parent = self._make_iter

        def reduce(key, elements):
            window = _elements_dataset(elements, self.element_spec,
                                       self._spec_fn is None or self._spec_inferred)
            return _from_dataset_fn(reduce_func(Tensor(np.int64(key)), window),
                                    "reduce_func")

        def size_of(key):
            if window_size_func is None:
                return _int64(window_size)
            return _int64(window_size_func(Tensor(np.int64(key))))

        def it():
            groups, sizes = {}, {}
            for element in parent():
                key = _eager(lambda e: int(np.asarray(_call(key_func, e))), element)
                groups.setdefault(key, []).append(element)
                if key not in sizes:
                    sizes[key] = _eager(size_of, key)
                if len(groups[key]) >= sizes[key]:
                    yield from _eager(reduce, key, groups.pop(key))._make_iter()
            for key in sorted(groups):
                yield from _eager(reduce, key, groups[key])._make_iter()

        def spec():
            try:    # as TensorFlow's trace: reduce_func on an empty window of the spec
                return reduce(0, []).element_spec
            except ValueError:
                for element in it():
                    return _spec_of(element)
                raise
        ds = Dataset(it, INFINITE if self._cardinality == INFINITE else UNKNOWN, spec)
        ds._kind, ds._rngs = "_GroupByWindowDataset", self._rngs
        return ds

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None,
                                  padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False,
                                  name=None) -> "Dataset":
        """Batch elements of similar length together: ``element_length_func(element)`` picks
        the bucket (``bucket_boundaries`` split the lengths), each bucket is padded-batched
        with its ``bucket_batch_sizes`` entry (a ``group_by_window``).

        Raises:
            ValueError: if ``len(bucket_batch_sizes) != len(bucket_boundaries) + 1``.
        """
        boundaries = [int(b) for b in bucket_boundaries]
        sizes = [int(b) for b in bucket_batch_sizes]
        if len(sizes) != len(boundaries) + 1:
            raise ValueError("`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + "
                             f"1` but `len(bucket_batch_sizes)={len(sizes)}` and "
                             f"`len(bucket_boundaries)={len(boundaries)}`.")

        def key(*args):
            length = int(np.asarray(element_length_func(*args)))
            return np.int64(sum(1 for b in boundaries if length >= b))

        def reduce(bucket, window):
            bucket = int(np.asarray(bucket))
            if no_padding:
                return window.batch(sizes[bucket], drop_remainder=drop_remainder)
            shapes = padded_shapes
            if pad_to_bucket_boundary:
                bound = boundaries[bucket] - 1 if bucket < len(boundaries) else None
                spec = window.element_spec
                shapes = _map(lambda s: (bound,) + tuple(s.shape[1:]), spec)
            out = window.padded_batch(sizes[bucket], shapes, padding_values,
                                      drop_remainder=drop_remainder)
            if pad_to_bucket_boundary:   # TensorFlow's padded shape is a computed tensor
                spec = out.element_spec
                out._spec_fn = lambda: _map(lambda s: TensorSpec(
                    _dims(s)[:1] + (None,) + _dims(s)[2:], s.dtype), spec)
            return out
        return self.group_by_window(key, reduce,
                                    window_size_func=lambda k: sizes[int(np.asarray(k))])

    @staticmethod
    def counter(start=0, step=1, dtype=_dt.int64, name=None) -> "Dataset":
        """The infinite sequence ``start, start + step, ...`` as scalars of ``dtype``."""
        dtype = _dt.as_dtype(dtype)
        start, step = _int64(start), _int64(step)
        ds = Dataset(lambda: (np.asarray(start + i * step, dtype._np)
                              for i in itertools.count()), INFINITE,
                     lambda: TensorSpec((), dtype))
        ds._kind = "_ScanDataset"
        return ds

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True,
                             name=None) -> "Dataset":
        """Element ``i`` comes from ``datasets[choice_i]`` (``choice_dataset``'s int64s);
        an exhausted dataset ends the result (``stop_on_empty_dataset``) or is skipped.

        Raises:
            ValueError: for no datasets.
            TypeError: unless ``choice_dataset``'s elements are int64 scalars.
        """
        datasets = list(datasets)
        if not datasets:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        spec = choice_dataset.element_spec
        if not isinstance(spec, TensorSpec) or _dims(spec) or spec.dtype != _dt.int64:
            raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be "
                            f"scalar `tf.int64` tensors but are {spec}.")
        choices = choice_dataset._make_iter
        return Dataset._directed(datasets, lambda _: (int(c) for c in choices()),
                                 stop_on_empty_dataset, choice_dataset._rngs)

    @staticmethod
    def _directed(datasets, choices, stop, rngs):
        def it():
            iters = [d._make_iter() for d in datasets]
            live = [True] * len(datasets)
            for index in choices(live):
                if index is None:
                    return
                if not 0 <= index < len(datasets):
                    from .._core import errors
                    raise errors.InvalidArgumentError(
                        None, None, f"dataset index ({index}) out of bounds [0, "
                        f"{len(datasets)}).")
                if not live[index]:
                    continue
                for element in iters[index]:
                    yield element
                    break
                else:
                    if stop:
                        return
                    live[index] = False
                    if not any(live):
                        return
        cards = [d._cardinality for d in datasets]
        card = INFINITE if all(c == INFINITE for c in cards) else UNKNOWN
        first = datasets[0]
        ds = Dataset(it, card, lambda: first.element_spec)
        ds._kind = "_DirectedInterleaveDataset"
        ds._rngs = tuple(rngs) + tuple(r for d in datasets for r in d._rngs)
        return ds

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None) -> "Dataset":
        """Each element from a randomly chosen dataset, dataset ``i`` with probability
        ``weights[i]`` (default: uniform) among those not exhausted. The choices are
        reproducible under ``seed``/``tf.random.set_seed`` but differ from TensorFlow's
        (another generator). One dataset is returned as it is (as TensorFlow).

        Raises:
            ValueError: for no datasets, or weights of another length.
        """
        datasets = list(datasets)
        if not datasets:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        if weights is None:
            weights = np.full(len(datasets), 1.0 / len(datasets))
        else:
            weights = np.asarray(_to_numpy(weights), dtype=np.float64).reshape(-1)
            if len(weights) != len(datasets):
                raise ValueError("Invalid `weights`. `weights` should have the same length "
                                 f"as `datasets` but got `len(weights)={len(weights)}` vs. "
                                 f"`len(datasets)={len(datasets)}`.")
            nonzero = [i for i, w in enumerate(weights) if w != 0]
            if nonzero and len(nonzero) < len(datasets):   # TensorFlow drops those
                datasets = [datasets[i] for i in nonzero]
                weights = weights[nonzero]
        if len(datasets) == 1:
            return datasets[0]
        rng_box = [_seeded_rng(seed)]
        rng_box.append(rng_box[0].bit_generator.state)

        def choices(live):
            r = rng_box[0]
            if rerandomize_each_iteration is False:
                r.bit_generator.state = rng_box[1]
            while True:
                w = weights * np.asarray(live)
                if w.sum() <= 0:
                    yield None
                    return
                yield int(r.choice(len(w), p=w / w.sum()))
        return Dataset._directed(datasets, choices, stop_on_empty_dataset, (rng_box,))

    def rebatch(self, batch_size, drop_remainder=False, name=None) -> "Dataset":
        """Re-split a batched dataset into batches of ``batch_size`` (its unbatched elements
        batched again).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1.
        """
        out = self.unbatch().batch(batch_size, drop_remainder=drop_remainder)
        spec = self.element_spec
        size = _int64(batch_size) if drop_remainder else None
        ds = Dataset(out._make_iter, UNKNOWN if self._cardinality != INFINITE else INFINITE,
                     lambda: _map(lambda s: TensorSpec((size,) + _dims(s)[1:], s.dtype), spec))
        ds._kind, ds._rngs = "_RebatchDataset", self._rngs
        return ds

    # -- errors, files, resampling (TF 2.21's ignore_errors, save/load, snapshot ...) -----
    def ignore_errors(self, log_warning=False, name=None) -> "Dataset":
        """The elements that come without an error: an element whose computation raised a
        ``tf.errors.OpError`` (``InvalidArgumentError`` from ``tf.debugging.check_numerics``
        in a ``map``, say) is dropped and the pipeline goes on with the next one, as
        TensorFlow's ``IgnoreErrorsDataset`` (every error but ``CancelledError``). Python
        exceptions that are not ``OpError``s (a bug in the function: TensorFlow raises those
        when it traces it, before any element) are not swallowed.

        Args:
            log_warning: write ``Error raised with error message <message>`` to stderr for
                each dropped element (TensorFlow's C++ log line, as a ``W`` line).

        Returns:
            A Dataset of the same ``element_spec``; its cardinality is unknown (-2), as
            TensorFlow's (an infinite input's too).
        """
        from .._core import errors
        parent = self._make_iter

        def it():
            source = parent()
            while True:
                try:
                    element = next(source)
                except StopIteration:
                    return
                except errors.CancelledError:
                    raise
                except errors.OpError as e:
                    if log_warning:
                        _log_warning("ignore_errors_dataset_op.cc:125",
                                     f"Error raised with error message {e.message}")
                    continue
                yield element
        ds = Dataset(it, UNKNOWN, self._spec_fn)   # TensorFlow's, even for an infinite input
        ds._spec_inferred = self._spec_inferred
        ds._kind, ds._rngs = "_IgnoreErrorsDataset", self._rngs
        return ds

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Write the dataset's elements to the directory ``path`` (``tf.data.Dataset.save``)
        in tapeflow's own format (NumPy ``.npz`` chunks, the element_spec as JSON; not
        TensorFlow's snapshot files): :meth:`load` reads it back with its element_spec and
        order. An existing directory is replaced. The directory is written under a temporary
        name and renamed when complete, so an interrupted save leaves nothing that loads.

        Args:
            path: a directory name (str or path-like).
            compression: ``"GZIP"`` (each chunk through ``gzip``) or None.
            shard_func: element -> int64 scalar, the shard (subdirectory) it goes to; the
                default reader interleaves the shards (see :meth:`load`).
            checkpoint_args: the arguments of a ``tf.train.CheckpointManager`` (checked as
                TensorFlow does; tapeflow restarts an interrupted save from the beginning).

        Raises:
            TypeError: for a path that is not a string, or bad ``checkpoint_args``.
            tf.errors.InvalidArgumentError: if ``shard_func`` does not return an int64
                scalar.
        """
        from . import saving
        saving.save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None,
             wait=False) -> "Dataset":
        """The dataset :meth:`save` wrote at ``path`` (``tf.data.Dataset.load``).

        Args:
            path: the directory.
            element_spec: optional; by default the saved one.
            compression: the compression it was saved with (None or ``"GZIP"``).
            reader_func: a function from the dataset of shard datasets to the dataset read;
                by default ``interleave(lambda x: x, cycle_length=<CPU cores>)`` as
                TensorFlow's (one shard: the saved order).

        Returns:
            A Dataset of the saved cardinality.

        Raises:
            tf.errors.NotFoundError: if nothing complete is saved at ``path``.
            tf.errors.InvalidArgumentError: (on iteration) if ``element_spec``'s dtypes
                differ from the saved ones.
            tf.errors.DataLossError: (on iteration) if ``compression`` differs from the
                saved one.
        """
        from . import saving
        return saving.load(path, element_spec, compression, reader_func)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None,
                 name=None) -> "Dataset":
        """Persist the elements under ``path`` (``tf.data.Dataset.snapshot``): the first
        complete pass computes them and writes them; later passes (in this process or
        another) read them. Snapshots are kept per pipeline, in ``path/<fingerprint>`` (a
        :meth:`save` directory): the fingerprint hashes the element_spec and the pipeline's
        functions (their code and constants), captured values, arrays and parameters, as
        TensorFlow hashes its dataset graph. A pass left before its end writes nothing.

        Args:
            compression: ``"GZIP"``, or ``"AUTO"``/None (uncompressed here).
            reader_func, shard_func: as :meth:`load` and :meth:`save`.
        """
        from . import saving
        path = saving._check_path(path)
        ds = Dataset(lambda: saving.snapshot_iter(self, path, compression, reader_func,
                                                  shard_func),
                     self._cardinality, self._spec_fn)
        ds._spec_inferred = self._spec_inferred
        ds._kind, ds._rngs = "_MapDataset", self._rngs
        return ds

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=_dt.int64,
                     name=None) -> "Dataset":
        """Batch elements whose shapes vary into ``tf.RaggedTensor``s: a component whose
        ``element_spec`` shape has unknown (``None``) dimensions becomes a RaggedTensor of
        ragged rank one more than its last unknown axis (``[batch, None, ...]``); a fully
        known one is batched densely (TensorFlow's ``_DenseToRaggedDataset`` + ``batch``).

        A ``map``'s element_spec is read off its first element in tapeflow (see the
        docs): there each component's first axis is taken as the unknown one.

        Args:
            batch_size: elements per batch (>= 1).
            drop_remainder: drop a last, smaller batch.
            row_splits_dtype: ``tf.int64`` (default) or ``tf.int32`` for the row splits.

        Returns:
            A Dataset whose ``element_spec`` has ``RaggedTensorSpec``s; elements are
            ``tf.RaggedTensor``s (iterate it eagerly: a ``tf.function`` loop over ragged
            elements raises NotImplementedError).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1.
            NotImplementedError: for components that are already ragged or sparse.
        """
        batch_size = _int64(batch_size)
        if batch_size < 1:
            raise _op_error("Batch size must be greater than zero.", "BatchDatasetV2")
        splits_dtype = _dt.as_dtype(row_splits_dtype)
        inferred = self._spec_fn is None or self._spec_inferred
        out_spec = _map(lambda s: _composite.ragged_spec(s, splits_dtype, inferred),
                        self.element_spec)
        card = self._cardinality
        if card >= 0:
            card = card // batch_size if drop_remainder else -(-card // batch_size)
        parent = self._make_iter

        def it():
            for chunk in _chunks(parent(), batch_size, drop_remainder):
                yield _eager(lambda c: _zip_map(lambda p: _composite.ragged_stack(
                    p[1:], p[0]), [out_spec] + c), chunk)
        if drop_remainder:
            out_spec = _map(lambda s: type(s)(
                [batch_size] + s.shape.as_list()[1:], s.dtype, *(
                    (s.ragged_rank, s.row_splits_dtype) if hasattr(s, "ragged_rank")
                    else ())), out_spec)
        ds = Dataset(it, card, lambda: out_spec)
        ds._kind, ds._rngs = "_BatchDataset", self._rngs
        return ds

    def sparse_batch(self, batch_size, row_shape, name=None) -> "Dataset":
        """Batch dense elements of varying shapes into ``tf.sparse.SparseTensor``s of dense
        shape ``[batch] + row_shape``, holding every entry of every element
        (``DenseToSparseBatchDataset``; a ``None`` in ``row_shape`` is the batch's largest).

        Returns:
            A Dataset of ``SparseTensorSpec([None] + row_shape, dtype)`` elements (iterate
            it eagerly: a ``tf.function`` loop over sparse elements raises
            NotImplementedError).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1; (on iteration) for
                an element whose rank differs from ``len(row_shape)``.
            tf.errors.DataLossError: (on iteration) for an element larger than
                ``row_shape``.
            TypeError: unless the elements have a single component.
            ValueError: for a negative dimension in ``row_shape``.
        """
        batch_size = _int64(batch_size)
        if batch_size < 1:
            raise _op_error("Batch size must be greater than zero.",
                            "DenseToSparseBatchDataset")
        spec = self.element_spec
        if _is_struct(spec):
            types = ", ".join(repr(s.dtype) for s in _leaves(spec))
            raise TypeError("`dense_to_sparse_batch` requires an input dataset whose elements "
                            "have a single component, but the given dataset has the following "
                            f"component types: ({types}).")
        if isinstance(row_shape, (list, tuple)):
            for d in row_shape:
                if d is not None and _int64(d) < 0:
                    raise ValueError(f"Dimension {_int64(d)} must be >= 0")
        dims = _shape_dims(row_shape)
        card = self._cardinality
        if card >= 0:
            card = -(-card // batch_size)
        parent = self._make_iter
        dtype = spec.dtype

        def it():
            for chunk in _chunks(parent(), batch_size, False):
                yield _eager(_composite.sparse_stack, chunk, list(dims), dtype)
        out_spec = _composite.SparseTensorSpec([None] + list(dims), dtype)
        ds = Dataset(it, card, lambda: out_spec)
        ds._kind, ds._rngs = "_DenseToSparseBatchDataset", self._rngs
        return ds

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None) -> "Dataset":
        """Resample the elements so that their classes (``class_func(element)``, an int32
        or int64 scalar in ``[0, num_classes)``) follow ``target_dist``, with TensorFlow's
        algorithm: with ``initial_dist`` given (else estimated as the data streams, from
        batches of 32 class values and counts starting at 10 per class), ratios
        ``r_i = t_i / p_i``; each output is an input element as it comes with probability
        ``m = min r`` or, otherwise, the next element accepted by rejection sampling with
        acceptance ``a_i = (r_i - m) / (max r - m)``. ``m == 1`` (target equals initial)
        keeps every element; ``m == 0`` only rejection-samples.

        Returns:
            A Dataset of pairs ``(class, element)``; cardinality unknown (-2) unless
            ``m == 1`` (the input's), infinite for an infinite input. The draws come from
            NumPy's generator (reproducible under ``seed``, not TensorFlow's numbers).

        Raises:
            TypeError: (on iteration; TensorFlow raises it at the call) if ``class_func``
                returns a float.
            tf.errors.InvalidArgumentError: if ``target_dist`` and ``initial_dist`` differ in
                length.
        """
        from .._core import errors
        target = np.asarray(_to_numpy(target_dist)).astype(np.float32)
        tiny = np.finfo(np.float32).tiny

        def mixing(initial):
            """(acceptance probabilities, probability of an original element)."""
            initial = np.asarray(initial, np.float32)
            if initial.shape != target.shape:
                raise _op_error(f"Incompatible shapes: {list(target.shape)} vs. "
                                f"{list(initial.shape)}", "RealDiv")
            with np.errstate(all="ignore"):
                ratio = target / (initial + np.float32(tiny))
                lo, hi = ratio.min(), ratio.max()
                return (ratio - lo) / (hi - lo), float(lo)

        static = None
        if initial_dist is not None:
            initial = np.asarray(_to_numpy(initial_dist)).astype(np.float32)
            accept, static = mixing(initial)
            with np.errstate(all="ignore"):
                static = float(np.min(target / initial))
        parent = self._make_iter

        def class_of(element):
            out = _call(class_func, element)
            value = np.asarray(out.numpy() if isinstance(out, _TensorLike) else out)
            dtype = _dt.FROM_NUMPY.get(value.dtype)
            if dtype not in (_dt.int32, _dt.int64, _dt.uint8, _dt.int8):
                raise TypeError("Value passed to parameter 'indices' has DataType "
                                f"{getattr(dtype, 'name', value.dtype)} not in list of "
                                "allowed values: uint8, int8, int32, int64")
            return value

        def with_class(element):
            return (_eager(class_of, element), element)

        def distributions():
            """Per element, (initial estimate, acceptance, probability of the original)."""
            if initial_dist is not None:
                return itertools.repeat((initial, accept, static))
            return estimated()

        def estimated():
            counts = np.full(len(target), 10, np.int64)
            for chunk in _chunks(parent(), 32, False):
                for element in chunk:
                    c = int(_eager(class_of, element))
                    if not 0 <= c < len(counts):
                        raise errors.InvalidArgumentError(
                            None, None, f"indices[0] = {c} is not in [0, {len(counts)})")
                    counts[c] += 1
                dist = (counts / counts.sum()).astype(np.float32)
                a, m = mixing(dist)
                for _ in chunk:
                    yield dist, a, m

        rng_box = [_seeded_rng(seed)]
        rng_box.append(rng_box[0].bit_generator.state)
        warned = [0]

        def filtered():
            r = rng_box[0]
            for (dist, a, _), element in zip(distributions(), parent()):
                with np.errstate(all="ignore"):
                    rejected = float(np.sum((1 - a) * dist, dtype=np.float32))
                if not rejected < 0.5 and warned[0] < 10:   # TensorFlow's tf.Print
                    warned[0] += 1
                    import sys
                    print("Proportion of examples rejected by sampler is high: "
                          f"{_print_format(rejected)}{_print_format(dist)}"
                          f"{_print_format(a)}", file=sys.stderr)
                c = _eager(class_of, element)
                if np.float32(r.random()) < a[int(c)]:
                    yield (c, element)

        card = INFINITE if self._cardinality == INFINITE else UNKNOWN
        if static == 1:
            ds = Dataset(lambda: (with_class(e) for e in parent()), self._cardinality)
            ds._kind, ds._rngs = "_MapDataset", self._rngs
            return ds
        if static == 0:
            ds = Dataset(filtered, card)
            ds._kind, ds._rngs = "_PrefetchDataset", self._rngs + (rng_box,)
            return ds

        def mixed():
            r = rng_box[0]
            original = (with_class(e) for e in parent())
            accepted = filtered()
            for _, _, m in distributions():
                source = original if r.random() < m else accepted
                for element in source:
                    yield element
                    break
                else:
                    return
        ds = Dataset(mixed, card)
        ds._kind, ds._rngs = "_DirectedInterleaveDataset", self._rngs + (rng_box,)
        return ds

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None) -> "Dataset":
        """An infinite dataset of random int64 scalars (``tf.data.Dataset.random``).

        The values are reproducible under ``seed``/``tf.random.set_seed`` but differ from
        TensorFlow's (NumPy's generator). With ``rerandomize_each_iteration`` each pass draws
        new values; otherwise every pass repeats the first one's.
        """
        rng_box = [_seeded_rng(seed)]
        rng_box.append(rng_box[0].bit_generator.state)

        def it():
            r = rng_box[0]
            if not rerandomize_each_iteration:
                r.bit_generator.state = rng_box[1]
            while True:
                yield np.int64(r.integers(0, 2**63 - 1))
        ds = Dataset(it, INFINITE, lambda: TensorSpec((), _dt.int64))
        ds._kind, ds._rngs = "_RandomDataset", (rng_box,)
        return ds

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None) -> "Dataset":
        """The file names matching ``file_pattern`` (a glob, or a list of them), as string
        scalars in sorted order, shuffled unless ``shuffle=False`` (``seed`` as
        :meth:`shuffle`; the order differs from TensorFlow's).

        Raises:
            tf.errors.InvalidArgumentError: if no file matches, with TensorFlow's text.
        """
        import glob
        patterns = _to_numpy(file_pattern)
        patterns = [p.decode() if isinstance(p, bytes) else str(p)
                    for p in np.atleast_1d(patterns).tolist()]
        names = sorted({f for p in patterns for f in glob.glob(p)})
        if not names:
            from .._core import errors
            raise errors.InvalidArgumentError(
                None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                f"Summarized data: b'No files matched pattern: {', '.join(patterns)}'")
        ds = Dataset.from_tensor_slices(np.array([n.encode() for n in names], dtype=object))
        if shuffle is None or shuffle:
            ds = ds.shuffle(len(names), seed=seed)
        return ds

    def options(self):
        """The ``tf.data.Options`` set by ``with_options`` upstream (a default one if none)."""
        return self._options if self._options is not None else Options()

    def with_options(self, options, name=None) -> "Dataset":
        """The same elements with ``options`` (a ``tf.data.Options``) attached; tapeflow
        reads none of them (it runs one deterministic pipeline).

        Raises:
            TypeError: if ``options`` is not a ``tf.data.Options``.
        """
        if not isinstance(options, Options):
            raise TypeError(f"Invalid `options`. `options` should be of type "
                            f"`tf.data.Options`, but got {type(options)}.")
        ds = Dataset(self._make_iter, self._cardinality, self._spec_fn, self._indices,
                     self._arrays)
        ds._kind, ds._rngs, ds._options = "_OptionsDataset", self._rngs, options
        ds._spec_inferred = self._spec_inferred
        return ds

    def reduce(self, initial_state, reduce_func, name=None):
        """Fold the elements: ``state = reduce_func(state, element)`` from ``initial_state``.

        Returns:
            The final state (Tensors).
        """
        state = _tensors(_from_user(initial_state))
        for element in self:
            state = reduce_func(state, element)
        return _tensors(_from_fn_output(state))

    def get_single_element(self, name=None):
        """The only element of a one-element dataset.

        Raises:
            tf.errors.InvalidArgumentError: if the dataset has no element or more than one.
        """
        from .._core import errors
        items = list(itertools.islice(self._make_iter(), 2))
        if len(items) != 1:
            raise errors.InvalidArgumentError(
                None, None, "Dataset was empty." if not items
                else "Dataset had more than one element.")
        return _tensors(items[0])

    def prefetch(self, buffer_size=None, name=None) -> "Dataset":
        """The same dataset: tapeflow computes eagerly, there is nothing to overlap.

        Raises:
            tf.errors.InvalidArgumentError: for a buffer size below -1 (-1 is AUTOTUNE).
        """
        if buffer_size is not None and _int64(buffer_size) < -1:
            raise _op_error("buffer_size must be >= 0 or set buffer_size to be -1 for "
                            "auto-tuning", "PrefetchDataset")
        return self

    def cache(self, filename="", name=None) -> "Dataset":
        """The same dataset: elements are already in memory, nothing to cache."""
        return self

    def apply(self, transformation_func) -> "Dataset":
        """``transformation_func(self)``."""
        return transformation_func(self)

    def as_numpy_iterator(self):
        """Iterate elements as NumPy values (scalars as NumPy scalars)."""
        return (_map(_numpy_leaf, e) for e in self._make_iter())

    def __iter__(self):
        return OwnedIterator(self)

    def _iter_values(self):
        """Each element as the flat list of its NumPy values (tf.nest order): what a traced
        ``for x in dataset`` loop of a ``tf.function`` program consumes."""
        for element in self._make_iter():
            yield _flat_values(element)

    def cardinality(self) -> Tensor:
        """The number of elements as an int64 Tensor; -1 if infinite, -2 if unknown."""
        return Tensor(np.int64(self._cardinality))

    def __len__(self):
        if self._cardinality == INFINITE:
            raise TypeError("The dataset is infinite.")
        if self._cardinality == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __bool__(self):
        return True

    @property
    def element_spec(self):
        """The TensorSpec (or nesting of them) of one element."""
        if self._spec_fn is not None:
            return self._spec_fn()
        for element in self._make_iter():
            return _spec_of(element)
        raise ValueError("element_spec of an empty dataset of unknown structure")

    def __repr__(self):
        return f"<{self._kind} element_spec={self.element_spec!r}>"



def _numpy_leaf(v):
    """An element's leaf as ``as_numpy_iterator`` gives it (TensorFlow's forms: a scalar as
    a NumPy scalar, a RaggedTensor as its ``numpy()`` rows, a SparseTensor densified)."""
    if isinstance(v, np.ndarray) and v.ndim == 0:
        return v[()]
    if _composite.is_composite(v):
        if type(v).__name__ == "SparseTensor":
            out = np.zeros(v.dense_shape.numpy(), v.values.numpy().dtype)
            if out.dtype == object:
                out[...] = b""
            out[tuple(v.indices.numpy().T)] = v.values.numpy()
            return out
        return v.numpy()
    return v


def _log_warning(where, text):
    """A TensorFlow C++ ``LOG(WARNING)`` line on stderr (absl's form)."""
    import os
    import sys
    import time
    now = time.time()
    stamp = time.strftime("%m%d %H:%M:%S", time.localtime(now))
    print(f"W{stamp}.{int(now % 1 * 1e6):06d} {os.getpid():>7} {where}] {text}",
          file=sys.stderr)


def _print_format(value):
    """A value as ``tf.Print`` shows it: ``[0.375 0.625]``."""
    flat = np.atleast_1d(np.asarray(value)).ravel()
    return "[" + " ".join(format(float(v), "g") for v in flat) + "]"


# -- iterators -----------------------------------------------------------------------------
_STATE_MAGIC = b"tapeflow.data iterator state v1\n"


class OwnedIterator:
    """An iterator over a Dataset (``iter(dataset)``; TF's ``OwnedIterator``): ``next`` gives
    the next element as Tensors, or raises StopIteration at the end.

    It is trackable: ``tf.train.Checkpoint(iterator=it)`` saves its position and restoring
    puts a fresh iterator of the same dataset (in another process, say) at that position.
    The state is tapeflow's own, under TensorFlow's key
    ``<path>/.ATTRIBUTES/ITERATOR_STATE``: a scalar string holding the number of elements
    consumed and the generator states of the pipeline's ``shuffle`` steps when the
    iterator started. Restoring replays the pipeline from the start and skips that many
    elements, so it reproduces the elements when the pipeline is deterministic given those
    generators (``map``/``filter``/``from_generator`` functions must not draw random
    numbers or read changing state). See docs/saving.md.
    """

    _moves_iterator = True   # a traced loop over it is stateful (see function/program.py)

    def __init__(self, dataset):
        self._dataset = dataset
        self._start = [(box[0].bit_generator.state, box[1]) for box in dataset._rngs]
        self._elements = dataset._make_iter()
        self._consumed = 0

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._elements)
        self._consumed += 1
        return _tensors(element)

    def get_next(self):
        """The next element (``next(iterator)``).

        Raises:
            tf.errors.OutOfRangeError: at the end of the dataset, as TensorFlow.
        """
        try:
            return next(self)
        except StopIteration:
            from .._core import errors
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    @property
    def element_spec(self):
        """The dataset's ``element_spec``."""
        return self._dataset.element_spec

    # -- inside tf.function -------------------------------------------------------------------
    def _iter_values(self):
        """The remaining elements, each as its flat list of NumPy values: a traced
        ``for x in iterator`` replays over them (consuming them) at every call."""
        for element in self._elements:
            self._consumed += 1
            yield _flat_values(element)

    def _next_raw(self):
        """The next element's NumPy structure.

        Raises:
            tf.errors.OutOfRangeError: at the end, as TensorFlow's ``IteratorGetNext``.
        """
        for element in self._elements:
            self._consumed += 1
            return element
        from .._core import errors
        raise errors.OutOfRangeError(None, None, "End of sequence")

    def _push_back(self, element):
        """Undo a pull (a trace that is rolled back): ``element`` comes next again."""
        self._elements = itertools.chain([element], self._elements)
        self._consumed -= 1

    # -- checkpointing -----------------------------------------------------------------------
    def _trackable_children(self):
        return []

    def _checkpoint_tensors(self):
        """``{attribute: (graph key suffix, dtype name, value)}`` for a checkpoint."""
        state = json.dumps({"consumed": self._consumed, "shuffles": self._start})
        return {"ITERATOR": ("_STATE", "string",
                             np.array(_STATE_MAGIC + state.encode(), dtype=object))}

    def _restore_checkpoint(self, attributes):
        """Restore from ``{attribute: (key, stored dtype name, read)}``: rewind the shuffle
        generators, start the pipeline over and skip the consumed elements.

        Raises:
            tf.errors.InvalidArgumentError: if the state is not tapeflow's (TensorFlow's
                own iterator state, a variant tensor, cannot be read here).
            ValueError: if the dataset's pipeline has another number of shuffles than the
                saved one, or ends before the saved position.
        """
        from .._core import errors
        key, dtype_name, read = attributes["ITERATOR"]
        raw = read() if dtype_name == "string" else None
        raw = raw[()] if raw is not None and np.ndim(raw) == 0 else None
        if not isinstance(raw, bytes) or not raw.startswith(_STATE_MAGIC):
            what = ("a variant tensor: TensorFlow's tf.data-internal encoding"
                    if dtype_name != "string" else "not tapeflow's encoding")
            raise errors.InvalidArgumentError(
                None, None, f"Cannot restore the iterator state {key} (dtype "
                f"{'variant' if dtype_name.startswith('enum') else dtype_name}): it is "
                f"{what}. tapeflow restores only the iterator states it wrote; leave the "
                "iterator out of the tf.train.Checkpoint to restore the other objects.")
        doc = json.loads(raw[len(_STATE_MAGIC):].decode())
        boxes = self._dataset._rngs
        if len(doc["shuffles"]) != len(boxes):
            raise ValueError(
                f"The iterator state {key} was saved from a pipeline with "
                f"{len(doc['shuffles'])} shuffle step(s), but this iterator's dataset has "
                f"{len(boxes)}: restore it into an iterator of the same dataset.")
        for box, (state, first) in zip(boxes, doc["shuffles"]):
            box[0].bit_generator.state = state
            box[1] = first
        start = [(box[0].bit_generator.state, box[1]) for box in boxes]
        elements = self._dataset._make_iter()
        consumed = int(doc["consumed"])
        skipped = sum(1 for _ in itertools.islice(elements, consumed))
        if skipped < consumed:
            raise ValueError(f"The iterator state {key} is at element {consumed}, but this "
                             f"iterator's dataset ends after {skipped} elements.")
        self._start, self._elements, self._consumed = start, elements, consumed


def _flat_values(element):
    from .._core.nest import flatten
    values = []
    for v in flatten(element):
        if _composite.is_composite(v):
            raise NotImplementedError(
                f"A tf.function loop over a dataset of {type(v).__name__} elements (from "
                "ragged_batch, sparse_batch or a map returning one) is not in tapeflow: "
                "iterate it eagerly, or map the elements to dense tensors first "
                "(RaggedTensor.to_tensor, tf.sparse.to_dense).")
        values.append(v if isinstance(v, (np.ndarray, np.generic)) else np.asarray(v))
    return values


class NextElement:
    """``next(iterator)`` inside a traced function, seen as a loop over one element (a
    ``dataset`` step of the program): the trace uses the element pulled while tracing,
    every later call of the function pulls the iterator's next one, as TensorFlow's
    ``IteratorGetNext`` op does."""

    _moves_iterator = True

    def __init__(self, iterator):
        self._iterator = iterator
        self._first = iterator._next_raw()
        self.element_spec = self._first      # the structure the flat values pack into

    def _iter_values(self):
        if self._first is not None:
            element, self._first = self._first, None
        else:
            element = self._iterator._next_raw()
        yield _flat_values(element)
