"""Convolutional LSTMs (Shi et al. 2015): ConvLSTM1D, ConvLSTM2D and ConvLSTM3D with
Keras 3's cell (``conv_lstm_cell``), gate order i, f, c, o and weight layout."""
from ..._core import errors
from ..._core.backend import np
from ..._core.tensor import Tensor, traced_shape
from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import math_ops as _m
from ...ops import nn_conv3d_ops as _c3
from ...ops import nn_conv_ops as _conv
from .. import _naming
from .. import activations as _act
from .. import constraints as _constraints
from .. import initializers as _init
from .. import random as _kr
from .. import regularizers as _reg
from .._variable import KerasVariable
from ..utils.argument_validation import standardize_padding, standardize_tuple
from . import _spec
from .input_spec import InputSpec
from .layer import Layer
from .rnn import RNN

__all__ = ["ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]


def _conv_size(n, k, s, d, padding):
    if n is None:
        return None
    if padding == "same":
        return (n - 1) // s + 1
    return (n - d * (k - 1) - 1) // s + 1


class ConvLSTMCell(Layer):
    """One step of a convolutional LSTM: ``z = conv(x, kernel) + bias +
    conv_same(h, recurrent_kernel)`` split into the gates i, f, c, o;
    ``c' = f * c + i * activation(z_c)``, ``h' = o * activation(c')``.

    The kernel is ``kernel_size + (in_channels, 4 * filters)``, the recurrent kernel
    ``kernel_size + (filters, 4 * filters)`` (always stride 1, 'same', undilated), the bias
    ``(4 * filters,)`` with the forget quarter starting at 1 when ``unit_forget_bias``.
    Arguments as :class:`ConvLSTM2D` with ``rank`` the number of spatial axes.
    """

    _cast_kinds = "fiub"
    _numeric_only = True

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.seed_generator = _kr.SeedGenerator(seed)
        if rank > 3:
            raise ValueError(f"Rank {rank} convolutions are not currently implemented. "
                             f"Received: rank={rank}")
        self.rank = rank
        self.filters = filters
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides", allow_zero=True)
        self.padding = standardize_padding(padding)
        if data_format not in (None, "channels_last", "channels_first"):
            raise ValueError("The `data_format` argument must be one of {'channels_first', "
                             f"'channels_last'}}. Received: data_format={data_format}")
        self.data_format = data_format or "channels_last"
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(
                "Specifying `strides > 1` is not compatible with `dilation_rate > 1`. Please "
                "provide `strides=1` or `dilation_rate=1`. Received: "
                f"strides={self.strides} and dilation_rate={self.dilation_rate}")
        self.activation = _act.get(activation)
        self.recurrent_activation = _act.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = _init.get(kernel_initializer)
        self.recurrent_initializer = _init.get(recurrent_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = _reg.get(kernel_regularizer)
        self.recurrent_regularizer = _reg.get(recurrent_regularizer)
        self.bias_regularizer = _reg.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.recurrent_constraint = _constraints.get(recurrent_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.input_spec = InputSpec(ndim=rank + 2)
        self._masks = (None, None)  # the call's dropout masks, set by the layer

    def _spatial(self, shape):
        return tuple(shape[2:] if self.data_format == "channels_first" else shape[1:-1])

    def build(self, inputs_shape, states_shape=None):
        inputs_shape = tuple(inputs_shape)
        self.spatial_dims = self._spatial(inputs_shape)
        if None in self.spatial_dims:
            raise ValueError("ConvLSTM layers only support static input shapes for the spatial "
                             f"dimension. Received invalid input shape: input_shape="
                             f"{inputs_shape}")
        channel = inputs_shape[1 if self.data_format == "channels_first" else -1]
        if channel is None:
            raise ValueError("The channel dimension of the inputs (last axis) should be "
                             f"defined. Found None. Full input shape received: input_shape="
                             f"{inputs_shape}")
        self.input_dim = channel
        f = self.filters
        self.kernel = self.add_weight(shape=self.kernel_size + (channel, 4 * f), name="kernel",
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (f, 4 * f), name="recurrent_kernel",
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            init = self.bias_initializer
            if self.unit_forget_bias:
                base = self.bias_initializer

                def init(shape, dtype=None):
                    first = np.asarray(base((f,), dtype=dtype))
                    rest = np.asarray(base((2 * f,), dtype=dtype))
                    return Tensor(np.concatenate([first, np.ones_like(first), rest]))
            self.bias = self.add_weight(shape=(4 * f,), name="bias", initializer=init,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def _conv(self, x, w, strides, padding, dilation):
        padding = padding.upper()
        if self.rank == 1:
            y = _conv.conv2d(_a.expand_dims(x, 1), _a.expand_dims(w, 0), (1,) + strides,
                             padding, dilations=(1,) + dilation)
            return _a.squeeze(y, [1])
        if self.rank == 2:
            return _conv.conv2d(x, w, strides, padding, dilations=dilation)
        return _c3.conv3d(x, w, strides, padding, dilations=dilation)

    def call(self, inputs, states, training=False):
        first = self.data_format == "channels_first"
        if first and self.rank < 3:
            # Keras's 1-D/2-D convolutions run TensorFlow's Conv2D, which has no NCHW CPU
            # kernel (its 3-D one has)
            raise errors.UnimplementedError(
                None, None, "The Conv2D op currently only supports the NHWC tensor format on "
                "the CPU. The op was given the format: NCHW [Op:Conv2D]")
        h_prev, c_prev = states
        if first:   # computed channels-last; inputs and states stay in the layer's format
            perm = [0] + list(range(2, self.rank + 2)) + [1]
            inputs, h_prev, c_prev = (_a.transpose(t, perm) for t in (inputs, h_prev, c_prev))
        dp, rec = self._masks
        ones = (1,) * self.rank
        if dp is None and rec is None:
            z = _m.add(self._conv(inputs, self.kernel, self.strides, self.padding,
                                  self.dilation_rate),
                       self._conv(h_prev, self.recurrent_kernel, ones, "same", ones))
            if self.use_bias:
                z = _m.add(z, self.bias)
            zs = _a.split(z, 4, axis=-1)
        else:
            kernels = _a.split(self.kernel, 4, axis=-1)
            recurrent = _a.split(self.recurrent_kernel, 4, axis=-1)
            biases = _a.split(self.bias, 4) if self.use_bias else [None] * 4
            zs = []
            for g in range(4):
                x_g = inputs if dp is None else _m.multiply(inputs, dp[g])
                h_g = h_prev if rec is None else _m.multiply(h_prev, rec[g])
                z = self._conv(x_g, kernels[g], self.strides, self.padding, self.dilation_rate)
                if biases[g] is not None:
                    z = _m.add(z, biases[g])
                zs.append(_m.add(z, self._conv(h_g, recurrent[g], ones, "same", ones)))
        i = self.recurrent_activation(zs[0])
        f = self.recurrent_activation(zs[1])
        c = _m.add(_m.multiply(f, c_prev), _m.multiply(i, self.activation(zs[2])))
        o = self.recurrent_activation(zs[3])
        h = _m.multiply(o, self.activation(c))
        if first:
            back = [0, self.rank + 1] + list(range(1, self.rank + 1))
            h, c = _a.transpose(h, back), _a.transpose(c, back)
        return h, [h, c]

    def compute_output_shape(self, inputs_shape, states_shape=None):
        sizes = tuple(_conv_size(n, k, s, d, self.padding) for n, k, s, d in zip(
            self._spatial(inputs_shape), self.kernel_size, self.strides, self.dilation_rate,
            strict=True))
        if self.data_format == "channels_first":
            shape = (inputs_shape[0], self.filters) + sizes
        else:
            shape = (inputs_shape[0],) + sizes + (self.filters,)
        return shape, [shape, shape]

    @property
    def state_size(self):
        return -1  # Keras's: the states' shapes depend on the input's

    def get_config(self):
        return dict(super().get_config(), **_conv_config(self), seed=self.seed)


def _conv_config(c):
    return dict(
        filters=c.filters, kernel_size=c.kernel_size, strides=c.strides, padding=c.padding,
        data_format=c.data_format, dilation_rate=c.dilation_rate,
        activation=_spec.serialize(c.activation),
        recurrent_activation=_spec.serialize(c.recurrent_activation), use_bias=c.use_bias,
        kernel_initializer=_spec.serialize(c.kernel_initializer),
        recurrent_initializer=_spec.serialize(c.recurrent_initializer),
        bias_initializer=_spec.serialize(c.bias_initializer),
        unit_forget_bias=c.unit_forget_bias,
        kernel_regularizer=_spec.serialize(c.kernel_regularizer),
        recurrent_regularizer=_spec.serialize(c.recurrent_regularizer),
        bias_regularizer=_spec.serialize(c.bias_regularizer))


class _ConvLSTM(RNN):
    _rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, **kwargs):
        cell = ConvLSTMCell(
            rank=self._rank, filters=filters, kernel_size=kernel_size, strides=strides,
            padding=padding, data_format=data_format, dilation_rate=dilation_rate,
            activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed, name="conv_lstm_cell",
            dtype=kwargs.get("dtype"))
        kwargs.pop("unroll", None)
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = InputSpec(ndim=self._rank + 3)

    def __getattr__(self, name):
        # Keras's ConvLSTM exposes its cell's arguments (filters, kernel_size, ...)
        if name in _CELL_ATTRS and "cell" in self.__dict__:
            return getattr(self.__dict__["cell"], name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _state_shape(self, input_shape):
        step = (input_shape[0],) + tuple(input_shape[2:])
        return self.cell.compute_output_shape(step)[0]

    def build(self, input_shape):
        input_shape = tuple(getattr(self, "_build_shape", None) or input_shape)
        step = (input_shape[0],) + input_shape[2:]
        if not self.cell.built:
            with _naming.name_scope(self.cell.name, self.cell):
                self.cell.build(step)
        self.built = True
        if not self.stateful:
            return
        if self._states is not None:
            self.reset_state()
            return
        if input_shape[0] is None:
            raise ValueError("When using `stateful=True` in a RNN, the batch size must be "
                             f"static. Found dynamic batch size: sequence.shape={input_shape}")
        shape = self._state_shape(input_shape)
        with _naming.name_scope(self.name, self):
            self._states = [KerasVariable(_cr.zeros(shape, dtype=self.dtype), trainable=False,
                                          name="rnn_state") for _ in range(2)]
        self._expected_batch_size = input_shape[0]

    def call(self, sequences, initial_state=None, mask=None, training=False):
        inputs = sequences
        if self.stateful:
            got = inputs.shape[0]
            if self._expected_batch_size is not None and got is not None and \
                    got != self._expected_batch_size:
                raise ValueError("If an RNN is stateful, the batch size of the input sequences "
                                 "must be the same as the batch size of the initial state. \n"
                                 f"- Expected batch size: {self._expected_batch_size}\n"
                                 f"- Received batch size: {got}")
        if initial_state is None and self.stateful:
            states = [_a.cast(v, inputs.dtype) for v in self._states]
        elif initial_state is None:
            shape = list(self._state_shape(tuple(inputs.shape)))
            if shape[0] is None:
                shape[0] = _a.shape(inputs)[0]
                shape = _a.stack([_a.cast(d, "int32") for d in shape])
            states = [_cr.zeros(shape, dtype=inputs.dtype) for _ in range(2)]
        else:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) else [
                initial_state]
            states = [_a.cast(s, inputs.dtype) for s in states]
        cell = self.cell
        # Keras draws the masks on every call (training or not), inputs' then the states'
        dp = rec = None
        if cell.dropout > 0:
            dp = [_kr.dropout(_a.ones_like(inputs[:, 0]), cell.dropout,
                              seed=cell.seed_generator) for _ in range(4)]
        if cell.recurrent_dropout > 0:
            rec = [_kr.dropout(_a.ones_like(states[0]), cell.recurrent_dropout,
                               seed=cell.seed_generator) for _ in range(4)]
        active = bool(training)
        cell._masks = (dp if active and 0 < cell.dropout < 1 else None,
                       rec if active and 0 < cell.recurrent_dropout < 1 else None)
        try:
            outputs, states = self._loop(inputs, states, mask)
        finally:
            cell._masks = (None, None)
        if self.stateful:
            for v, state in zip(self._states, states, strict=True):
                v.assign(_a.cast(state, v.dtype))
        result = _a.stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        return [result, *states] if self.return_state else result

    def _loop(self, inputs, states, mask):
        n = traced_shape(inputs)[1]   # the time steps of this call (a relaxed trace's too)
        steps = _a.unstack(inputs, num=n, axis=1)
        masks = [None] * len(steps) if mask is None else _a.unstack(
            _a.cast(mask, "bool"), num=n, axis=1)
        if self.go_backwards:
            steps, masks = steps[::-1], masks[::-1]
        outputs = []
        for x_t, m_t in zip(steps, masks, strict=True):
            out, new_states = self.cell(x_t, states)
            if m_t is not None:
                # a masked step repeats the previous output and keeps the states (Keras)
                keep = _a.reshape(m_t, [-1] + [1] * (self._rank + 1))
                prev = outputs[-1] if outputs else _a.zeros_like(out)
                out = _a.where(keep, out, prev)
                new_states = [_a.where(keep, n, s)
                              for n, s in zip(new_states, states, strict=True)]
            states = new_states
            outputs.append(out)
        return outputs, states

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        sequences_shape = tuple(sequences_shape)
        batch, steps = sequences_shape[:2]
        state = tuple(self._state_shape(sequences_shape)[1:])
        out = (batch, steps) + state if self.return_sequences else (batch,) + state
        if self.return_state:
            return out, (batch,) + state, (batch,) + state
        return out

    def compute_mask(self, inputs, previous_mask):
        mask = previous_mask[0] if isinstance(previous_mask, list) else previous_mask
        out = mask if self.return_sequences else None
        return [out, None, None] if self.return_state else out

    def get_config(self):
        c = self.cell
        config = dict(Layer.get_config(self), return_sequences=self.return_sequences,
                      return_state=self.return_state, go_backwards=self.go_backwards,
                      stateful=self.stateful, unroll=False, zero_output_for_mask=False)
        config.update(_conv_config(c))
        config.update(activity_regularizer=_spec.serialize(self.activity_regularizer),
                      kernel_constraint=_spec.serialize(c.kernel_constraint),
                      recurrent_constraint=_spec.serialize(c.recurrent_constraint),
                      bias_constraint=_spec.serialize(c.bias_constraint), dropout=c.dropout,
                      recurrent_dropout=c.recurrent_dropout, seed=c.seed)
        return config

    @classmethod
    def from_config(cls, config):
        from ..saving.serialization import deserialize_config_values
        config = dict(deserialize_config_values(dict(config)))
        config.pop("zero_output_for_mask", None)
        return cls(**config)


_CELL_ATTRS = frozenset(("filters", "kernel_size", "strides", "padding", "data_format",
                         "dilation_rate", "activation", "recurrent_activation", "use_bias",
                         "kernel_initializer", "recurrent_initializer", "bias_initializer",
                         "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
                         "bias_regularizer", "kernel_constraint", "recurrent_constraint",
                         "bias_constraint", "dropout", "recurrent_dropout"))

_DOC = """{rank}-D convolutional LSTM over ``(batch, time, {axes}, channels)``
(``tf.keras.layers.ConvLSTM{rank}D``; Shi et al. 2015): an LSTM whose input and recurrent
transformations are {rank}-D convolutions, so the states keep their spatial layout.

The weights (in ``conv_lstm_cell``) are ``kernel`` ``kernel_size + (channels, 4 * filters)``,
``recurrent_kernel`` ``kernel_size + (filters, 4 * filters)`` and ``bias`` ``(4 * filters,)``,
gates in Keras's order input, forget, cell, output.

Args:
    filters: the number of output channels (int).
    kernel_size, strides, dilation_rate: an int or {rank} ints (strides above 1 exclude a
        dilation above 1).
    padding: 'valid' or 'same' for the input convolution (the recurrent one is always 'same').
    data_format: 'channels_last' (default) or 'channels_first' (``(batch, time, channels,
        ...)``; ConvLSTM1D/2D then fail when called, as on TensorFlow's CPU).
    activation, recurrent_activation: default 'tanh' and 'sigmoid'.
    use_bias, unit_forget_bias: a bias, its forget quarter starting at 1.
    kernel_initializer, recurrent_initializer, bias_initializer, *_regularizer,
        *_constraint: as for ``LSTM``.
    dropout, recurrent_dropout: rates of the masks on the inputs and on the hidden state while
        training (one mask per gate, drawn once per call from the cell's ``seed``).
    return_sequences, return_state, go_backwards, stateful: as for ``LSTM``.

Call arguments:
    sequences: ``(batch, time, {axes}, channels)`` floats.
    initial_state: optional ``[h, c]``, each the shape of one output step.
    mask: optional boolean ``(batch, time)``; a masked step keeps the previous output and
        states.
    training: whether dropout is active.

Raises:
    ValueError: strides with dilation, an input of another rank or with unknown spatial
        sizes, a stateful layer without a static batch size (Keras's texts).
    tf.errors.UnimplementedError: 'channels_first' in 1-D and 2-D, when called.
"""


class ConvLSTM1D(_ConvLSTM):
    _rank = 1


class ConvLSTM2D(_ConvLSTM):
    _rank = 2


class ConvLSTM3D(_ConvLSTM):
    _rank = 3


ConvLSTM1D.__doc__ = _DOC.format(rank=1, axes="steps")
ConvLSTM2D.__doc__ = _DOC.format(rank=2, axes="rows, cols")
ConvLSTM3D.__doc__ = _DOC.format(rank=3, axes="d1, d2, d3")
