"""Activations and losses of ``tf.nn``; softmax and log-softmax are primitives for stability."""
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive
from . import array_ops as _a
from . import math_ops as _m
from ._helpers import FLOAT_TYPES, check_kind, pair, to_tensor

__all__ = [
    "relu", "softmax", "log_softmax", "sigmoid", "tanh", "sparse_softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits", "l2_loss",
    "bias_add", "relu6", "leaky_relu", "elu", "selu", "softplus", "silu", "swish",
]

sigmoid = _m.sigmoid
tanh = _m.tanh
softplus = _m.softplus

_RELU = primitive("Relu", lambda x: np.maximum(x, 0), save_inputs=False, save_output=True)
# ReluGrad(g, y) = g where y > 0, else 0: one NumPy pass where compare-cast-multiply takes three.
# Its own derivative is ReluGrad again for g; for y it is zero almost everywhere.
_RELU_GRAD = primitive("ReluGrad", lambda g, y: g * (y > 0), save_inputs=True)
defvjp(_RELU, lambda g, y, x_shape: apply(_RELU_GRAD, (g, y)))
defvjp(_RELU_GRAD, lambda gg, y, g, y_fwd: apply(_RELU_GRAD, (gg, y_fwd)), None)


def relu(features, name=None):
    """``max(features, 0)`` element-wise (``tf.nn.relu``)."""
    x = to_tensor(features)
    check_kind(x, "fiu", "Relu", FLOAT_TYPES)
    return apply(_RELU, (x,))


def _softmax_forward(x, axis):
    z = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax_forward(x, axis):
    z = x - np.max(x, axis=axis, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=axis, keepdims=True))


_SOFTMAX = primitive("Softmax", _softmax_forward, save_inputs=False, save_output=True)
_LOG_SOFTMAX = primitive("LogSoftmax", _log_softmax_forward, save_inputs=False,
                         save_output=True)
defvjp(_SOFTMAX, lambda g, y, x_shape, axis: _m.multiply(
    _m.subtract(g, _m.reduce_sum(_m.multiply(g, y), axis, keepdims=True)), y))
defvjp(_LOG_SOFTMAX, lambda g, y, x_shape, axis: _m.subtract(
    g, _m.multiply(_m.reduce_sum(g, axis, keepdims=True), _m.exp(y))))


def _softmax_like(prim, logits, axis):
    x = to_tensor(logits)
    check_kind(x, "f", prim.name, "half, bfloat16, float, double")
    n = x._value.ndim
    if n == 0:
        raise errors.op_error(errors.InvalidArgumentError,
                              "logits must have >= 1 dimension, got []", prim.name)
    ax = -1 if axis is None else int(axis)
    if not -n <= ax < n:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"`axis` must be in the range [{-n}, {n}) where {n} is the "
                              f"number of dimensions in the input. Received: axis={ax}",
                              prim.name)
    return apply(prim, (x,), {"axis": ax % n})


def softmax(logits, axis=None, name=None):
    """``exp(logits) / sum(exp(logits), axis)`` computed stably (``tf.nn.softmax``).

    Args:
        logits: a float tensor of rank >= 1.
        axis: the class axis (default -1).

    Raises:
        tf.errors.InvalidArgumentError: for a scalar or an axis out of range.
    """
    return _softmax_like(_SOFTMAX, logits, axis)


def log_softmax(logits, axis=None, name=None):
    """``logits - log(sum(exp(logits), axis))`` computed stably (``tf.nn.log_softmax``)."""
    return _softmax_like(_LOG_SOFTMAX, logits, axis)


def _sparse_xent_forward(labels, logits):
    z = logits - np.max(logits, axis=-1, keepdims=True)
    e = np.exp(z)
    total = np.sum(e, axis=-1, keepdims=True)
    depth = logits.shape[-1]
    hot = labels[..., None] == np.arange(depth)
    loss = np.log(total[..., 0]) - np.sum(np.where(hot, z, 0), axis=-1)
    backprop = e / total - hot
    return loss.astype(logits.dtype, copy=False), backprop.astype(logits.dtype, copy=False)


def _sparse_xent_rule(g, y, labels, logits):
    g_loss, g_backprop = g
    loss, backprop = y
    grad = None
    if g_loss is not None:
        grad = _m.multiply(_a.expand_dims(g_loss, -1), backprop)
    if g_backprop is not None:
        # backprop = softmax(logits) - onehot: its derivative is softmax's.
        probs = softmax(logits)
        more = _m.multiply(_m.subtract(
            g_backprop, _m.reduce_sum(_m.multiply(g_backprop, probs), -1, keepdims=True)), probs)
        grad = more if grad is None else _m.add(grad, more)
    return grad


# Two outputs as in TensorFlow's fused op: the loss, and its gradient softmax - onehot,
# computed in the same pass and used by the rule (one multiply backward). Unlike
# TensorFlow's, this rule is differentiable again.
_SPARSE_XENT = primitive("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_forward,
                         save_output=True, n_outputs=2, none_grads=True)
defvjp(_SPARSE_XENT, None, _sparse_xent_rule)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Cross-entropy of integer class ``labels`` against unscaled ``logits``.

    TensorFlow counterpart: ``tf.nn.sparse_softmax_cross_entropy_with_logits``.

    Args:
        labels: int32/int64 tensor of shape ``[d0, ..., dn-1]`` with values in ``[0, C)``.
        logits: float tensor of shape ``[d0, ..., dn-1, C]``.

    Returns:
        The per-example loss ``logsumexp(logits) - logits[label]``, shape
        ``[d0, ..., dn-1]``, logits' dtype.

    Raises:
        ValueError: if the ranks do not fit.
        tf.errors.InvalidArgumentError: for a label outside ``[0, C)``.
    """
    labels = to_tensor(labels)
    logits = to_tensor(logits)
    if labels._value.ndim != logits._value.ndim - 1:
        raise ValueError(
            f"Rank mismatch: Rank of labels (received {labels._value.ndim}) should equal rank "
            f"of logits minus 1 (received {logits._value.ndim}).")
    depth = logits._value.shape[-1]
    lab = labels._value
    if lab.size and (lab.min() < 0 or lab.max() >= depth):
        bad = int(lab[(lab < 0) | (lab >= depth)].ravel()[0])
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Received a label value of {bad} which is outside the valid range of "
            f"[0, {depth}).  Label values: {' '.join(str(v) for v in lab.ravel())}",
            "SparseSoftmaxCrossEntropyWithLogits")
    return apply(_SPARSE_XENT, (labels, logits))[0]


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Cross-entropy of probability ``labels`` against ``logits`` along ``axis``.

    TensorFlow counterpart: ``tf.nn.softmax_cross_entropy_with_logits`` (gradients flow to
    both labels and logits).

    Args:
        labels, logits: float tensors of one shape ``[..., C]``.

    Returns:
        The loss with ``axis`` removed.
    """
    labels, logits = pair(labels, logits, "SoftmaxCrossEntropyWithLogits")
    return _m.negative(_m.reduce_sum(_m.multiply(labels, log_softmax(logits, axis)), axis))


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """``max(x, 0) - x * z + log(1 + exp(-|x|))`` for logits x, labels z, element-wise.

    TensorFlow counterpart: ``tf.nn.sigmoid_cross_entropy_with_logits``.

    Raises:
        ValueError: if labels and logits differ in shape.
    """
    labels, logits = pair(labels, logits, "SigmoidCrossEntropyWithLogits")
    if labels._value.shape != logits._value.shape:
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({logits.shape} vs {labels.shape}).")
    return _m.add(_m.subtract(relu(logits), _m.multiply(logits, labels)),
                  _m.log1p(_m.exp(_m.negative(_m.abs(logits)))))


def l2_loss(t, name=None):
    """``sum(t ** 2) / 2`` (``tf.nn.l2_loss``)."""
    return _m.multiply(_m.reduce_sum(_m.square(t)), 0.5)


def bias_add(value, bias, data_format=None, name=None):
    """Add a 1-D ``bias`` along the last axis (channels-last) (``tf.nn.bias_add``).

    Raises:
        ValueError: if the bias is not 1-D or does not match the last dimension.
    """
    value, bias = pair(value, bias, "BiasAdd")
    if bias._value.ndim != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {bias._value.ndim}")
    if data_format is not None and data_format.startswith("NC"):
        shape = [1, -1] + [1] * (value._value.ndim - 2)
        return _m.add(value, _a.reshape(bias, shape))
    return _m.add(value, bias)


def relu6(features, name=None):
    """``min(max(features, 0), 6)`` (``tf.nn.relu6``)."""
    return _m.minimum(relu(features), 6)


def leaky_relu(features, alpha=0.2, name=None):
    """``features`` where positive, else ``alpha * features`` (``tf.nn.leaky_relu``)."""
    x = to_tensor(features)
    return _a.where(_m.greater(x, 0), x, _m.multiply(x, alpha))


def elu(features, name=None):
    """``features`` where positive, else ``exp(features) - 1`` (``tf.nn.elu``)."""
    x = to_tensor(features)
    return _a.where(_m.greater(x, 0), x, _m.expm1(_m.minimum(x, 0)))


def selu(features, name=None):
    """Scaled ELU with the constants of Klambauer et al. 2017 (``tf.nn.selu``)."""
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    x = to_tensor(features)
    return _m.multiply(_a.where(_m.greater(x, 0), x,
                                _m.multiply(_m.expm1(_m.minimum(x, 0)), alpha)), scale)


def silu(features, beta=1.0, name=None):
    """``features * sigmoid(beta * features)`` (``tf.nn.silu``, Ramachandran et al. 2017)."""
    x = to_tensor(features)
    return _m.multiply(x, _m.sigmoid(_m.multiply(x, beta)))


swish = silu
