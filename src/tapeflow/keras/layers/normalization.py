"""BatchNormalization, LayerNormalization and GroupNormalization."""
import warnings

from ..._core import dtypes as _dt
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import nn_ops as _nn
from ...ops import reduction_ops as _r
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from . import _spec
from .input_spec import InputSpec
from .layer import Layer

__all__ = ["BatchNormalization", "GroupNormalization", "LayerNormalization",
           "UnitNormalization"]


def _axes(axis, rank):
    axis = [axis] if isinstance(axis, int) else list(axis)
    return sorted(a % rank for a in axis)


def _moments(x, axes):
    mean = _r.reduce_mean(x, axes, keepdims=True)
    variance = _r.reduce_mean(_m.squared_difference(x, _a.stop_gradient(mean)), axes,
                              keepdims=True)
    return mean, variance


def _in_float32(layer, call, inputs, *args):
    """``call`` on float16 / bfloat16 ``inputs`` run in float32 (inputs, gamma, beta), the
    output rounded back to the input's dtype, as Keras 3's normalizations compute under a
    mixed policy."""
    half = inputs.dtype
    gamma, beta = layer.gamma, layer.beta
    try:
        layer.__dict__["gamma"] = None if gamma is None else _a.cast(gamma, _dt.float32)
        layer.__dict__["beta"] = None if beta is None else _a.cast(beta, _dt.float32)
        return _a.cast(call(_a.cast(inputs, _dt.float32), *args), half)
    finally:
        layer.__dict__["gamma"], layer.__dict__["beta"] = gamma, beta


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
    supports_masking = True

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
        g, b, mm, mv = (_spec.serialize(_init.get(i)) for i in self._inits)
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
        if inputs.dtype in (_dt.float16, _dt.bfloat16):
            return _in_float32(self, self.call, inputs, training)
        if training and self.trainable:
            mean, variance = _moments(inputs, self._reduction_axes)
            m = self.momentum
            # The statistics leave the tape (stop_gradient) and update through assign.
            for moving, batch in ((self.moving_mean, mean), (self.moving_variance, variance)):
                batch = _a.cast(_a.reshape(_a.stop_gradient(batch), moving.shape), moving.dtype)
                moving.assign(_m.add(_m.multiply(moving, m), _m.multiply(batch, 1.0 - m)))
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
        beta_initializer, gamma_initializer, beta_regularizer, gamma_regularizer,
            beta_constraint, gamma_constraint: for the two weights.
        rms_scaling: Keras 3's deprecated ``x * gamma / sqrt(variance + epsilon)`` (no
            centring, no ``beta``), with Keras's warning.

    Raises:
        TypeError: for an ``axis`` that is neither an int nor a list of ints.
    """

    _cast_kinds = "fiub"  # ints and bools become floats, as in Keras
    _numeric_only = True
    supports_masking = True

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 rms_scaling=False, **kwargs):
        if rms_scaling:
            warnings.warn("You passed `rms_scaling=True`, which is deprecated. This argument "
                          "incorrectly scales the input by the variance, not the root mean "
                          "square. To correctly use RMS Normalization, please use "
                          "`keras.layers.RMSNormalization` instead.", stacklevel=2)
        super().__init__(**kwargs)
        if not isinstance(axis, (int, list, tuple)):
            raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', "
                            f"but received: {axis!r}")
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else axis
        self.epsilon, self.center, self.scale = float(epsilon), center, scale
        self.rms_scaling = bool(rms_scaling)
        self.beta_initializer = _init.get(beta_initializer)
        self.gamma_initializer = _init.get(gamma_initializer)
        self.beta_regularizer = _reg.get(beta_regularizer)
        self.gamma_regularizer = _reg.get(gamma_regularizer)
        self.beta_constraint = _constraints.get(beta_constraint)
        self.gamma_constraint = _constraints.get(gamma_constraint)
        self.gamma = self.beta = None

    def build(self, input_shape):
        rank = len(input_shape)
        self._norm_axes = _axes(self.axis, rank)
        # Keras keeps the axes as a list once built (it shows in get_config).
        self.axis = sorted(self.axis) if isinstance(self.axis, list) else [self.axis]
        shape = tuple(input_shape[a] for a in self._norm_axes)
        self._broadcast = tuple(input_shape[a] if a in self._norm_axes else 1
                                for a in range(rank))
        if self.scale or self.rms_scaling:
            self.gamma = self.add_weight(shape=shape, name="gamma",
                                         initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint)
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(shape=shape, name="beta",
                                        initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint)
        self.built = True

    def call(self, inputs):
        if inputs.dtype in (_dt.float16, _dt.bfloat16):
            return _in_float32(self, self.call, inputs)
        mean, variance = _moments(inputs, self._norm_axes)
        gamma = None if self.gamma is None else _a.reshape(self.gamma, self._broadcast)
        if self.rms_scaling:
            out = _m.multiply(inputs, _m.rsqrt(_m.add(variance, self.epsilon)))
            return out if gamma is None else _m.multiply(out, gamma)
        beta = None if self.beta is None else _a.reshape(self.beta, self._broadcast)
        return _normalize(inputs, mean, variance, gamma, beta, self.epsilon)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), axis=self.axis, epsilon=self.epsilon,
                    center=self.center, scale=self.scale, rms_scaling=self.rms_scaling,
                    beta_initializer=_spec.serialize(self.beta_initializer),
                    gamma_initializer=_spec.serialize(self.gamma_initializer),
                    beta_regularizer=_spec.serialize(self.beta_regularizer),
                    gamma_regularizer=_spec.serialize(self.gamma_regularizer),
                    beta_constraint=_spec.serialize(self.beta_constraint),
                    gamma_constraint=_spec.serialize(self.gamma_constraint))


class GroupNormalization(Layer):
    """Normalise each example over groups of channels (``tf.keras.layers.GroupNormalization``;
    Wu & He 2018): the channels of ``axis`` are split into ``groups`` groups and each group
    is standardised over its channels and every non-batch axis, then scaled by ``gamma`` and
    shifted by ``beta`` per channel. ``groups=1`` is layer normalisation over all features,
    ``groups=channels`` instance normalisation.

    Args:
        groups: the number of groups; must divide the number of channels (default 32).
        axis: the channel axis (default -1).
        epsilon: added to the variance (1e-3).
        center, scale: whether to learn ``beta`` / ``gamma`` (shape ``(channels,)``).
        beta_initializer, gamma_initializer, beta_regularizer, gamma_regularizer,
            beta_constraint, gamma_constraint: as for ``LayerNormalization``.

    Raises:
        ValueError: if the channels are unknown, fewer than ``groups`` or not a multiple
            of it.

    >>> import tapeflow as tf
    >>> y = tf.keras.layers.GroupNormalization(groups=2)(tf.reshape(tf.range(8.0), (1, 2, 4)))
    >>> [round(v, 3) for v in y.numpy()[0, 0].tolist()]
    [-1.213, -0.728, -1.213, -0.728]
    """

    supports_masking = True
    _cast_kinds = "fiub"  # integer inputs are normalised in float, as in Keras

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.groups, self.axis, self.epsilon = int(groups), axis, float(epsilon)
        self.center, self.scale = center, scale
        self.beta_initializer = _init.get(beta_initializer)
        self.gamma_initializer = _init.get(gamma_initializer)
        self.beta_regularizer = _reg.get(beta_regularizer)
        self.gamma_regularizer = _reg.get(gamma_regularizer)
        self.beta_constraint = _constraints.get(beta_constraint)
        self.gamma_constraint = _constraints.get(gamma_constraint)
        self.gamma = self.beta = None

    def build(self, input_shape):
        rank = len(input_shape)
        self._axis = self.axis % rank
        dim = input_shape[self._axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined "
                             "dimension but the layer received an input with shape "
                             f"{tuple(input_shape)}.")
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the "
                             f"number of channels ({dim}).")
        if dim % self.groups != 0:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the "
                             f"number of channels ({dim}).")
        self._rank, self._channels = rank, dim
        if self.scale:
            self.gamma = self.add_weight(shape=(dim,), name="gamma",
                                         initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight(shape=(dim,), name="beta",
                                        initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint)
        self.built = True

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=self._rank, axes={self._axis: self._channels})
        shape = _spec.static_shape(inputs)
        ax, g = self._axis, self.groups
        grouped_shape = shape[:ax] + (g, self._channels // g) + shape[ax + 1:]
        x = _a.reshape(inputs, grouped_shape)
        axes = [a for a in range(1, len(grouped_shape)) if a != ax]
        mean, variance = _moments(x, axes)
        param_shape = [1] * len(grouped_shape)
        param_shape[ax], param_shape[ax + 1] = g, self._channels // g
        inv = _m.rsqrt(_m.add(variance, self.epsilon))
        if self.gamma is not None:
            inv = _m.multiply(inv, _a.reshape(self.gamma, param_shape))
        shift = _m.negative(_m.multiply(mean, inv))
        if self.beta is not None:
            shift = _m.add(shift, _a.reshape(self.beta, param_shape))
        return _a.reshape(_m.add(_m.multiply(x, inv), shift), shape)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), groups=self.groups, axis=self.axis,
                    epsilon=self.epsilon, center=self.center, scale=self.scale,
                    beta_initializer=_spec.serialize(self.beta_initializer),
                    gamma_initializer=_spec.serialize(self.gamma_initializer),
                    beta_regularizer=_spec.serialize(self.beta_regularizer),
                    gamma_regularizer=_spec.serialize(self.gamma_regularizer),
                    beta_constraint=_spec.serialize(self.beta_constraint),
                    gamma_constraint=_spec.serialize(self.gamma_constraint))



class UnitNormalization(Layer):
    """Scale each sample to unit L2 norm along ``axis`` (``tf.keras.layers.UnitNormalization``):
    ``x * min(1 / sqrt(sum(x^2)), 1e12)``, as Keras's ``ops.normalize(order=2,
    epsilon=1e-12)`` (a zero vector stays zero).

    Args:
        axis: an int or a list of ints (default -1).
    """

    supports_masking = True
    _built_at_init = True

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else axis
        self.built = True

    def call(self, inputs):
        x = _a.cast(inputs, self.compute_dtype) if inputs.dtype.is_integer else inputs
        square_sum = _r.reduce_sum(_m.square(x), axis=self.axis, keepdims=True)
        inv_norm = _m.minimum(_m.rsqrt(square_sum), 1.0 / 1e-12)
        return _m.multiply(x, inv_norm)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), axis=self.axis)
