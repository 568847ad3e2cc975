"""Activations and losses of ``tf.nn``; softmax and log-softmax are primitives for stability."""

from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.jacobians import DIAGONAL_SAFE, batch_safe
from .._core.registry import Primitive, defjvp, defvjp, primitive
from . import _helpers as _h
from . import _kernels
from . import array_ops as _a
from . import clip_ops as _cl
from . import composite_dispatch as _composite
from . import half_reduce as _half
from . import indexing_ops as _ix
from . import math_ops as _m
from . import reduction_ops as _r
from . import special_math_ops as _sm
from ._helpers import FLOAT_TYPES, check_kind, pair, to_tensor

__all__ = [
    "relu", "softmax", "log_softmax", "sparse_softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits", "l2_loss",
    "bias_add", "relu6", "leaky_relu", "elu", "selu", "silu", "swish", "gelu",
    "weighted_cross_entropy_with_logits", "moments", "batch_normalization",
    "normalize_moments", "dropout", "embedding_lookup", "log_poisson_loss",
    "compute_average_loss", "crelu", "sufficient_statistics", "scale_regularization_loss",
]


_RELU = primitive("Relu", _kernels.relu, save_inputs=False, save_output=True)
# ReluGrad(g, y) = g where y > 0, else 0: one NumPy pass where compare-cast-multiply takes three.
# Its own derivative is ReluGrad again for g; for y it is zero almost everywhere, and zeros (not
# None) as TensorFlow's, so a gradient penalty through a ReLU network gets a tensor.
_RELU_GRAD = primitive("ReluGrad", lambda g, y: g * (y > 0), save_inputs=True)
defvjp(_RELU, lambda g, y, x_shape: apply(_RELU_GRAD, (g, y)))


def _zero_rule(gg, y, g, x, **attrs):
    """The derivative of a piecewise-linear activation's gradient op by its features."""
    return _a.zeros_like(x)


defvjp(_RELU_GRAD, lambda gg, y, g, y_fwd: apply(_RELU_GRAD, (gg, y_fwd)), _zero_rule)


def _relu6_forward(x):
    # NaN stays NaN (np.maximum and np.minimum propagate it), as Eigen's clamp does.
    if x.size >= 4096 and x.dtype.kind == "f":
        # array operands (NumPy's vectorised loops) and the second step in place: 4x faster
        # on MobileNetV2's activations, the same values
        out = np.maximum(x, _kernels.zeros_of(x.shape, x.dtype))
        return np.minimum(out, _kernels.filled(x.shape, x.dtype, 6), out=out)
    return np.minimum(np.maximum(x, x.dtype.type(0)), x.dtype.type(6))


_RELU6 = primitive("Relu6", _relu6_forward)
# Relu6Grad: g strictly inside (0, 6), as TensorFlow's kernel.
_RELU6_GRAD = primitive("Relu6Grad", lambda g, x: g * ((x > 0) & (x < 6)))
defvjp(_RELU6, lambda g, y, x: apply(_RELU6_GRAD, (g, x)))
defvjp(_RELU6_GRAD, lambda gg, y, g, x: apply(_RELU6_GRAD, (gg, x)), _zero_rule)


def _leaky_relu_forward(x, alpha):
    return np.where(x > 0, x, x * x.dtype.type(alpha))


def _leaky_relu_grad_forward(g, x, alpha):
    return np.where(x > 0, g, g * g.dtype.type(alpha))


_LEAKY_RELU = primitive("LeakyRelu", _leaky_relu_forward)
_LEAKY_RELU_GRAD = primitive("LeakyReluGrad", _leaky_relu_grad_forward)
defvjp(_LEAKY_RELU, lambda g, y, x, alpha: apply(_LEAKY_RELU_GRAD, (g, x), {"alpha": alpha}))
defvjp(_LEAKY_RELU_GRAD, lambda gg, y, g, x, alpha: apply(
    _LEAKY_RELU_GRAD, (gg, x), {"alpha": alpha}), _zero_rule)


def _elu_forward(x):
    with np.errstate(over="ignore"):
        return np.where(x > 0, x, np.expm1(np.minimum(x, x.dtype.type(0))))


# EluGrad(g, y) = g * (y + 1) where y < 0, else g: written from the output, as TensorFlow's,
# so elu''(0) is 0 and a NaN feature passes g.
_ELU = primitive("Elu", _elu_forward, save_inputs=False, save_output=True)
defvjp(_ELU, lambda g, y, x_shape: _a.where(_m.less(y, 0), _m.multiply(g, _m.add(y, 1)), g))
# Forward mode written out: transposing the rule above would send a zero cotangent through the
# unselected ``g * (y + 1)`` and give NaN at a NaN feature, where TensorFlow passes the tangent.
defjvp(_ELU, lambda ts, y, x_shape: None if ts[0] is None else _a.where(
    _m.less(y, 0), _m.multiply(ts[0], _m.add(y, 1)), ts[0]))


def relu(features, name=None):
    """``max(features, 0)`` element-wise (``tf.nn.relu``).

    Runs TensorFlow's ``Relu`` op; its gradient passes ``g`` where ``features > 0``.

    Args:
        features: a tensor of floats or integers, of any shape.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``features``' shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a bool, string or complex tensor.
    """
    try:
        x = to_tensor(features)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.unary(relu, features)
    check_kind(x, "fiu", "Relu", FLOAT_TYPES)
    return apply(_RELU, (x,))


# (the ufuncs' own reductions: the same results as np.max/np.sum without their Python
# wrappers, 2 us each, which were a fifth of a small model's call)
_MAX_REDUCE = np.maximum.reduce
_SUM_REDUCE = np.add.reduce


_HALF = np.dtype(np.float16)    # (compared, not by name: dtype.name costs 5 us)


def _softmax_forward(x, axis):
    if x.size == 0:
        return x.copy()
    z = x - _MAX_REDUCE(x, axis=axis, keepdims=True)
    e = np.exp(z)
    total = _SUM_REDUCE(e, axis=axis, keepdims=True)
    if x.dtype.itemsize != 8 and x.dtype != _HALF and np.isnan(total).any():
        # TensorFlow's float32/bfloat16 kernel (oneDNN): its max skips NaN, and in a row
        # holding a NaN (or +inf, NaN once shifted) only those entries are NaN, the others 0
        with np.errstate(invalid="ignore"):
            e = np.exp(x - np.fmax.reduce(x, axis=axis, keepdims=True))
        total = _SUM_REDUCE(e, axis=axis, keepdims=True)
        return np.where(np.isnan(total) & ~np.isnan(e), x.dtype.type(0), e / total)
    return e / total


def _log_softmax_forward(x, axis):
    if x.size == 0:
        return x.copy()
    z = x - _MAX_REDUCE(x, axis=axis, keepdims=True)
    return z - np.log(_SUM_REDUCE(np.exp(z), axis=axis, keepdims=True))


_SOFTMAX = primitive("Softmax", _softmax_forward, save_inputs=False, save_output=True)
_LOG_SOFTMAX = primitive("LogSoftmax", _log_softmax_forward, save_inputs=False,
                         save_output=True)
defvjp(_SOFTMAX, lambda g, y, x_shape, axis: _m.multiply(
    _m.subtract(g, _r.reduce_sum(_m.multiply(g, y), axis, keepdims=True)), y))
defvjp(_LOG_SOFTMAX, lambda g, y, x_shape, axis: _m.subtract(
    g, _m.multiply(_r.reduce_sum(g, axis, keepdims=True), _m.exp(y))))


def _softmax_like(prim, logits, axis):
    x = to_tensor(logits)
    check_kind(x, "f", prim.name, "half, bfloat16, float, double")
    n = x._value.ndim
    if n == 0:
        if axis is not None and int(axis) != -1:  # TF's Python-side check, before the kernel
            raise errors.InvalidArgumentError(
                None, None, "`dim` must be in the range [0, 0) where 0 is the number of "
                f"dimensions in the input. Received: dim={int(axis)}")
        if prim is _LOG_SOFTMAX or x._value.dtype != np.float32:
            raise errors.op_error(errors.InvalidArgumentError,
                                  "logits must have >= 1 dimension, got []", prim.name)
        # float32 Softmax runs TF's oneDNN kernel, which aborts
        raise errors.op_error(errors.AbortedError, "Input dims must be <= 5 and >=1",
                              prim.name)
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
    """``logits - log(sum(exp(logits), axis))`` computed stably (``tf.nn.log_softmax``).

    Args:
        logits: a float tensor, non-empty.
        axis: the class axis; default the last.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``logits``' shape and dtype; ``exp`` of it sums to 1 along ``axis``.
    """
    return _softmax_like(_LOG_SOFTMAX, logits, axis)


_UNSIGNED = {np.dtype(f"int{b}"): np.dtype(f"uint{b}") for b in (8, 16, 32, 64)}


def _sparse_xent_forward(labels, logits):
    depth = logits.shape[-1]
    index = labels.reshape(-1)
    unsigned = _UNSIGNED.get(index.dtype)
    if index.size and (index if unsigned is None else index.view(unsigned)).max() >= depth:
        # one pass finds negatives too (they read as huge unsigned values)
        bad = int(index[(index < 0) | (index >= depth)][0])
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Received a label value of {bad} which is outside the valid range of "
            f"[0, {depth}).  Label values: {' '.join(str(v) for v in labels.ravel())}",
            "SparseSoftmaxCrossEntropyWithLogits")
    # Classes along axis 0 of a contiguous copy: the row max, sum and gathers then run over
    # whole rows of examples (a 10-wide last axis makes NumPy's reductions slow).
    zt = logits.reshape(-1, depth).T.copy()
    zt -= np.maximum.reduce(zt, axis=0)
    e = np.exp(zt)
    total = np.add.reduce(e, axis=0)
    n = zt.shape[1]
    hit = np.multiply(index, n, dtype=np.intp) + np.arange(n)   # flat label positions
    loss = np.log(total) - zt.reshape(-1)[hit]
    # backprop = softmax - onehot, made in place: no one-hot array, no extra pass.
    e /= total
    e.reshape(-1)[hit] -= 1
    return loss.reshape(labels.shape), np.ascontiguousarray(e.T).reshape(logits.shape)


def _sparse_xent_rule(g, y, labels, logits):
    g_loss, g_backprop = g
    loss, backprop = y
    grad = None
    if g_loss is not None:
        grad = _m.multiply(_a.expand_dims(g_loss, -1), backprop)
    if g_backprop is not None:
        # backprop = softmax(logits) - onehot: its derivative is softmax's.
        # TF's rule takes the inner product as a matmul ([.., 1, C] @ [.., C, 1]): in
        # float16 that is a float32 sum rounded once, not a sum of rounded products.
        probs = softmax(logits)
        inner = _a.squeeze(_m.matmul(_a.expand_dims(g_backprop, -2),
                                     _a.expand_dims(probs, -1)), -1)
        more = _m.multiply(_m.subtract(g_backprop, inner), probs)
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
        tf.errors.InvalidArgumentError: for a label outside ``[0, C)``, or non-float logits.
    """
    labels = to_tensor(labels)
    logits = to_tensor(logits)
    if labels._value.ndim != logits._value.ndim - 1:
        raise ValueError(
            f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
            f"labels.shape={labels.shape} of rank {labels._value.ndim} and "
            f"logits.shape={logits.shape} of rank {logits._value.ndim}")
    if labels._value.shape != logits._value.shape[:-1]:
        raise ValueError(
            f"`labels.shape` must equal `logits.shape` except for the last dimension. "
            f"Received: labels.shape={labels.shape} and logits.shape={logits.shape}")
    check_kind(logits, "f", "SparseSoftmaxCrossEntropyWithLogits",
               "half, bfloat16, float, double")
    if logits._value.dtype == np.float16:
        # TF's wrapper runs float16 logits through the float32 kernel and casts the loss
        # back (its gradients then round once, through the casts)
        loss = apply(_SPARSE_XENT, (labels, _a.cast(logits, _dt.float32)))[0]
        return _a.cast(loss, _dt.float16)
    return apply(_SPARSE_XENT, (labels, logits))[0]


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Cross-entropy of probability ``labels`` against ``logits`` along ``axis``.

    TensorFlow counterpart: ``tf.nn.softmax_cross_entropy_with_logits`` (gradients flow to
    both labels and logits).

    Args:
        labels, logits: float tensors of one shape ``[..., C]``.

    Returns:
        The loss with ``axis`` removed.

    Raises:
        tf.errors.InvalidArgumentError: for shapes that do not broadcast, a negative ``axis``
            other than -1 (as TF's ``range(axis)``), or no classes over an empty batch.
    """
    labels, logits = pair(labels, logits, "SoftmaxCrossEntropyWithLogits")
    try:
        np.broadcast_shapes(labels._value.shape, logits._value.shape)
    except ValueError:
        raise errors.op_error(
            errors.InvalidArgumentError, "logits and labels must be broadcastable: "
            f"logits_size={_dims(logits._value.shape)} labels_size="
            f"{_dims(labels._value.shape)}", "SoftmaxCrossEntropyWithLogits") from None
    if axis != -1 and isinstance(axis, (int, np.integer)) and axis < 0:
        # TF moves a negative axis other than -1 to the end through range(axis), which
        # raises Range's InvalidArgumentError
        raise errors.op_error(errors.InvalidArgumentError, "Requires start <= limit when "
                              f"delta > 0: 0/{int(axis)}", "Range")
    shape = np.broadcast_shapes(labels._value.shape, logits._value.shape)
    if isinstance(axis, (int, np.integer)) and -len(shape) <= axis < len(shape) and (
            shape[axis] == 0) and 0 in (rest := shape[:axis % len(shape)] + shape[
            axis % len(shape) + 1:]):
        # no classes and no rows: TF flattens to [-1, 0], whose -1 Reshape infers from the
        # nonzero sizes, so its loss cannot be reshaped back to the empty batch shape
        rows = int(np.prod([d for d in rest if d]))
        raise errors.op_error(errors.InvalidArgumentError, f"Input to reshape is a tensor "
                              f"with {rows} values, but the requested shape has 0", "Reshape")
    return _m.negative(_r.reduce_sum(_m.multiply(labels, log_softmax(logits, axis)), axis))


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
    # TensorFlow's selects (not relu and abs), so the gradient at logits 0 is
    # sigmoid(0) - labels: both branches take the x >= 0 side.
    nonneg = _m.greater_equal(logits, _a.zeros_like(logits))
    relu_logits = _a.where(nonneg, logits, _a.zeros_like(logits))
    neg_abs = _a.where(nonneg, _m.negative(logits), logits)
    return _m.add(_m.subtract(relu_logits, _m.multiply(logits, labels)),
                  _m.log1p(_m.exp(neg_abs)))


def l2_loss(t, name=None):
    """``sum(t ** 2) / 2`` (``tf.nn.l2_loss``), the usual weight-decay term.

    Args:
        t: a float tensor of any shape.
        name: TensorFlow's op name; unused.

    Returns:
        A scalar of ``t``'s dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a tensor that is not float.
    """
    t = to_tensor(t)
    check_kind(t, "f", "L2Loss", FLOAT_TYPES)
    return apply(_L2LOSS, (t,))


def _l2_loss_forward(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return (np.add.reduce(np.square(x), axis=None, dtype=x.dtype) * x.dtype.type(0.5))[()]


# One op as TensorFlow's L2Loss, its gradient g * t: forward mode is sum(t * dt), with no
# constant 0.5 whose zero tangent would meet an infinite sum
_L2LOSS = primitive("L2Loss", _l2_loss_forward)
defvjp(_L2LOSS, lambda g, y, x: _m.multiply(x, g))


def bias_add(value, bias, data_format=None, name=None):
    """Add a 1-D ``bias`` along the last axis (channels-last) (``tf.nn.bias_add``).

    Raises:
        ValueError: if the bias is not 1-D or does not match the last dimension.
    """
    value, bias = pair(value, bias, "BiasAdd")
    if bias._value.ndim != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {bias._value.ndim}")
    if value._value.ndim < 2:
        raise errors.op_error(errors.InvalidArgumentError, "Input tensor must be at least 2D: "
                              f"{_h._show(value._value.shape)}", "BiasAdd")
    channels = value._value.shape[1 if data_format and data_format.startswith("NC") else -1] \
        if value._value.ndim else None
    if channels != bias._value.shape[0]:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Must provide as many biases as the last dimension of the input tensor: "
            f"{_h._show(bias._value.shape)} vs. {_h._show(value._value.shape)}", "BiasAdd")
    if data_format is not None and data_format.startswith("NC"):
        shape = [1, -1] + [1] * (value._value.ndim - 2)
        return _m.add(value, _a.reshape(bias, shape))
    if value._value.dtype.char == "e":  # float16: BiasAddGrad sums in float32, not as Sum
        return apply(_BIAS_ADD, (value, bias))
    return _m.add(value, bias)


def _bias_add_grad_forward(g):
    if g.dtype.char == "e":
        return _half.bias_add_grad(g)
    return np.add.reduce(g.reshape(-1, g.shape[-1]), axis=0, dtype=g.dtype)


def _lead(x):
    return tuple(range(x._value.ndim - 1))


# float16 BiasAdd as TF's op, so that its bias gradient is TF's BiasAddGrad (float32
# accumulation, one rounding) where the gradient of an Add is a Sum in float16.
_BIAS_ADD = primitive("BiasAdd", lambda v, b: v + b)
_BIAS_ADD_GRAD = primitive("BiasAddGrad", _bias_add_grad_forward, save_output=False)
defvjp(_BIAS_ADD, lambda g, y, v, b: g, lambda g, y, v, b: apply(_BIAS_ADD_GRAD, (g,)))
defvjp(_BIAS_ADD_GRAD, lambda gg, y, g: _r.spread(gg, g, _lead(g), False))
defjvp(_BIAS_ADD, lambda ts, y, v, b: ts[0] if ts[1] is None else (
    _m.add(_a.zeros_like(v), ts[1]) if ts[0] is None else apply(_BIAS_ADD, ts)))
defjvp(_BIAS_ADD_GRAD, lambda ts, y, g: apply(_BIAS_ADD_GRAD, ts))


def relu6(features, name=None):
    """``min(max(features, 0), 6)`` (``tf.nn.relu6``); as TensorFlow's ``Relu6Grad``, the
    gradient is 1 only strictly inside ``(0, 6)``."""
    x = to_tensor(features)
    check_kind(x, "fiu", "Relu6", FLOAT_TYPES)
    return apply(_RELU6, (x,))


def leaky_relu(features, alpha=0.2, name=None):
    """``features`` where positive, else ``alpha * features`` (``tf.nn.leaky_relu``).

    ``alpha`` is a float32 attribute in TensorFlow, so it is rounded to float32 first; integer
    ``features`` are cast to float32, as TensorFlow does.
    """
    x = to_tensor(features)
    if x.dtype.is_integer:
        x = _a.cast(x, _dt.float32)
    alpha = float(np.float32(alpha._value if hasattr(alpha, "_value") else alpha))
    check_kind(x, "f", "LeakyRelu", FLOAT_TYPES)
    return apply(_LEAKY_RELU, (x,), {"alpha": alpha})


def elu(features, name=None):
    """``features`` where positive, else ``exp(features) - 1`` (``tf.nn.elu``).

    Args:
        features: a float tensor of any shape.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``features``' shape and dtype.
    """
    x = to_tensor(features)
    check_kind(x, "f", "Elu", FLOAT_TYPES)
    return apply(_ELU, (x,))


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805
_SELU_SCALE_ALPHA = 1.7580993408473766


def _selu_forward(x):
    t = x.dtype.type
    with np.errstate(over="ignore", invalid="ignore"):
        neg = np.expm1(np.minimum(x, t(0))) * t(_SELU_ALPHA)
        return np.where(x < 0, neg, x) * t(_SELU_SCALE)


# One op as TensorFlow's Selu; SeluGrad(g, y) = g * (y + scale * alpha) where y < 0, else
# g * scale: the linear branch wherever not y < 0 (NaN included). Forward mode written out
# (TensorFlow transposes SeluGrad, a select), so no constant's zero tangent meets a NaN.
_SELU = primitive("Selu", _selu_forward, save_inputs=False, save_output=True)
defvjp(_SELU, lambda g, y, x_shape: _a.where(
    _m.less(y, 0), _m.multiply(g, _m.add(y, _SELU_SCALE_ALPHA)), _m.multiply(g, _SELU_SCALE)))
defjvp(_SELU, lambda ts, y, x_shape: None if ts[0] is None else _a.where(
    _m.less(y, 0), _m.multiply(ts[0], _m.add(y, _SELU_SCALE_ALPHA)),
    _m.multiply(ts[0], _SELU_SCALE)))


def selu(features, name=None):
    """Scaled ELU with the constants of Klambauer et al. 2017 (``tf.nn.selu``).

    Args:
        features: a float tensor of any shape.
        name: TensorFlow's op name; unused.

    Returns:
        ``scale * (alpha * (exp(x) - 1))`` where ``x < 0``, else ``scale * x``; the
        gradient takes the linear branch wherever not ``x < 0`` (NaN included), as TF's.
    """
    x = to_tensor(features)
    check_kind(x, "f", "Selu", FLOAT_TYPES)
    return apply(_SELU, (x,))


def silu(features, beta=1.0, name=None):
    """``features * sigmoid(beta * features)`` (``tf.nn.silu``, Ramachandran et al. 2017).

    Also ``tf.nn.swish``.

    Args:
        features: a float tensor of any shape.
        beta: a scalar; 1.0 gives the SiLU.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``features``' shape and dtype.
    """
    x = to_tensor(features)
    if x._value.dtype.kind not in "fc":
        check_kind(x, "fc", "Sigmoid", _h.FLOAT_COMPLEX_TYPES)
    if not hasattr(beta, "_value"):
        if x._value.dtype.kind == "c":
            return apply(_SWISH, (x,), {"beta": complex(beta)})
        if not (ACTIVE[0] and current_tracer() is not None):
            return apply(_SWISH, (x,), {"beta": float(beta)})
    # a tensor beta, or a tf.function trace of real features: the composite (one TF op per
    # step, so the trace lowers to a GraphDef; its second derivative runs through
    # SigmoidGrad's gradient, not TF's custom one)
    return _m.multiply(x, _m.sigmoid(_m.multiply(x, beta)))


def _swish_slope(x, beta):
    # TF's s * (1 + (beta x) (1 - s)), s = sigmoid(beta x), op by op in x's dtype
    bx = _m.multiply(beta, x)
    s = _m.sigmoid(bx)
    return _m.multiply(s, _m.add(1, _m.multiply(bx, _m.subtract(1, s))))


def _swish_forward(x, beta):
    # TF's x * sigmoid(beta * x), its products and its complex sigmoid 1 / (1 + exp(-z)) as
    # Eigen's (0, not nan, where exp(-z) is infinite)
    b = x.dtype.type(beta)
    if x.dtype.kind != "c":
        return x * _kernels.sigmoid(x * b)
    with np.errstate(all="ignore"):
        z = _kernels.complex_mul(np.asarray(b), x)
        return _kernels.complex_mul(x, _kernels.complex_reciprocal_c(1 + np.exp(-z)))


# TF's swish (``nn_impl.swish``): x sigmoid(beta x) under a custom gradient dy * slope, so
# its second derivative runs through the slope's ops (not SigmoidGrad's gradient, whose
# gb - 2 gb y gives inf - inf = nan where the slope's does not). Eager only (a trace takes
# the composite, whose steps lower to TF ops); kept out of the op table (PRIMITIVES): the
# op-table tests differentiate by finite differences, which TensorFlow's unconjugated rule
# does not follow for complex inputs.
_SWISH = defvjp(Primitive("Swish", _swish_forward),
                lambda g, y, x, beta: _m.multiply(g, _swish_slope(x, beta)))
defjvp(_SWISH, lambda ts, y, x, beta: None if ts[0] is None else _m.multiply(
    ts[0], _swish_slope(x, beta)))
batch_safe(_SWISH)
DIAGONAL_SAFE.add(_SWISH)


swish = silu


# =============================================================================
# The op library, part 2 (tf.nn): gelu, losses, moments and normalisation, dropout,
# embedding lookup; convolutions and pooling live in nn_conv_ops.
# =============================================================================
from .._core import dtypes as _dt  # noqa: E402 - this section keeps its imports with it
from .._core.tensor import _TensorLike, static_value  # noqa: E402


def gelu(features, approximate=False, name=None):
    """Gaussian error linear unit (``tf.nn.gelu``; Hendrycks & Gimpel 2016).

    ``x * Phi(x) = 0.5 x (1 + erf(x / sqrt(2)))``, or with ``approximate=True``
    ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``.

    Args:
        features: a float tensor.
        approximate: use the tanh form.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.nn.gelu(tf.constant([0.0, 1.0])).numpy())
        [0.        0.8413447]
    """
    x = to_tensor(features)
    if x._value.dtype.kind != "f" and x.dtype.name != "bfloat16":
        raise ValueError("`features.dtype` must be a floating point tensor.Received:"
                         f"features.dtype={x.dtype!r}")
    if approximate:
        inner = _m.multiply(_m.add(x, _m.multiply(_m.pow(x, 3), 0.044715)),
                            0.7978845608028654)
        return _m.multiply(_m.multiply(x, 0.5), _m.add(_m.tanh(inner), 1))
    return _m.multiply(_m.multiply(x, 0.5),
                       _m.add(_sm.erf(_m.multiply(x, 0.7071067811865476)), 1))


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross-entropy with positives weighted by ``pos_weight``.

    ``(1 - z) x + (1 + (q - 1) z) (log1p(exp(-|x|)) + max(-x, 0))`` for logits x, labels z
    and ``pos_weight`` q, computed stably. TensorFlow counterpart:
    ``tf.nn.weighted_cross_entropy_with_logits``.

    Raises:
        ValueError: if labels and logits differ in shape.
    """
    labels, logits = pair(labels, logits, "WeightedCrossEntropy")
    if labels._value.shape != logits._value.shape:
        raise ValueError(f"logits and labels must have the same shape ({logits.shape} vs "
                         f"{labels.shape})")
    q = _m._scalar_like(pos_weight, logits)
    log_weight = _m.add(_m.multiply(_m.subtract(q, 1), labels), 1)
    softplus_neg = _m.add(_m.log1p(_m.exp(_m.negative(_m.abs(logits)))),
                          relu(_m.negative(logits)))
    return _m.add(_m.multiply(_m.subtract(1, labels), logits),
                  _m.multiply(log_weight, softplus_neg))


def moments(x, axes, shift=None, keepdims=False, name=None):
    """Mean and (population) variance of ``x`` over ``axes`` (``tf.nn.moments``).

    float16 inputs are accumulated in float32 and cast back, as TensorFlow. The variance
    is TensorFlow's, around ``stop_gradient(mean)`` (same values and first derivatives,
    nan/inf included), plus a term that is zero with a zero first derivative and gives
    the second derivative TensorFlow's misses (docs/ops.md).

    Returns:
        ``(mean, variance)``.

    Example:
        >>> import tapeflow as tf
        >>> mean, variance = tf.nn.moments(tf.constant([1.0, 2.0, 3.0, 6.0]), axes=[0])
        >>> print(mean.numpy(), variance.numpy())
        3.0 3.5
    """
    x = to_tensor(x)
    y = _a.cast(x, _dt.float32) if x._value.dtype == np.float16 else x
    try:
        _r._axis_arg(axes, x._value.ndim, "Mean")
    except errors.InvalidArgumentError as exc:
        raise _h._named(exc, None) from None  # TF's message here ends at [Op:Mean]
    listed = [int(a) % max(x._value.ndim, 1) for a in _h._int_list(axes)]
    if len(set(listed)) != len(listed):
        dup = next(a for a in listed if listed.count(a) > 1)
        raise errors.InvalidArgumentError(
            None, None, f"Invalid reduction arguments: Axes contains duplicate dimension: "
            f"{dup} [Op:Mean]")
    mean = _r.reduce_mean(y, axes, keepdims=True)
    # TF's variance: around stop_gradient(mean), so its first derivative (nan/inf with
    # non-finite inputs included) is TF's; minus d^2, d = mean - stop_gradient(mean) (0, and
    # kept 0 where the mean is not finite), adds the second-derivative term TF misses.
    held = _a.stop_gradient(mean)
    var = _r.reduce_mean(_m.squared_difference(y, held), axes, keepdims=True)
    if y._value.dtype.kind == "f":
        d = _a.where(_m.is_finite(held), _m.subtract(mean, held), _a.zeros_like(held))
        var = _m.subtract(var, _m.multiply(d, d))
    if not keepdims:
        ax = _r._axis_arg(axes, x._value.ndim, "Mean")
        shape = [d for i, d in enumerate(x._value.shape) if i not in ax]
        mean = _a.reshape(mean, shape)
        var = _a.reshape(var, shape)
    if y is not x:
        mean, var = _a.cast(mean, x.dtype), _a.cast(var, x.dtype)
    return mean, var


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """Mean and variance from sufficient statistics (``tf.nn.normalize_moments``)."""
    divisor = _m.reciprocal(to_tensor(counts))
    mean = _m.multiply(mean_ss, divisor)
    if shift is not None:
        mean = _m.add(mean, shift)
    var = _m.subtract(_m.multiply(variance_ss, divisor),
                      _m.square(_m.multiply(mean_ss, divisor)))
    return mean, var


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """``scale * (x - mean) / sqrt(variance + eps) + offset`` (``tf.nn.batch_normalization``).

    ``offset`` and ``scale`` may be None; all parameters broadcast against ``x``
    (Ioffe & Szegedy 2015).
    """
    x = to_tensor(x)
    inv = _m.rsqrt(_m.add(variance, variance_epsilon))
    if scale is not None:
        inv = _m.multiply(inv, scale)
    shift = _m.negative(_m.multiply(mean, inv))
    if offset is not None:
        shift = _m.add(shift, offset)
    return _m.add(_m.multiply(x, _a.cast(inv, x.dtype)), _a.cast(shift, x.dtype))


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element with probability ``rate``, scale the rest by ``1/(1-rate)``.

    TensorFlow counterpart: ``tf.nn.dropout`` (Srivastava et al. 2014). The mask comes from
    tapeflow's own generator, so which elements drop differs from TensorFlow's for a seed.

    Args:
        x: a float tensor.
        rate: the drop probability, in ``[0, 1)``.
        noise_shape: a shape broadcastable to ``x``'s; elements sharing a mask entry drop
            together.
        seed: an op seed (with the global seed, reproducible).

    Raises:
        ValueError: for a rate outside ``[0, 1)`` or an integer ``x``.
    """
    from . import random_ops

    x = to_tensor(x)
    if x._value.dtype.kind != "f":
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x={x}")
    r = float(static_value(rate) if isinstance(rate, _TensorLike) else rate)
    if not 0 <= r < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    if r == 0:
        return x
    # inside a trace the mask takes each call's shape (tf.shape(x)), as TensorFlow's
    traced = ACTIVE[0] and current_tracer() is not None
    if noise_shape is None:
        shape = _a.shape(x) if traced else x._value.shape
    else:
        dims = (_h._int_list(noise_shape) if not isinstance(noise_shape, (list, tuple))
                else noise_shape)
        if traced and None in dims:   # None dims: the input's, at each call
            shape = _a.stack([_a.shape(x)[i] if d is None else d for i, d in enumerate(dims)])
        else:
            shape = tuple(d if d is not None else x._value.shape[i] for i, d in enumerate(dims))
    u = random_ops.uniform(shape, dtype=x.dtype, seed=seed)
    keep = _a.cast(_m.greater_equal(u, r), x.dtype)
    return _m.multiply(x, _m.multiply(keep, 1.0 / (1.0 - r)))


def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of ``params`` at ``ids`` (``tf.nn.embedding_lookup``); ``gather(params, ids)``.

    Args:
        params: ``[vocab, ...]``, or a list of such tensors (concatenated, the "div"
            partition is not supported).
        ids: an int tensor of any shape.
        max_norm: if given, rows with a larger L2 norm are rescaled to it.
    """
    if isinstance(params, (list, tuple)):
        params = params[0] if len(params) == 1 else _a.concat(list(params), 0)
    out = _ix.gather(params, ids)
    if max_norm is not None:
        ids_rank = to_tensor(ids)._value.ndim
        axes = list(range(ids_rank, out._value.ndim))
        out = _cl.clip_by_norm(out, max_norm, axes=axes) if axes else out
    return out


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """``exp(c) - z * c`` for log-rate c and targets z (``tf.nn.log_poisson_loss``).

    With ``compute_full_loss`` Stirling's term ``z log z - z + 0.5 log(2 pi z)`` is added
    where ``z`` is not in ``[0, 1]`` (NaN for a negative or NaN target), TensorFlow's
    composition (so its NaN gradients too).
    """
    z, c = pair(targets, log_input, "LogPoissonLoss")
    loss = _m.subtract(_m.exp(c), _m.multiply(c, z))
    if compute_full_loss:
        stirling = _m.add(_m.subtract(_m.multiply(z, _m.log(z)), z),
                          _m.multiply(0.5, _m.log(_m.multiply(2 * np.pi, z))))
        zeros = _a.zeros_like(z)
        cond = _m.logical_and(_m.greater_equal(z, zeros), _m.less_equal(z, _a.ones_like(z)))
        loss = _m.add(loss, _a.where(cond, zeros, stirling))
    return loss


_DISTRIBUTION = []  # tf.distribute registers its context here on import (register_distribution)


def register_distribution(fn):
    """``fn() -> (replicas in sync, in cross-replica context of a strategy)``: how
    ``distribute/_context.py`` tells the loss helpers about strategies without ``ops``
    importing it."""
    _DISTRIBUTION[:] = [fn]


def _distribution():
    """``(replicas in sync, in cross-replica context of a strategy)``; (1, False) until
    tf.distribute is loaded (then a strategy may be current)."""
    return _DISTRIBUTION[0]() if _DISTRIBUTION else (1, False)


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """Sum of per-example losses over the global batch size (``tf.nn.compute_average_loss``).

    In a replica function of a strategy the default ``global_batch_size`` is this replica's
    batch times ``num_replicas_in_sync``, so summing the replicas' gradients gives the
    full-batch mean's gradient. A zero global batch gives 0 (``div_no_nan``).

    Args:
        per_example_loss: a tensor of rank >= 1, the batch first.
        sample_weight: optional weights broadcastable to the losses.
        global_batch_size: optional int, the number of examples in the global batch.

    Returns:
        A scalar tensor of the loss's dtype.

    Raises:
        ValueError: for a scalar ``per_example_loss``.
        RuntimeError: without ``global_batch_size`` in a strategy's cross-replica context.

    >>> import tapeflow as tf
    >>> float(tf.nn.compute_average_loss([1.0, 2.0, 3.0, 4.0], global_batch_size=8))
    1.25
    """
    loss = to_tensor(per_example_loss)
    if loss.shape.rank == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with "
                         f"at least rank 1. Received per_example_loss={loss.numpy()} with "
                         "rank 0")
    if sample_weight is not None:
        # TensorFlow's scale_losses_by_sample_weight: both in float32, the weights' rank
        # matched to the losses' by one squeeze or expand_dims at the end
        w = to_tensor(sample_weight)
        dtype = loss.dtype
        scaled = _a.cast(loss, _dt.float32)
        w = _a.cast(w, _dt.float32)
        if w.shape.rank:
            if w.shape.rank - scaled.shape.rank == 1:
                w = _a.squeeze(w, [-1])
            elif scaled.shape.rank - w.shape.rank == 1:
                w = _a.expand_dims(w, -1)
        loss = _a.cast(_m.multiply(scaled, w), dtype)
    n = global_batch_size
    if n is None:
        replicas, cross = _distribution()
        if cross:
            raise RuntimeError("You are calling `compute_average_loss` in cross replica "
                               "context, while it was expected to be called in replica "
                               "context.")
        if ACTIVE[0] and current_tracer() is not None:
            # each call's batch size, as TensorFlow's tf.shape(per_example_loss)[0]
            n = _a.shape(loss)[0] * replicas
        else:
            n = loss.shape[0] * replicas
    return _m.divide_no_nan(_r.reduce_sum(loss), _a.cast(n, loss.dtype))


def crelu(features, axis=-1, name=None):
    """``concat([relu(x), relu(-x)], axis)`` (``tf.nn.crelu``; Shang et al. 2016)."""
    x = to_tensor(features)
    return _a.concat([relu(x), relu(_m.negative(x))], axis)


def hard_sigmoid(x):
    """``clip(x / 6 + 0.5, 0, 1)``, Keras 3's piecewise-linear sigmoid.

    TensorFlow has no ``tf.nn.hard_sigmoid``; this is ``tf.keras.activations.hard_sigmoid``,
    kept here for the Keras layer of tapeflow to re-export.
    """
    x = to_tensor(x)
    return _m.multiply(relu6(_m.add(x, 3.0)), 1.0 / 6.0)


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """``(count, sum(x - shift), sum((x - shift)**2), shift)`` over ``axes``.

    TensorFlow counterpart: ``tf.nn.sufficient_statistics``; ``count`` has ``x``'s dtype.
    """
    x = to_tensor(x)
    ax = _r._axis_arg(axes, x._value.ndim, "Sum")
    if ACTIVE[0] and current_tracer() is not None:
        # each call's count: the product of the reduced sizes read when the program runs
        count = _r.reduce_prod(_ix.gather(_a.shape(x), list(ax)))
    else:
        count = 1
        for a in ax:
            count *= x._value.shape[a]
    if shift is not None:  # converted on its own first, as TF (0.5 is float32: a float64
        shift = to_tensor(shift)  # x then raises InvalidArgumentError in Sub)
    y = _m.subtract(x, shift) if shift is not None else x
    m_ss = _r.reduce_sum(y, ax, keepdims=keepdims)
    v_ss = _r.reduce_sum(_m.square(y), ax, keepdims=keepdims)
    return _a.cast(count, x.dtype), m_ss, v_ss, shift


def scale_regularization_loss(regularization_loss):
    """The summed regularisation loss over ``num_replicas_in_sync``
    (``tf.nn.scale_regularization_loss``), so that summing replicas' gradients counts it once.

    Args:
        regularization_loss: a tensor or a list of scalar tensors (``model.losses``).

    Returns:
        A scalar tensor.

    Raises:
        RuntimeError: in a strategy's cross-replica context.

    >>> import tapeflow as tf
    >>> float(tf.nn.scale_regularization_loss([1.0, 2.5]))
    3.5
    """
    replicas, cross = _distribution()
    if cross:
        raise RuntimeError("You are calling `scale_regularization_loss` in cross replica "
                           "context, while it was expected to be called in replica context.")
    if isinstance(regularization_loss, (list, tuple)):
        regularization_loss = _m.add_n([to_tensor(x) for x in regularization_loss])
    # as TF, divided even by one replica (its forward mode is RealDiv's: nan at a nan sum)
    return _r.reduce_sum(regularization_loss) / replicas


_cl._L2_LOSS[0] = l2_loss   # global_norm's L2Loss (clip_ops cannot import this module)
