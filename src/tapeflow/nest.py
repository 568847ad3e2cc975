"""``tf.nest``: re-exports of the nested-structure utilities."""
from ._core.nest import assert_same_structure, flatten, is_nested, map_structure, pack_sequence_as

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure",
           "pack_sequence_as"]
