"""Counting (label, prediction) pairs: ``tf.math.confusion_matrix``; no gradient."""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive
from ._helpers import to_tensor

__all__ = ["confusion_matrix"]


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=_dt.int32,
                     name=None):
    """Counts of (label, prediction) pairs (``tf.math.confusion_matrix``); no gradient.

    Returns:
        A ``[num_classes, num_classes]`` tensor of ``dtype``; rows are labels.

    Raises:
        tf.errors.InvalidArgumentError: for negative values or values >= ``num_classes``,
            or empty inputs without ``num_classes`` (TF's).
    """
    lab = to_tensor(labels)._value.astype(np.int64).reshape(-1)
    pred = to_tensor(predictions)._value.astype(np.int64).reshape(-1)
    if lab.shape != pred.shape:
        raise ValueError(f"Dimensions {lab.size} and {pred.size} are not compatible")
    if (lab.size and lab.min() < 0) or (pred.size and pred.min() < 0):
        raise errors.InvalidArgumentError(
            None, None, "`labels` contains negative values.\nCondition x >= 0 did not hold "
            "element-wise:" if lab.size and lab.min() < 0 else
            "`predictions` contains negative values.\nCondition x >= 0 did not hold "
            "element-wise:")
    if num_classes is None and not lab.size:
        raise _no_classes()
    n = int(num_classes) if num_classes is not None else int(max(lab.max(initial=-1),
                                                                 pred.max(initial=-1)) + 1)
    if lab.size and lab.max() >= n:
        raise errors.InvalidArgumentError(None, None, "`labels` out of bound\nCondition x < y "
                                          "did not hold element-wise:")
    if pred.size and pred.max() >= n:
        raise errors.InvalidArgumentError(None, None, "`predictions` out of bound\nCondition "
                                          "x < y did not hold element-wise:")
    npd = _dt.as_dtype(dtype)._np
    ins = [to_tensor(labels), to_tensor(predictions)] + (
        [] if weights is None else [to_tensor(weights)])
    # an op, so a traced program counts each call's values
    return apply(_CONFUSION, ins, {"num_classes": None if num_classes is None else n,
                                   "dtype": npd})


def _no_classes():
    # TF takes max(labels, predictions) + 1 classes: the int64 minimum plus one when both are
    # empty, a negative dimension its ScatterNd refuses
    return errors.op_error(errors.InvalidArgumentError,
                           "Dimension -9223372036854775807 must be >= 0", "ScatterNd")


def _confusion_forward(labels, predictions, *weights, num_classes, dtype):
    lab = labels.astype(np.int64).reshape(-1)
    pred = predictions.astype(np.int64).reshape(-1)
    if num_classes is None and not lab.size:
        raise _no_classes()
    n = num_classes if num_classes is not None else int(
        max(lab.max(initial=-1), pred.max(initial=-1)) + 1)
    out = np.zeros((n, n), dtype)
    w = weights[0].reshape(-1).astype(dtype) if weights else 1
    np.add.at(out, (lab, pred), w)
    return out


_CONFUSION = Primitive("ConfusionMatrix", _confusion_forward, differentiable=False,
                       save_inputs=False)
