"""GroupQueryAttention (Ainslie et al. 2023), Keras 3's ``GroupedQueryAttention``: fewer
key/value heads than query heads, each shared by a group of query heads. As in Keras it is
a Layer of its own (not a MultiHeadAttention), with MultiHeadAttention's masking rules."""
import math

from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import math_ops as _m
from ...ops import special_math_ops as _sm
from .. import activations as _act
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from . import _spec
from .activation import Softmax
from .attention import MultiHeadAttention, _Projection, attention_inputs, check_flash, flash_flag
from .dropout import Dropout
from .layer import Layer

__all__ = ["GroupedQueryAttention"]


class GroupedQueryAttention(Layer):
    """Grouped-query attention as ``tf.keras.layers.GroupQueryAttention`` (Keras 3).

    ``query`` ``(B, T, dim)`` is projected to ``num_query_heads`` heads (sublayer ``query``,
    kernel ``(dim, num_query_heads, head_dim)``), ``key`` and ``value`` (``(B, S, dim_k)``,
    ``(B, S, dim_v)``; ``key`` defaults to ``value``) to ``num_key_value_heads`` heads
    (``key``, ``value``), each repeated for ``num_query_heads // num_key_value_heads`` query
    heads. The scores ``softmax(q k^T / sqrt(head_dim))`` ``(B, num_query_heads, T, S)``
    weight the values and ``attention_output`` (kernel ``(num_query_heads, head_dim, dim)``)
    maps the heads back to the query's last dimension. With ``use_gate`` a sigmoid ``gate``
    projection of the query multiplies the heads first.

    Args:
        head_dim: the size of each head.
        num_query_heads: the number of query heads.
        num_key_value_heads: the number of key/value heads (divides ``num_query_heads``).
        dropout: the dropout rate on the attention probabilities while training.
        use_bias: whether the projections have biases.
        sliding_window: None, or a positive int ``w``: a query attends only to keys less
            than ``w`` positions away.
        flash_attention: None (default: ``keras.config.is_flash_attention_enabled()``) or
            False; True is refused when called, as on Keras's TensorFlow backend.
        kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
            activity_regularizer, kernel_constraint, bias_constraint: for every projection.
        use_gate: add the sigmoid gate projection (sublayer ``gate``).
        seed: the dropout's seed.

    Call arguments:
        query, value, key: as above.
        query_mask, value_mask, key_mask: boolean ``(B, T)`` / ``(B, S)`` (taken from Keras
            masks when not given).
        attention_mask: boolean ``(B, T, S)``, True where a query may attend to a key.
        return_attention_scores: also return the scores ``(B, num_query_heads, T, S)``.
        training: whether dropout is active.
        use_causal_mask: forbid attending to later positions.

    Raises:
        ValueError: ``num_query_heads`` not a multiple of ``num_key_value_heads``, a bad
            ``sliding_window`` (Keras's texts), inputs that are not 3-dimensional.

    >>> import tapeflow as tf
    >>> gqa = tf.keras.layers.GroupQueryAttention(head_dim=4, num_query_heads=4,
    ...                                           num_key_value_heads=2)
    >>> gqa(tf.ones((1, 3, 8)), tf.ones((1, 5, 8))).shape
    TensorShape([1, 3, 8])
    """

    _keras_name = "GroupQueryAttention"  # Keras's public name (its class is GroupedQuery...)

    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0,
                 use_bias=True, sliding_window=None, flash_attention=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None,
                 **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.head_dim = head_dim
        self.num_query_heads = num_query_heads
        self.num_key_value_heads = num_key_value_heads
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`.")
        self.num_repeats = num_query_heads // num_key_value_heads
        self.dropout, self.use_bias, self.use_gate = dropout, use_bias, use_gate
        if sliding_window is not None and (not isinstance(sliding_window, int)
                                           or sliding_window <= 0):
            raise ValueError("`sliding_window` must be `None` or a positive integer. "
                             f"Received: sliding_window={sliding_window}")
        self.sliding_window = sliding_window
        self.kernel_initializer = _init.get(kernel_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer = _reg.get(kernel_regularizer)
        self.bias_regularizer = _reg.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.seed = seed
        self._flash_attention = flash_flag(flash_attention, dropout)
        self._softmax = self._dropout_layer = None  # made in build, as Keras names them
        # sublayers in Keras's weight order (query, key, gate, value, output)
        self._query_dense = self._key_dense = self._gate_dense = self._value_dense = None
        self._output_dense = None

    def build(self, query_shape, value_shape=None, key_shape=None):
        value_shape = query_shape if value_shape is None else value_shape
        key_shape = value_shape if key_shape is None else key_shape
        u, v, h = self.num_query_heads, self.num_key_value_heads, self.head_dim
        dim = query_shape[-1]
        bias = self.use_bias
        self._query_dense = _Projection("bqm,muh->bquh", (dim, u, h),
                                        (u, h) if bias else None, self, "query")
        self._key_dense = _Projection("bkm,mvh->bkvh", (key_shape[-1], v, h),
                                      (v, h) if bias else None, self, "key")
        if self.use_gate:
            self._gate_dense = _Projection("bqm,muh->bquh", (dim, u, h),
                                           (u, h) if bias else None, self, "gate")
        self._value_dense = _Projection("bkm,mvh->bkvh", (value_shape[-1], v, h),
                                        (v, h) if bias else None, self, "value")
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, seed=self.seed)
        self._output_dense = _Projection("bquh,uhm->bqm", (u, h, dim),
                                         (dim,) if bias else None, self, "attention_output")
        self._out_dim = dim
        self.built = True

    def __call__(self, query, value=None, key=None, **kwargs):
        inputs = attention_inputs(self, query, value, key, kwargs)
        return super().__call__(inputs, **kwargs)

    _keras_call_arguments = MultiHeadAttention._keras_call_arguments

    # the same masks as MultiHeadAttention's (query, value and key masks, causal, given)
    _attention_mask = MultiHeadAttention._attention_mask
    supports_masking = True
    compute_mask = MultiHeadAttention.compute_mask

    def call(self, inputs, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        query, value, key = inputs
        key = value if key is None else key
        for i, t in enumerate((query, value, key)):
            _spec.check_input(self, t, ndim=3, index=i)
        mask = self._attention_mask(query, value, query_mask, value_mask, key_mask,
                                    attention_mask, use_causal_mask)
        if self.sliding_window is not None:
            t, s = _spec.static_shape(query)[1], _spec.static_shape(value)[1]
            near = _m.less(_m.abs(_m.subtract(_a.reshape(_cr.range(t), (1, t, 1)),
                                              _a.reshape(_cr.range(s), (1, 1, s)))),
                           self.sliding_window)
            mask = near if mask is None else _m.logical_and(mask, near)
        gate = _act.sigmoid(self._gate_dense(query)) if self.use_gate else None
        q = self._query_dense(query)
        k = self._repeat_heads(self._key_dense(key))
        v = self._repeat_heads(self._value_dense(value))
        check_flash(self._flash_attention, return_attention_scores)
        q = _m.multiply(q, 1.0 / math.sqrt(float(self.head_dim)))
        scores = _sm.einsum("bquh,bkuh->buqk", q, k)
        if mask is not None:
            mask = _a.expand_dims(mask, 1)
        probs = self._softmax(scores, mask=mask)
        dropped = self._dropout_layer(probs, training=training) if self.dropout > 0 else probs
        out = _sm.einsum("buqk,bkuh->bquh", dropped, v)
        if gate is not None:
            out = _m.multiply(out, gate)
        out = self._output_dense(out)
        if return_attention_scores:
            return out, probs
        return out

    def _repeat_heads(self, x):
        """``(B, S, kv_heads, h)`` -> ``(B, S, query_heads, h)``, each head repeated in place
        (``ops.repeat(x, num_repeats, axis=2)``)."""
        if self.num_repeats == 1:
            return x
        stacked = _a.stack([x] * self.num_repeats, axis=3)
        shape = _a.concat([_a.shape(x)[:2], [self.num_query_heads, self.head_dim]], 0)
        return _a.reshape(stacked, shape)

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        value_shape = query_shape if value_shape is None else value_shape
        key_shape = value_shape if key_shape is None else key_shape
        if query_shape[-1] != value_shape[-1]:
            raise ValueError("The last dimension of `query_shape` and `value_shape` must be "
                             f"equal, but are {query_shape[-1]}, {value_shape[-1]}. Received: "
                             f"query_shape={query_shape}, value_shape={value_shape}")
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError("All dimensions of `value` and `key`, except the last one, must "
                             f"be equal. Received: value_shape={value_shape} and "
                             f"key_shape={key_shape}")
        return tuple(query_shape)

    def get_config(self):
        return dict(
            super().get_config(), head_dim=self.head_dim,
            num_query_heads=self.num_query_heads,
            num_key_value_heads=self.num_key_value_heads, use_bias=self.use_bias,
            use_gate=self.use_gate, sliding_window=self.sliding_window, dropout=self.dropout,
            kernel_initializer=_spec.serialize(self.kernel_initializer),
            bias_initializer=_spec.serialize(self.bias_initializer),
            kernel_regularizer=_spec.serialize(self.kernel_regularizer),
            bias_regularizer=_spec.serialize(self.bias_regularizer),
            activity_regularizer=_spec.serialize(self.activity_regularizer),
            kernel_constraint=_spec.serialize(self.kernel_constraint),
            bias_constraint=_spec.serialize(self.bias_constraint), seed=self.seed)
