"""``tf.lookup``: hash tables from keys to values (``tapeflow.ops.lookup_ops``)."""
import types as _types

from .ops.lookup_ops import (
    DenseHashTable as _DenseHashTable,
)
from .ops.lookup_ops import (
    KeyValueTensorInitializer,
    StaticHashTable,
    StaticVocabularyTable,
    TextFileIndex,
    TextFileInitializer,
)
from .ops.lookup_ops import (
    MutableHashTable as _MutableHashTable,
)

experimental = _types.ModuleType(
    "tapeflow.lookup.experimental",
    "``tf.lookup.experimental``: the mutable tables.")
experimental.DenseHashTable = _DenseHashTable
experimental.MutableHashTable = _MutableHashTable
experimental.__all__ = ["DenseHashTable", "MutableHashTable"]

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
           "TextFileIndex", "TextFileInitializer", "experimental"]
