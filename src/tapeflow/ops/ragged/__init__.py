"""Ragged tensors (``tf.ragged``, ``tf.RaggedTensor``): rows of different lengths.

``ragged_tensor`` holds the class, its factories and ``tf.ragged.constant``;
``ragged_math_ops`` the reductions and ``concat``, and the dispatch by which
``tf.reduce_sum`` and friends accept a RaggedTensor.
"""
from . import ragged_dispatch, ragged_math_ops, ragged_tensor
from .ragged_tensor import RaggedTensor, constant, map_flat_values

__all__ = ["RaggedTensor", "constant", "map_flat_values", "ragged_dispatch", "ragged_math_ops",
           "ragged_tensor"]
