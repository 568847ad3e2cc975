"""The Dot merge layer (``tf.keras.layers.Dot``) and its functional form ``dot``."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from ...ops import special_math_ops as _sm
from ..backend import epsilon
from .merging import _Merge

__all__ = ["Dot", "dot"]

_LETTERS = "acdefghijklmnopqrstuvwxyz"  # "b" is the batch axis


def _resolve_axes(axes, rank1, rank2):
    """Both axes as non-negative ints (Keras takes a negative axis modulo each rank)."""
    if isinstance(axes, int):
        axes = (axes, axes)
    return [a % r if a < 0 else a for a, r in zip(axes, (rank1, rank2))]


def _batch_dot_equation(rank1, rank2, a1, a2):
    """An einsum equation contracting axis ``a1`` of x with ``a2`` of y, batch axis shared."""
    x = ["b"] + [_LETTERS[i] for i in range(rank1 - 1)]
    y = ["b"] + [_LETTERS[rank1 - 1 + i] for i in range(rank2 - 1)]
    y[a2] = x[a1]
    out = ["b"] + [c for i, c in enumerate(x) if i not in (0, a1)] + [
        c for i, c in enumerate(y) if i not in (0, a2)]
    return "".join(x) + "," + "".join(y) + "->" + "".join(out)


class Dot(_Merge):
    """The dot product of two inputs along one axis of each, per sample
    (``tf.keras.layers.Dot``).

    For inputs of shapes ``(batch, *X)`` and ``(batch, *Y)`` the output has the remaining
    axes of the first then of the second; a result with no axis besides the batch has shape
    ``(batch, 1)``.

    Args:
        axes: an int or a pair of ints, the axis of each input to contract (not 0; negative
            axes count from the end).
        normalize: L2-normalise each input along its axis first (cosine proximity).

    Raises:
        TypeError: for ``axes`` neither an int nor a list/tuple.
        ValueError: for a pair that is not two ints, inputs that are not a list of two, or
            axes of different sizes.
    """

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError("Invalid type for argument `axes`: it should be a list or an "
                                f"int. Received: axes={axes}")
            if len(axes) != 2:
                raise ValueError("Invalid format for argument `axes`: it should contain two "
                                 f"elements. Received: axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError("Invalid format for argument `axes`: list elements should be "
                                 f"integers. Received: axes={axes}")
        self.axes = axes
        self.normalize = normalize
        self.supports_masking = True

    def build(self, input_shape):
        if not isinstance(input_shape[0], (tuple, list)) or len(input_shape) != 2:
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={input_shape}")
        s1, s2 = (tuple(s) for s in input_shape)
        a1, a2 = _resolve_axes(self.axes, len(s1), len(s2))
        if s1[a1] != s2[a2]:
            raise ValueError(f"Incompatible input shapes: axis values {s1[a1]} (at axis {a1}) "
                             f"!= {s2[a2]} (at axis {a2}). Full input shapes: {s1}, {s2}")
        self.built = True

    def compute_output_shape(self, input_shape):
        if not isinstance(input_shape, (tuple, list)) or len(input_shape) != 2:
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={input_shape}")
        s1, s2 = (list(s) for s in input_shape)
        a1, a2 = _resolve_axes(self.axes, len(s1), len(s2))
        out = [s1[0]] + [d for i, d in enumerate(s1) if i not in (0, a1)] + [
            d for i, d in enumerate(s2) if i not in (0, a2)]
        return tuple(out) if len(out) > 1 else (s1[0], 1)

    def compute_mask(self, inputs, previous_mask):
        return None

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 2:
            raise ValueError("A `Dot` layer should be called on exactly 2 inputs. Received: "
                             f"inputs={inputs}")
        x1, x2 = inputs
        r1, r2 = len(x1.shape), len(x2.shape)
        a1, a2 = _resolve_axes(self.axes, r1, r2)
        if self.normalize:
            x1, x2 = _normalize(x1, a1), _normalize(x2, a2)
        out = _sm.einsum(_batch_dot_equation(r1, r2, a1, a2), x1, x2)
        if len(out.shape) == 1:
            out = _a.expand_dims(out, 1)
        return out

    def get_config(self):
        return dict(super().get_config(), axes=self.axes, normalize=self.normalize)


def dot(inputs, axes=-1, **kwargs):
    """``Dot(axes, **kwargs)(inputs)``: the per-sample dot product of two tensors
    (``tf.keras.layers.dot``)."""
    return Dot(axes=axes, **kwargs)(inputs)


def _normalize(x, axis):
    """``x * min(rsqrt(sum(x**2, axis)), 1 / epsilon())``: Keras's ``normalize``, with
    ``keras.config.epsilon()`` read at call time."""
    inv = _m.minimum(_m.rsqrt(_r.reduce_sum(_m.square(x), axis, keepdims=True)),
                     1.0 / epsilon())
    return _m.multiply(x, inv)
