"""Losses (``tf.keras.losses``) with Keras 3's semantics.

Probabilities are clipped to ``[epsilon, 1 - epsilon]`` with ``epsilon = 1e-7`` before the
log, and the loss objects reduce per-example values by 'sum_over_batch_size' (the sum over
every element divided by their count), as Keras 3 does.
"""
import sys

from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import _TensorLike, convert_to_tensor
from ..ops import array_ops as _a
from ..ops import math_ops as _m
from ..ops import nn_ops as _nn

__all__ = ["Loss", "SparseCategoricalCrossentropy", "CategoricalCrossentropy",
           "BinaryCrossentropy", "MeanSquaredError", "MeanAbsoluteError",
           "sparse_categorical_crossentropy", "categorical_crossentropy",
           "binary_crossentropy", "mean_squared_error", "mean_absolute_error", "mse", "mae",
           "Huber", "KLDivergence", "Poisson", "CosineSimilarity", "huber", "kl_divergence",
           "kld", "poisson", "cosine_similarity", "get", "EPSILON"]

EPSILON = 1e-7
_REDUCTIONS = ("sum_over_batch_size", "sum", "none", "mean", None)


def _tensor(x, dtype=None):
    if isinstance(x, _TensorLike) and (dtype is None or x.dtype == dtype):
        return x
    if isinstance(x, _TensorLike):
        return _m.cast(x, dtype)
    t = convert_to_tensor(x)
    return t if dtype is None or t.dtype == dtype else _m.cast(t, dtype)


def _same_rank(y_true, y_pred):
    """Squeeze a trailing 1 off whichever of the two has one more axis, as Keras does."""
    rt, rp = y_true._value.ndim, y_pred._value.ndim
    if rt == rp + 1 and y_true._value.shape[-1] == 1:
        y_true = _a.squeeze(y_true, -1)
    elif rp == rt + 1 and y_pred._value.shape[-1] == 1:
        y_pred = _a.squeeze(y_pred, -1)
    return y_true, y_pred


def _check_same_shape(target, output):
    if target._value.ndim != output._value.ndim:
        raise ValueError("Arguments `target` and `output` must have the same rank (ndim). "
                         f"Received: target.shape={target.shape}, output.shape={output.shape}")
    if target._value.shape != output._value.shape:
        raise ValueError("Arguments `target` and `output` must have the same shape. "
                         f"Received: target.shape={target.shape}, output.shape={output.shape}")


def _clip(p):
    return _m.minimum(_m.maximum(p, EPSILON), 1.0 - EPSILON)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None,
                                    axis=-1):
    """Per-example cross-entropy of integer labels against class scores.

    TensorFlow counterpart: ``tf.keras.losses.sparse_categorical_crossentropy``.

    Args:
        y_true: integer class ids, shape ``[batch, ...]`` (a trailing axis of 1 is
            squeezed); any numeric dtype (cast to int64).
        y_pred: probabilities (or logits if ``from_logits``), shape ``[batch, ..., C]``.
        from_logits: whether ``y_pred`` holds logits.
        ignore_class: a label whose entries get zero loss (and, in the loss object, do not
            count in the mean).

    Returns:
        A float tensor of shape ``[batch, ...]``.

    Raises:
        ValueError: if the ranks do not fit or the axis is not the last one.
    """
    y_pred = _tensor(y_pred)
    if axis != -1 and axis != y_pred._value.ndim - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    target = _tensor(y_true, _dt.int64)
    if target._value.ndim == y_pred._value.ndim and target._value.shape[-1] == 1:
        target = _a.squeeze(target, -1)
    if y_pred._value.ndim < 1:
        raise ValueError("Argument `output` must be at least rank 1. Received: "
                         f"output.shape={y_pred.shape}")
    if target._value.ndim != y_pred._value.ndim - 1:
        raise ValueError("Argument `output` must have rank (ndim) `target.ndim - 1`. "
                         f"Received: target.shape={target.shape}, output.shape={y_pred.shape}")
    valid = None
    if ignore_class is not None:
        valid = _m.not_equal(target, ignore_class)
        target = _a.where(valid, target, _m.zeros_like(target))
        y_pred = _a.where(_a.expand_dims(valid, -1), y_pred, _m.zeros_like(y_pred))
    logits = y_pred if from_logits else _m.log(_clip(y_pred))
    loss = _nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logits)
    if valid is not None:
        loss = _a.where(valid, loss, _m.zeros_like(loss))
    return loss


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example cross-entropy of one-hot (or soft) labels against class scores.

    TensorFlow counterpart: ``tf.keras.losses.categorical_crossentropy``. Probabilities
    are renormalised to sum to one along ``axis`` and clipped before the log.

    Args:
        y_true: float labels, shape ``[batch, ..., C]``.
        y_pred: probabilities or logits, same shape.
        from_logits: whether ``y_pred`` holds logits.
        label_smoothing: in ``[0, 1]``; mixes the labels with the uniform distribution.

    Returns:
        A float tensor with ``axis`` removed.

    Raises:
        ValueError: if the shapes differ.
    """
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    if label_smoothing:
        n = y_pred._value.shape[-1]
        y_true = _m.add(_m.multiply(y_true, 1.0 - label_smoothing), label_smoothing / n)
    _check_same_shape(y_true, y_pred)
    if from_logits:
        return _nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = _m.divide(y_pred, _m.reduce_sum(y_pred, axis, keepdims=True))
    return _m.negative(_m.reduce_sum(_m.multiply(y_true, _m.log(_clip(p))), axis))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy averaged over the last axis.

    TensorFlow counterpart: ``tf.keras.losses.binary_crossentropy``.

    Args:
        y_true: labels in ``[0, 1]``, shape ``[batch, ..., d]``.
        y_pred: probabilities (or logits), same shape (a trailing 1 is reconciled).
        from_logits: whether ``y_pred`` holds logits.
        label_smoothing: squeezes the labels towards 0.5.

    Returns:
        A float tensor of shape ``[batch, ...]``.
    """
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    if label_smoothing:
        y_true = _m.add(_m.multiply(y_true, 1.0 - label_smoothing), 0.5 * label_smoothing)
    _check_same_shape(y_true, y_pred)
    if from_logits:
        per = _nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = _clip(y_pred)
        per = _m.negative(_m.add(_m.multiply(y_true, _m.log(p)),
                                 _m.multiply(_m.subtract(1.0, y_true),
                                             _m.log(_m.subtract(1.0, p)))))
    return _m.reduce_mean(per, axis)


def mean_squared_error(y_true, y_pred):
    """``mean((y_true - y_pred) ** 2, axis=-1)`` (``tf.keras.losses.mean_squared_error``).

    Args:
        y_true, y_pred: tensors of one shape ``[batch, ..., d]`` (a trailing 1 on one side
            is squeezed); ``y_true`` takes ``y_pred``'s dtype.

    Returns:
        A tensor of shape ``[batch, ...]``.
    """
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    return _m.reduce_mean(_m.square(_m.subtract(y_true, y_pred)), -1)


def mean_absolute_error(y_true, y_pred):
    """``mean(|y_true - y_pred|, axis=-1)`` (``tf.keras.losses.mean_absolute_error``)."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    return _m.reduce_mean(_m.abs(_m.subtract(y_true, y_pred)), -1)


def huber(y_true, y_pred, delta=1.0):
    """Mean over the last axis of ``e**2 / 2`` where ``|e| <= delta``, else
    ``delta * |e| - delta**2 / 2``, with ``e = y_pred - y_true`` (Huber 1964)."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    error = _m.subtract(y_pred, y_true)
    abs_error = _m.abs(error)
    quadratic = _m.multiply(_m.square(error), 0.5)
    linear = _m.subtract(_m.multiply(abs_error, delta), 0.5 * delta * delta)
    return _m.reduce_mean(_a.where(_m.less_equal(abs_error, delta), quadratic, linear), -1)


def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred), -1)``, both clipped to ``[1e-7, 1]``."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    t = _m.minimum(_m.maximum(y_true, EPSILON), 1.0)
    p = _m.minimum(_m.maximum(y_pred, EPSILON), 1.0)
    return _m.reduce_sum(_m.multiply(t, _m.log(_m.divide(t, p))), -1)


def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + 1e-7), -1)``."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    return _m.reduce_mean(_m.subtract(y_pred, _m.multiply(y_true, _m.log(
        _m.add(y_pred, EPSILON)))), -1)


def _l2_normalize(x, axis):
    inv = _m.minimum(_m.rsqrt(_m.reduce_sum(_m.square(x), axis, keepdims=True)),
                     1.0 / EPSILON)
    return _m.multiply(x, inv)


def cosine_similarity(y_true, y_pred, axis=-1):
    """``-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)``: -1 for parallel
    vectors."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    return _m.negative(_m.reduce_sum(_m.multiply(_l2_normalize(y_true, axis),
                                                 _l2_normalize(y_pred, axis)), axis))


mse = mean_squared_error
mae = mean_absolute_error
kld = kl_divergence


def _reduce(values, reduction, sample_weight):
    if sample_weight is not None:
        w = _tensor(sample_weight, values.dtype)
        values, w = _same_rank(values, w)
        values = _m.multiply(values, w)
    if reduction in (None, "none") or values._value.ndim == 0 or values._value.size == 0:
        return values
    total = _m.reduce_sum(values)
    if reduction == "sum":
        return total
    return scale_loss_for_distribution(_m.divide(total, float(values._value.size)))


def scale_loss_for_distribution(value):
    """``value / num_replicas_in_sync`` under a strategy with several replicas, as Keras 3
    scales 'sum_over_batch_size' losses: summing the replicas' gradients then gives the
    global batch's mean gradient."""
    ctx = sys.modules.get("tapeflow.distribute._context")
    if ctx is None:
        return value
    n = ctx.get_strategy().num_replicas_in_sync
    if n == 1:
        return value
    return _m.multiply(value, _m.cast(1.0 / n, value.dtype))


class Loss:
    """Base class: ``loss(y_true, y_pred, sample_weight=None)`` returns the reduced loss.

    Args:
        name: the loss's name.
        reduction: 'sum_over_batch_size' (default), 'sum', 'mean' or 'none'.
        dtype: the dtype both arguments are converted to (default float32).

    Raises:
        ValueError: for an unknown reduction.
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        if reduction not in _REDUCTIONS:
            raise ValueError("Invalid value for argument `reduction`. Expected one of "
                             "{'sum_over_batch_size', 'sum', 'none', 'mean'}. Received: "
                             f"reduction={reduction}")
        self.name = name
        self.reduction = reduction
        self.dtype = _dt.as_dtype(dtype or "float32")

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred = _tensor(y_pred, self.dtype)
        y_true = _tensor(y_true, self.dtype)
        return _reduce(self.call(y_true, y_pred), self.reduction, sample_weight)

    def get_config(self) -> dict:
        return {"name": self.name, "reduction": self.reduction}


class _Wrapper(Loss):
    _fn = None
    _default_name = None

    def __init__(self, reduction="sum_over_batch_size", name=None, dtype=None, **fn_kwargs):
        super().__init__(name or self._default_name, reduction, dtype)
        self._fn_kwargs = fn_kwargs

    def call(self, y_true, y_pred):
        return type(self)._fn(y_true, y_pred, **self._fn_kwargs)


class SparseCategoricalCrossentropy(_Wrapper):
    """Cross-entropy of integer labels (``tf.keras.losses.SparseCategoricalCrossentropy``).

    Args:
        from_logits: whether predictions are logits (else probabilities, clipped to
            ``[1e-7, 1 - 1e-7]``).
        reduction, name: as for ``Loss``.

    >>> import tapeflow as tf
    >>> loss = tf.keras.losses.SparseCategoricalCrossentropy()
    >>> round(float(loss([1, 0], [[0.3, 0.7], [0.9, 0.1]])), 6)
    0.231018
    """

    _fn = staticmethod(sparse_categorical_crossentropy)
    _default_name = "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(reduction, name, dtype, from_logits=from_logits,
                         ignore_class=ignore_class)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def __call__(self, y_true, y_pred, sample_weight=None):
        if self.ignore_class is None or self.reduction not in ("sum_over_batch_size", "mean"):
            return super().__call__(y_true, y_pred, sample_weight)
        # Ignored entries weigh 0 and the others total / valid, so the mean is over the
        # valid entries only, as Keras weighs its mask.
        y_pred = _tensor(y_pred, self.dtype)
        y_true = _tensor(y_true, self.dtype)
        values = self.call(y_true, y_pred)
        labels = y_true._value.reshape(values._value.shape)
        valid = labels != self.ignore_class
        count = valid.sum()
        weight = np.where(valid, valid.size / count if count else 0.0, 0.0).astype(
            values._value.dtype)
        if sample_weight is not None:
            weight = weight * np.broadcast_to(
                np.asarray(_tensor(sample_weight, values.dtype)._value), weight.shape)
        return _reduce(values, self.reduction, weight)


class CategoricalCrossentropy(_Wrapper):
    """Cross-entropy of one-hot labels (``tf.keras.losses.CategoricalCrossentropy``)."""

    _fn = staticmethod(categorical_crossentropy)

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_crossentropy", dtype=None):
        super().__init__(reduction, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class BinaryCrossentropy(_Wrapper):
    """Binary cross-entropy (``tf.keras.losses.BinaryCrossentropy``)."""

    _fn = staticmethod(binary_crossentropy)

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy", dtype=None):
        super().__init__(reduction, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class MeanSquaredError(_Wrapper):
    """Mean of squared differences (``tf.keras.losses.MeanSquaredError``)."""

    _fn = staticmethod(mean_squared_error)

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(reduction, name, dtype)


class MeanAbsoluteError(_Wrapper):
    """Mean of absolute differences (``tf.keras.losses.MeanAbsoluteError``)."""

    _fn = staticmethod(mean_absolute_error)

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error",
                 dtype=None):
        super().__init__(reduction, name, dtype)


class Huber(_Wrapper):
    """The Huber loss (``tf.keras.losses.Huber``); see :func:`huber`."""

    _fn = staticmethod(huber)

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss",
                 dtype=None):
        super().__init__(reduction, name, dtype, delta=delta)


class KLDivergence(_Wrapper):
    """Kullback-Leibler divergence (``tf.keras.losses.KLDivergence``)."""

    _fn = staticmethod(kl_divergence)

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(reduction, name, dtype)


class Poisson(_Wrapper):
    """Poisson negative log-likelihood up to a constant (``tf.keras.losses.Poisson``)."""

    _fn = staticmethod(poisson)

    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(reduction, name, dtype)


class CosineSimilarity(_Wrapper):
    """Negative cosine similarity (``tf.keras.losses.CosineSimilarity``)."""

    _fn = staticmethod(cosine_similarity)

    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity",
                 dtype=None):
        super().__init__(reduction, name, dtype, axis=axis)


_BY_NAME = {
    "huber": Huber, "kl_divergence": KLDivergence, "kld": KLDivergence, "poisson": Poisson,
    "cosine_similarity": CosineSimilarity,
    "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
    "categorical_crossentropy": CategoricalCrossentropy,
    "binary_crossentropy": BinaryCrossentropy, "mean_squared_error": MeanSquaredError,
    "mse": MeanSquaredError, "mean_absolute_error": MeanAbsoluteError,
    "mae": MeanAbsoluteError,
}


def get(identifier):
    """A Loss from a name, an instance, or a callable ``f(y_true, y_pred)``.

    Raises:
        ValueError: for an unknown identifier.
    """
    if callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    raise ValueError(f"Could not interpret loss identifier: {identifier}")
