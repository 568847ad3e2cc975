"""Recurrent layers: SimpleRNN, LSTM and GRU (Keras 3's cells and gate layouts)."""
from ..._core.recording import executing_eagerly
from ..._core.tensor import Tensor, traced_shape
from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import math_ops as _m
from .. import _naming
from .. import activations as _act
from .. import initializers as _init
from .._variable import KerasVariable
from ..random import SeedGenerator
from .input_spec import InputSpec
from .layer import Layer, serialize

__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "SimpleRNN", "LSTM", "GRU",
           "Bidirectional", "TimeDistributed"]


class _Cell(Layer):
    """A cell maps ``(x_t, states) -> (output_t, new_states)``; subclasses set the gates."""

    _gates = 1
    _cast_kinds = "fiub"  # ints and bools become floats, as in Keras
    _numeric_only = True

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", dropout=0.0,
                 recurrent_dropout=0.0, seed=None, **kwargs):
        if units <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        super().__init__(**kwargs)
        if dropout or recurrent_dropout:
            raise NotImplementedError("tapeflow's recurrent cells have no dropout yet")
        self.units = int(units)
        self.activation = _act.get(activation)
        self.recurrent_activation = _act.get(recurrent_activation)
        self.use_bias = use_bias
        # Keras's cells make their dropout SeedGenerator (drawing a default seed from
        # Python's `random` when `seed` is None) before the initializers in SimpleRNNCell,
        # after them in LSTMCell and GRUCell; the order decides every later random weight
        if isinstance(self, SimpleRNNCell):
            self.seed_generator = SeedGenerator(seed)
        self._inits = (_init.get(kernel_initializer), _init.get(recurrent_initializer),
                       _init.get(bias_initializer))
        if not isinstance(self, SimpleRNNCell):
            self.seed_generator = SeedGenerator(seed)

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_initializer(self):
        return self._inits[2]

    def build(self, input_shape):
        width = self._gates * self.units
        self.kernel = self.add_weight(shape=(input_shape[-1], width), name="kernel",
                                      initializer=self._inits[0])
        self.recurrent_kernel = self.add_weight(shape=(self.units, width),
                                                name="recurrent_kernel",
                                                initializer=self._inits[1])
        self.bias = (self.add_weight(shape=self._bias_shape(), name="bias",
                                     initializer=self._bias_initializer())
                     if self.use_bias else None)
        self.built = True

    @property
    def state_size(self):
        return [self.units]

    def build_from_config(self, config):
        """Make the weights for ``config["input_shape"]`` (a cell is called with states,
        so it is built directly rather than by a call)."""
        if config and config.get("input_shape"):
            with _naming.name_scope(self.name, self):
                self.build(tuple(config["input_shape"]))
            self._build_shape = config["input_shape"]

    _config_fixed = {"kernel_regularizer": None, "recurrent_regularizer": None,
                     "bias_regularizer": None, "kernel_constraint": None,
                     "recurrent_constraint": None, "bias_constraint": None, "dropout": 0.0,
                     "recurrent_dropout": 0.0, "seed": None}

    def get_config(self):
        config = dict(super().get_config(), units=self.units,
                      activation=serialize(self.activation))
        if not isinstance(self, SimpleRNNCell):
            config["recurrent_activation"] = serialize(self.recurrent_activation)
        config["use_bias"] = self.use_bias
        if isinstance(self, LSTMCell):
            config["unit_forget_bias"] = self.unit_forget_bias
        kernel, recurrent, bias = (serialize(i) for i in self._inits)
        config.update(kernel_initializer=kernel, recurrent_initializer=recurrent,
                      bias_initializer=bias, **self._config_fixed)
        if isinstance(self, GRUCell):
            config["reset_after"] = self.reset_after
            config["seed"] = config.pop("seed")
        return config


class SimpleRNNCell(_Cell):
    """``h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)``."""

    def __init__(self, units, activation="tanh", **kwargs):
        super().__init__(units, activation=activation, **kwargs)

    def call(self, inputs, states):
        h = _m.matmul(inputs, self.kernel)
        if self.use_bias:
            h = _m.add(h, self.bias)
        h = self.activation(_m.add(h, _m.matmul(states[0], self.recurrent_kernel)))
        return h, [h]


class LSTMCell(_Cell):
    """Long short-term memory (Hochreiter & Schmidhuber 1997), gates in Keras's order
    input, forget, cell, output; the forget bias starts at 1 (``unit_forget_bias``)."""

    _gates = 4

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = unit_forget_bias

    def _bias_initializer(self):
        base = self._inits[2]
        if not self.unit_forget_bias:
            return base
        units = self.units

        def init(shape, dtype=None):
            value = base((units * 4,), dtype=dtype).numpy()
            value[units:2 * units] = 1
            return Tensor(value)
        return init

    @property
    def state_size(self):
        return [self.units, self.units]

    def call(self, inputs, states):
        h_prev, c_prev = states
        z = _m.add(_m.matmul(inputs, self.kernel), _m.matmul(h_prev, self.recurrent_kernel))
        if self.use_bias:
            z = _m.add(z, self.bias)
        u = self.units
        i = self.recurrent_activation(z[:, :u])
        f = self.recurrent_activation(z[:, u:2 * u])
        c = _m.add(_m.multiply(f, c_prev), _m.multiply(i, self.activation(z[:, 2 * u:3 * u])))
        o = self.recurrent_activation(z[:, 3 * u:])
        h = _m.multiply(o, self.activation(c))
        return h, [h, c]


class GRUCell(_Cell):
    """Gated recurrent unit (Cho et al. 2014), gates update, reset, candidate; with
    ``reset_after`` (Keras's default) the reset gate scales ``h_prev @ U_h + b_h``, and the
    bias has a second row for the recurrent side. ``h = z * h_prev + (1 - z) * candidate``.
    """

    _gates = 3

    def __init__(self, units, reset_after=True, **kwargs):
        super().__init__(units, **kwargs)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, inputs, states):
        h_prev = states[0]
        u = self.units
        x = _m.matmul(inputs, self.kernel)
        r_in = None
        if self.use_bias:
            if self.reset_after:
                x = _m.add(x, self.bias[0])
                r_in = self.bias[1]
            else:
                x = _m.add(x, self.bias)
        rec = _m.matmul(h_prev, self.recurrent_kernel[:, :2 * u])
        if r_in is not None:
            rec = _m.add(rec, r_in[:2 * u])
        z = self.recurrent_activation(_m.add(x[:, :u], rec[:, :u]))
        r = self.recurrent_activation(_m.add(x[:, u:2 * u], rec[:, u:]))
        if self.reset_after:
            rh = _m.matmul(h_prev, self.recurrent_kernel[:, 2 * u:])
            if r_in is not None:
                rh = _m.add(rh, r_in[2 * u:])
            rh = _m.multiply(r, rh)
        else:
            rh = _m.matmul(_m.multiply(r, h_prev), self.recurrent_kernel[:, 2 * u:])
        candidate = self.activation(_m.add(x[:, 2 * u:], rh))
        h = _m.add(_m.multiply(z, h_prev), _m.multiply(_m.subtract(1.0, z), candidate))
        return h, [h]


class RNN(Layer):
    """Run ``cell`` over the time axis of ``(batch, time, features)`` inputs
    (``tf.keras.layers.RNN``).

    Args:
        cell: a recurrent cell.
        return_sequences: return every step's output (``(batch, time, units)``) rather
            than the last.
        return_state: also return the final states (a list ``[output, *states]``).
        go_backwards: run over the sequence in reverse.
        stateful: keep the final states of each call (in non-trainable variables,
            ``layer.states``, not among the weights, as in Keras 3) as the next call's
            initial states; needs a fixed batch size. ``reset_state()`` zeroes them.

    Raises:
        ValueError: a stateful layer built without a static batch size, or called with
            another batch size than it was built for (Keras's texts).
    """

    _cast_kinds = "fiub"  # ints and bools become floats, as in Keras
    _numeric_only = True

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, **kwargs):
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = bool(stateful)
        self._states = None          # the stateful layer's variables (not weights)
        self._expected_batch_size = None

    @property
    def states(self):
        """The state variables of a stateful layer (None before it is built, or when the
        layer is not stateful)."""
        return self._states

    def build(self, input_shape):
        self.built = True
        if not self.stateful:
            return
        if self._states is not None:
            self.reset_state()
            return
        shape = tuple(getattr(self, "_build_shape", None) or input_shape)  # None: symbolic
        batch = shape[0]
        if batch is None:
            raise ValueError("When using `stateful=True` in a RNN, the batch size must be "
                             f"static. Found dynamic batch size: sequence.shape={shape}")
        with _naming.name_scope(self.name, self):
            self._states = [KerasVariable(_cr.zeros((batch, n), dtype=self.dtype),
                                          trainable=False, name="rnn_state")
                            for n in self.cell.state_size]
        self._expected_batch_size = batch

    def reset_state(self):
        """Zero the states of a stateful layer (``layer.reset_state()`` in Keras 3)."""
        if self._states is not None:
            for v in self._states:
                v.assign(_a.zeros_like(v))

    def reset_states(self):
        """Keras's compatibility alias of :meth:`reset_state`."""
        self.reset_state()

    supports_masking = True
    _config_fixed = {"zero_output_for_mask": False}

    def get_config(self):
        return dict(super().get_config(), return_sequences=self.return_sequences,
                    return_state=self.return_state, go_backwards=self.go_backwards,
                    stateful=self.stateful, unroll=False, zero_output_for_mask=False,
                    cell=serialize(self.cell))

    def call(self, sequences, initial_state=None, mask=None, training=False):
        inputs = sequences
        # tf.shape, not .shape: under a relaxed trace the batch size is None statically
        batch = inputs.shape[0]
        if batch is None:
            batch = _a.shape(inputs)[0]
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
            states = [_cr.zeros((batch, n), dtype=inputs.dtype) for n in self.cell.state_size]
        else:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) else [
                initial_state]
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
                # A masked step repeats the previous output and keeps the states (Keras).
                keep = _a.expand_dims(m_t, -1)
                prev = outputs[-1] if outputs else _a.zeros_like(out)
                out = _a.where(keep, out, prev)
                new_states = [_a.where(keep, n, s)
                              for n, s in zip(new_states, states, strict=True)]
            states = new_states
            outputs.append(out)
        if self.stateful:
            for v, state in zip(self._states, states, strict=True):
                v.assign(_a.cast(state, v.dtype))
        result = _a.stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        return [result, *states] if self.return_state else result

    def compute_mask(self, inputs, previous_mask):
        mask = previous_mask[0] if isinstance(previous_mask, list) else previous_mask
        out = mask if self.return_sequences else None
        if self.return_state:
            return [out] + [None for _ in self.cell.state_size]
        return out


_RNN_FIXED = {"zero_output_for_mask": False, "kernel_regularizer": None,
              "recurrent_regularizer": None, "bias_regularizer": None,
              "kernel_constraint": None, "recurrent_constraint": None, "bias_constraint": None,
              "dropout": 0.0, "recurrent_dropout": 0.0, "seed": None}


def _rnn_config(layer, extra_keys):
    """A SimpleRNN / LSTM / GRU config in Keras 3's keys."""
    c = layer._config
    config = dict(Layer.get_config(layer), return_sequences=layer.return_sequences,
                  return_state=layer.return_state, go_backwards=layer.go_backwards,
                  stateful=layer.stateful, unroll=False, zero_output_for_mask=False,
                  units=c["units"],
                  activation=serialize(_act.get(c["activation"])))
    if "recurrent_activation" in c:
        config["recurrent_activation"] = serialize(_act.get(c["recurrent_activation"]))
    config.update(use_bias=c["use_bias"],
                  kernel_initializer=serialize(_init.get(c["kernel_initializer"])),
                  recurrent_initializer=serialize(_init.get(c["recurrent_initializer"])),
                  bias_initializer=serialize(_init.get(c["bias_initializer"])))
    if "unit_forget_bias" in c:
        config["unit_forget_bias"] = c["unit_forget_bias"]
    config.update(kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                  activity_regularizer=serialize(layer.activity_regularizer),
                  kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                  dropout=0.0, recurrent_dropout=0.0)
    for key in extra_keys:
        config[key] = c.get(key)
    return config


class SimpleRNN(RNN):
    """A fully connected recurrent layer (``tf.keras.layers.SimpleRNN``)."""

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", return_sequences=False, return_state=False,
                 go_backwards=False, **kwargs):
        config = {k: v for k, v in locals().items()
                  if k not in ("self", "kwargs", "__class__")}
        cell = SimpleRNNCell(units, activation=activation, use_bias=use_bias,
                             kernel_initializer=kernel_initializer,
                             recurrent_initializer=recurrent_initializer,
                             bias_initializer=bias_initializer, name="simple_rnn_cell")
        super().__init__(cell, return_sequences, return_state, go_backwards, **kwargs)
        self.input_spec = InputSpec(ndim=3)
        self._config = config

    _config_fixed = _RNN_FIXED

    def get_config(self):
        return _rnn_config(self, ())


class LSTM(RNN):
    """Long short-term memory layer (``tf.keras.layers.LSTM``); see :class:`LSTMCell`."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, return_sequences=False, return_state=False,
                 go_backwards=False, **kwargs):
        config = {k: v for k, v in locals().items()
                  if k not in ("self", "kwargs", "__class__")}
        cell = LSTMCell(units, activation=activation, recurrent_activation=recurrent_activation,
                        use_bias=use_bias, kernel_initializer=kernel_initializer,
                        recurrent_initializer=recurrent_initializer,
                        bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
                        name="lstm_cell")
        super().__init__(cell, return_sequences, return_state, go_backwards, **kwargs)
        self.input_spec = InputSpec(ndim=3)
        self._config = config

    _config_fixed = _RNN_FIXED

    def get_config(self):
        return dict(_rnn_config(self, ()), seed=None)


class GRU(RNN):
    """Gated recurrent unit layer (``tf.keras.layers.GRU``); see :class:`GRUCell`."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 return_sequences=False, return_state=False, go_backwards=False,
                 reset_after=True, **kwargs):
        config = {k: v for k, v in locals().items()
                  if k not in ("self", "kwargs", "__class__")}
        cell = GRUCell(units, activation=activation, recurrent_activation=recurrent_activation,
                       use_bias=use_bias, kernel_initializer=kernel_initializer,
                       recurrent_initializer=recurrent_initializer,
                       bias_initializer=bias_initializer, reset_after=reset_after,
                       name="gru_cell")
        super().__init__(cell, return_sequences, return_state, go_backwards, **kwargs)
        self.input_spec = InputSpec(ndim=3)
        self._config = config

    _config_fixed = _RNN_FIXED

    def get_config(self):
        return dict(_rnn_config(self, ("reset_after",)), seed=None)


class Bidirectional(Layer):
    """Run a recurrent layer forwards and a copy of it backwards, then merge
    (``tf.keras.layers.Bidirectional``).

    The copies are named ``forward_<name>`` and ``backward_<name>``; with
    ``return_sequences`` the backward outputs are put back in time order before merging.

    Args:
        layer: a ``SimpleRNN``, ``LSTM`` or ``GRU`` (without ``return_state``).
        merge_mode: 'concat' (default), 'sum', 'mul', 'ave', or None for a list.

    Raises:
        ValueError: for another merge mode or a layer that returns its state.
    """

    def __init__(self, layer, merge_mode="concat", backward_layer=None, **kwargs):
        super().__init__(**kwargs)
        if merge_mode not in ("concat", "sum", "mul", "ave", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should "
                             "be one of {\"sum\", \"mul\", \"ave\", \"concat\", None}")
        if layer.return_state:
            raise ValueError("tapeflow's Bidirectional does not return states")
        config = dict(layer._config)
        self.forward_layer = type(layer)(**dict(config, name=f"forward_{layer.name}"))
        if backward_layer is None:
            config["go_backwards"] = not config.get("go_backwards", False)
            backward_layer = type(layer)(**dict(config, name=f"backward_{layer.name}"))
        self.backward_layer = backward_layer
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences

    supports_masking = True

    def get_config(self):
        return dict(super().get_config(), merge_mode=self.merge_mode,
                    layer=serialize(self.forward_layer),
                    backward_layer=serialize(self.backward_layer))

    @classmethod
    def from_config(cls, config):
        from ..saving.serialization import deserialize_config_values
        config = deserialize_config_values(config)
        forward = config.pop("layer")
        name = forward.name[len("forward_"):] if forward.name.startswith("forward_") else None
        forward.name = name or forward.name
        return cls(forward, **config)

    def build(self, input_shape):
        # Keras's own build() (not the default): no first run of call (Layer._build_by_run);
        # the wrapped layer builds on the first call
        self.built = True

    def call(self, inputs, training=None, mask=None):
        forward = self.forward_layer(inputs, training=training, mask=mask)
        backward = self.backward_layer(inputs, training=training, mask=mask)
        if self.return_sequences:
            backward = backward[:, ::-1]
        if self.merge_mode == "concat":
            return _a.concat([forward, backward], -1)
        if self.merge_mode == "sum":
            return _m.add(forward, backward)
        if self.merge_mode == "mul":
            return _m.multiply(forward, backward)
        if self.merge_mode == "ave":
            return _m.multiply(_m.add(forward, backward), 0.5)
        return [forward, backward]

    def compute_mask(self, inputs, previous_mask):
        return previous_mask if self.return_sequences else None


class TimeDistributed(Layer):
    """Apply ``layer`` to every time step of ``(batch, time, ...)`` inputs
    (``tf.keras.layers.TimeDistributed``), as one call on ``(batch * time, ...)``."""

    supports_masking = True

    def __init__(self, layer, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer

    def get_config(self):
        return dict(super().get_config(), layer=serialize(self.layer))

    def build(self, input_shape):
        # Keras's own build() (not the default): no first run of call (Layer._build_by_run);
        # the wrapped layer builds on the first call
        self.built = True

    def call(self, inputs, training=None):
        shape = tuple(inputs.shape)
        if None in shape[:2] or not executing_eagerly():
            # traced: each call's batch size (tf.shape), not the traced one
            flat = _a.reshape(inputs, (-1,) + tuple(shape[2:]))
            out = self.layer(flat, training=training)
            return _a.reshape(out, _a.concat([_a.shape(inputs)[:2], _a.shape(out)[1:]], 0))
        flat = _a.reshape(inputs, (shape[0] * shape[1],) + tuple(shape[2:]))
        out = self.layer(flat, training=training)
        return _a.reshape(out, (shape[0], shape[1]) + tuple(out.shape[1:]))
