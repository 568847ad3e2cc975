"""Where datasets start: ``from_tensor_slices``, ``from_tensors``, ``range``,
``from_generator``, ``zip``, ``counter``, ``random``, ``list_files`` (the bodies of
``Dataset``'s static methods; TF's ``from_tensor_slices_op.py``, ``range_op.py``, ...)."""
import itertools

from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor_spec import TensorSpec
from ..structure import (
    INFINITE,
    UNKNOWN,
    _eager,
    _from_fn_output,
    _from_user,
    _int64,
    _leaves,
    _map,
    _row,
    _shape_dims,
    _spec_leaf,
    _spec_of,
    _to_numpy,
    _zip_map,
)

# The Dataset class: data/dataset.py sets it when it loads (it imports this module, so
# this module cannot import it).
Dataset = None

_GENERATOR_TOKENS = itertools.count()


def from_tensor_slices(tensors, name=None) -> "Dataset":
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


def _over_indices(arrays, indices, n):
    def it():
        for i in indices():
            yield _map(lambda a, i=i: _row(a, i), arrays)
    return Dataset(it, n, lambda: _map(lambda a: TensorSpec(
        np.shape(a)[1:], _dt.FROM_NUMPY[np.asarray(a).dtype]), arrays),
        indices=indices, arrays=arrays)


def from_tensors(tensors, name=None) -> "Dataset":
    element = _from_user(tensors)
    ds = Dataset(lambda: iter([element]), 1, lambda: _spec_of(element))
    ds._kind = "_TensorDataset"
    return ds


def range_dataset(*args, output_type=_dt.int64, name=None) -> "Dataset":
    r = range(*(_int64(a) for a in args))
    dtype = _dt.as_dtype(output_type)._np
    values = np.arange(r.start, r.stop, r.step, dtype=dtype)
    ds = Dataset._over_indices(values, lambda: np.arange(len(values)), len(values))
    ds._kind = "_RangeDataset"
    return ds


def from_generator(generator, output_types=None, output_shapes=None, args=None,
                   output_signature=None, name=None) -> "Dataset":
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
    elif output_types is not None:
        # types alone: every shape unknown (TF's TensorSpec(shape=<unknown>))
        declared = _map(lambda t: TensorSpec(None, t), output_types)
        spec_fn = lambda: declared  # noqa: E731
    ds = Dataset(it, UNKNOWN, spec_fn)
    ds._kind = "_FlatMapDataset"   # TensorFlow builds it as a flat_map over ids
    return ds


def zip_datasets(*datasets, name=None) -> "Dataset":
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


def counter(start=0, step=1, dtype=_dt.int64, name=None) -> "Dataset":
    dtype = _dt.as_dtype(dtype)
    start, step = _int64(start), _int64(step)
    ds = Dataset(lambda: (np.asarray(start + i * step, dtype._np)
                          for i in itertools.count()), INFINITE,
                 lambda: TensorSpec((), dtype))
    ds._kind = "_ScanDataset"
    return ds


def random_dataset(seed=None, rerandomize_each_iteration=None, name=None) -> "Dataset":
    # TensorFlow's RandomDataset: the 32-bit words of PhiloxRandom(seed, seed2) in turn
    # (SingleSampleAdapter) as int64; the pair from get_seed at the call, and with
    # rerandomize_each_iteration each iterator's pair from the RandomSeedGenerator, as
    # shuffle's (sampling._ShuffleSeeds).
    from .sampling import _ShuffleSeeds, _words
    seeds = _ShuffleSeeds(seed, bool(rerandomize_each_iteration))
    rng_box = [seeds, 0]

    def it():
        for w in _words(seeds.next_pair()):
            yield np.int64(w)
    ds = Dataset(it, INFINITE, lambda: TensorSpec((), _dt.int64))
    ds._kind, ds._rngs = "_RandomDataset", (rng_box,)
    return ds


def list_files(file_pattern, shuffle=None, seed=None, name=None) -> "Dataset":
    import glob
    patterns = _to_numpy(file_pattern)
    patterns = [p.decode() if isinstance(p, bytes) else str(p)
                for p in np.atleast_1d(patterns).tolist()]
    names = sorted({f for p in patterns for f in glob.glob(p)})
    if not names:
        from ..._core import errors
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
            f"Summarized data: b'No files matched pattern: {', '.join(patterns)}'")
    ds = Dataset.from_tensor_slices(np.array([n.encode() for n in names], dtype=object))
    if shuffle is None or shuffle:
        ds = ds.shuffle(len(names), seed=seed)
    return ds
