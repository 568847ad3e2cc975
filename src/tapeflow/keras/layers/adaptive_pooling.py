"""Adaptive pooling (Keras 3.15): average or maximum over windows chosen so the spatial
output has a given size, whatever the input's.

Along each spatial axis of length ``n`` pooled to ``out``, Keras's TensorFlow backend computes
in float32 ``start_i = floor(i * n / out)`` and ``end_i = min(ceil((i + 1) * n / out), n)``,
then reads a window of ``big = ceil(n / out) + 1`` cells from ``start_i`` when
``end_i - start_i == big`` and of ``small = ceil(n / out)`` cells otherwise; the axes are
pooled one after another. The same windows here: a mean is a product with a fixed
``(out, n)`` averaging matrix, a maximum a ``reduce_max`` per window.
"""
import math

from ..._core.backend import np
from ...ops import array_ops as _a
from ...ops import reduction_ops as _r
from ...ops import special_math_ops as _sm
from .layer import Layer

__all__ = ["AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D",
           "AdaptiveAveragePooling3D", "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D",
           "AdaptiveMaxPooling3D"]

_LETTERS = "abcdefgh"


def adaptive_windows(n, out):
    """Keras 3.15's ``(start, size)`` windows pooling an axis of ``n`` cells to ``out``."""
    small = math.ceil(n / out)
    big = small + 1
    f32 = np.float32
    starts = np.floor(np.arange(out, dtype=f32) * f32(n) / f32(out)).astype(np.int64)
    ends = np.ceil(np.arange(1, out + 1, dtype=f32) * f32(n) / f32(out)).astype(np.int64)
    ends = np.minimum(ends, n)
    starts = np.minimum(starts, n - 1)
    sizes = np.where(ends - starts == big, big, small)
    return [(int(s), int(w)) for s, w in zip(starts, sizes, strict=True)]


class _AdaptivePooling(Layer):
    _rank = 1
    _what = "tuple of 1 integer"
    _reduce = None

    def __init__(self, output_size, data_format=None, **kwargs):
        rank = self._rank
        if isinstance(output_size, int):
            output_size = (output_size,) * rank
        elif isinstance(output_size, (tuple, list)) and (rank == 1 or len(output_size) == rank):
            if len(output_size) != rank:
                raise ValueError("For 1D input, `output_size` tuple must have length 1. "
                                 f"Received: {output_size}")
            output_size = tuple(output_size)
        else:
            raise TypeError(f"`output_size` must be an integer or {self._what}. Received: "
                            f"{output_size} of type {type(output_size)}")
        super().__init__(**kwargs)
        self.output_size = output_size
        self.data_format = data_format or "channels_last"
        if self.data_format not in {"channels_first", "channels_last"}:
            raise ValueError(f"Invalid data_format: {self.data_format}. Expected "
                             "'channels_first' or 'channels_last'.")

    def compute_output_shape(self, input_shape):
        if self.data_format == "channels_last":
            return (input_shape[0], *self.output_size, input_shape[-1])
        return (input_shape[0], input_shape[1], *self.output_size)

    def get_config(self):
        return dict(super().get_config(), output_size=self.output_size,
                    data_format=self.data_format)

    def call(self, inputs):
        first = self.data_format == "channels_first"
        shape = tuple(inputs.shape)
        for k in range(self._rank):
            axis = k + (2 if first else 1)
            n = shape[axis]
            if n is None:
                raise ValueError("Input spatial dimensions must be statically known for "
                                 "adaptive pooling")
            inputs = self._pool_axis(inputs, axis, adaptive_windows(n, self.output_size[k]))
        return inputs

    def _pool_axis(self, x, axis, windows):
        raise NotImplementedError


class _AdaptiveAverage(_AdaptivePooling):
    def _pool_axis(self, x, axis, windows):
        n = x.shape[axis]
        weights = np.zeros((len(windows), n), x.dtype.as_numpy_dtype)
        for i, (start, size) in enumerate(windows):
            weights[i, start:start + size] = 1.0 / size
        letters = _LETTERS[:len(x.shape)]
        out = letters[:axis] + "z" + letters[axis + 1:]
        return _sm.einsum(f"{letters},z{letters[axis]}->{out}", x, weights)


class _AdaptiveMax(_AdaptivePooling):
    def _pool_axis(self, x, axis, windows):
        index = [slice(None)] * len(x.shape)
        parts = []
        for start, size in windows:
            index[axis] = slice(start, start + size)
            parts.append(_r.reduce_max(x[tuple(index)], axis=axis, keepdims=True))
        return _a.concat(parts, axis)


_DOC = """Adaptive {kind} pooling over {rank}-D data (``tf.keras.layers.{name}``): the {how} of
windows Keras picks so that the spatial output is ``output_size`` whatever the input's size
(see the module docstring for Keras 3.15's windows).

Args:
    output_size: an int or {rank} ints, the spatial output size.
    data_format: 'channels_last' (default, ``(batch, {axes}, channels)``) or
        'channels_first' (``(batch, channels, {axes})``).

Input: floats of rank {nd} with known spatial sizes. Output: ``(batch, *output_size,
channels)`` (channels_last), the input's dtype.

Raises:
    TypeError: ``output_size`` neither an int nor {rank} ints.
    ValueError: an unknown ``data_format``{extra}.
"""


def _make(name, base, rank, what, axes):
    kind = "average" if base is _AdaptiveAverage else "max"
    cls = type(name, (base,), {"_rank": rank, "_what": what, "__module__": __name__})
    cls.__doc__ = _DOC.format(kind=kind, rank=rank, name=name, axes=axes, nd=rank + 2,
                              how="mean" if kind == "average" else "maximum",
                              extra=", or a tuple of another length (1-D)" if rank == 1
                              else "")
    return cls


AdaptiveAveragePooling1D = _make("AdaptiveAveragePooling1D", _AdaptiveAverage, 1,
                                 "tuple of 1 integer", "steps")
AdaptiveAveragePooling2D = _make("AdaptiveAveragePooling2D", _AdaptiveAverage, 2,
                                 "(height, width) tuple", "height, width")
AdaptiveAveragePooling3D = _make("AdaptiveAveragePooling3D", _AdaptiveAverage, 3,
                                 "(depth, height, width) tuple", "depth, height, width")
AdaptiveMaxPooling1D = _make("AdaptiveMaxPooling1D", _AdaptiveMax, 1, "tuple of 1 integer",
                             "steps")
AdaptiveMaxPooling2D = _make("AdaptiveMaxPooling2D", _AdaptiveMax, 2, "(height, width) tuple",
                             "height, width")
AdaptiveMaxPooling3D = _make("AdaptiveMaxPooling3D", _AdaptiveMax, 3,
                             "(depth, height, width) tuple", "depth, height, width")
