"""BatchNormalization and LayerNormalization."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import nn_ops as _nn
from .. import initializers as _init
from .input_spec import InputSpec
from .layer import Layer, serialize

__all__ = ["BatchNormalization", "LayerNormalization"]


def _axes(axis, rank):
    axis = [axis] if isinstance(axis, int) else list(axis)
    return sorted(a % rank for a in axis)


def _moments(x, axes):
    mean = _m.reduce_mean(x, axes, keepdims=True)
    variance = _m.reduce_mean(_m.squared_difference(x, _a.stop_gradient(mean)), axes,
                              keepdims=True)
    return mean, variance


def _normalize(x, mean, variance, gamma, beta, epsilon):
    return _nn.batch_normalization(x, mean, variance, beta, gamma, epsilon)


class BatchNormalization(Layer):
    """Normalise with batch statistics while training, moving averages otherwise
    (``tf.keras.layers.BatchNormalization``; Ioffe & Szegedy 2015).

    ``y = gamma * (x - mean) / sqrt(variance + epsilon) + beta``, statistics over every axis
    but ``axis``. With ``training=True`` the batch's mean and (biased) variance are used and
    ``moving = moving * momentum + batch * (1 - momentum)``; the moving statistics are
    updated outside any tape.

    Args:
        axis: the feature axis (default -1).
        momentum: the moving averages' decay (0.99).
        epsilon: added to the variance (1e-3).
        center, scale: whether to learn ``beta`` / ``gamma``.
    """

    _cast_kinds = "fiub"  # ints and bools become floats, as in Keras
    _numeric_only = True

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon = axis, float(momentum), float(epsilon)
        self.center, self.scale = center, scale
        self._inits = (gamma_initializer, beta_initializer, moving_mean_initializer,
                       moving_variance_initializer)
        self.gamma = self.beta = None

    _config_fixed = {"beta_regularizer": None, "gamma_regularizer": None,
                     "beta_constraint": None, "gamma_constraint": None, "synchronized": False,
                     "renorm": False, "renorm_clipping": None, "renorm_momentum": 0.99}

    def get_config(self):
        g, b, mm, mv = (serialize(_init.get(i)) for i in self._inits)
        return dict(super().get_config(), axis=self.axis, momentum=self.momentum,
                    epsilon=self.epsilon, center=self.center, scale=self.scale,
                    beta_initializer=b, gamma_initializer=g, moving_mean_initializer=mm,
                    moving_variance_initializer=mv, **self._config_fixed)

    def build(self, input_shape):
        rank = len(input_shape)
        self._feature_axes = _axes(self.axis, rank)
        if isinstance(self.axis, int):
            self.input_spec = InputSpec(ndim=rank, axes={self.axis: input_shape[self.axis]})
        shape = tuple(input_shape[a] for a in self._feature_axes)
        self._broadcast = tuple(input_shape[a] if a in self._feature_axes else 1
                                for a in range(rank))
        self._reduction_axes = [a for a in range(rank) if a not in self._feature_axes]
        g_init, b_init, mm_init, mv_init = self._inits
        if self.scale:
            self.gamma = self.add_weight(shape=shape, initializer=g_init, name="gamma")
        if self.center:
            self.beta = self.add_weight(shape=shape, initializer=b_init, name="beta")
        self.moving_mean = self.add_weight(shape=shape, initializer=mm_init, trainable=False,
                                           name="moving_mean")
        self.moving_variance = self.add_weight(shape=shape, initializer=mv_init,
                                               trainable=False, name="moving_variance")
        self.built = True

    def _param(self, var):
        return None if var is None else _a.reshape(var, self._broadcast)

    def call(self, inputs, training=None):
        if training and self.trainable:
            mean, variance = _moments(inputs, self._reduction_axes)
            m = self.momentum
            # The running statistics are state, not part of the loss: updated by ops the
            # tape need not record, and stored with assign.
            for var, batch in ((self.moving_mean, mean), (self.moving_variance, variance)):
                batch = _a.reshape(_a.stop_gradient(batch), var.shape)
                if batch.dtype != var.dtype:
                    batch = _m.cast(batch, var.dtype)
                var.assign(_m.add(_m.multiply(var, m), _m.multiply(batch, 1.0 - m)))
        else:
            mean = self._param(self.moving_mean)
            variance = self._param(self.moving_variance)
        return _normalize(inputs, mean, variance, self._param(self.gamma),
                          self._param(self.beta), self.epsilon)


class LayerNormalization(Layer):
    """Normalise each example over ``axis`` (``tf.keras.layers.LayerNormalization``;
    Ba et al. 2016): ``gamma * (x - mean) / sqrt(variance + epsilon) + beta``.

    Args:
        axis: the axis or axes to normalise over (default -1); ``gamma`` and ``beta`` have
            their shape.
        epsilon: added to the variance (1e-3).
        center, scale: whether to learn ``beta`` / ``gamma``.
    """

    _cast_kinds = "fiub"  # ints and bools become floats, as in Keras
    _numeric_only = True

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, float(epsilon)
        self.center, self.scale = center, scale
        self._inits = (gamma_initializer, beta_initializer)
        self.gamma = self.beta = None

    _config_fixed = {"rms_scaling": False, "beta_regularizer": None,
                     "gamma_regularizer": None, "beta_constraint": None,
                     "gamma_constraint": None}

    def get_config(self):
        axis = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        return dict(super().get_config(), axis=axis, epsilon=self.epsilon, center=self.center,
                    scale=self.scale, rms_scaling=False,
                    beta_initializer=serialize(_init.get(self._inits[1])),
                    gamma_initializer=serialize(_init.get(self._inits[0])),
                    beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                    gamma_constraint=None)

    def build(self, input_shape):
        rank = len(input_shape)
        self._norm_axes = _axes(self.axis, rank)
        shape = tuple(input_shape[a] for a in self._norm_axes)
        self._broadcast = tuple(input_shape[a] if a in self._norm_axes else 1
                                for a in range(rank))
        if self.scale:
            self.gamma = self.add_weight(shape=shape, initializer=self._inits[0], name="gamma")
        if self.center:
            self.beta = self.add_weight(shape=shape, initializer=self._inits[1], name="beta")
        self.built = True

    def call(self, inputs):
        mean, variance = _moments(inputs, self._norm_axes)
        gamma = None if self.gamma is None else _a.reshape(self.gamma, self._broadcast)
        beta = None if self.beta is None else _a.reshape(self.beta, self._broadcast)
        return _normalize(inputs, mean, variance, gamma, beta, self.epsilon)

