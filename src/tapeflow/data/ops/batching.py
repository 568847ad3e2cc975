"""Transformations that group elements: ``batch``, ``unbatch``, ``padded_batch``,
``rebatch``, ``ragged_batch``, ``sparse_batch``, ``window``, ``group_by_window``,
``bucket_by_sequence_length`` (TF's ``batch_op.py``, ``padded_batch_op.py``, ...)."""
from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import Tensor
from ..._core.tensor_spec import TensorSpec
from .. import composite as _composite
from ..structure import (
    INFINITE,
    UNKNOWN,
    DatasetSpec,
    _call,
    _chunks,
    _default_pad,
    _dims,
    _eager,
    _from_dataset_fn,
    _int64,
    _is_struct,
    _leaves,
    _map,
    _op_error,
    _shape_dims,
    _spec_of,
    _stack,
    _to_numpy,
    _zip_map,
)

# The Dataset class: data/dataset.py sets it when it loads (it imports this module, so
# this module cannot import it).
Dataset = None


def batch(input_dataset, batch_size, drop_remainder=False, num_parallel_calls=None,
          deterministic=None, name=None) -> "Dataset":
    batch_size = _int64(batch_size)
    if batch_size < 1:
        raise _op_error("Batch size must be greater than zero.", "BatchDatasetV2")
    card = input_dataset._cardinality
    if card >= 0:
        card = card // batch_size if drop_remainder else -(-card // batch_size)
    if input_dataset._indices is not None:
        arrays, indices = input_dataset._arrays, input_dataset._indices

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
        parent = input_dataset._make_iter

        def it():
            for chunk in _chunks(parent(), batch_size, drop_remainder):
                yield _stack(chunk)
    spec_fn = input_dataset._spec_fn
    size = batch_size if drop_remainder else None
    ds = Dataset(it, card, None if spec_fn is None else lambda: _map(
        lambda s: TensorSpec((size,) + _dims(s), s.dtype), spec_fn()))
    ds._kind, ds._rngs = "_BatchDataset", input_dataset._rngs
    ds._batch_size = batch_size   # as TF's BatchDataset: keras.utils.split_dataset reads it
    return ds


def unbatch(input_dataset, name=None) -> "Dataset":
    parent = input_dataset._make_iter

    def it():
        for element in parent():
            n = np.shape(_leaves(element)[0])[0]
            for i in range(n):
                yield _map(lambda a, i=i: a[i], element)
    ds = Dataset(it, UNKNOWN if input_dataset._cardinality != INFINITE else INFINITE)
    ds._kind, ds._rngs = "_UnbatchDataset", input_dataset._rngs
    return ds


def padded_batch(input_dataset, batch_size, padded_shapes=None, padding_values=None,
                 drop_remainder=False, name=None) -> "Dataset":
    batch_size = _int64(batch_size)
    if batch_size < 1:
        raise _op_error("Batch size must be greater than zero.", "PaddedBatchDatasetV2")
    in_spec = input_dataset.element_spec
    if padded_shapes is None and (input_dataset._spec_fn is None or input_dataset._spec_inferred):
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
    card = input_dataset._cardinality
    if card >= 0:
        card = card // batch_size if drop_remainder else -(-card // batch_size)
    parent = input_dataset._make_iter

    def pad_component(parts):
        _, shape, pad, *values = parts
        target = []
        for axis, want in enumerate(shape):
            longest = max((np.shape(v)[axis] for v in values), default=0)
            if want is not None and longest > want:
                from ..._core import errors
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
    ds._kind, ds._rngs = "_PaddedBatchDataset", input_dataset._rngs
    return ds


def window(input_dataset, size, shift=None, stride=1, drop_remainder=False,
           name=None) -> "Dataset":
    size = _int64(size)
    shift = size if shift is None else _int64(shift)
    stride = _int64(stride)
    for what, value in (("size", size), ("shift", shift), ("stride", stride)):
        if value < 1:
            raise _op_error(f"Window {what} must be greater than zero.", "WindowDataset")
    card = input_dataset._cardinality
    if card >= 0:
        if drop_remainder:
            last = card - 1 - (size - 1) * stride
            card = last // shift + 1 if last >= 0 else 0
        else:
            card = -(-card // shift)
    parent = input_dataset._make_iter
    span = (size - 1) * stride + 1

    def it():
        spec = input_dataset.element_spec
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
    ds = Dataset(it, card, lambda: _map(DatasetSpec, input_dataset.element_spec))
    ds._kind, ds._rngs = "_WindowDataset", input_dataset._rngs
    return ds


def group_by_window(input_dataset, key_func, reduce_func, window_size=None,
                    window_size_func=None, name=None) -> "Dataset":
    if (window_size is None) == (window_size_func is None):
        raise ValueError("Either the `window_size` argument or the `window_size_func` "
                         "argument must be specified.")
    parent = input_dataset._make_iter

    def reduce(key, elements):
        window = _elements_dataset(elements, input_dataset.element_spec,
                                   input_dataset._spec_fn is None or input_dataset._spec_inferred)
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
    ds = Dataset(it, INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN, spec)
    ds._kind, ds._rngs = "_GroupByWindowDataset", input_dataset._rngs
    return ds


def bucket_by_sequence_length(input_dataset, element_length_func, bucket_boundaries,
                              bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False,
                              no_padding=False, drop_remainder=False,
                              name=None) -> "Dataset":
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
    return input_dataset.group_by_window(key, reduce,
                                window_size_func=lambda k: sizes[int(np.asarray(k))])


def rebatch(input_dataset, batch_size, drop_remainder=False, name=None) -> "Dataset":
    out = input_dataset.unbatch().batch(batch_size, drop_remainder=drop_remainder)
    spec = input_dataset.element_spec
    size = _int64(batch_size) if drop_remainder else None
    ds = Dataset(out._make_iter, UNKNOWN if input_dataset._cardinality != INFINITE else INFINITE,
                 lambda: _map(lambda s: TensorSpec((size,) + _dims(s)[1:], s.dtype), spec))
    ds._kind, ds._rngs = "_RebatchDataset", input_dataset._rngs
    return ds


def ragged_batch(input_dataset, batch_size, drop_remainder=False, row_splits_dtype=_dt.int64,
                 name=None) -> "Dataset":
    batch_size = _int64(batch_size)
    if batch_size < 1:
        raise _op_error("Batch size must be greater than zero.", "BatchDatasetV2")
    splits_dtype = _dt.as_dtype(row_splits_dtype)
    inferred = input_dataset._spec_fn is None or input_dataset._spec_inferred
    out_spec = _map(lambda s: _composite.ragged_spec(s, splits_dtype, inferred),
                    input_dataset.element_spec)
    card = input_dataset._cardinality
    if card >= 0:
        card = card // batch_size if drop_remainder else -(-card // batch_size)
    parent = input_dataset._make_iter

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
    ds._kind, ds._rngs = "_BatchDataset", input_dataset._rngs
    return ds


def sparse_batch(input_dataset, batch_size, row_shape, name=None) -> "Dataset":
    batch_size = _int64(batch_size)
    if batch_size < 1:
        raise _op_error("Batch size must be greater than zero.",
                        "DenseToSparseBatchDataset")
    spec = input_dataset.element_spec
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
    card = input_dataset._cardinality
    if card >= 0:
        card = -(-card // batch_size)
    parent = input_dataset._make_iter
    dtype = spec.dtype

    def it():
        for chunk in _chunks(parent(), batch_size, False):
            yield _eager(_composite.sparse_stack, chunk, list(dims), dtype)
    out_spec = _composite.SparseTensorSpec([None] + list(dims), dtype)
    ds = Dataset(it, card, lambda: out_spec)
    ds._kind, ds._rngs = "_DenseToSparseBatchDataset", input_dataset._rngs
    return ds


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
