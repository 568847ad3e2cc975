"""Embedding: integer ids to learned vectors."""
from ..._core import dtypes as _dt
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from .. import initializers as _init
from .layer import Layer, serialize

__all__ = ["Embedding"]


class Embedding(Layer):
    """Row ``i`` of an ``(input_dim, output_dim)`` table for each id ``i``
    (``tf.keras.layers.Embedding``).

    Args:
        input_dim: the vocabulary size.
        output_dim: the vector size.
        embeddings_initializer: default uniform on [-0.05, 0.05].

    Raises:
        ValueError: for non-positive sizes.
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", **kwargs):
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
        self.embeddings = None

    _config_fixed = {"embeddings_regularizer": None, "embeddings_constraint": None,
                     "mask_zero": False, "quantization_config": None, "lora_rank": None,
                     "lora_alpha": None, "weights": None}

    def get_config(self):
        return dict(super().get_config(), input_dim=self.input_dim, output_dim=self.output_dim,
                    embeddings_initializer=serialize(self.embeddings_initializer),
                    embeddings_regularizer=None,
                    activity_regularizer=serialize(self.activity_regularizer),
                    embeddings_constraint=None, mask_zero=False, quantization_config=None)

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          name="embeddings")
        self.built = True

    def call(self, inputs):
        if not inputs.dtype.is_integer:
            inputs = _m.cast(inputs, _dt.int32)
        return _a.gather(self.embeddings, inputs)
