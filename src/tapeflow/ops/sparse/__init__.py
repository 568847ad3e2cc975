"""Sparse tensors (``tf.sparse``, ``tf.SparseTensor``): coordinates, values, dense shape.

``sparse_tensor`` holds the class; ``sparse_ops`` the ops, built from differentiable dense
ops on the values.
"""
from . import sparse_ops, sparse_tensor
from .sparse_tensor import SparseTensor

__all__ = ["SparseTensor", "sparse_ops", "sparse_tensor"]
