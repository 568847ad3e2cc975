"""Activation functions by name, as ``tf.keras.activations``: ``get('relu')``, ``relu(x)``..."""
from ..ops import array_ops as _a
from ..ops import creation_ops as _cr
from ..ops import math_ops as _m
from ..ops import nn_ops as _nn
from ..ops import reduction_ops as _r
from ..ops import sort_ops as _so
from ..ops._helpers import to_tensor
from ..ops.clip_ops import clip_by_value as _clip

__all__ = ["celu", "elu", "exponential", "gelu", "glu", "hard_shrink", "hard_sigmoid",
           "hard_silu", "hard_swish", "hard_tanh", "leaky_relu", "linear", "log_sigmoid",
           "log_softmax", "mish", "relu", "relu6", "selu", "sigmoid", "silu", "soft_shrink",
           "softmax", "softplus", "softsign", "sparse_plus", "sparse_sigmoid", "sparsemax",
           "squareplus", "swish", "tanh", "tanh_shrink", "threshold", "get", "serialize",
           "deserialize"]


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """``max(x, 0)``, optionally leaky below and capped above (``keras.activations.relu``).

    Args:
        x: a float tensor of any shape.
        negative_slope: slope below ``threshold``.
        max_value: optional upper bound.
        threshold: values below it are damped.
    """
    x = to_tensor(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0:
        return _nn.leaky_relu(x, alpha=negative_slope)
    negative = None
    if negative_slope != 0.0:
        negative = _nn.relu(_m.add(_m.negative(x), threshold) if threshold else _m.negative(x))
    clip_max = max_value is not None
    if threshold != 0:  # threshold and bounds in x's dtype, as Keras casts them
        x = _a.where(_m.greater(x, _a.cast(threshold, x.dtype)), x, _a.zeros_like(x))
    elif max_value == 6:
        x, clip_max = _nn.relu6(x), False
    else:
        x = _nn.relu(x)
    if clip_max:
        x = _clip(x, _a.cast(0.0, x.dtype), _a.cast(max_value, x.dtype))
    if negative is not None:
        x = _m.subtract(x, _m.multiply(negative, negative_slope))
    return x


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x), axis)`` (``keras.activations.softmax``); ``axis=None``
    normalises over every element."""
    if axis is None:
        x = to_tensor(x)
        return _a.reshape(_nn.softmax(_a.reshape(x, [-1])), _a.shape(x))
    return _nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """``x - logsumexp(x, axis)`` (``keras.activations.log_softmax``)."""
    if axis is None:
        x = to_tensor(x)
        return _a.reshape(_nn.log_softmax(_a.reshape(x, [-1])), _a.shape(x))
    return _nn.log_softmax(x, axis=axis)


def sigmoid(x):
    """``1 / (1 + exp(-x))`` (``keras.activations.sigmoid``)."""
    return _m.sigmoid(to_tensor(x))


def _floats(x):
    # Keras's exp/tanh (keras.ops) take integer and bool tensors as floatx
    x = to_tensor(x)
    if x.dtype.is_integer or x.dtype.is_bool:
        from .backend import floatx
        x = _a.cast(x, floatx())
    return x


def tanh(x):
    """Hyperbolic tangent (``keras.activations.tanh``); integer and bool inputs are
    computed as ``floatx``."""
    return _m.tanh(_floats(x))


def linear(x):
    """The identity (``keras.activations.linear``)."""
    return x


def elu(x, alpha=1.0):
    """``x`` if positive else ``alpha * (exp(x) - 1)`` (``keras.activations.elu``)."""
    x = to_tensor(x)
    y = _nn.elu(x)
    return y if alpha == 1.0 else _a.where(_m.greater(x, 0), y, _m.multiply(y, alpha))


def selu(x):
    """Scaled ELU, Klambauer et al. 2017 (``keras.activations.selu``)."""
    return _nn.selu(x)


def softplus(x):
    """``log(1 + exp(x))`` (``keras.activations.softplus``)."""
    return _m.softplus(to_tensor(x))


def softsign(x):
    """``x / (1 + |x|)`` (``keras.activations.softsign``)."""
    return _m.softsign(to_tensor(x))


def silu(x):
    """``x * sigmoid(x)`` (``keras.activations.silu``; its alias is ``swish``)."""
    return _nn.silu(x)


swish = silu


def gelu(x, approximate=False):
    """Gaussian error linear unit (``keras.activations.gelu``; Hendrycks & Gimpel 2016):
    ``x * Phi(x)``, or the tanh approximation with ``approximate=True``."""
    return _nn.gelu(to_tensor(x), approximate=approximate)


def celu(x, alpha=1.0):
    """``max(x, 0) + alpha * expm1(min(x, 0) / alpha)`` (``keras.activations.celu``;
    Barron 2017)."""
    x = to_tensor(x)
    return _m.add(_m.maximum(x, 0.0),
                  _m.multiply(_m.expm1(_m.divide(_m.minimum(x, 0.0), alpha)), alpha))


def glu(x, axis=-1):
    """Gated linear unit (``keras.activations.glu``; Dauphin et al. 2017): ``a * sigmoid(b)``
    for the two halves ``a, b`` of ``x`` along ``axis``.

    Raises:
        ValueError: if ``axis`` has an odd size.
    """
    x = to_tensor(x)
    if x.shape[axis] % 2 != 0:
        raise ValueError("axis size must be divisible by 2. "
                         f"Received: x.shape={tuple(x.shape)} with axis={axis}")
    a, b = _a.split(x, 2, axis=axis)
    return _m.multiply(a, _m.sigmoid(b))


def leaky_relu(x, negative_slope=0.2):
    """``x`` if positive else ``negative_slope * x`` (``keras.activations.leaky_relu``)."""
    return _nn.leaky_relu(x, alpha=negative_slope)


def relu6(x):
    """``min(max(x, 0), 6)`` (``keras.activations.relu6``)."""
    return _nn.relu6(x)


def exponential(x):
    """``exp(x)`` (``keras.activations.exponential``); integer and bool inputs are
    computed as ``floatx``."""
    return _m.exp(_floats(x))


def _no_int_plus_three(x):
    # Keras computes x + 3.0 first: TypeError for an integer tensor, as TensorFlow's
    if x.dtype.is_integer:
        raise TypeError(f"Cannot convert 3.0 to EagerTensor of dtype {x.dtype.name}")
    return x


def hard_sigmoid(x):
    """``relu6(x + 3) / 6`` (``keras.activations.hard_sigmoid``).

    Raises:
        TypeError: for an integer tensor (Keras's ``x + 3.0``).
    """
    return _nn.hard_sigmoid(_no_int_plus_three(to_tensor(x)))


def hard_silu(x):
    """``x * hard_sigmoid(x)`` (``keras.activations.hard_silu``; alias ``hard_swish``).

    Raises:
        TypeError: for an integer tensor (Keras's ``x + 3.0``).
    """
    x = _no_int_plus_three(to_tensor(x))
    return _m.multiply(x, _nn.hard_sigmoid(x))


hard_swish = hard_silu


def hard_tanh(x):
    """``clip(x, -1, 1)`` (``keras.activations.hard_tanh``)."""
    return _clip(to_tensor(x), -1.0, 1.0)


def _zeros_like(x):
    return _a.zeros_like(x)


def hard_shrink(x, threshold=0.5):
    """``x`` where ``|x| > threshold``, else 0 (``keras.activations.hard_shrink``)."""
    x = to_tensor(x)
    return _a.where(_m.greater(_m.abs(x), threshold), x, _zeros_like(x))


def soft_shrink(x, threshold=0.5):
    """``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, else 0
    (``keras.activations.soft_shrink``)."""
    x = to_tensor(x)
    return _a.where(_m.greater(x, threshold), _m.subtract(x, threshold),
                    _a.where(_m.less(x, -threshold), _m.add(x, threshold), _zeros_like(x)))


def tanh_shrink(x):
    """``x - tanh(x)`` (``keras.activations.tanh_shrink``)."""
    x = to_tensor(x)
    return _m.subtract(x, _m.tanh(x))


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value`` (``keras.activations.threshold``)."""
    x = to_tensor(x)
    return _a.where(_m.greater(x, threshold), x, _m.add(_zeros_like(x), default_value))


def sparse_plus(x):
    """0 for ``x <= -1``, ``(x + 1)**2 / 4`` for ``|x| < 1``, else ``x``
    (``keras.activations.sparse_plus``)."""
    x = to_tensor(x)
    return _a.where(_m.less_equal(x, -1.0), _zeros_like(x),
                    _a.where(_m.less(x, 1.0), _m.multiply(_m.square(_m.add(x, 1.0)), 0.25), x))


def sparse_sigmoid(x):
    """0 for ``x <= -1``, 1 for ``x >= 1``, else ``(x + 1) / 2``
    (``keras.activations.sparse_sigmoid``)."""
    x = to_tensor(x)
    return _a.where(_m.less_equal(x, -1.0), _zeros_like(x),
                    _a.where(_m.greater_equal(x, 1.0), _m.add(_zeros_like(x), 1.0),
                             _m.multiply(_m.add(x, 1.0), 0.5)))


def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2`` (``keras.activations.squareplus``; Barron 2021)."""
    x = to_tensor(x)
    return _m.multiply(_m.add(x, _m.sqrt(_m.add(_m.square(x), float(b)))), 0.5)


def log_sigmoid(x):
    """``log(sigmoid(x)) = -softplus(-x)`` (``keras.activations.log_sigmoid``)."""
    return _m.log_sigmoid(to_tensor(x))


def mish(x):
    """``x * tanh(softplus(x))`` (``keras.activations.mish``; Misra 2019)."""
    x = to_tensor(x)
    return _m.multiply(x, _m.tanh(_m.softplus(x)))


def sparsemax(x, axis=-1):
    """The Euclidean projection of ``x`` onto the probability simplex along ``axis``
    (``keras.activations.sparsemax``; Martins & Astudillo 2016): ``max(x - tau, 0)``."""
    x = to_tensor(x)
    rank = len(x.shape)
    ax = axis % rank
    z = _so.sort(x, axis=ax, direction="DESCENDING")
    cumsum = _r.cumsum(z, axis=ax)
    n = x.shape[ax]
    r = _a.reshape(_a.cast(_cr.range(1, n + 1), x.dtype),
                   [n if i == ax else 1 for i in range(rank)])
    # Keras subtracts the int 1 (so integer inputs fail at the next subtraction, as in TF)
    support = _m.greater(_m.subtract(z, _m.divide(_m.subtract(cumsum, 1), r)), 0.0)
    k = _r.reduce_sum(_a.cast(support, x.dtype), axis=ax, keepdims=True)
    tau = _m.divide(_m.subtract(_r.reduce_sum(_a.where(support, cumsum, _zeros_like(cumsum)),
                                              axis=ax, keepdims=True), 1.0), k)
    return _m.maximum(_m.subtract(x, tau), 0.0)


_BY_NAME = {f.__name__: f for f in (
    celu, elu, exponential, gelu, glu, hard_shrink, hard_sigmoid, hard_silu, hard_tanh,
    leaky_relu, linear, log_sigmoid, log_softmax, mish, relu, relu6, selu, sigmoid, silu,
    soft_shrink, softmax, softplus, softsign, sparse_plus, sparse_sigmoid, sparsemax,
    squareplus, tanh, tanh_shrink, threshold)}
_BY_NAME["swish"] = silu
_BY_NAME["hard_swish"] = hard_silu


def get(identifier):
    """The activation named by ``identifier`` (``tf.keras.activations.get``).

    Args:
        identifier: a name ('relu', 'gelu', 'swish', ...), a callable (returned as is),
            a ``{'class_name': ..., 'config': ...}`` dict as Keras serializes it, or None
            for ``linear``.

    Returns:
        The activation function.

    Raises:
        ValueError: for an unknown name or a value that is neither a string nor callable.

    >>> import tapeflow as tf
    >>> f = tf.keras.activations.get("hard_swish")
    >>> f.__name__, f(tf.constant([-4.0, 0.0, 1.0])).numpy().tolist()
    ('hard_silu', [-0.0, 0.0, 0.6666666865348816])
    """
    if identifier is None:
        return linear
    if isinstance(identifier, dict):
        identifier = identifier.get("config", identifier.get("class_name"))
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier)
        if fn is not None:
            return fn
    elif callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


def serialize(activation) -> str:
    """The name of an activation function (``keras.activations.serialize``); a custom
    function gives its ``__name__``."""
    return activation.__name__


def deserialize(config, custom_objects=None):
    """The activation function named by ``config`` (``keras.activations.deserialize``)."""
    if custom_objects and isinstance(config, str) and config in custom_objects:
        return custom_objects[config]
    return get(config)
