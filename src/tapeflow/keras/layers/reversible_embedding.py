"""ReversibleEmbedding (``tf.keras.layers.ReversibleEmbedding``): an Embedding that also maps
hidden states back to vocabulary logits."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from .embedding import Embedding

__all__ = ["ReversibleEmbedding"]


class ReversibleEmbedding(Embedding):
    """An :class:`Embedding` whose ``call(x, reverse=True)`` gives logits
    ``x @ embeddings^T`` (tied weights) or ``x @ reverse_embeddings``.

    Args:
        input_dim, output_dim, embeddings_initializer, embeddings_regularizer,
            embeddings_constraint, mask_zero: as for ``Embedding``.
        tie_weights: reuse ``embeddings`` transposed (default True); otherwise a separate
            ``reverse_embeddings`` weight ``(output_dim, input_dim)`` is made.
        reverse_dtype: a dtype to cast the reverse product's operands to (None: keep).
        logit_soft_cap: if set, logits become ``tanh(logits / cap) * cap``.

    Shapes: forward ``(...)`` ids to ``(..., output_dim)``; reverse ``(..., output_dim)`` to
    ``(..., input_dim)``.
    """

    def __init__(self, input_dim, output_dim, tie_weights=True,
                 embeddings_initializer="uniform", embeddings_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, reverse_dtype=None,
                 logit_soft_cap=None, **kwargs):
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer,
                         embeddings_constraint=embeddings_constraint, mask_zero=mask_zero,
                         **kwargs)
        self.tie_weights = tie_weights
        self.reverse_dtype = reverse_dtype
        self.logit_soft_cap = logit_soft_cap
        self.reverse_embeddings = None

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim), initializer=self.embeddings_initializer,
                name="reverse_embeddings", trainable=True)
        self.built = True

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        kernel = (_a.transpose(self.embeddings) if self.tie_weights
                  else self.reverse_embeddings)
        if self.reverse_dtype is not None:
            inputs = _a.cast(inputs, self.reverse_dtype)
            kernel = _a.cast(kernel, self.reverse_dtype)
        logits = _m.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            cap = self.logit_soft_cap
            logits = _m.multiply(_m.tanh(_m.divide(logits, cap)), cap)
        return logits

    def compute_mask(self, inputs, previous_mask=None):
        if inputs.dtype.is_floating:  # a reverse call's hidden states
            return None
        return super().compute_mask(inputs, previous_mask)

    def compute_output_shape(self, input_shape, reverse=False):
        out = list(input_shape)
        if reverse:
            out[-1] = self.input_dim
        else:
            out.append(self.output_dim)
        return tuple(out)

    def get_config(self):
        return dict(super().get_config(), tie_weights=self.tie_weights,
                    reverse_dtype=self.reverse_dtype, logit_soft_cap=self.logit_soft_cap)
