"""Counting values: ``tf.math.bincount``; no gradient."""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive
from . import composite_dispatch as _composite
from ._helpers import to_tensor

__all__ = ["bincount"]


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_dt.int32,
             name=None, axis=None, binary_output=False):
    """How often each value in ``[0, max(arr)]`` occurs (``tf.math.bincount``); no gradient.

    Args:
        arr: a non-negative int tensor (flattened).
        weights: optional tensor of ``arr``'s shape; sums weights instead of counting.
        minlength, maxlength: bounds on the output length.
        dtype: the output dtype when ``weights`` is None.
        binary_output: 1 where a value occurs instead of the count.

    Raises:
        tf.errors.InvalidArgumentError: for negative values.
    """
    try:
        a = to_tensor(arr)._value
    except ValueError:  # a RaggedTensor: its values counted (else re-raised)
        return _composite.call("bincount", arr, weights, minlength, maxlength, dtype)
    if a.size and a.min() < 0:
        raise errors.op_error(errors.InvalidArgumentError,
                              "Input arr must be non-negative!", "DenseBincount")
    attrs = {"minlength": None if minlength is None else int(minlength),
             "maxlength": None if maxlength is None else int(maxlength),
             "dtype": _dt.as_dtype(dtype)._np, "binary_output": bool(binary_output)}
    ins = (to_tensor(arr),) if weights is None else (to_tensor(arr), to_tensor(weights))
    # an op, so a traced program counts each call's values (its length depends on them)
    return apply(_BINCOUNT, ins, attrs)


def _bincount_forward(a, *weights, minlength, maxlength, dtype, binary_output):
    n = int(a.max()) + 1 if a.size else 0
    if minlength is not None:
        n = max(n, minlength)
    if maxlength is not None:
        n = min(n, maxlength)
    flat = a.reshape(-1)
    keep = flat < n
    if weights:
        w = weights[0].reshape(-1)
        out = np.zeros(n, w.dtype)
        np.add.at(out, flat[keep], w[keep])
    else:
        out = np.zeros(n, dtype)
        np.add.at(out, flat[keep], 1)
    if binary_output:
        out = (out != 0).astype(out.dtype)
    return out


_BINCOUNT = Primitive("DenseBincount", _bincount_forward, differentiable=False,
                      save_inputs=False)
