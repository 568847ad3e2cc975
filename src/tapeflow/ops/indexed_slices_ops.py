"""The ops TensorFlow lets an IndexedSlices through sparse: the norm clipping family.

Each keeps a sparse gradient sparse where TensorFlow does (norms of the slices' values) and
hands everything else to the dense op; other ops (``add_n`` too) make it dense.
"""
import functools

from .._core.indexed_slices import IndexedSlices
from . import clip_ops as _cl

__all__ = ["clip_by_norm", "clip_by_global_norm", "global_norm"]


def _values(t):
    return t.values if type(t) is IndexedSlices else t


@functools.wraps(_cl.clip_by_norm)
def clip_by_norm(t, clip_norm, axes=None, name=None):
    if type(t) is IndexedSlices:
        return IndexedSlices(_cl.clip_by_norm(t.values, clip_norm, axes), t.indices,
                             t.dense_shape)
    return _cl.clip_by_norm(t, clip_norm, axes)


@functools.wraps(_cl.global_norm)
def global_norm(t_list, name=None):
    if isinstance(t_list, (list, tuple)):
        t_list = [_values(t) for t in t_list]
    return _cl.global_norm(t_list)


@functools.wraps(_cl.clip_by_global_norm)
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    if not isinstance(t_list, (list, tuple)) or not any(
            type(t) is IndexedSlices for t in t_list):
        return _cl.clip_by_global_norm(t_list, clip_norm, use_norm)
    clipped, norm = _cl.clip_by_global_norm([_values(t) for t in t_list], clip_norm, use_norm)
    return [IndexedSlices(c, t.indices, t.dense_shape) if type(t) is IndexedSlices else c
            for c, t in zip(clipped, t_list)], norm
