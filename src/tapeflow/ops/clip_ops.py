"""Clipping and the norms it uses: ``l2_normalize``, ``global_norm``, ``clip_by_norm`` and
``clip_by_global_norm``, composed of differentiable ops (TensorFlow's ``clip_ops``)."""

import builtins

from .._core.backend import np
from .._core.indexed_slices import IndexedSlices
from .._core.tensor import Tensor, _TensorLike
from . import array_ops as _a
from . import complex_ops as _complex_ops
from . import composite_dispatch as _composite
from ._helpers import to_tensor
from .array_ops import cast, ones_like
from .math_ops import (
    _realdiv,
    _scalar_like,
    add,
    add_n,
    greater,
    imag,
    maximum,
    minimum,
    multiply,
    real,
    rsqrt,
    sqrt,
    square,
    subtract,
)
from .reduction_ops import reduce_sum

__all__ = ["l2_normalize", "global_norm", "clip_by_value", "clip_by_norm", "clip_by_global_norm"]


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """``x / sqrt(max(sum(x**2, axis), epsilon))`` (``tf.math.l2_normalize``).

    Args:
        x: a float tensor.
        axis: the axes to normalise over (default all).
        epsilon: lower bound on the squared norm.
    """
    x = to_tensor(x)
    if axis is None:
        axis = dim
    if x._value.dtype.kind == "c":
        # |x|^2 summed as a real number; each part scaled by the real inverse norm on its
        # own, as TF (an infinite norm: -2.5 - inf j -> -0 + nan j, not nan + nan j)
        re, im = real(x), imag(x)
        sq = reduce_sum(add(square(re), square(im)), axis, keepdims=True)
        inv = rsqrt(maximum(sq, epsilon))
        return _complex_ops.complex(multiply(re, inv), multiply(im, inv))
    sq = reduce_sum(square(x), axis, keepdims=True)
    return multiply(x, rsqrt(maximum(sq, epsilon)))


def global_norm(t_list, name=None):
    """``sqrt(sum(l2_norm(t)**2 for t in t_list))``, skipping ``None`` (``tf.linalg.global_norm``).

    An ``IndexedSlices`` in ``t_list`` counts by its values, as in TensorFlow.

    Raises:
        TypeError: if ``t_list`` is a single tensor rather than a sequence.
    """
    if isinstance(t_list, _TensorLike) or not isinstance(t_list, (list, tuple)):
        raise TypeError("t_list should be a sequence")
    # an IndexedSlices counts by its values (TensorFlow's norm of a sparse gradient)
    parts = [reduce_sum(square(to_tensor(t.values if type(t) is IndexedSlices else t)))
             for t in t_list if t is not None]
    if not parts:
        return Tensor(np.float32(0))
    return sqrt(add_n(parts))


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clamp ``t`` to ``[clip_value_min, clip_value_max]`` (``tf.clip_by_value``).

    The gradient passes where ``t`` is inside the range and is zero outside, as in
    TensorFlow.
    """
    try:
        t = to_tensor(t)
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.unary(clip_by_value, t, clip_value_min, clip_value_max)
    if t._value.dtype == np.bool_:
        for b in (clip_value_max, clip_value_min):
            if isinstance(b, (int, float)) and not isinstance(b, bool):
                raise TypeError(f"Cannot convert {b!r} to EagerTensor of dtype bool")
    # the minimum first, as TensorFlow's: with min > max every value (and gradient) goes
    # to clip_value_min; bounds that broadcast t to a larger shape raise ValueError
    out = maximum(minimum(t, clip_value_max), clip_value_min)
    if out._value.shape != t._value.shape:
        raise ValueError(f"Shapes {_shape_text(t._value.shape)} and "
                         f"{_shape_text(out._value.shape)} are incompatible")
    return out


def _shape_text(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescale ``t`` so its L2 norm over ``axes`` is at most ``clip_norm`` (``tf.clip_by_norm``).

    ``t * clip_norm / max(norm(t), clip_norm)``; a zero tensor stays zero with a finite
    gradient.

    Args:
        t: a float tensor, or an ``IndexedSlices`` (its values are clipped, and it stays
            sparse).
        clip_norm: a positive scalar.
        axes: the axes of the norm (default all).

    Returns:
        A tensor (or ``IndexedSlices``) of ``t``'s shape and dtype.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0).numpy())
        [0.6 0.8]
    """
    if type(t) is IndexedSlices:  # a sparse gradient stays sparse: its values are clipped
        return IndexedSlices(clip_by_norm(t.values, clip_norm, axes), t.indices, t.dense_shape)
    t = to_tensor(t)
    sq = reduce_sum(square(t), axes, keepdims=True)
    positive = greater(sq, 0)
    safe = _a.where(positive, sq, ones_like(sq))
    norm_ = _a.where(positive, sqrt(safe), sq)
    if np.isscalar(clip_norm):  # a negative clip_norm clips to zero, as TensorFlow's
        c = _scalar_like(0 if clip_norm < 0 else clip_norm, t)
    else:
        c = cast(maximum(clip_norm, 0), t.dtype)
    return _realdiv(multiply(t, c), maximum(norm_, c))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scale every tensor by ``clip_norm / max(global_norm, clip_norm)``.

    TensorFlow counterpart: ``tf.clip_by_global_norm``.

    Returns:
        ``(list_clipped, global_norm)``; ``None`` entries stay ``None``, an
        ``IndexedSlices`` stays sparse.

    Raises:
        TypeError: if ``t_list`` is not a sequence.
    """
    if isinstance(t_list, _TensorLike) or not isinstance(t_list, (list, tuple)):
        raise TypeError("`t_list` should be a sequence of tensors. Received "
                        f"{type(t_list)}.")
    if builtins.any(type(t) is IndexedSlices for t in t_list):
        # sparse gradients stay sparse: their values are scaled
        clipped, gn = clip_by_global_norm(
            [t.values if type(t) is IndexedSlices else t for t in t_list], clip_norm, use_norm)
        return [IndexedSlices(c, t.indices, t.dense_shape) if type(t) is IndexedSlices else c
                for c, t in zip(clipped, t_list)], gn
    gn = global_norm(t_list) if use_norm is None else to_tensor(use_norm)
    c = _scalar_like(clip_norm, gn)
    scale = multiply(c, minimum(_realdiv(ones_like(gn), gn), _realdiv(ones_like(c), c)))
    # + (gn - gn): an infinite (or NaN) global norm makes every entry NaN, as TF's.
    scale = add(scale, subtract(gn, gn))
    out = [None if t is None else multiply(to_tensor(t), cast(scale, to_tensor(t).dtype))
           for t in t_list]
    return out, gn
