"""Levenshtein distance between sparse sequences: ``tf.edit_distance``."""
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive

__all__ = ["edit_distance"]


def _levenshtein(a, b):
    prev = np.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        cur = np.empty_like(prev)
        cur[0] = i
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
        prev = cur
    return int(prev[-1])


def _groups(indices, values):
    out = {}
    for idx, v in zip(map(tuple, indices[:, :-1].tolist()), values.tolist()):
        out.setdefault(idx, []).append(v)
    return out


def _edit_distance(h_idx, h_val, h_shape, t_idx, t_val, t_shape, *, normalize):
    out_shape = np.maximum(h_shape[:-1], t_shape[:-1])
    out = np.zeros(tuple(int(d) for d in out_shape), np.float32)
    hyp, truth = _groups(h_idx, h_val), _groups(t_idx, t_val)
    for key in set(hyp) | set(truth):
        h, t = hyp.get(key, []), truth.get(key, [])
        d = _levenshtein(h, t)
        if normalize:
            out[key] = np.float32(d) / np.float32(len(t)) if t else (
                np.inf if d else np.nan)
        else:
            out[key] = d
    return out


_EDIT = Primitive("EditDistance", _edit_distance, differentiable=False, save_inputs=False)


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """Levenshtein distance between the sequences of two SparseTensors (``tf.edit_distance``).

    The last dimension holds the sequences; the others index them.

    Args:
        hypothesis: a SparseTensor of rank R (row-major indices).
        truth: a SparseTensor of rank R and the same dtype.
        normalize: divide each distance by the truth's length (an empty truth gives ``inf``,
            a sequence in neither tensor 0).
        name: unused.

    Returns:
        A float32 tensor of rank R - 1, shape the elementwise max of the two dense shapes
        without their last dimension. Not differentiable.

    Raises:
        TypeError: arguments that are not SparseTensors.
        tf.errors.InvalidArgumentError: ranks that disagree.
    """
    from .sparse.sparse_tensor import SparseTensor
    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    if hypothesis.dtype != truth.dtype:
        raise TypeError(f"Input 'truth_values' of 'EditDistance' Op has type "
                        f"{truth.dtype.name} that does not match type "
                        f"{hypothesis.dtype.name} of argument 'hypothesis_values'.")
    hr, tr = hypothesis.dense_shape._value.size, truth.dense_shape._value.size
    if hr != tr:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Inconsistent rank in hypothesis and truth: {hr} vs {tr}",
                              "EditDistance")
    ins = (hypothesis.indices, hypothesis.values, hypothesis.dense_shape,
           truth.indices, truth.values, truth.dense_shape)
    return apply(_EDIT, ins, {"normalize": bool(normalize)})


