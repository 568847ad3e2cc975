"""Losses (``tf.keras.losses``) with Keras 3's semantics.

Probabilities are clipped to ``[epsilon, 1 - epsilon]`` with ``epsilon = 1e-7`` before the
log, and the loss objects reduce per-example values by 'sum_over_batch_size' (the sum over
every element divided by their count), as Keras 3 does.
"""
import sys

from .._core import dtypes as _dt
from .._core import errors as _errors
from .._core import recording as _recording
from .._core.tensor import _TensorLike, convert_to_tensor
from ..ops import array_ops as _a
from ..ops import creation_ops as _cr
from ..ops import math_ops as _m
from ..ops import nn_ops as _nn
from ..ops import reduction_ops as _r
from . import _naming
from .backend import epsilon, floatx

__all__ = [
    "Reduction", "Loss", "LossFunctionWrapper", "BinaryCrossentropy", "BinaryFocalCrossentropy",
    "Circle",
    "circle", "CTC", "ctc",
    "CategoricalCrossentropy", "CategoricalFocalCrossentropy",
    "CategoricalGeneralizedCrossEntropy", "CategoricalHinge", "CosineSimilarity", "Dice",
    "Hinge", "Huber", "KLDivergence", "LogCosh", "MeanAbsoluteError",
    "MeanAbsolutePercentageError", "MeanSquaredError", "MeanSquaredLogarithmicError",
    "Poisson", "SparseCategoricalCrossentropy", "SquaredHinge", "Tversky",
    "binary_crossentropy", "binary_focal_crossentropy", "categorical_crossentropy",
    "categorical_focal_crossentropy", "categorical_generalized_cross_entropy",
    "categorical_hinge", "cosine_similarity", "dice", "hinge", "huber", "kl_divergence",
    "log_cosh", "mean_absolute_error", "mean_absolute_percentage_error", "mean_squared_error",
    "mean_squared_logarithmic_error", "poisson", "sparse_categorical_crossentropy",
    "squared_hinge", "tversky", "get", "serialize", "deserialize", "EPSILON",
    "mse", "mae", "mape", "msle", "kld", "MSE", "MAE", "MAPE", "MSLE", "KLD", "logcosh",
    "kullback_leibler_divergence"]

EPSILON = 1e-7  # the default of keras.config.epsilon(), which the losses read
_REDUCTIONS = ("sum_over_batch_size", "sum", "none", "mean", "mean_with_sample_weight", None)


def _tensor(x, dtype=None):
    if isinstance(x, _TensorLike) and (dtype is None or x.dtype == dtype):
        return x
    if isinstance(x, _TensorLike):
        return _a.cast(x, dtype)
    t = convert_to_tensor(x)
    return t if dtype is None or t.dtype == dtype else _a.cast(t, dtype)


def _same_rank(y_true, y_pred, expand_rank_1=True):
    """Make ranks equal when they differ by one and the longer ends in 1, as Keras 3's
    ``squeeze_or_expand_to_same_rank``: a rank-1 partner gets a trailing axis (so per-sample
    values stay per sample: ``(N,)`` labels against ``(N, 1)`` predictions give ``N``
    values), otherwise the trailing 1 is squeezed off."""
    rt, rp = y_true.ndim, y_pred.ndim
    if rt == rp + 1 and y_true.shape[-1] == 1:
        if rp == 1 and expand_rank_1:
            y_pred = _a.expand_dims(y_pred, -1)
        else:
            y_true = _a.squeeze(y_true, -1)
    elif rp == rt + 1 and y_pred.shape[-1] == 1:
        if rt == 1 and expand_rank_1:
            y_true = _a.expand_dims(y_true, -1)
        else:
            y_pred = _a.squeeze(y_pred, -1)
    return y_true, y_pred


def _check_same_shape(target, output):
    if target.ndim != output.ndim:
        raise ValueError("Arguments `target` and `output` must have the same rank (ndim). "
                         f"Received: target.shape={target.shape}, output.shape={output.shape}")
    if not target.shape.is_compatible_with(output.shape):   # None dims of a relaxed trace
        raise ValueError("Arguments `target` and `output` must have the same shape. "
                         f"Received: target.shape={target.shape}, output.shape={output.shape}")


def _clip(p):
    eps = epsilon()  # read at call time, as Keras reads keras.config.epsilon()
    return _m.minimum(_m.maximum(p, eps), 1.0 - eps)


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
    if axis != -1 and axis != y_pred.ndim - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    target = _tensor(y_true, _dt.int64)
    if target.ndim == y_pred.ndim and target.shape[-1] == 1:
        target = _a.squeeze(target, -1)
    if y_pred.ndim < 1:
        raise ValueError("Argument `output` must be at least rank 1. Received: "
                         f"output.shape={y_pred.shape}")
    if target.ndim != y_pred.ndim - 1:
        raise ValueError("Argument `output` must have rank (ndim) `target.ndim - 1`. "
                         f"Received: target.shape={target.shape}, output.shape={y_pred.shape}")
    if any(a is not None and b is not None and a != b    # None: a relaxed trace's dims
           for a, b in zip(target.shape, tuple(y_pred.shape)[:-1])):
        raise ValueError("Arguments `target` and `output` must have the same shape up until "
                         f"the last dimension: target.shape={target.shape}, "
                         f"output.shape={y_pred.shape}")
    valid = None
    if ignore_class is not None:
        valid = _m.not_equal(target, ignore_class)
        target = _a.where(valid, target, _a.zeros_like(target))
        y_pred = _a.where(_a.expand_dims(valid, -1), y_pred, _a.zeros_like(y_pred))
    logits = y_pred if from_logits else _m.log(_clip(y_pred))
    loss = _nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logits)
    if valid is not None:
        loss = _a.where(valid, loss, _a.zeros_like(loss))
    return loss


def _xent_as_keras(labels, logits, axis=-1):
    """``tf.nn.softmax_cross_entropy_with_logits`` with the gradient Keras trains by on
    TensorFlow: the kernel's ``softmax(logits) - labels`` for the logits (times the upstream
    gradient), ``-log_softmax(logits)`` for the labels.

    Keras 3's categorical cross-entropy from logits runs TensorFlow's fused op, whose
    logits gradient is the derivative only where the labels along ``axis`` sum to 1; with
    multi-hot or unnormalised targets (the Functional API guide's ticket departments) Keras
    trains by that gradient, not by the loss's derivative ``sum(labels) * softmax - labels``
    that ``tf.nn.softmax_cross_entropy_with_logits`` gives in tapeflow (docs/ops.md). A
    term of value 0 whose gradient is ``(1 - sum(labels)) * softmax`` makes up the
    difference; its own derivative keeps the second-order gradient softmax's Jacobian, as
    TensorFlow's.

    Args:
        labels, logits: float tensors of one shape ``[..., C, ...]`` (``C`` along ``axis``).
        axis: the class axis.

    Returns:
        The per-example loss, ``axis`` removed.
    """
    loss = _nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=axis)
    if logits.shape[axis] == 0:
        return loss             # no classes: nothing to make up (and logsumexp is -inf)
    lse = _r.reduce_logsumexp(logits, axis)
    short = _a.stop_gradient(_m.subtract(_a.ones_like(lse), _r.reduce_sum(labels, axis)))
    return _m.add(loss, _m.multiply(short, _m.subtract(lse, _a.stop_gradient(lse))))


def _smooth(y_true, label_smoothing, n):
    """Labels mixed with the uniform distribution over ``n`` classes (Keras's
    ``y_true * (1 - s) + s / n``); with no classes the labels are empty and stay so (Keras
    divides by a zero tensor there, giving inf, which reaches no element)."""
    if n == 0:
        return y_true
    return _m.add(_m.multiply(y_true, 1.0 - label_smoothing), label_smoothing / n)


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
        y_true = _smooth(y_true, label_smoothing, y_pred.shape[-1])
    _check_same_shape(y_true, y_pred)
    if from_logits:
        return _xent_as_keras(y_true, y_pred, axis)
    p = _m.divide(y_pred, _r.reduce_sum(y_pred, axis, keepdims=True))
    return _m.negative(_r.reduce_sum(_m.multiply(y_true, _m.log(_clip(p))), axis))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy averaged over the last axis.

    TensorFlow counterpart: ``tf.keras.losses.binary_crossentropy``.

    Args:
        y_true: labels in ``[0, 1]``, shape ``[batch, ..., d]``.
        y_pred: probabilities (or logits), same shape.
        from_logits: whether ``y_pred`` holds logits.
        label_smoothing: squeezes the labels towards 0.5.

    Returns:
        A float tensor of shape ``[batch, ...]``.
    """
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    # no rank reconciling here (Keras 3's function raises on [N] against [N, 1]); the
    # BinaryCrossentropy loss class reconciles first
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
    return _r.reduce_mean(per, axis)


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
    return _r.reduce_mean(_m.square(_m.subtract(y_true, y_pred)), -1)


def mean_absolute_error(y_true, y_pred):
    """``mean(|y_true - y_pred|, axis=-1)`` (``tf.keras.losses.mean_absolute_error``)."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    return _r.reduce_mean(_m.abs(_m.subtract(y_true, y_pred)), -1)


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
    return _r.reduce_mean(_a.where(_m.less_equal(abs_error, delta), quadratic, linear), -1)


def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred), -1)``, both clipped to ``[1e-7, 1]``."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    eps = epsilon()
    t = _m.minimum(_m.maximum(y_true, eps), 1.0)
    p = _m.minimum(_m.maximum(y_pred, eps), 1.0)
    return _r.reduce_sum(_m.multiply(t, _m.log(_m.divide(t, p))), -1)


def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + 1e-7), -1)``."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    return _r.reduce_mean(_m.subtract(y_pred, _m.multiply(y_true, _m.log(
        _m.add(y_pred, epsilon())))), -1)


def _l2_normalize(x, axis):
    inv = _m.minimum(_m.rsqrt(_r.reduce_sum(_m.square(x), axis, keepdims=True)),
                     1.0 / epsilon())
    return _m.multiply(x, inv)


def cosine_similarity(y_true, y_pred, axis=-1):
    """``-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)``: -1 for parallel
    vectors."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    return _m.negative(_r.reduce_sum(_m.multiply(_l2_normalize(y_true, axis),
                                                 _l2_normalize(y_pred, axis)), axis))


def mean_absolute_percentage_error(y_true, y_pred):
    """``100 * mean(|(y_true - y_pred) / max(|y_true|, 1e-7)|, -1)``
    (``tf.keras.losses.mean_absolute_percentage_error``)."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    diff = _m.abs(_m.divide(_m.subtract(y_true, y_pred), _m.maximum(_m.abs(y_true), epsilon())))
    return _m.multiply(_r.reduce_mean(diff, -1), 100.0)


def mean_squared_logarithmic_error(y_true, y_pred):
    """``mean((log(max(y_pred, 1e-7) + 1) - log(max(y_true, 1e-7) + 1))**2, -1)``."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    eps = epsilon()
    first = _m.log(_m.add(_m.maximum(y_pred, eps), 1.0))
    second = _m.log(_m.add(_m.maximum(y_true, eps), 1.0))
    return _r.reduce_mean(_m.square(_m.subtract(first, second)), -1)


def log_cosh(y_true, y_pred):
    """``mean(log(cosh(y_pred - y_true)), -1)``, computed as
    ``x + softplus(-2x) - log(2)`` so large errors do not overflow."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    x = _m.subtract(y_pred, y_true)
    # Keras's log(2) is a float32 log cast to the inputs' dtype
    log2 = _tensor(0.6931471824645996, y_pred.dtype)   # float32(log(2))
    value = _m.subtract(_m.add(x, _m.softplus(_m.multiply(x, -2.0))), log2)
    return _r.reduce_mean(value, -1)


def _hinge_labels(y_true):
    # 0/1 labels become -1/1, as Keras converts them (other labels pass unchanged).
    binary = _r.reduce_all(_m.logical_or(_m.equal(y_true, 0.0), _m.equal(y_true, 1.0)))
    return _a.where(binary, _m.subtract(_m.multiply(y_true, 2.0), 1.0), y_true)


def hinge(y_true, y_pred):
    """``mean(max(1 - y_true * y_pred, 0), -1)`` with labels -1/1 (0/1 are converted)."""
    y_pred = _tensor(y_pred)
    y_true = _hinge_labels(_tensor(y_true, y_pred.dtype))
    return _r.reduce_mean(_m.maximum(_m.subtract(1.0, _m.multiply(y_true, y_pred)), 0.0), -1)


def squared_hinge(y_true, y_pred):
    """``mean(max(1 - y_true * y_pred, 0)**2, -1)`` with labels -1/1 (0/1 converted)."""
    y_pred = _tensor(y_pred)
    y_true = _hinge_labels(_tensor(y_true, y_pred.dtype))
    return _r.reduce_mean(_m.square(_m.maximum(
        _m.subtract(1.0, _m.multiply(y_true, y_pred)), 0.0)), -1)


def categorical_hinge(y_true, y_pred):
    """``max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)`` over the last
    axis, for one-hot labels."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    pos = _r.reduce_sum(_m.multiply(y_true, y_pred), -1)
    masked = _m.multiply(_m.subtract(1.0, y_true), y_pred)
    if masked.shape.num_elements() == 0 and _recording.executing_eagerly():
        # Keras's ops.max refuses an empty tensor eagerly (an assert on its size); traced,
        # it reduces to -inf
        raise _errors.InvalidArgumentError(
            None, None, "Cannot compute the max of an empty tensor.\nCondition x > y did not "
            "hold.\nFirst 1 elements of x:\n[0]\nFirst 1 elements of y:\n[0]")
    neg = _r.reduce_max(masked, -1)
    return _m.maximum(_m.add(_m.subtract(neg, pos), 1.0), 0.0)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy scaled by ``(1 - p_t)**gamma`` (Lin et al. 2017), optionally
    weighted by ``alpha`` for positives and ``1 - alpha`` for negatives; mean over
    ``axis``."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = _m.add(_m.multiply(y_true, 1.0 - label_smoothing), 0.5 * label_smoothing)
    _check_same_shape(y_true, y_pred)
    if from_logits:
        # Keras's cross-entropy from the logits themselves: exact where sigmoid saturates
        bce = _nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
        y_pred = _m.sigmoid(y_pred)
    else:
        p = _clip(y_pred)
        bce = _m.negative(_m.add(_m.multiply(y_true, _m.log(p)), _m.multiply(
            _m.subtract(1.0, y_true), _m.log(_m.subtract(1.0, p)))))
    p_t = _m.add(_m.multiply(y_true, y_pred),
                 _m.multiply(_m.subtract(1.0, y_true), _m.subtract(1.0, y_pred)))
    focal = _m.multiply(_m.pow(_m.subtract(1.0, p_t), float(gamma)), bce)
    if apply_class_balancing:
        weight = _m.add(_m.multiply(y_true, alpha),
                        _m.multiply(_m.subtract(1.0, y_true), 1.0 - alpha))
        focal = _m.multiply(weight, focal)
    return _r.reduce_mean(focal, axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """Categorical cross-entropy with each class term scaled by
    ``alpha * (1 - p)**gamma`` (Lin et al. 2017).

    Raises:
        ValueError: if ``axis`` is a bool.
    """
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = _smooth(y_true, label_smoothing, y_true.shape[-1])
    if from_logits:
        y_pred = _nn.softmax(y_pred, axis=axis)
    output = _clip(_m.divide(y_pred, _r.reduce_sum(y_pred, axis, keepdims=True)))
    cce = _m.multiply(_m.negative(y_true), _m.log(output))
    factor = _m.multiply(_m.pow(_m.subtract(1.0, output), float(gamma)), alpha)
    return _r.reduce_sum(_m.multiply(factor, cce), axis)


def dice(y_true, y_pred, axis=None):
    """``1 - 2 * sum(y_true * y_pred) / (sum(y_true) + sum(y_pred) + 1e-7)`` over ``axis``
    (all axes by default)."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    # summed in TF's order: with values of both signs the sums cancel, and what is left
    # depends on the order of the additions
    total = _r.reduce_sum_in_tf_order
    inter = total(_m.multiply(y_true, y_pred), axis)
    denominator = _m.add(_m.add(total(y_true, axis), total(y_pred, axis)), epsilon())
    return _m.subtract(1.0, _m.divide(_m.multiply(inter, 2.0), denominator))


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """``1 - TP / (TP + alpha * FP + beta * FN + 1e-7)`` with soft counts over ``axis``
    (Salehi et al. 2017); ``alpha = beta = 0.5`` gives Dice."""
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    inter = _r.reduce_sum(_m.multiply(y_true, y_pred), axis)
    fp = _r.reduce_sum(_m.multiply(_m.subtract(1.0, y_pred), y_true), axis)
    fn = _r.reduce_sum(_m.multiply(y_pred, _m.subtract(1.0, y_true)), axis)
    denominator = _m.add(_m.add(_m.add(inter, _m.multiply(fp, alpha)),
                                _m.multiply(fn, beta)), epsilon())
    return _m.subtract(1.0, _m.divide(inter, denominator))


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """``(1 - p**q) / q`` with ``p`` the predicted probability of the integer label
    (Zhang & Sabuncu 2018)."""
    y_pred = _tensor(y_pred)
    labels = _a.cast(_tensor(y_true), _dt.int32)
    one_hot = _a.cast(_cr.one_hot(labels, y_pred.shape[-1]), y_pred.dtype)
    p = _r.reduce_sum(_m.multiply(y_pred, one_hot), -1)
    return _m.divide(_m.subtract(1.0, _m.pow(p, float(q))), float(q))


def _pos_neg_masks(query_labels, key_labels, remove_diagonal=True):
    q = _a.reshape(query_labels, (-1, 1))
    k = _a.reshape(key_labels, (-1, 1))
    positive = _m.equal(q, _a.transpose(k))
    negative = _m.logical_not(positive)
    if remove_diagonal:
        off = _m.logical_not(_a.cast(_cr.eye(q.shape[0], k.shape[0]), _dt.bool))
        positive = _m.logical_and(positive, off)
    return positive, negative


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True,
           gamma=80, margin=0.4):
    """The Circle loss of L2-normalised embeddings ``y_pred`` with integer labels
    ``y_true`` (Sun et al. 2020): per example, ``softplus`` of the log-sum-exp of weighted
    positive and negative cosine distances to the reference set (default the batch).

    Returns:
        A float tensor of shape ``[batch]``; as a Loss, only its positive entries count in
        the mean (Keras masks the zeros).
    """
    y_pred = _tensor(y_pred)
    y_true = _a.cast(_tensor(y_true), _dt.int32)
    ref = y_pred if ref_embeddings is None else _tensor(ref_embeddings, y_pred.dtype)
    ref_labels = y_true if ref_labels is None else _a.cast(_tensor(ref_labels), _dt.int32)
    distances = _m.maximum(_m.subtract(1.0, _m.matmul(y_pred, _a.transpose(ref))), 0.0)
    positive, negative = _pos_neg_masks(y_true, ref_labels, remove_diagonal)
    pos_f, neg_f = _a.cast(positive, distances.dtype), _a.cast(negative, distances.dtype)
    pos_w = _m.maximum(_m.multiply(_m.add(distances, margin), pos_f), 0.0)
    neg_w = _m.maximum(_m.multiply(_m.subtract(1.0 + margin, distances), neg_f), 0.0)
    pos = _m.multiply(_m.multiply(pos_w, -float(gamma)), _m.subtract(margin, distances))
    neg = _m.multiply(_m.multiply(neg_w, float(gamma)), _m.subtract(1.0 - margin, distances))
    minus_inf = _m.multiply(_a.ones_like(distances), float("-inf"))
    p_loss = _r.reduce_logsumexp(_a.where(positive, pos, minus_inf), 1)
    n_loss = _r.reduce_logsumexp(_a.where(negative, neg, minus_inf), 1)
    return _m.softplus(_m.add(p_loss, n_loss))


_NEG = -1e30  # log of "impossible": finite, so gradients of unreachable paths stay zero


def ctc(y_true, y_pred):
    """Connectionist temporal classification loss (Graves et al. 2006), as Keras 3's
    ``ctc``: ``y_pred`` holds logits ``[batch, time, classes]``, class 0 is the blank,
    ``y_true`` holds labels ``[batch, max_length]`` right-padded with 0 (the label length
    is the count of non-zero entries). The forward (alpha) recursion runs in log space
    with tapeflow ops, so the loss is differentiable.

    Returns:
        The negative log-likelihood per example, shape ``[batch]``.

    Raises:
        ValueError: for labels not of rank 2 or logits not of rank 3 (Keras's texts).
    """
    y_pred = _tensor(y_pred)
    labels = _a.cast(_tensor(y_true), _dt.int32)
    if labels.ndim != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape "
                         "`(batch_size, max_length)` in integer format. Received: "
                         f"y_true.shape={tuple(labels.shape)}")
    if y_pred.ndim != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape "
                         "`(batch_size, max_length, num_classes)`. Received: "
                         f"y_pred.shape={tuple(y_pred.shape)}")
    batch, steps, classes = tuple(y_pred.shape)
    max_len = labels.shape[1]
    width = 2 * max_len + 1
    # The extended label sequence: blank, l1, blank, l2, ..., blank.
    blanks = _cr.zeros((batch, max_len), _dt.int32)
    ext = _a.reshape(_a.stack([blanks, labels], axis=2), (batch, 2 * max_len))
    ext = _a.concat([ext, _cr.zeros((batch, 1), _dt.int32)], axis=1)
    log_probs = _nn.log_softmax(y_pred, axis=-1)
    one_hot = _cr.one_hot(ext, classes, dtype=log_probs.dtype)
    emissions = _m.matmul(log_probs, one_hot, transpose_b=True)  # [batch, time, width]
    # A skip over a blank is allowed into a label different from the one two back.
    two_back = _a.concat([_cr.zeros((batch, 2), _dt.int32), ext[:, :-2]], axis=1)
    skip = _m.logical_and(_m.not_equal(ext, 0), _m.not_equal(ext, two_back))
    neg = _m.multiply(_cr.ones((batch, width), log_probs.dtype), _NEG)
    start = _a.concat([_cr.ones((batch, 2), _dt.bool), _cr.zeros((batch, width - 2), _dt.bool)],
                      axis=1)
    alpha = _a.where(start, emissions[:, 0, :], neg)
    pad1 = _m.multiply(_cr.ones((batch, 1), log_probs.dtype), _NEG)
    pad2 = _m.multiply(_cr.ones((batch, 2), log_probs.dtype), _NEG)
    for t in range(1, steps):
        one = _a.concat([pad1, alpha[:, :-1]], axis=1)
        two = _a.where(skip, _a.concat([pad2, alpha[:, :-2]], axis=1), neg)
        alpha = _m.add(_r.reduce_logsumexp(_a.stack([alpha, one, two]), 0), emissions[:, t, :])
    # The path ends on the last label or on the blank after it.
    length = _r.reduce_sum(_a.cast(_m.not_equal(labels, 0), _dt.int32), 1)
    last = _a.expand_dims(_m.multiply(length, 2), 1)
    position = _a.expand_dims(_cr.range(width), 0)
    end = _m.logical_or(_m.equal(position, last),
                        _m.logical_and(_m.equal(position, _m.subtract(last, 1)),
                                       _m.greater(last, 0)))
    return _m.negative(_r.reduce_logsumexp(_a.where(end, alpha, neg), 1))


def _reduce(values, reduction, sample_weight, mask=None):
    """Keras 3's ``reduce_weighted_values``: weight (and mask), then sum, or sum divided by
    the number of elements (or by the weights' sum for 'mean_with_sample_weight')."""
    dt = values.dtype
    if mask is not None:
        if reduction in ("mean", "sum_over_batch_size"):
            total = _a.cast(_a.size(mask), dt)
            valid = _r.reduce_sum(_a.cast(mask, dt))
            mask = _a.where(mask, _m.divide_no_nan(total, valid), _a.zeros_like(total))
        else:
            mask = _a.cast(mask, dt)
        if sample_weight is not None:
            mask, w = _same_rank(mask, _tensor(sample_weight, dt))
            sample_weight = _m.multiply(w, mask)
        else:
            sample_weight = mask
    if sample_weight is not None:
        w = _tensor(sample_weight, dt)
        values, w = _same_rank(values, w)
        values = _m.multiply(values, w)
    if reduction in (None, "none") or values.ndim == 0 or tuple(values.shape) == (0,):
        return values
    total = _r.reduce_sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        divisor = _r.reduce_sum(_tensor(sample_weight, dt))
    else:
        divisor = _a.cast(_a.size(values), dt)
    return scale_loss_for_distribution(_m.divide_no_nan(total, divisor))


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
    return _m.multiply(value, _a.cast(1.0 / n, value.dtype))


class Loss:
    """Base class: ``loss(y_true, y_pred, sample_weight=None)`` returns the reduced loss.

    Args:
        name: the loss's name.
        reduction: 'sum_over_batch_size' (default), 'sum', 'mean',
            'mean_with_sample_weight', 'none' or None.
        dtype: the dtype both arguments are converted to (default float32).

    Raises:
        ValueError: for an unknown reduction.
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        if reduction not in _REDUCTIONS:
            raise ValueError("Invalid value for argument `reduction`. Expected one of "
                             "{'sum_over_batch_size', 'sum', None, 'none', 'mean', "
                             f"'mean_with_sample_weight'}}. Received: reduction={reduction}")
        self.name = name or _naming.auto_name(type(self).__name__)
        self.reduction = reduction
        self._dtype = _dt.as_dtype(dtype or floatx())

    @property
    def dtype(self) -> str:
        return self._dtype.name

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred = _tensor(y_pred, self._dtype)
        y_true = _tensor(y_true, self._dtype)
        return _reduce(self.call(y_true, y_pred), self.reduction, sample_weight)

    def get_config(self) -> dict:
        """``name``, ``reduction`` and the loss function's options (Keras 3's keys)."""
        return {"name": self.name, "reduction": self.reduction,
                **getattr(self, "_fn_kwargs", {})}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss from a function ``fn(y_true, y_pred, **kwargs)`` (Keras 3's wrapper): the
    two arguments are brought to one rank first.

    Args:
        fn: the per-example loss function.
        reduction, name, dtype: as for ``Loss``.
        **kwargs: passed to ``fn``.
    """

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        y_true, y_pred = _same_rank(y_true, y_pred)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update(self._fn_kwargs)
        return config

    def __repr__(self):
        return f"<LossFunctionWrapper({self.fn}, kwargs={self._fn_kwargs})>"


def _wrapper(cls_name, fn, default_name, params, doc):
    """A LossFunctionWrapper subclass with Keras's constructor ``(*params, reduction, name,
    dtype)``."""
    names = [p for p, _ in params]

    def __init__(self, *args, **kwargs):
        values = dict(params)
        extra = dict(zip(names, args, strict=False))
        rest = args[len(names):]
        for key, value in zip(("reduction", "name", "dtype"), rest, strict=False):
            kwargs.setdefault(key, value)
        for key in names:
            if key in kwargs:
                extra[key] = kwargs.pop(key)
        values.update(extra)
        unknown = set(kwargs) - {"reduction", "name", "dtype"}
        if unknown:
            raise TypeError(f"{cls_name}.__init__() got an unexpected keyword argument "
                            f"'{sorted(unknown)[0]}'")
        LossFunctionWrapper.__init__(self, fn, reduction=kwargs.get(
            "reduction", "sum_over_batch_size"), name=kwargs.get("name") or default_name,
            dtype=kwargs.get("dtype"), **values)
        for key, value in values.items():
            setattr(self, key, value)

    return type(cls_name, (LossFunctionWrapper,), {
        "__init__": __init__, "__doc__": doc, "__module__": __name__,
        "__repr__": Loss.__repr__})


_CE_PARAMS = [("from_logits", False), ("label_smoothing", 0.0), ("axis", -1)]

MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error", [],
                            "Mean of squared differences (``tf.keras.losses.MeanSquaredError``).")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error",
                             [], "Mean of absolute differences "
                             "(``tf.keras.losses.MeanAbsoluteError``).")
MeanAbsolutePercentageError = _wrapper(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error,
    "mean_absolute_percentage_error", [], "See :func:`mean_absolute_percentage_error`.")
MeanSquaredLogarithmicError = _wrapper(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", [], "See :func:`mean_squared_logarithmic_error`.")
CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity",
                            [("axis", -1)], "Negative cosine similarity "
                            "(``tf.keras.losses.CosineSimilarity``).")
Huber = _wrapper("Huber", huber, "huber_loss", [("delta", 1.0)],
                 "The Huber loss (``tf.keras.losses.Huber``); see :func:`huber`.")
LogCosh = _wrapper("LogCosh", log_cosh, "log_cosh", [], "See :func:`log_cosh`.")
KLDivergence = _wrapper("KLDivergence", kl_divergence, "kl_divergence", [],
                        "Kullback-Leibler divergence (``tf.keras.losses.KLDivergence``).")
Poisson = _wrapper("Poisson", poisson, "poisson", [],
                   "Poisson negative log-likelihood up to a constant.")
Hinge = _wrapper("Hinge", hinge, "hinge", [], "See :func:`hinge`.")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge", [],
                        "See :func:`squared_hinge`.")
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge", [],
                            "See :func:`categorical_hinge`.")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy,
                              "binary_crossentropy", _CE_PARAMS,
                              "Binary cross-entropy (``tf.keras.losses.BinaryCrossentropy``).")
CategoricalCrossentropy = _wrapper(
    "CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
    _CE_PARAMS, "Cross-entropy of one-hot labels (``tf.keras.losses.CategoricalCrossentropy``).")
BinaryFocalCrossentropy = _wrapper(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    [("apply_class_balancing", False), ("alpha", 0.25), ("gamma", 2.0), ("from_logits", False),
     ("label_smoothing", 0.0), ("axis", -1)], "See :func:`binary_focal_crossentropy`.")
CategoricalFocalCrossentropy = _wrapper(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy,
    "categorical_focal_crossentropy",
    [("alpha", 0.25), ("gamma", 2.0), ("from_logits", False), ("label_smoothing", 0.0),
     ("axis", -1)], "See :func:`categorical_focal_crossentropy`.")
Dice = _wrapper("Dice", dice, "dice", [("axis", None)], "See :func:`dice`.")
Tversky = _wrapper("Tversky", tversky, "tversky", [("alpha", 0.5), ("beta", 0.5),
                                                   ("axis", None)], "See :func:`tversky`.")
CategoricalGeneralizedCrossEntropy = _wrapper(
    "CategoricalGeneralizedCrossEntropy", categorical_generalized_cross_entropy,
    "categorical_generalized_cross_entropy", [("q", 0.5)],
    "See :func:`categorical_generalized_cross_entropy`.")


class CTC(LossFunctionWrapper):
    """The CTC loss (``tf.keras.losses.CTC``); see :func:`ctc`."""

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, reduction=reduction, name=name, dtype=dtype)

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred)

    def get_config(self) -> dict:
        return Loss.get_config(self)


class Circle(LossFunctionWrapper):
    """The Circle loss (``tf.keras.losses.Circle``); see :func:`circle`. Examples with zero
    loss are left out of the mean, as Keras masks them."""

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True,
                 reduction="sum_over_batch_size", name="circle", dtype=None):
        super().__init__(circle, reduction=reduction, name=name, dtype=dtype, gamma=gamma,
                         margin=margin, remove_diagonal=remove_diagonal)
        self.gamma, self.margin, self.remove_diagonal = gamma, margin, remove_diagonal

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred = _tensor(y_pred, self._dtype)
        values = self.call(y_true, y_pred)
        return _reduce(values, self.reduction, sample_weight, _m.greater(values, 0.0))


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy of integer labels (``tf.keras.losses.SparseCategoricalCrossentropy``).

    Args:
        from_logits: whether predictions are logits (else probabilities, clipped to
            ``[1e-7, 1 - 1e-7]``).
        ignore_class: a label whose entries count neither in the loss nor in the mean.
        reduction, name, dtype: as for ``Loss``.

    >>> import tapeflow as tf
    >>> loss = tf.keras.losses.SparseCategoricalCrossentropy()
    >>> round(float(loss([1, 0], [[0.3, 0.7], [0.9, 0.1]])), 6)
    0.231018
    """

    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name,
                         dtype=dtype, from_logits=from_logits, ignore_class=ignore_class)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    # call: LossFunctionWrapper's, as Keras 3's (its squeeze_or_expand_to_same_rank too: a
    # trailing 1 of the predictions one rank above the labels is squeezed off, then refused)

    def __call__(self, y_true, y_pred, sample_weight=None):
        if self.ignore_class is None:
            return super().__call__(y_true, y_pred, sample_weight)
        y_pred = _tensor(y_pred, self._dtype)
        y_true = _tensor(y_true, self._dtype)
        values = self.call(y_true, y_pred)
        labels = _a.reshape(y_true, _a.shape(values))
        mask = _m.not_equal(labels, float(self.ignore_class))
        return _reduce(values, self.reduction, sample_weight, mask)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

_CLASSES = (Loss, LossFunctionWrapper, KLDivergence, Poisson, BinaryCrossentropy,
            BinaryFocalCrossentropy, CategoricalCrossentropy, CategoricalFocalCrossentropy,
            SparseCategoricalCrossentropy, MeanSquaredError, MeanAbsoluteError,
            MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity,
            LogCosh, Huber, Hinge, SquaredHinge, CategoricalHinge, Dice, Tversky,
            CategoricalGeneralizedCrossEntropy, Circle, CTC)
_FUNCTIONS = (kl_divergence, poisson, binary_crossentropy, binary_focal_crossentropy,
              categorical_crossentropy, categorical_focal_crossentropy,
              sparse_categorical_crossentropy, mean_squared_error, mean_absolute_error,
              mean_absolute_percentage_error, mean_squared_logarithmic_error,
              cosine_similarity, log_cosh, huber, hinge, squared_hinge, categorical_hinge,
              dice, tversky, categorical_generalized_cross_entropy, circle, ctc)
_BY_NAME = {c.__name__: c for c in _CLASSES + _FUNCTIONS}
_BY_NAME.update({"bce": binary_crossentropy, "BCE": binary_crossentropy,
                 "kld": kl_divergence, "KLD": kl_divergence, "mae": mean_absolute_error,
                 "MAE": mean_absolute_error, "mse": mean_squared_error,
                 "MSE": mean_squared_error, "mape": mean_absolute_percentage_error,
                 "MAPE": mean_absolute_percentage_error,
                 "msle": mean_squared_logarithmic_error,
                 "MSLE": mean_squared_logarithmic_error})


def serialize(loss) -> dict:
    """A Loss as Keras 3 serializes it (module, class name, config)."""
    return {"module": "keras.losses", "class_name": type(loss).__name__,
            "config": loss.get_config(), "registered_name": None}


def deserialize(name, custom_objects=None):
    """A loss from :func:`serialize`'s dict or a name."""
    if isinstance(name, dict):
        cls = dict(_BY_NAME, **(custom_objects or {})).get(name["class_name"])
        if cls is None:
            raise ValueError(f"Could not interpret loss identifier: {name}")
        return cls.from_config(dict(name["config"]))
    return get(name)


def get(identifier):
    """A loss from a name (a class name gives an instance, a function name or alias such as
    ``'mse'`` the function, as in Keras), a config dict, an instance or a callable.

    Raises:
        ValueError: for an unknown identifier.
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        obj = _BY_NAME.get(identifier)
        if obj is None:
            raise ValueError(f"Could not interpret loss identifier: {identifier}")
        return obj() if isinstance(obj, type) else obj
    if callable(identifier):
        return identifier() if isinstance(identifier, type) else identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier}")


class Reduction:
    """The reduction names of TF 2's losses (``tf.keras.losses.Reduction``, kept by TF 2.21's
    ``tf.keras`` as a legacy class; Keras 3's losses take these same strings).

    ``AUTO`` ("auto"), ``NONE`` ("none"), ``SUM`` ("sum") and ``SUM_OVER_BATCH_SIZE``
    ("sum_over_batch_size") are plain strings, so ``reduction=Reduction.SUM`` is
    ``reduction="sum"``.
    """

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple:
        """The four names, as a tuple."""
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        """Return None for a known name.

        Raises:
            ValueError: for any other ``key``.
        """
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')
