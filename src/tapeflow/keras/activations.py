"""Activation functions by name, as ``tf.keras.activations``: ``get('relu')``, ``relu(x)``..."""
from ..ops import array_ops as _a
from ..ops import math_ops as _m
from ..ops import nn_ops as _nn
from ..ops._helpers import to_tensor

__all__ = ["relu", "softmax", "log_softmax", "sigmoid", "tanh", "linear", "elu", "selu",
           "softplus", "silu", "swish", "leaky_relu", "relu6", "exponential", "get",
           "serialize"]


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """``max(x, 0)``, optionally leaky below and capped above (``keras.activations.relu``).

    Args:
        x: a float tensor of any shape.
        negative_slope: slope below ``threshold``.
        max_value: optional upper bound.
        threshold: values below it are damped.
    """
    x = to_tensor(x)
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return _nn.relu(x)
    y = _a.where(_m.greater_equal(x, threshold), x,
                 _m.multiply(_m.subtract(x, threshold), negative_slope))
    if max_value is not None:
        y = _m.minimum(y, max_value)
    return y


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x), axis)`` (``keras.activations.softmax``)."""
    return _nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """``x - logsumexp(x, axis)`` (``keras.activations.log_softmax``)."""
    return _nn.log_softmax(x, axis=axis)


def sigmoid(x):
    """``1 / (1 + exp(-x))`` (``keras.activations.sigmoid``)."""
    return _m.sigmoid(to_tensor(x))


def tanh(x):
    """Hyperbolic tangent (``keras.activations.tanh``)."""
    return _m.tanh(to_tensor(x))


def linear(x):
    """The identity (``keras.activations.linear``)."""
    return x


def elu(x, alpha=1.0):
    """``x`` if positive else ``alpha * (exp(x) - 1)`` (``keras.activations.elu``)."""
    x = to_tensor(x)
    y = _nn.elu(x)
    return y if alpha == 1.0 else _a.where(_m.greater(x, 0), x, _m.multiply(y, alpha))


def selu(x):
    """Scaled ELU, Klambauer et al. 2017 (``keras.activations.selu``)."""
    return _nn.selu(x)


def softplus(x):
    """``log(1 + exp(x))`` (``keras.activations.softplus``)."""
    return _m.softplus(to_tensor(x))


def silu(x):
    """``x * sigmoid(x)`` (``keras.activations.silu``)."""
    return _nn.silu(x)


swish = silu


def leaky_relu(x, negative_slope=0.2):
    """``x`` if positive else ``negative_slope * x`` (``keras.activations.leaky_relu``)."""
    return _nn.leaky_relu(x, alpha=negative_slope)


def relu6(x):
    """``min(max(x, 0), 6)`` (``keras.activations.relu6``)."""
    return _nn.relu6(x)


def exponential(x):
    """``exp(x)`` (``keras.activations.exponential``)."""
    return _m.exp(to_tensor(x))


_BY_NAME = {f.__name__: f for f in (relu, softmax, log_softmax, sigmoid, tanh, linear, elu,
                                     selu, softplus, silu, leaky_relu, relu6, exponential)}
_BY_NAME["swish"] = silu


def get(identifier):
    """The activation named by ``identifier`` (a string, a callable, or None for linear).

    Raises:
        ValueError: for an unknown name or a value that is neither a string nor callable.
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier)
        if fn is None:
            raise ValueError(
                f"Could not interpret activation function identifier: {identifier}")
        return fn
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


def serialize(activation) -> str:
    """The name of an activation function."""
    return activation.__name__
