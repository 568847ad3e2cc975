"""RMSNormalization (``tf.keras.layers.RMSNormalization``)."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .layer import Layer

__all__ = ["RMSNormalization"]


class RMSNormalization(Layer):
    """``x * rsqrt(mean(x**2, axis) + epsilon) * scale`` (``tf.keras.layers.RMSNormalization``).

    Args:
        axis: an int or a list of ints, the normalised axes; ``scale`` has their sizes.
        epsilon: added to the mean square (default 1e-6).

    The weight ``scale`` starts at ones. Half-precision inputs are computed in float32 and
    cast back, as Keras does.
    """

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.epsilon = epsilon
        self.scale = None

    def build(self, input_shape):
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[d] for d in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        self.scale = self.add_weight(name="scale", shape=shape, initializer="ones")
        self.built = True

    def call(self, x):
        dtype = x.dtype
        wide = dtype.name in ("float16", "bfloat16")
        if wide:
            x = _a.cast(x, "float32")
        mean_square = _r.reduce_mean(_m.square(x), axis=list(self.axis), keepdims=True)
        out = _m.multiply(_m.multiply(x, _m.rsqrt(_m.add(mean_square, self.epsilon))),
                          _a.cast(self.scale, x.dtype))
        return _a.cast(out, dtype) if wide else out

    def compute_output_shape(self, input_shape):
        axes = [self.axis] if isinstance(self.axis, int) else self.axis
        for axis in axes:
            if axis >= len(input_shape) or axis < -len(input_shape):
                raise ValueError(f"Axis {axis} is out of bounds for input shape "
                                 f"{input_shape}. Received: axis={self.axis}")
        return input_shape

    def get_config(self):
        return dict(super().get_config(), axis=self.axis, epsilon=self.epsilon)
