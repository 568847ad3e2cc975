"""``tf.dtypes``: re-exports of the DType objects."""
from ._core.dtypes import (
                           DType,
                           as_dtype,
                           bfloat16,
                           bool,
                           complex64,
                           complex128,
                           double,
                           float16,
                           float32,
                           float64,
                           half,
                           int8,
                           int16,
                           int32,
                           int64,
                           string,
                           uint8,
                           uint16,
                           uint32,
                           uint64,
)
from .ops.array_ops import cast
from .ops.complex_ops import complex  # noqa: A004 - TF's name; tf.dtypes.complex is tf.complex

__all__ = ["DType", "as_dtype", "bfloat16", "bool", "cast", "complex", "complex64", "complex128",
           "double", "float16", "float32", "float64", "half", "int8", "int16", "int32",
           "int64", "string", "uint8", "uint16", "uint32", "uint64"]
