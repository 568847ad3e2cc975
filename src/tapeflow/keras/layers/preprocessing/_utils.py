"""What the categorical and text preprocessing layers share: the ``DenseBincount``
primitive behind every ``output_mode`` (int, one_hot, multi_hot, count, tf_idf), token keys,
and reading ``adapt`` data in batches.

Each layer's work is a non-differentiable primitive whose NumPy forward holds the layer's
vocabulary (or bin boundaries) as an attribute, so that the layers run eagerly, inside
``tf.function`` (a compiled ``model.fit`` step) and inside ``tf.data.Dataset.map`` alike.
String tensors are object arrays of ``bytes``.
"""
from ...._core import errors
from ...._core.backend import np
from ...._core.registry import nondifferentiable
from ...._core.tensor import _TensorLike, convert_to_tensor

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


def _encode(ids, weights=None, depth=0, mode="multi_hot", idf=None, dtype=np.float32,
            skip_pad=False):
    """one_hot / multi_hot / count / tf_idf of integer ``ids`` (Keras's rank rules:
    one_hot appends an axis unless the last one has size 1; the others reduce the last
    axis); ids >= depth are dropped, -1 (a padding) too when ``skip_pad``."""
    ids = np.asarray(ids).astype(np.int64)
    w = None if weights is None else np.asarray(weights, np.float64).reshape(ids.shape)
    if ids.ndim == 0:
        ids = ids.reshape(1)
        w = None if w is None else w.reshape(1)
    if mode != "one_hot" and ((ids < -1) | (ids == -1) & (not skip_pad)).any():
        raise errors.op_error(errors.InvalidArgumentError,
                              "Input arr must be non-negative!", "DenseBincount")
    if mode == "one_hot":
        if ids.ndim >= 2 and ids.shape[-1] == 1:
            ids = ids[..., 0]
        out = (ids[..., None] == np.arange(depth)).astype(dtype)
        return out
    if ids.ndim == 3:  # TF's bincount counts a rank-3 input along its axis 1
        ids = np.swapaxes(ids, 1, 2)
        if w is not None:
            w = np.swapaxes(w, 1, 2)
    lead = ids.shape[:-1]
    rows = ids.reshape(int(np.prod(lead)), ids.shape[-1])
    out = np.zeros((rows.shape[0], depth), np.float64)
    w = None if w is None else w.reshape(rows.shape)
    for r in range(rows.shape[0]):
        keep = (rows[r] >= 0) & (rows[r] < depth)
        np.add.at(out[r], rows[r][keep], 1.0 if w is None else w[r][keep])
    if mode == "multi_hot":
        out = (out > 0).astype(np.float64)
    elif mode == "tf_idf":
        out = out * np.asarray(idf, np.float64)[:depth]
    return out.reshape(lead + (depth,)).astype(dtype)


def _encode_forward(ids, *weights, depth, mode, idf, dtype, skip_pad):
    return _encode(ids, weights[0] if weights else None, depth, mode, idf, dtype, skip_pad)


_ENCODE = nondifferentiable("DenseBincount", _encode_forward)


def _not_ready():
    return errors.op_error(errors.FailedPreconditionError, "Table not initialized.",
                           "LookupTableFindV2")


def _key_bytes(v):
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8")
    return b"" if v == 0 else str(v).encode()  # zeros stand for strings in a build call


def _batches(data, steps=None):
    """``data`` (a list, array, tensor or Dataset of batches, of which the first ``steps``)
    as a list of NumPy arrays."""
    from ....data.dataset import Dataset
    if isinstance(data, Dataset):
        if steps is not None:
            data = data.take(steps)
        return [np.asarray(b.numpy() if isinstance(b, _TensorLike) else b) for b in data]
    if isinstance(data, _TensorLike):
        return [np.asarray(data.numpy())]
    if isinstance(data, (list, tuple)):
        return [np.asarray(convert_to_tensor(data).numpy())]
    return [np.asarray(data)]


def _as_tensor(x, dtype=None):
    if isinstance(x, _TensorLike):
        return x
    return convert_to_tensor(x, dtype)


def _check_mode(name, mode):
    if mode not in _MODES:
        raise ValueError(f"Unknown value for `output_mode` argument of {name}. Allowed "
                         f"values are: {_MODES}. Received: output_mode={mode}")
