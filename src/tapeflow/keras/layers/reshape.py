"""Reshaping layers (channels-last): Reshape, UpSampling1D/2D, ZeroPadding1D/2D,
Cropping1D/2D, Permute, RepeatVector."""
import math

from ..._core.recording import executing_eagerly
from ...ops import array_ops as _a
from ...ops import manip_ops as _mn
from ..backend import standardize_data_format
from . import _spec
from .layer import Layer
from .preprocessing import _image

__all__ = ["Cropping1D", "Cropping2D", "Permute", "RepeatVector", "Reshape", "UpSampling1D",
           "UpSampling2D", "ZeroPadding1D", "ZeroPadding2D"]



def _channels_first_by_transposes(call):
    """A 2-D layer's channels_last ``call`` run on channels_first inputs (``(b, c, h, w)``)
    by transposing in and out, when the layer's ``data_format`` is channels_first."""
    def wrapped(self, inputs):
        if self.data_format != "channels_first" or len(_spec.static_shape(inputs)) != 4:
            return call(self, inputs)
        out = call(self, _a.transpose(inputs, [0, 2, 3, 1]))
        return _a.transpose(out, [0, 3, 1, 2])
    wrapped.__name__, wrapped.__doc__ = call.__name__, call.__doc__
    wrapped.__wrapped__ = call
    return wrapped


def _channels_first_shape(compute):
    def wrapped(self, input_shape):
        if self.data_format != "channels_first":
            return compute(self, input_shape)
        b, c, h, w = tuple(input_shape)
        b, h, w, c = compute(self, (b, h, w, c))
        return (b, c, h, w)
    wrapped.__name__, wrapped.__doc__ = compute.__name__, compute.__doc__
    return wrapped

class _Shaping(Layer):
    """Padding, cropping, up-sampling, ``Permute``, ``RepeatVector``: no weights, built by
    their first call as in Keras 3 (``get_build_config`` then gives the input shape);
    ``Reshape`` is built at construction, as Keras's."""

    supports_masking = False


class Reshape(_Shaping):
    """Reshape each example to ``target_shape`` (``tf.keras.layers.Reshape``); one entry may
    be -1, inferred from the input's size.

    Args:
        target_shape: the shape of one example (no batch axis).

    Raises:
        ValueError: for a target with more than one -1, or whose size differs from the
            input's.

    >>> import tapeflow as tf
    >>> tf.keras.layers.Reshape((-1, 2))(tf.ones((3, 2, 4))).shape
    TensorShape([3, 4, 2])
    """

    _built_at_init = True

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)
        if self.target_shape.count(-1) > 1:
            raise ValueError("There must be at most one unknown dimension (-1) in "
                             f"`target_shape`. Received: target_shape={self.target_shape}.")

    def _resolve(self, input_shape):
        known = math.prod(d for d in self.target_shape if d != -1)
        if any(d is None for d in input_shape[1:]):
            return tuple(None if d == -1 else d for d in self.target_shape)
        size = math.prod(input_shape[1:])
        if -1 in self.target_shape:
            if known == 0 or size % known:
                raise ValueError(
                    "The total size of the tensor must be unchanged, however, the input size "
                    "cannot by divided by the specified dimensions in target_shape. Received: "
                    f"input_shape={tuple(input_shape[1:])}, target_shape={self.target_shape}")
            return tuple(size // known if d == -1 else d for d in self.target_shape)
        if known != size:
            raise ValueError("The total size of the tensor must be unchanged. Received: "
                             f"input_shape={tuple(input_shape[1:])}, target_shape="
                             f"{self.target_shape}")
        return self.target_shape

    def compute_output_shape(self, input_shape):
        return (input_shape[0], *self._resolve(tuple(input_shape)))

    def call(self, inputs):
        shape = _spec.static_shape(inputs)
        target = self._resolve(shape)
        if (shape[0] is None or not executing_eagerly()) and None not in target \
                and math.prod(target):
            # traced: the batch size of each call (-1), not the traced one
            return _a.reshape(inputs, (-1,) + target)
        return _a.reshape(inputs, (shape[0],) + target)


    def get_config(self):
        return dict(super().get_config(), target_shape=self.target_shape)


class UpSampling1D(_Shaping):
    """Repeat each step ``size`` times along the steps of ``(batch, steps, features)``
    (``tf.keras.layers.UpSampling1D``).

    Args:
        size: the repetition factor (default 2).

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(2.0), (1, 2, 1))
    >>> tf.keras.layers.UpSampling1D(3)(x)[0, :, 0].numpy().tolist()
    [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
    """

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=3)
        return _mn.repeat(inputs, self.size, axis=1)

    def compute_output_shape(self, input_shape):
        steps = None if input_shape[1] is None else input_shape[1] * self.size
        return (input_shape[0], steps, input_shape[2])

    def get_config(self):
        return dict(super().get_config(), size=self.size)


class UpSampling2D(_Shaping):
    """Enlarge ``(batch, rows, cols, channels)`` images by ``size``
    (``tf.keras.layers.UpSampling2D``).

    Args:
        size: an int or a pair (rows, cols) of upsampling factors (default 2).
        interpolation: 'nearest' (repeat each pixel, the default) or 'bilinear'
            (``tf.image.resize``).

    Raises:
        ValueError: for another interpolation or an input that is not 4-dimensional.

    >>> import tapeflow as tf
    >>> up = tf.keras.layers.UpSampling2D(2)
    >>> up(tf.reshape(tf.range(4.0), (1, 2, 2, 1)))[0, :, :, 0].numpy().tolist()[0]
    [0.0, 0.0, 1.0, 1.0]
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        data_format = standardize_data_format(data_format)
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError("`interpolation` argument should be one of: \"nearest\", "
                             f"\"bilinear\". Received: \"{interpolation}\".")
        self.size = _spec.int_tuple(size, 2, "size")
        self.data_format = data_format
        self.interpolation = interpolation

    @_channels_first_by_transposes
    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=4)
        if self.interpolation == "nearest":
            out = _mn.repeat(inputs, self.size[0], axis=1)
            return _mn.repeat(out, self.size[1], axis=2)
        _, h, w, _ = _spec.static_shape(inputs)
        return _image.resize(inputs, h * self.size[0], w * self.size[1], "bilinear")

    @_channels_first_shape
    def compute_output_shape(self, input_shape):
        rows = None if input_shape[1] is None else input_shape[1] * self.size[0]
        cols = None if input_shape[2] is None else input_shape[2] * self.size[1]
        return (input_shape[0], rows, cols, input_shape[3])

    def get_config(self):
        return dict(super().get_config(), size=self.size, data_format=self.data_format,
                    interpolation=self.interpolation)


def _pairs(value, name):
    """An int, a pair of ints or a pair of pairs as ``((top, bottom), (left, right))``."""
    if isinstance(value, int):
        return ((value, value), (value, value))
    if len(value) != 2:
        raise ValueError(f"`{name}` should have two elements. Received: {name}={value}.")
    out = []
    for v in value:
        out.append((v, v) if isinstance(v, int) else _spec.int_tuple(v, 2, name))
    return tuple(out)


class ZeroPadding1D(_Shaping):
    """Add zeros before and after the steps of ``(batch, steps, features)``
    (``tf.keras.layers.ZeroPadding1D``).

    Args:
        padding: an int (both sides) or a pair ``(before, after)`` (default 1).

    >>> import tapeflow as tf
    >>> tf.keras.layers.ZeroPadding1D((1, 2))(tf.ones((1, 2, 1)))[0, :, 0].numpy().tolist()
    [0.0, 1.0, 1.0, 0.0, 0.0]
    """

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _spec.int_tuple(padding, 2, "padding")
        self.data_format = "channels_last"

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=3)
        return _mn.pad(inputs, [[0, 0], list(self.padding), [0, 0]])

    def compute_output_shape(self, input_shape):
        steps = None if input_shape[1] is None else input_shape[1] + sum(self.padding)
        return (input_shape[0], steps, input_shape[2])

    def get_config(self):
        return dict(super().get_config(), padding=self.padding, data_format=self.data_format)


class ZeroPadding2D(_Shaping):
    """Add rows and columns of zeros around ``(batch, rows, cols, channels)`` images
    (``tf.keras.layers.ZeroPadding2D``).

    Args:
        padding: an int (all sides), a pair ``(rows, cols)`` (symmetric) or
            ``((top, bottom), (left, right))`` (default 1).

    >>> import tapeflow as tf
    >>> tf.keras.layers.ZeroPadding2D(((1, 0), (2, 2)))(tf.ones((1, 3, 3, 1))).shape
    TensorShape([1, 4, 7, 1])
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.padding = _pairs(padding, "padding")

    @_channels_first_by_transposes
    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=4)
        return _mn.pad(inputs, [[0, 0], list(self.padding[0]), list(self.padding[1]), [0, 0]])

    @_channels_first_shape
    def compute_output_shape(self, input_shape):
        dims = [None if d is None else d + sum(p)
                for d, p in zip(input_shape[1:3], self.padding, strict=True)]
        return (input_shape[0], *dims, input_shape[3])

    def get_config(self):
        return dict(super().get_config(), padding=self.padding, data_format=self.data_format)


class Cropping1D(_Shaping):
    """Drop steps at the start and end of ``(batch, steps, features)``
    (``tf.keras.layers.Cropping1D``).

    Args:
        cropping: an int (both ends) or a pair ``(start, end)`` (default 1).

    Raises:
        ValueError: if nothing would remain.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(5.0), (1, 5, 1))
    >>> tf.keras.layers.Cropping1D((1, 2))(x)[0, :, 0].numpy().tolist()
    [1.0, 2.0]
    """

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = _spec.int_tuple(cropping, 2, "cropping")

    def call(self, inputs):
        shape = _spec.static_shape(inputs)
        _spec.check_input(self, inputs, ndim=3)
        self.compute_output_shape(shape)
        return inputs[:, self.cropping[0]:shape[1] - self.cropping[1], :]

    def compute_output_shape(self, input_shape):
        steps = input_shape[1]
        if steps is not None:
            steps -= sum(self.cropping)
            if steps <= 0:
                raise ValueError(
                    "`cropping` parameter of `Cropping1D` layer must be smaller than the input "
                    f"length. Received: inputs.shape={tuple(input_shape)}, "
                    f"cropping={self.cropping}")
        return (input_shape[0], steps, input_shape[2])

    def get_config(self):
        return dict(super().get_config(), cropping=self.cropping)


def cropped_shape(input_shape, cropping):
    """``(batch, *spatial, channels)`` after cropping each spatial dim by its ``(lo, hi)``
    pair of ``cropping`` (Cropping2D/3D, channels last).

    Raises:
        ValueError: when a known dim is not larger than its total cropping (Keras's text).
    """
    dims = []
    for d, crop in zip(input_shape[1:-1], cropping, strict=True):
        if d is not None and d - sum(crop) <= 0:
            raise ValueError("Values in `cropping` argument should be smaller than the "
                             "corresponding spatial dimension of the input. Received: "
                             f"input_shape={tuple(input_shape)}, cropping={cropping}")
        dims.append(None if d is None else d - sum(crop))
    return (input_shape[0], *dims, input_shape[-1])


class Cropping2D(_Shaping):
    """Drop rows and columns at the edges of ``(batch, rows, cols, channels)`` images
    (``tf.keras.layers.Cropping2D``).

    Args:
        cropping: an int (all sides), a pair ``(rows, cols)`` (symmetric) or
            ``((top, bottom), (left, right))`` (default 0).

    Raises:
        ValueError: if nothing would remain.

    >>> import tapeflow as tf
    >>> tf.keras.layers.Cropping2D(((1, 0), (2, 1)))(tf.ones((2, 5, 6, 3))).shape
    TensorShape([2, 4, 3, 3])
    """

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.cropping = _pairs(cropping, "cropping")

    @_channels_first_by_transposes
    def call(self, inputs):
        shape = _spec.static_shape(inputs)
        _spec.check_input(self, inputs, ndim=4)
        cropped_shape(shape, self.cropping)   # refuses a crop that leaves nothing
        (t, b), (left, r) = self.cropping
        return inputs[:, t:shape[1] - b, left:shape[2] - r, :]

    @_channels_first_shape
    def compute_output_shape(self, input_shape):
        return cropped_shape(input_shape, self.cropping)

    def get_config(self):
        return dict(super().get_config(), cropping=self.cropping, data_format=self.data_format)


class Permute(_Shaping):
    """Reorder the non-batch axes of the input (``tf.keras.layers.Permute``).

    Args:
        dims: a permutation of ``1 .. rank - 1`` (1-indexed: the batch axis stays first);
            ``(2, 1)`` swaps the two axes of a ``(batch, a, b)`` input.

    Raises:
        ValueError: if ``dims`` is not a permutation of ``1 .. len(dims)`` (Keras's text).
    """

    supports_masking = True

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set "
                             "of indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={self.dims}")

    def call(self, inputs):
        return _a.transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def get_config(self):
        return dict(super().get_config(), dims=self.dims)


class RepeatVector(_Shaping):
    """Repeat a ``(batch, features)`` input ``n`` times into ``(batch, n, features)``
    (``tf.keras.layers.RepeatVector``).

    Raises:
        TypeError: if ``n`` is not an integer (Keras's text).
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        self.n = n
        from .input_spec import InputSpec
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return _mn.tile(_a.expand_dims(inputs, 1), (1, self.n, 1))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def get_config(self):
        return dict(super().get_config(), n=self.n)
