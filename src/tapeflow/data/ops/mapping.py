"""Transformations that run a user function per element: ``map`` (traced once as a
``tf.function``), ``filter``, ``flat_map``, ``interleave``, ``scan``, ``take_while``,
``unique`` (TF's ``map_op.py``, ``filter_op.py``, ...)."""
import builtins
import itertools

from ..._core import dispatch as _dispatch
from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import _TensorLike, traced_shape
from ..._core.tensor_spec import TensorSpec
from ..structure import (
    AUTOTUNE,
    INFINITE,
    UNKNOWN,
    _call,
    _eager,
    _from_dataset_fn,
    _from_fn_output,
    _from_user,
    _init_scope,
    _int64,
    _is_struct,
    _leaves,
    _map,
    _op_error,
    _tensors,
)

# The Dataset class: data/dataset.py sets it when it loads (it imports this module, so
# this module cannot import it).
Dataset = None


def map_dataset(input_dataset, map_func, num_parallel_calls=None, deterministic=None,
                name=None) -> "Dataset":
    if not callable(map_func):
        raise ValueError(f"Argument `func` must be a callable. Received func={map_func} "
                         f"(of type {type(map_func)})")
    parent = input_dataset._make_iter
    traced = _trace_map(input_dataset, map_func)

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
    ds = Dataset(lambda: builtins.map(call, parent()), input_dataset._cardinality,
                 None if traced is None else (lambda: traced[1]))
    # The traced spec is TensorFlow's where the probe of the trace can tell, but a size
    # that follows string contents may show the stand-in's: the transformations that
    # pad or stack by the spec (padded_batch, group_by_window, save) treat it as read
    # off an element, as before.
    ds._spec_inferred = True
    ds._kind, ds._rngs = "_MapDataset", input_dataset._rngs
    return ds


def filter_dataset(input_dataset, predicate, name=None) -> "Dataset":
    parent = input_dataset._make_iter

    def keep(element):
        if _dispatch._state.tracer is not None:   # pulled by a traced loop: eager code
            with _init_scope():
                return test(element)
        return test(element)

    def test(element):
        args = _tensors(element)
        out = predicate(*args) if type(element) is tuple else predicate(args)
        if isinstance(out, _TensorLike):
            dtype, shape = out.dtype, tuple(traced_shape(out))
        else:
            value = np.asarray(out)
            dtype, shape = _dt.FROM_NUMPY.get(value.dtype, _dt.int64), value.shape
        if dtype != _dt.bool or shape:
            spec = TensorSpec(shape, dtype)
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` "
                             f"scalar tensor, but its return type is {spec}.")
        return bool(out)

    ds = Dataset(lambda: builtins.filter(keep, parent()),
                 INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN,
                 input_dataset._spec_fn)
    ds._kind, ds._rngs = "_FilterDataset", input_dataset._rngs
    return ds


def flat_map(input_dataset, map_func, name=None) -> "Dataset":
    parent = input_dataset._make_iter

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
    ds._kind, ds._rngs = "_FlatMapDataset", input_dataset._rngs
    return ds


def interleave(input_dataset, map_func, cycle_length=None, block_length=None,
               num_parallel_calls=None, deterministic=None, name=None) -> "Dataset":
    import os
    if cycle_length is None or _int64(cycle_length) == AUTOTUNE:
        cycle_length = os.cpu_count() or 1
    cycle_length = _int64(cycle_length)
    block_length = 1 if block_length is None else _int64(block_length)
    if cycle_length < 1:
        raise _op_error("cycle_length must be greater than zero.", "InterleaveDataset")
    if block_length < 1:
        raise _op_error("block_length must be greater than zero.", "InterleaveDataset")
    parent = input_dataset._make_iter

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
    ds._rngs = input_dataset._rngs
    return ds


def scan(input_dataset, initial_state, scan_func, name=None) -> "Dataset":
    init = _from_user(initial_state)
    parent = input_dataset._make_iter

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
    ds = Dataset(it, input_dataset._cardinality)
    ds._kind, ds._rngs = "_ScanDataset", input_dataset._rngs
    return ds


def take_while(input_dataset, predicate, name=None) -> "Dataset":
    parent = input_dataset._make_iter

    def test(element):
        out = _call(predicate, element)
        if isinstance(out, _TensorLike):
            dtype, shape = out.dtype, tuple(traced_shape(out))
        else:
            value = np.asarray(out)
            dtype, shape = _dt.FROM_NUMPY.get(value.dtype, _dt.int64), value.shape
        if dtype != _dt.bool or shape:
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` "
                             "scalar tensor but its return type is"
                             f"{TensorSpec(shape, dtype)}.")
        return bool(out)
    ds = Dataset(lambda: itertools.takewhile(lambda e: _eager(test, e), parent()),
                 INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN,
                 input_dataset._spec_fn)
    ds._kind, ds._rngs = "_TakeWhileDataset", input_dataset._rngs
    return ds


def unique(input_dataset, name=None) -> "Dataset":
    spec = input_dataset.element_spec
    if _is_struct(spec):
        raise _op_error("UniqueDataset only supports inputs with a single component.",
                        "UniqueDataset")
    if spec.dtype not in (_dt.int32, _dt.int64, _dt.string):
        raise TypeError("`tf.data.Dataset.unique` does not support type <dtype: "
                        f"'{spec.dtype.name}'> "
                        "-- only `tf.int32`, `tf.int64`, and `tf.string` are supported.")
    parent = input_dataset._make_iter

    def it():
        seen = set()
        for element in parent():
            value = np.asarray(element)
            key = (value.shape, tuple(value.ravel().tolist()))
            if key not in seen:
                seen.add(key)
                yield element
    ds = Dataset(it, INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN,
                 input_dataset._spec_fn)
    ds._kind, ds._rngs = "_UniqueDataset", input_dataset._rngs
    return ds


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
    from ...function.polymorphic import Function

    def _map_fn(*args):
        return map_func(*args)

    fn = Function(_map_fn, name=getattr(map_func, "__name__", "map_fn"),
                  input_signature=list(spec) if type(spec) is tuple else [spec])
    # TensorFlow's dataset functions never feed its frequent-retracing warning; all maps
    # share _map_fn's code object, so each gets a detector of its own
    from ...function.retrace_report import _Detector
    fn._detector = _Detector()
    from ...function.tracer import dry_python_calls
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
    from ...function.concrete_function import direct_caller
    return direct_caller(fn, concrete), out_spec
