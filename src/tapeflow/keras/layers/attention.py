"""MultiHeadAttention (Vaswani et al. 2017) with Keras 3's weight layout, and Attention
(Luong et al. 2015 dot-product, Bahdanau et al. 2015 concat scores)."""
import math

from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import math_ops as _m
from ...ops import nn_ops as _nn
from ...ops import reduction_ops as _r
from ...ops import special_math_ops as _sm
from .. import _naming, _symbolic
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from . import _masking, _spec
from .activation import Softmax
from .dropout import Dropout
from .layer import Layer, _convert_input

__all__ = ["AdditiveAttention", "Attention", "MultiHeadAttention"]


class _Projection(Layer):
    """``einsum(equation, x, kernel) + bias``: Keras's ``EinsumDense`` as MHA uses it."""

    def __init__(self, equation, kernel_shape, bias_shape, owner, name):
        super().__init__(name=name, dtype=owner.dtype_policy)
        self.equation, self._kernel_shape, self._bias_shape = equation, kernel_shape, bias_shape
        self._owner = owner

    def build(self, input_shape):
        o = self._owner
        self.kernel = self.add_weight(shape=self._kernel_shape, name="kernel",
                                      initializer=o.kernel_initializer,
                                      regularizer=o.kernel_regularizer,
                                      constraint=o.kernel_constraint)
        self.bias = None
        if self._bias_shape is not None:
            self.bias = self.add_weight(shape=self._bias_shape, name="bias",
                                        initializer=o.bias_initializer,
                                        regularizer=o.bias_regularizer,
                                        constraint=o.bias_constraint)
        self.built = True

    def call(self, inputs):
        y = _sm.einsum(self.equation, inputs, self.kernel)
        return y if self.bias is None else _m.add(y, self.bias)

    def _sublayers(self):
        return []


class MultiHeadAttention(Layer):
    """Multi-head attention as ``tf.keras.layers.MultiHeadAttention`` (Keras 3).

    ``query`` ``(B, T, dim)``, ``value`` ``(B, S, dim_v)`` and ``key`` (default ``value``)
    are projected to ``num_heads`` heads (sublayers ``query``, ``key``, ``value`` with
    kernels ``(dim, num_heads, key_dim)`` and biases ``(num_heads, key_dim)``); the scores
    ``softmax(q k^T / sqrt(key_dim))`` ``(B, num_heads, T, S)`` weight the values, and the
    sublayer ``attention_output`` (kernel ``(num_heads, value_dim, out)``) maps the heads
    back to ``output_shape`` (default the query's last dimension).

    Args:
        num_heads: the number of heads.
        key_dim: the size of each head for query and key.
        value_dim: the size of each head for value (default ``key_dim``).
        dropout: the dropout rate on the attention probabilities while training.
        use_bias: whether the projections have biases.
        output_shape: the last dimension of the output (an int).
        attention_axes: None or ``(1,)`` (attention over the sequence axis).
        kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
            activity_regularizer, kernel_constraint, bias_constraint: for every projection.
        seed: the dropout's op seed.

    Call arguments:
        query, value, key: as above.
        attention_mask: boolean ``(B, T, S)``, True where a query may attend to a key;
            combined with the Keras masks of ``query``/``value`` and ``use_causal_mask``.
        return_attention_scores: also return the scores ``(B, num_heads, T, S)``.
        training: whether dropout is active.
        use_causal_mask: forbid attending to later positions.

    Raises:
        ValueError: for a non-positive ``num_heads``/``key_dim`` or inputs that are not
            3-dimensional.
        NotImplementedError: for ``use_gate=True``, ``sliding_window`` or other
            ``attention_axes``.

    >>> import tapeflow as tf
    >>> mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
    >>> out, scores = mha(tf.ones((1, 3, 8)), tf.ones((1, 5, 8)), return_attention_scores=True)
    >>> out.shape, scores.shape
    (TensorShape([1, 3, 8]), TensorShape([1, 2, 3, 5]))
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, use_gate=False, sliding_window=None,
                 flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 seed=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        for name, value in (("num_heads", num_heads), ("key_dim", key_dim)):
            if not isinstance(value, int) or value <= 0:
                raise ValueError(f"`{name}` must be a positive integer. Received: "
                                 f"{name}={value}")
        if use_gate or sliding_window is not None:
            raise NotImplementedError("tapeflow's MultiHeadAttention has no gate or sliding "
                                      "window")
        if attention_axes not in (None, 1, (1,), [1], -2, (-2,), [-2]):
            raise NotImplementedError("tapeflow's MultiHeadAttention attends over axis 1 only")
        self.num_heads, self.key_dim = num_heads, key_dim
        self.value_dim = value_dim if value_dim is not None else key_dim
        self.dropout, self.use_bias, self.seed = dropout, use_bias, seed
        self._flash_attention = flash_flag(flash_attention, dropout)
        self._output_shape_arg = (output_shape,) if isinstance(output_shape, int) else (
            None if output_shape is None else tuple(output_shape))
        self.kernel_initializer = _init.get(kernel_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer = _reg.get(kernel_regularizer)
        self.bias_regularizer = _reg.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self._softmax = self._dropout_layer = None  # made in build, as Keras names them
        self._query_dense = self._key_dense = self._value_dense = self._output_dense = None

    @property
    def output_shape_arg(self):
        return self._output_shape_arg

    def build(self, query_shape, value_shape=None, key_shape=None):
        value_shape = query_shape if value_shape is None else value_shape
        key_shape = value_shape if key_shape is None else key_shape
        h, kd, vd = self.num_heads, self.key_dim, self.value_dim
        out_dim = self._output_shape_arg or query_shape[-1]
        if isinstance(out_dim, (tuple, list)):
            out_dim = out_dim[-1]
        bias = self.use_bias
        self._query_dense = _Projection("abc,cde->abde", (query_shape[-1], h, kd),
                                        (h, kd) if bias else None, self, "query")
        self._key_dense = _Projection("abc,cde->abde", (key_shape[-1], h, kd),
                                      (h, kd) if bias else None, self, "key")
        self._value_dense = _Projection("abc,cde->abde", (value_shape[-1], h, vd),
                                        (h, vd) if bias else None, self, "value")
        self._output_dense = _Projection("abcd,cde->abe", (h, vd, out_dim),
                                         (out_dim,) if bias else None, self,
                                         "attention_output")
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, seed=self.seed)
        self._out_dim = out_dim
        self.built = True

    def __call__(self, query, value=None, key=None, **kwargs):
        inputs = attention_inputs(self, query, value, key, kwargs)
        return super().__call__(inputs, **kwargs)

    def _keras_call_arguments(self, args):
        return keras_call_arguments(args)

    def call(self, inputs, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        query, value, key = inputs
        key = value if key is None else key
        for i, t in enumerate((query, value, key)):
            _spec.check_input(self, t, ndim=3, index=i)
        q = self._query_dense(query)
        k = self._key_dense(key)
        v = self._value_dense(value)
        check_flash(self._flash_attention, return_attention_scores)
        mask = self._attention_mask(query, value, query_mask, value_mask, key_mask,
                                    attention_mask, use_causal_mask)
        q = _m.multiply(q, 1.0 / math.sqrt(float(self.key_dim)))
        scores = _sm.einsum("aecd,abcd->acbe", k, q)
        if mask is not None:
            mask = _a.expand_dims(mask, 1)
        probs = self._softmax(scores, mask=mask)
        dropped = self._dropout_layer(probs, training=training)
        out = _sm.einsum("acbe,aecd->abcd", dropped, v)
        out = self._output_dense(out)
        if return_attention_scores:
            return out, probs
        return out

    def _attention_mask(self, query, value, query_mask, value_mask, key_mask,
                        attention_mask, use_causal_mask):
        auto = None
        if query_mask is not None:
            auto = _a.expand_dims(_a.cast(query_mask, "bool"), -1)
        for m in (value_mask, key_mask):
            if m is not None:
                m = _a.expand_dims(_a.cast(m, "bool"), -2)
                auto = m if auto is None else _m.logical_and(auto, m)
        if use_causal_mask:
            t, s = _spec.static_shape(query)[1], _spec.static_shape(value)[1]
            causal = _m.greater_equal(_a.reshape(_cr.range(t), (1, t, 1)),
                                      _a.reshape(_cr.range(s), (1, 1, s)))
            auto = causal if auto is None else _m.logical_and(auto, causal)
        if attention_mask is not None:
            attention_mask = _a.cast(attention_mask, "bool")
            return attention_mask if auto is None else _m.logical_and(attention_mask, auto)
        return auto

    supports_masking = True

    def compute_mask(self, inputs, previous_mask):
        """The query's mask (Keras passes it on)."""
        return previous_mask[0] if isinstance(previous_mask, list) else previous_mask

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        out = self._output_shape_arg or query_shape[-1]
        return (*query_shape[:-1], out[-1] if isinstance(out, (tuple, list)) else out)

    def get_config(self):
        return dict(
            super().get_config(), num_heads=self.num_heads, key_dim=self.key_dim,
            value_dim=self.value_dim, dropout=self.dropout, use_bias=self.use_bias,
            use_gate=False, output_shape=self._output_shape_arg, attention_axes=(1,),
            sliding_window=None, kernel_initializer=_spec.serialize(self.kernel_initializer),
            bias_initializer=_spec.serialize(self.bias_initializer),
            kernel_regularizer=_spec.serialize(self.kernel_regularizer),
            bias_regularizer=_spec.serialize(self.bias_regularizer),
            activity_regularizer=_spec.serialize(self.activity_regularizer),
            kernel_constraint=_spec.serialize(self.kernel_constraint),
            bias_constraint=_spec.serialize(self.bias_constraint), seed=self.seed)


class Attention(Layer):
    """Dot-product (Luong-style) attention (``tf.keras.layers.Attention``).

    Called on ``[query, value]`` or ``[query, value, key]`` (``key`` defaults to
    ``value``): ``query`` ``(batch, Tq, dim)``, ``value``/``key`` ``(batch, Tv, dim)``.
    Scores ``query @ key^T`` (``score_mode="dot"``, times a learned scalar ``scale`` with
    ``use_scale``) or ``concat_score_weight * sum(tanh(scale * (q + k)))``
    (``"concat"``, Bahdanau-style); masked positions (a ``value`` mask, or the causal mask)
    get ``-1e9``; their softmax over ``Tv`` weighs ``value``, ``(batch, Tq, dim)``; a
    ``query`` mask zeroes its rows. ``dropout`` drops attention weights while training.

    Raises:
        ValueError: for another ``score_mode``, or inputs that are not a list of 2 or 3
            tensors (Keras's texts).
    """

    supports_masking = True

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError("Invalid value for argument score_mode. Expected one of "
                             f"{{'dot', 'concat'}}. Received: score_mode={score_mode}")
        self.use_scale, self.score_mode = use_scale, score_mode
        self.dropout, self.seed = dropout, seed

    def build(self, input_shape):
        self.scale = (self.add_weight(name="scale", shape=(), initializer="ones")
                      if self.use_scale else None)
        self.concat_score_weight = (
            self.add_weight(name="concat_score_weight", shape=(), initializer="ones")
            if self.score_mode == "concat" else None)

    def _scores(self, query, key):
        if self.score_mode == "dot":
            scores = _m.matmul(query, key, transpose_b=True)
            return scores if self.scale is None else _m.multiply(scores, self.scale)
        q = _a.expand_dims(query, -2)
        k = _a.expand_dims(key, -3)
        summed = _m.add(q, k)
        if self.scale is not None:
            summed = _m.multiply(summed, self.scale)
        return _m.multiply(self.concat_score_weight,
                           _r.reduce_sum(_m.tanh(summed), axis=-1))

    def call(self, inputs, mask=None, training=False, return_attention_scores=False,
             use_causal_mask=False):
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError("Attention layer must be called on a list of inputs, namely "
                             "[query, value] or [query, value, key]. Received: "
                             f"inputs={inputs}.")
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) == 3 else value
        q_mask = v_mask = None
        if mask is not None:
            q_mask, v_mask = mask[0], mask[1]
        scores = self._scores(query, key)
        keep = None if v_mask is None else _a.expand_dims(_a.cast(v_mask, "bool"), -2)
        if use_causal_mask:
            tq, tv = _a.shape(scores)[-2], _a.shape(scores)[-1]
            rows = _a.expand_dims(_cr.range(tq), -1)
            cols = _a.expand_dims(_cr.range(tv), 0)
            causal = _a.expand_dims(_m.greater_equal(rows, cols), 0)
            keep = causal if keep is None else _m.logical_and(keep, causal)
        if keep is not None:
            big = 65504.0 if scores.dtype.name == "float16" else 1.0e9
            scores = _m.subtract(scores, _m.multiply(
                big, _a.cast(_m.logical_not(keep), scores.dtype)))
        weights = _nn.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = _nn.dropout(weights, rate=self.dropout, seed=self.seed)
        result = _m.matmul(weights, value)
        if q_mask is not None:
            result = _m.multiply(result, _a.expand_dims(_a.cast(q_mask, result.dtype), -1))
        return (result, weights) if return_attention_scores else result

    def compute_mask(self, inputs, mask=None):
        if mask is None or mask[0] is None:
            return None
        return mask[0]

    def compute_output_shape(self, input_shape):
        return (*input_shape[0][:-1], input_shape[1][-1])

    def get_config(self):
        return dict(super().get_config(), use_scale=self.use_scale,
                    score_mode=self.score_mode, dropout=self.dropout, seed=self.seed)


class AdditiveAttention(Attention):
    """Bahdanau-style additive attention (``tf.keras.layers.AdditiveAttention``).

    Scores ``sum(scale * tanh(q[:, :, None] + k[:, None]), axis=-1)`` of shape
    ``(batch, Tq, Tv)``, then softmax over ``Tv`` and the weighted sum of ``value``, with
    masks, causal masking and dropout as in :class:`Attention`.

    Args:
        use_scale: learn a per-feature ``scale`` of shape ``(dim,)`` (glorot-uniform
            initialised; default True); otherwise the scale is 1.
        dropout: the fraction of attention weights dropped when training.

    Raises:
        ValueError: for inputs that are not a list of 2 or 3 tensors.
    """

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self.concat_score_weight = None
        self.scale = (self.add_weight(name="scale", shape=(input_shape[0][-1],),
                                      initializer="glorot_uniform")
                      if self.use_scale else None)

    def _scores(self, query, key):
        t = _m.tanh(_m.add(_a.expand_dims(query, -2), _a.expand_dims(key, -3)))
        if self.scale is not None:
            t = _m.multiply(self.scale, t)
        return _r.reduce_sum(t, axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config


def attention_inputs(layer, query, value, key, kwargs):
    """The common start of ``MultiHeadAttention``'s and ``GroupQueryAttention``'s
    ``__call__``: ``[query, value, key]`` as one list argument (so the functional API records
    all three), their Keras masks put into ``kwargs`` where none is given, eager inputs of
    any numeric dtype converted to the layer's compute dtype, and the layer built from their
    shapes (``[batch, seq, dim]`` each) on a first eager call.

    Raises:
        ValueError: without ``value``.
    """
    if isinstance(query, list) and value is None:  # a replayed functional node
        query, value, key = query
    if value is None:
        raise ValueError(f"{type(layer).__name__} needs `query` and `value`.")
    for name, t in (("query_mask", query), ("value_mask", value), ("key_mask", key)):
        if kwargs.get(name) is None:
            kwargs[name] = _masking.get_mask(t)
    if not _symbolic.is_symbolic([query, value, key]):
        compute = layer.dtype_policy._compute
        query, value, key = (None if t is None else _convert_input(t, compute, "fiub")
                             for t in (query, value, key))
        if not layer.built:
            with _naming.name_scope(layer.name, layer):
                layer.build(_spec.static_shape(query), _spec.static_shape(value),
                            None if key is None else _spec.static_shape(key))
    return [query, value, key]


def flash_flag(flash_attention, dropout):
    """A layer's flash-attention setting as Keras 3 makes it: its argument, else
    ``keras.config.is_flash_attention_enabled()`` (None or False).

    Raises:
        ValueError: for flash attention with dropout (Keras's text).
    """
    from ..config import is_flash_attention_enabled
    flag = flash_attention or is_flash_attention_enabled()
    if flag and dropout > 0.0:
        raise ValueError("Dropout is not supported when flash attention is enabled. Please "
                         "set dropout to 0.0 to use flash attention.")
    return flag


def check_flash(flag, return_attention_scores):
    """Refuse a call of an attention layer made with ``flash_attention=True``, as Keras 3 on
    TensorFlow does (the scores cannot be returned; the backend has no flash kernel)."""
    if not flag:
        return
    if return_attention_scores:
        raise ValueError("Returning attention scores is not supported when flash attention is "
                         "enabled. Please disable flash attention to access attention scores.")
    raise ValueError("Flash attention is not supported in tensorflow backend.")


def _keras_attention_call(query, value, key=None, query_mask=None, value_mask=None,
                          key_mask=None, attention_mask=None, return_attention_scores=False,
                          training=None, use_causal_mask=False):
    """The signature of Keras's ``MultiHeadAttention.call`` (and GroupedQueryAttention's)."""


def keras_call_arguments(args):
    """``call``'s packed ``[query, value, key]`` as Keras's positional arguments, for the
    report of an exception raised in ``call``."""
    if args and isinstance(args[0], (list, tuple)) and len(args[0]) == 3:
        return _keras_attention_call, tuple(args[0]) + tuple(args[1:])
    return _keras_attention_call, args
