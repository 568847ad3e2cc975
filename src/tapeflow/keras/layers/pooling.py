"""Global pooling: one value per channel (channels-last)."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from ..backend import standardize_data_format
from . import _spec
from .input_spec import InputSpec
from .layer import Layer

__all__ = ["GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D",
           "GlobalMaxPooling2D"]


class _GlobalPooling(Layer):
    _built_at_init = True
    _axes = (1,)
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        if self.data_format == "channels_first" and len(self._axes) == 3:
            raise ValueError("tapeflow's 3-D global pooling supports channels_last only")
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=len(self._axes) + 2)
        self.built = True

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format,
                    keepdims=self.keepdims)

    def _spatial(self):
        return [a + 1 for a in self._axes] if self.data_format == "channels_first" \
            else list(self._axes)

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=len(self._axes) + 2)
        return type(self)._reduce(inputs, self._spatial(), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        first = self.data_format == "channels_first"
        channels = input_shape[1] if first else input_shape[-1]
        if self.keepdims:
            ones = (1,) * len(self._axes)
            return (input_shape[0],) + ((channels,) + ones if first else ones + (channels,))
        return (input_shape[0], channels)


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps of ``(batch, steps, channels)``
    (``tf.keras.layers.GlobalAveragePooling1D``).

    With a Keras mask (from ``Embedding(mask_zero=True)``, say) the mean is over the
    unmasked steps only, and the output carries no mask.

    Args:
        data_format: 'channels_last' (the only layout tapeflow supports).
        keepdims: keep the steps axis with size 1.
    """

    supports_masking = True
    _reduce = staticmethod(_r.reduce_mean)

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        _spec.check_input(self, inputs, ndim=3)
        keep = _a.expand_dims(_a.cast(mask, "bool"), 2)
        total = _r.reduce_sum(_a.where(keep, inputs, _a.zeros_like(inputs)), axis=1,
                              keepdims=self.keepdims)
        count = _r.reduce_sum(_a.cast(keep, inputs.dtype), axis=1, keepdims=self.keepdims)
        return _m.divide(total, count)

    def compute_mask(self, inputs, previous_mask):
        return None


class GlobalMaxPooling1D(_GlobalPooling):
    """The maximum over the steps of ``(batch, steps, channels)``
    (``tf.keras.layers.GlobalMaxPooling1D``)."""

    _reduce = staticmethod(_r.reduce_max)


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean over rows and columns of ``(batch, rows, cols, channels)``
    (``tf.keras.layers.GlobalAveragePooling2D``).

    Args:
        data_format: 'channels_last' (the only layout tapeflow supports).
        keepdims: keep the spatial axes with size 1.
    """

    _axes = (1, 2)
    _reduce = staticmethod(_r.reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling):
    """The maximum over rows and columns of ``(batch, rows, cols, channels)``
    (``tf.keras.layers.GlobalMaxPooling2D``).

    Args:
        data_format: 'channels_last' (the only layout tapeflow supports).
        keepdims: keep the spatial axes with size 1.
    """

    _axes = (1, 2)
    _reduce = staticmethod(_r.reduce_max)
