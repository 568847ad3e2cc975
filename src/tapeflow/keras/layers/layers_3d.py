"""Volumetric layers that need no 3-D convolution (channels-last,
``(batch, dim1, dim2, dim3, channels)``): GlobalAveragePooling3D, GlobalMaxPooling3D,
UpSampling3D, ZeroPadding3D, Cropping3D, SpatialDropout3D."""
from ...ops import manip_ops as _mn
from ...ops import reduction_ops as _r
from ..backend import standardize_data_format
from . import _spec
from .dropout import SpatialDropout2D
from .pooling import _GlobalPooling
from .reshape import _Shaping, cropped_shape

__all__ = ["Cropping3D", "GlobalAveragePooling3D", "GlobalMaxPooling3D", "SpatialDropout3D",
           "UpSampling3D", "ZeroPadding3D"]


def _channels_last(data_format, cls):
    if standardize_data_format(data_format) != "channels_last":
        raise ValueError(f"tapeflow's {cls} supports data_format='channels_last' only")
    return "channels_last"


def _triples(value, name):
    """An int, three ints or three pairs as ``((lo, hi),) * 3`` (Keras's forms)."""
    if isinstance(value, int):
        return ((value, value),) * 3
    if len(value) != 3:
        raise ValueError(f"`{name}` should have 3 elements. Received: {name}={value}.")
    return tuple((v, v) if isinstance(v, int) else _spec.int_tuple(v, 2, name) for v in value)


class GlobalAveragePooling3D(_GlobalPooling):
    """The mean over the three spatial axes (``tf.keras.layers.GlobalAveragePooling3D``).

    Args:
        data_format: 'channels_last' (the only layout tapeflow supports).
        keepdims: keep the spatial axes with size 1.

    Returns ``(batch, channels)`` (or ``(batch, 1, 1, 1, channels)``).
    """

    _axes = (1, 2, 3)
    _reduce = staticmethod(_r.reduce_mean)


class GlobalMaxPooling3D(GlobalAveragePooling3D):
    """The maximum over the three spatial axes (``tf.keras.layers.GlobalMaxPooling3D``);
    arguments as :class:`GlobalAveragePooling3D`."""

    _reduce = staticmethod(_r.reduce_max)


class UpSampling3D(_Shaping):
    """Repeat each voxel ``size`` times along the three spatial axes
    (``tf.keras.layers.UpSampling3D``).

    Args:
        size: an int or three ints (default 2).

    Raises:
        ValueError: for an input that is not 5-dimensional.
    """

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _channels_last(data_format, "UpSampling3D")
        self.size = _spec.int_tuple(size, 3, "size")

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=5)
        for axis, n in enumerate(self.size, 1):
            inputs = _mn.repeat(inputs, n, axis=axis)
        return inputs

    def compute_output_shape(self, input_shape):
        dims = [None if d is None else d * n for d, n in zip(input_shape[1:4], self.size)]
        return (input_shape[0], *dims, input_shape[4])

    def get_config(self):
        return dict(super().get_config(), size=self.size, data_format=self.data_format)


class ZeroPadding3D(_Shaping):
    """Add zeros around the three spatial axes (``tf.keras.layers.ZeroPadding3D``).

    Args:
        padding: an int (all sides), three ints (symmetric per axis) or three
            ``(before, after)`` pairs (default 1).

    Raises:
        ValueError: for a padding of another form or an input that is not 5-dimensional.
    """

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _channels_last(data_format, "ZeroPadding3D")
        self.padding = _triples(padding, "padding")

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=5)
        return _mn.pad(inputs, [[0, 0], *(list(p) for p in self.padding), [0, 0]])

    def compute_output_shape(self, input_shape):
        dims = [None if d is None else d + sum(p)
                for d, p in zip(input_shape[1:4], self.padding, strict=True)]
        return (input_shape[0], *dims, input_shape[4])

    def get_config(self):
        return dict(super().get_config(), padding=self.padding, data_format=self.data_format)


class Cropping3D(_Shaping):
    """Drop voxels at the edges of the three spatial axes (``tf.keras.layers.Cropping3D``).

    Args:
        cropping: an int (all sides), three ints (symmetric per axis) or three
            ``(before, after)`` pairs (default 1).

    Raises:
        ValueError: if nothing would remain along an axis.
    """

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _channels_last(data_format, "Cropping3D")
        self.cropping = _triples(cropping, "cropping")

    def call(self, inputs):
        shape = _spec.static_shape(inputs)
        _spec.check_input(self, inputs, ndim=5)
        self.compute_output_shape(shape)
        (a, b), (c, d), (e, f) = self.cropping
        return inputs[:, a:shape[1] - b, c:shape[2] - d, e:shape[3] - f, :]

    def compute_output_shape(self, input_shape):
        return cropped_shape(input_shape, self.cropping)

    def get_config(self):
        return dict(super().get_config(), cropping=self.cropping, data_format=self.data_format)


class SpatialDropout3D(SpatialDropout2D):
    """Dropout of whole channels of ``(batch, d1, d2, d3, channels)`` volumes
    (``tf.keras.layers.SpatialDropout3D``): one draw per example and channel.

    Args:
        rate: the fraction of channels to drop, in ``[0, 1]``.
        data_format: 'channels_last' (the only layout tapeflow supports).
        seed: optional op-level seed.

    Raises:
        ValueError: for a rate outside ``[0, 1]``, or an input that is not 5-dimensional.
    """

    _ndim = 5
