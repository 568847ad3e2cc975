"""Activation layers: Activation, ReLU, LeakyReLU, PReLU, ELU and Softmax (Keras 3)."""
import warnings

from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .. import activations as _act
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from . import _spec
from .layer import Layer

__all__ = ["Activation", "ELU", "LeakyReLU", "PReLU", "ReLU", "Softmax"]


class _Elementwise(Layer):
    """A layer that keeps its input's shape and passes masks through."""

    supports_masking = True
    _built_at_init = True

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class Activation(_Elementwise):
    """``activation(inputs)`` as a layer (``tf.keras.layers.Activation``).

    Args:
        activation: a name ('relu', 'softmax', ...) or a callable.
    """

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = _act.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return dict(super().get_config(), activation=_spec.serialize(self.activation))


class ReLU(_Elementwise):
    """Rectified linear unit as a layer (``tf.keras.layers.ReLU``):
    ``max_value`` for ``x >= max_value``, ``x`` for ``threshold <= x < max_value``, else
    ``negative_slope * (x - threshold)``.

    Args:
        max_value: optional upper bound (>= 0).
        negative_slope: the slope below ``threshold`` (>= 0, default 0).
        threshold: where the unit switches on (>= 0, default 0).

    Raises:
        ValueError: for a negative or None argument, naming it.

    >>> import tapeflow as tf
    >>> tf.keras.layers.ReLU(max_value=1.0)(tf.constant([-1.0, 0.5, 2.0])).numpy().tolist()
    [0.0, 0.5, 1.0]
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of a ReLU layer cannot be a negative value. "
                             f"Received: max_value={max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be None or a negative "
                             f"value. Received: negative_slope={negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError("threshold of a ReLU layer cannot be None or a negative value. "
                             f"Received: threshold={threshold}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold
        self.built = True

    def call(self, inputs):
        return _act.relu(inputs, negative_slope=self.negative_slope, max_value=self.max_value,
                         threshold=self.threshold)

    def get_config(self):
        return dict(super().get_config(), max_value=self.max_value,
                    negative_slope=self.negative_slope, threshold=self.threshold)


class LeakyReLU(_Elementwise):
    """``x`` for ``x >= 0``, else ``negative_slope * x`` (``tf.keras.layers.LeakyReLU``).

    Args:
        negative_slope: the slope for negative inputs; Keras 3's default is 0.3 (the
            function ``tf.nn.leaky_relu`` defaults to 0.2). ``alpha``, its Keras 2 name, is
            accepted with a warning.

    Raises:
        ValueError: for a None or negative slope.

    >>> import tapeflow as tf
    >>> tf.keras.layers.LeakyReLU()(tf.constant([-1.0, 2.0])).numpy().tolist()
    [-0.30000001192092896, 2.0]
    """

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
            warnings.warn("Argument `alpha` is deprecated. Use `negative_slope` instead.",
                          stacklevel=2)
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None or "
                             "negative value. Expected a float. Received: "
                             f"negative_slope={negative_slope}")
        self.negative_slope = negative_slope
        self.built = True

    def call(self, inputs):
        return _act.leaky_relu(inputs, negative_slope=self.negative_slope)

    def get_config(self):
        return dict(super().get_config(), negative_slope=self.negative_slope)


class PReLU(_Elementwise):
    """Leaky ReLU with a learned slope per element (``tf.keras.layers.PReLU``; He et al.
    2015): ``relu(x) - alpha * relu(-x)``.

    Args:
        alpha_initializer: the slopes' initializer (default zeros).
        alpha_regularizer, alpha_constraint: optional.
        shared_axes: axes (counting the batch as 0) along which one slope is shared, e.g.
            ``[1, 2]`` for one slope per channel of an image.

    The weight ``alpha`` has the input's shape without the batch axis, with 1 on the
    shared axes.

    >>> import tapeflow as tf
    >>> layer = tf.keras.layers.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.5))
    >>> layer(tf.constant([[-2.0, 3.0]])).numpy().tolist()
    [[-1.0, 3.0]]
    """

    _built_at_init = False  # its weights are made from the input shape

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = _init.get(alpha_initializer)
        self.alpha_regularizer = _reg.get(alpha_regularizer)
        self.alpha_constraint = _constraints.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif not isinstance(shared_axes, (list, tuple)):
            self.shared_axes = [shared_axes]
        else:
            self.shared_axes = list(shared_axes)
        self.alpha = None

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for i in self.shared_axes or ():
            shape[i - 1] = 1
        self._axes = {i: input_shape[i] for i in range(1, len(input_shape))
                      if i not in (self.shared_axes or ())}
        self._ndim = len(input_shape)
        self.alpha = self.add_weight(shape=shape, name="alpha",
                                     initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        self.built = True

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=self._ndim, axes=self._axes)
        return _m.subtract(_act.relu(inputs),
                           _m.multiply(self.alpha, _act.relu(_m.negative(inputs))))

    def get_config(self):
        return dict(super().get_config(),
                    alpha_initializer=_spec.serialize(self.alpha_initializer),
                    alpha_regularizer=_spec.serialize(self.alpha_regularizer),
                    alpha_constraint=_spec.serialize(self.alpha_constraint),
                    shared_axes=self.shared_axes)


class ELU(_Elementwise):
    """Exponential linear unit (``tf.keras.layers.ELU``; Clevert et al. 2015):
    ``x`` for ``x > 0``, else ``alpha * (exp(x) - 1)``.

    Args:
        alpha: the scale of the negative part (default 1.0).

    >>> import tapeflow as tf
    >>> [round(v, 4) for v in tf.keras.layers.ELU()(tf.constant([-1.0, 2.0])).numpy().tolist()]
    [-0.6321, 2.0]
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha
        self.built = True

    def call(self, inputs):
        return _act.elu(inputs, alpha=self.alpha)

    def get_config(self):
        return dict(super().get_config(), alpha=self.alpha)


class Softmax(_Elementwise):
    """Softmax along ``axis`` as a layer (``tf.keras.layers.Softmax``).

    Args:
        axis: an int or a tuple of ints (a joint softmax over several axes).

    Call arguments:
        mask: optional boolean mask broadcastable to the inputs; masked positions get
            probability 0.

    >>> import tapeflow as tf
    >>> tf.keras.layers.Softmax()(tf.constant([[0.0, 0.0, 5.0]]),
    ...                           mask=tf.constant([[True, True, False]])).numpy().tolist()
    [[0.5, 0.5, 0.0]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.built = True

    def call(self, inputs, mask=None):
        if mask is not None:
            mask = _a.cast(mask, "bool")
            inputs = _a.where(mask, inputs, _m.add(_a.zeros_like(inputs), -1e9))
        if isinstance(self.axis, (tuple, list)) and len(self.axis) > 1:
            out = _m.exp(_m.subtract(inputs, _r.reduce_logsumexp(inputs, axis=list(self.axis),
                                                                 keepdims=True)))
        else:
            axis = self.axis[0] if isinstance(self.axis, (tuple, list)) else self.axis
            out = _act.softmax(inputs, axis=axis)
        if mask is not None:
            out = _a.where(mask, out, _a.zeros_like(out))
        return out

    def get_config(self):
        return dict(super().get_config(), axis=self.axis)
