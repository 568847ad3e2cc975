"""``tf.ragged``: the ragged tensor constructors and helpers."""
from .ops.ragged.ragged_dispatch import (
    cross,
    row_splits_to_segment_ids,
    segment_ids_to_row_splits,
    stack_dynamic_partitions,
)
from .ops.ragged.ragged_dispatch import (
    ragged_boolean_mask as boolean_mask,
)
from .ops.ragged.ragged_dispatch import ragged_range as range  # noqa: A004 - TF's name
from .ops.ragged.ragged_dispatch import (
    ragged_stack as stack,
)
from .ops.ragged.ragged_tensor import constant, map_flat_values

__all__ = ["boolean_mask", "constant", "cross", "map_flat_values", "range",
           "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack",
           "stack_dynamic_partitions"]
