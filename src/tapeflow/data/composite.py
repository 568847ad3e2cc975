"""Ragged and sparse dataset elements: ``tf.RaggedTensorSpec``, ``tf.SparseTensorSpec`` and
the batching of ``Dataset.ragged_batch`` / ``Dataset.sparse_batch``.

An element component may be a tapeflow ``RaggedTensor`` or ``SparseTensor`` (kept as it is,
given to ``map`` functions and to the user as it is); its spec is one of the classes here.
"""
from .._core.backend import np
from .._core.tensor import Tensor
from ..ops.ragged.ragged_tensor import RaggedTensor
from ..ops.ragged.ragged_tensor_spec import RaggedTensorSpec
from ..ops.sparse.sparse_tensor import SparseTensor
from ..ops.sparse.sparse_tensor_spec import SparseTensorSpec

__all__ = ["RaggedTensorSpec", "SparseTensorSpec", "is_composite", "spec_of_composite"]


def is_composite(value):
    """Whether ``value`` is a RaggedTensor or a SparseTensor (tapeflow's)."""
    return isinstance(value, (RaggedTensor, SparseTensor))


def spec_of_composite(value):
    """The spec of a RaggedTensor (its ragged dimensions ``None``) or SparseTensor value."""
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(value.shape, value.dtype)
    return value._type_spec


# -- ragged_batch --------------------------------------------------------------------------
def ragged_spec(spec, row_splits_dtype, inferred):
    """The batched spec of one component (TensorFlow's ``_DenseToRaggedDataset`` rule: a
    component whose shape has unknown dimensions becomes ragged, with ragged rank one more
    than the last unknown axis; a fully known one batches densely). For a spec read off
    the first element (``inferred``) the first axis is taken as the unknown one."""
    from .._core.tensor_spec import TensorSpec
    if not isinstance(spec, TensorSpec):
        raise NotImplementedError(
            f"Dataset.ragged_batch of an element component of type {spec!r}: tapeflow "
            "batches dense components only.")
    dims = list(spec.shape.as_list()) if spec.shape.rank is not None else None
    if dims is None:
        return TensorSpec([None], spec.dtype)   # unknown rank: batched as it comes
    if inferred and dims:
        dims[0] = None
    unknown = [axis for axis, d in enumerate(dims) if d is None]
    if not unknown:
        return TensorSpec([None] + dims, spec.dtype)
    return RaggedTensorSpec([None] + dims, spec.dtype, max(unknown) + 1, row_splits_dtype)


def ragged_stack(values, spec):
    """One batch of dense ``values`` as ``spec`` says: a RaggedTensor (nested row lengths
    from the values' shapes, flat values concatenated) or a dense stack."""
    if not isinstance(spec, RaggedTensorSpec):
        return np.stack([np.asarray(v) for v in values])
    rank = spec.ragged_rank
    values = [np.asarray(v) for v in values]
    inner = values[0].shape[rank:] if values else tuple(
        d or 0 for d in spec.shape.as_list()[rank + 1:])
    for v in values:
        if v.ndim != len(spec.shape) - 1 or v.shape[rank:] != inner:
            from .._core import errors
            raise errors.InvalidArgumentError(
                None, None, f"Cannot batch an element of shape {list(v.shape)} as "
                f"{spec!r}: its dimensions from axis {rank} on must be the same in every "
                "element (tapeflow reads a mapped dataset's element_spec off its first "
                "element; declare the shapes with from_generator's output_signature).")
    lengths = [np.array([v.shape[0] for v in values], np.int64)]
    for level in range(1, rank):
        lengths.append(np.array([d for v in values for d in
                                 [v.shape[level]] * int(np.prod(v.shape[:level]))],
                                np.int64))
    flat = np.concatenate([v.reshape((-1,) + inner) for v in values]) if values else \
        np.zeros((0,) + inner, spec.dtype._np)
    result = Tensor(flat.astype(spec.dtype._np, copy=False))
    split_np = spec.row_splits_dtype._np
    for lens in reversed(lengths):
        splits = np.concatenate([[0], np.cumsum(lens)]).astype(split_np)
        result = RaggedTensor(result, Tensor(splits), internal=True)
    return result


# -- sparse_batch --------------------------------------------------------------------------
def sparse_stack(values, row_shape, dtype):
    """One batch of dense ``values`` as a SparseTensor of dense shape
    ``[len(values)] + row_shape`` (``None`` dimensions: the batch's largest), holding every
    entry of every value (TensorFlow's ``DenseToSparseBatchDataset``)."""
    from .._core import errors
    from ..ops.sparse.sparse_tensor import SparseTensor
    values = [np.asarray(v) for v in values]
    want = "[" + ",".join("-1" if d is None else str(d) for d in row_shape) + "]"
    for v in values:
        shape = "[" + ",".join(str(d) for d in v.shape) + "]"
        if v.ndim != len(row_shape):
            raise errors.op_error(
                errors.InvalidArgumentError, f"Input element had shape ({shape}) that is "
                f"incompatible with the row shape ({want}).", "IteratorGetNext")
        if any(d is not None and n > d for n, d in zip(v.shape, row_shape)):
            raise errors.op_error(
                errors.DataLossError, f"Input element had shape ({shape}) that is larger "
                f"than the row shape ({want}).", "IteratorGetNext")
    dims = [d if d is not None else max((v.shape[i] for v in values), default=0)
            for i, d in enumerate(row_shape)]
    indices = [np.concatenate([np.full((v.size, 1), b, np.int64),
                               np.argwhere(np.ones(v.shape, bool)).astype(np.int64)], axis=1)
               for b, v in enumerate(values)]
    index = np.concatenate(indices) if indices else np.zeros((0, len(dims) + 1), np.int64)
    flat = np.concatenate([v.ravel() for v in values]) if values else \
        np.zeros(0, dtype._np)
    return SparseTensor(Tensor(index.reshape(-1, len(dims) + 1)), Tensor(flat),
                        Tensor(np.array([len(values)] + dims, np.int64)))
