"""``tf.ragged``: re-exports of the ragged tensor constructors and helpers."""
from .ops.ragged.ragged_tensor import constant, map_flat_values

__all__ = ["constant", "map_flat_values"]
