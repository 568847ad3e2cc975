"""Conv2D and 2-D pooling layers (channels-last)."""
from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import math_ops as _m
from ...ops import nn_conv_ops as _conv
from .. import activations as _act
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from ..backend import standardize_data_format
from ..utils.argument_validation import standardize_padding, standardize_tuple
from .input_spec import InputSpec
from .layer import Layer, serialize

__all__ = ["Conv1D", "Conv2D", "MaxPooling1D", "MaxPooling2D", "AveragePooling1D",
           "AveragePooling2D"]


def _check_output_size(input_shape, kernel_shape, dilation, strides, padding):
    """Keras's error when a 'valid' convolution would leave no output position."""
    if padding != "valid":
        return
    spatial = input_shape[1:-1]
    for n, k, d, s in zip(spatial, kernel_shape, dilation, strides):
        if n is not None and (n - d * (k - 1) - 1) // s + 1 <= 0:
            dil = "[" + " ".join(str(v) for v in dilation) + "]"
            raise ValueError(
                "Computed output size would be zero or negative. Received `inputs shape="
                f"{tuple(input_shape)}`, `kernel shape={tuple(kernel_shape)}`, `dilation_rate="
                f"{dil}`, `strides={tuple(strides)}`, `padding={padding}`.")


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


class Conv2D(Layer):
    """2-D convolution over ``(batch, rows, cols, channels)`` (``tf.keras.layers.Conv2D``).

    ``outputs = activation(conv2d(inputs, kernel) + bias)`` with ``kernel`` of shape
    ``(*kernel_size, in_channels, filters)``.

    Args:
        filters: the number of output channels.
        kernel_size: an int or a pair.
        strides: an int or a pair (default 1).
        padding: 'valid' or 'same'.
        dilation_rate: an int or a pair (default 1), the step between kernel taps.
        activation, use_bias, kernel_initializer, bias_initializer: as for ``Dense``.

    Raises:
        ValueError: for a non-positive ``filters`` or a ``data_format`` other than
            channels_last.
    """

    _cast_kinds = "fiub"
    _numeric_only = True

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        rank = getattr(self, "_rank", 2)
        if rank == 2:  # Conv1D checks its own arguments before widening them to pairs
            kernel_size = standardize_tuple(kernel_size, 2, "kernel_size")
            strides = standardize_tuple(strides, 2, "strides")
            dilation_rate = standardize_tuple(dilation_rate, 2, "dilation_rate")
            padding = standardize_padding(padding)
        if int(filters) <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        self.input_spec = InputSpec(min_ndim=rank + 2)
        self.data_format = _layout(data_format, rank, "Conv3D")
        if int(groups) < 1 or int(filters) % int(groups):
            raise ValueError("The number of filters must be evenly divisible by the number of "
                             f"groups. Received: groups={groups}, filters={filters}.")
        if groups != 1 and rank != 2:
            raise ValueError(f"tapeflow's {type(self).__name__} supports groups=1 only")
        self.groups = int(groups)
        self.filters = int(filters)
        self.kernel_size = _pair(kernel_size)
        self.strides = _pair(strides)
        self.dilation_rate = _pair(dilation_rate)
        self.padding = padding.lower()
        self.activation = _act.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _init.get(kernel_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer = _reg.get(kernel_regularizer)
        self.bias_regularizer = _reg.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.kernel = None
        self.bias = None

    def build(self, input_shape):
        first = self.data_format == "channels_first"
        input_shape = _last_shape(input_shape) if first else tuple(input_shape)
        self.input_spec = InputSpec(min_ndim=4, axes={1 if first else -1: input_shape[-1]})
        if input_shape[-1] % self.groups:
            raise ValueError("The number of input channels must be evenly divisible by the "
                             f"number of groups. Received groups={self.groups}, but the input "
                             f"has {input_shape[-1]} channels (full input shape is "
                             f"{tuple(input_shape)}).")
        _check_output_size(input_shape, self.kernel_size + (input_shape[-1], self.filters),
                           self.dilation_rate, self.strides, self.padding)
        kernel_shape = self.kernel_size + (input_shape[-1] // self.groups, self.filters)
        self.kernel = self.add_weight(shape=kernel_shape,
                                      initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters,), name="bias",
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def get_config(self):
        n = 1 if isinstance(self, Conv1D) else 2
        return dict(super().get_config(), filters=self.filters,
                    kernel_size=list(self.kernel_size[-n:]), strides=list(self.strides[-n:]),
                    padding="causal" if getattr(self, "_causal", False) else self.padding,
                    data_format=self.data_format,
                    dilation_rate=list(self.dilation_rate[-n:]),
                    groups=getattr(self, "groups", 1), activation=serialize(self.activation),
                    use_bias=self.use_bias,
                    kernel_initializer=serialize(self.kernel_initializer),
                    bias_initializer=serialize(self.bias_initializer),
                    kernel_regularizer=serialize(_reg.get(self.kernel_regularizer)),
                    bias_regularizer=serialize(_reg.get(self.bias_regularizer)),
                    activity_regularizer=serialize(self.activity_regularizer),
                    kernel_constraint=serialize(_constraints.get(self.kernel_constraint)),
                    bias_constraint=serialize(_constraints.get(self.bias_constraint)))

    def call(self, inputs):
        first = self.data_format == "channels_first"
        if first:
            inputs = _to_last(inputs)
        if self.groups == 1:
            y = _conv.conv2d(inputs, self.kernel, self.strides, self.padding.upper(),
                             dilations=self.dilation_rate)
        else:
            y = self._grouped(inputs)
        if self.use_bias:
            y = _m.add(y, self.bias)
        y = self.activation(y)
        return _to_first(y) if first else y


    def _grouped(self, inputs):
        """A grouped convolution (Keras's ``groups``): group ``g`` of the input channels
        makes output channels ``g * filters // groups`` on; one input channel per group is a
        depthwise convolution with multiplier ``filters // groups``."""
        kh, kw, per_group, filters = self.kernel.shape
        if per_group == 1:
            kernel = _a.reshape(self.kernel, (kh, kw, self.groups, filters // self.groups))
            return _conv.depthwise_conv2d(inputs, kernel, (1,) + self.strides + (1,),
                                          self.padding.upper(), dilations=self.dilation_rate)
        out = filters // self.groups
        parts = [_conv.conv2d(inputs[..., g * per_group:(g + 1) * per_group],
                              self.kernel[..., g * out:(g + 1) * out], self.strides,
                              self.padding.upper(), dilations=self.dilation_rate)
                 for g in range(self.groups)]
        return _a.concat(parts, axis=-1)


class _Pooling2D(Layer):
    _fn = None
    _built_at_init = True

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        rank = getattr(self, "_rank", 2)
        self.data_format = _layout(data_format, rank, "pooling")
        if rank == 2:  # the 1-D poolings check their own arguments
            pool_size = standardize_tuple(pool_size, 2, "pool_size")
            strides = pool_size if strides is None else strides
            strides = standardize_tuple(strides, 2, "strides", allow_zero=True)
        self.input_spec = InputSpec(ndim=rank + 2)
        self.pool_size = _pair(pool_size)
        self.strides = self.pool_size if strides is None else _pair(strides)
        self.padding = padding.lower()

    def get_config(self):
        n = 1 if isinstance(self, _Pooling1D) else 2
        return dict(super().get_config(), pool_size=list(self.pool_size[-n:]),
                    padding=self.padding, strides=list(self.strides[-n:]),
                    data_format=self.data_format)

    def call(self, inputs):
        if self.data_format == "channels_first":
            return _to_first(type(self)._fn(_to_last(inputs), self.pool_size, self.strides,
                                            self.padding.upper()))
        return type(self)._fn(inputs, self.pool_size, self.strides, self.padding.upper())


class MaxPooling2D(_Pooling2D):
    """The maximum over ``pool_size`` windows (``tf.keras.layers.MaxPooling2D``).

    Args:
        pool_size: an int or a pair (default 2).
        strides: default ``pool_size``.
        padding: 'valid' or 'same'.
    """

    _fn = staticmethod(_conv.max_pool2d)


class AveragePooling2D(_Pooling2D):
    """The mean over ``pool_size`` windows (``tf.keras.layers.AveragePooling2D``)."""

    _fn = staticmethod(_conv.avg_pool2d)


class Conv1D(Conv2D):
    """1-D convolution over ``(batch, steps, channels)`` (``tf.keras.layers.Conv1D``),
    computed as a 2-D convolution of height 1. ``padding='causal'`` pads on the left only.

    Args:
        filters, kernel_size (int), strides (int), padding ('valid', 'same', 'causal'),
        activation, use_bias, initializers: as for ``Conv2D``.
    """

    _rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", **kwargs):
        (k,) = standardize_tuple(kernel_size, 1, "kernel_size")
        (s,) = standardize_tuple(strides, 1, "strides")
        (d,) = standardize_tuple(kwargs.pop("dilation_rate", 1), 1, "dilation_rate")
        padding = standardize_padding(padding, allow_causal=True)
        self._causal = padding == "causal"
        super().__init__(filters, (1, k), strides=(1, s), dilation_rate=(1, d),
                         padding="valid" if self._causal else padding, **kwargs)

    def build(self, input_shape):
        first = self.data_format == "channels_first"
        input_shape = _last_shape(input_shape) if first else tuple(input_shape)
        self.input_spec = InputSpec(min_ndim=3, axes={1 if first else -1: input_shape[-1]})
        k = self.kernel_size[1]
        _check_output_size(input_shape, (k, input_shape[-1], self.filters),
                           self.dilation_rate[1:], self.strides[1:],
                           "causal" if self._causal else self.padding)
        self.kernel = self.add_weight(shape=(k, input_shape[-1], self.filters), name="kernel",
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters,), name="bias",
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer)
        self.built = True

    def call(self, inputs):
        first = self.data_format == "channels_first"
        if first:
            inputs = _to_last(inputs)
        span = (self.kernel.shape[0] - 1) * self.dilation_rate[1]
        if self._causal and span > 0:
            pad = _cr.zeros((inputs.shape[0], span, inputs.shape[2]),
                           dtype=inputs.dtype)
            inputs = _a.concat([pad, inputs], 1)
        y = _conv.conv2d(_a.expand_dims(inputs, 1), _a.expand_dims(self.kernel, 0),
                         self.strides, self.padding.upper(), dilations=self.dilation_rate)
        if self.use_bias:
            y = _m.add(y, self.bias)
        y = self.activation(_a.squeeze(y, 1))
        return _to_first(y) if first else y


class _Pooling1D(_Pooling2D):
    _rank = 1

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        (p,) = standardize_tuple(pool_size, 1, "pool_size")
        (st,) = standardize_tuple(p if strides is None else strides, 1, "strides",
                                  allow_zero=True)
        super().__init__((1, p), (1, st), padding, data_format, **kwargs)

    def call(self, inputs):
        axis = 2 if self.data_format == "channels_first" else 1   # the added height-1 axis
        return _a.squeeze(super().call(_a.expand_dims(inputs, axis)), axis)


class MaxPooling1D(_Pooling1D):
    """The maximum over windows of ``(batch, steps, channels)``."""

    _fn = staticmethod(_conv.max_pool2d)


class AveragePooling1D(_Pooling1D):
    """The mean over windows of ``(batch, steps, channels)``."""

    _fn = staticmethod(_conv.avg_pool2d)


def _layout(data_format, rank, name):
    """``data_format`` (None: ``keras.config.image_data_format()``, read now); the 1-D and
    2-D layers take both layouts, the 3-D ones channels_last only."""
    data_format = standardize_data_format(data_format)
    if data_format == "channels_first" and rank == 3:
        raise ValueError(f"tapeflow's {name} supports data_format='channels_last' only")
    return data_format


def _last_shape(shape):
    """A channels_first shape ``(batch, channels, *spatial)`` in channels_last order."""
    shape = tuple(shape)
    return (shape[0],) + shape[2:] + (shape[1],)


def _to_last(x):
    r = len(x.shape)
    return _a.transpose(x, [0, *range(2, r), 1])


def _to_first(x):
    r = len(x.shape)
    return _a.transpose(x, [0, r - 1, *range(1, r - 1)])
