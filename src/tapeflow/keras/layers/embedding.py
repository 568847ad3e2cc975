"""Embedding: integer ids to learned vectors, optionally masking the id 0."""
from ..._core import dtypes as _dt
from ...ops import array_ops as _a
from ...ops import indexing_ops as _ix
from ...ops import math_ops as _m
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from . import _spec
from .layer import Layer

__all__ = ["Embedding"]


class Embedding(Layer):
    """Row ``i`` of an ``(input_dim, output_dim)`` table for each id ``i``
    (``tf.keras.layers.Embedding``).

    Args:
        input_dim: the vocabulary size (positive int).
        output_dim: the vector size (positive int).
        embeddings_initializer: default uniform on [-0.05, 0.05].
        embeddings_regularizer, embeddings_constraint: optional.
        mask_zero: treat id 0 as padding: the output carries a Keras mask
            ``ids != 0`` that the layers after it (RNNs, ``GlobalAveragePooling1D``, ...)
            use, as in Keras.
        weights: an optional initial ``(input_dim, output_dim)`` table (or a list of it).

    Raises:
        ValueError: for sizes that are not positive integers.

    >>> import tapeflow as tf
    >>> emb = tf.keras.layers.Embedding(10, 2, mask_zero=True)
    >>> emb.compute_mask(tf.constant([[3, 0]])).numpy().tolist()
    [[True, False]]
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 weights=None, **kwargs):
        for name, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"`{name}` must be a positive integer. Received: "
                                 f"{name}={value} (of type {type(value).__name__}).")
        kwargs.pop("input_length", None)
        for name, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"`{name}` must be a positive integer. Received: "
                                 f"{name}={value} (of type {type(value).__name__}).")
        super().__init__(**kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        init = "random_uniform" if embeddings_initializer == "uniform" else (
            embeddings_initializer)
        self.embeddings_initializer = _init.get(init)
        self.embeddings_regularizer = _reg.get(embeddings_regularizer)
        self.embeddings_constraint = _constraints.get(embeddings_constraint)
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero
        self.embeddings = None
        if weights is not None:  # the initial table, as Keras 3 takes it
            self.build()
            self.set_weights(weights if isinstance(weights, list) and len(weights) == 1
                             else [weights])

    _config_fixed = {"quantization_config": None, "lora_rank": None, "lora_alpha": None}

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint,
                                          name="embeddings")
        self.built = True

    def call(self, inputs):
        if inputs.dtype not in (_dt.int32, _dt.int64):
            inputs = _a.cast(inputs, _dt.int32)
        return _ix.gather(self.embeddings, inputs)

    def compute_mask(self, inputs, previous_mask=None):
        """``inputs != 0`` when ``mask_zero``, else None."""
        if not self.mask_zero:
            return None
        return _m.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return (*input_shape, self.output_dim)

    def get_config(self):
        return dict(super().get_config(), input_dim=self.input_dim, output_dim=self.output_dim,
                    embeddings_initializer=_spec.serialize(self.embeddings_initializer),
                    embeddings_regularizer=_spec.serialize(self.embeddings_regularizer),
                    activity_regularizer=_spec.serialize(self.activity_regularizer),
                    embeddings_constraint=_spec.serialize(self.embeddings_constraint),
                    mask_zero=self.mask_zero, quantization_config=None)
