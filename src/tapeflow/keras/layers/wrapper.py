"""Wrapper (``tf.keras.layers.Wrapper``) and SpectralNormalization."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .. import initializers as _init
from ..backend import epsilon
from .input_spec import InputSpec
from .layer import Layer

__all__ = ["SpectralNormalization", "Wrapper"]


class Wrapper(Layer):
    """The base of layers that wrap another layer (``tf.keras.layers.Wrapper``): builds the
    wrapped layer and serializes it under the config key ``layer``.

    Args:
        layer: the wrapped Keras layer.

    Raises:
        ValueError: if ``layer`` is not a Keras layer.
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer "
                             "type. Please ensure wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    def get_config(self):
        from ..saving.serialization import serialize_keras_object
        return dict(super().get_config(), layer=serialize_keras_object(self.layer))

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from ..saving.serialization import deserialize_keras_object
        config = dict(config)
        layer = deserialize_keras_object(config.pop("layer"), custom_objects=custom_objects)
        return cls(layer, **config)


def _unit(x):
    """``x * min(rsqrt(sum(x**2)), 1 / epsilon())``: Keras's ``normalize(x, axis=None)``."""
    inv = _m.minimum(_m.rsqrt(_r.reduce_sum(_m.square(x), keepdims=True)), 1.0 / epsilon())
    return _m.multiply(x, inv)


class SpectralNormalization(Wrapper):
    """Divide the wrapped layer's ``kernel`` (or ``embeddings``) by its largest singular
    value, estimated by power iteration, at each training call
    (``tf.keras.layers.SpectralNormalization``; Miyato et al. 2018).

    With ``training=True`` the call updates the non-trainable ``vector_u``
    ``(1, kernel.shape[-1])`` and assigns the normalised kernel (unless the kernel is all
    zeros); the wrapped layer then runs as usual.

    Args:
        layer: a layer with a ``kernel`` or ``embeddings`` weight.
        power_iterations: the power iterations per call (default 1).

    Raises:
        ValueError: for ``power_iterations <= 0`` or a layer with neither weight.
    """

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        if getattr(self.layer, "kernel", None) is not None:
            self.kernel = self.layer.kernel
        elif getattr(self.layer, "embeddings", None) is not None:
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' "
                             "nor 'embeddings'")
        self.kernel_shape = tuple(self.kernel.shape)
        # Keras tracks the kernel as this layer's own weight too (first, before vector_u):
        # its weights order and its .keras ``vars`` group.
        self._own_weights.append(self.kernel)
        self.vector_u = self.add_weight(
            shape=(1, self.kernel_shape[-1]), name="vector_u", trainable=False,
            initializer=_init.TruncatedNormal(stddev=0.02), dtype=self.kernel.dtype)
        self.built = True

    def normalized_weights(self):
        """``(vector_u, kernel / sigma)`` after ``power_iterations`` power iterations."""
        w = _a.reshape(self.kernel, [-1, self.kernel_shape[-1]])
        u = self.vector_u
        for _ in range(self.power_iterations):
            v = _unit(_m.matmul(u, w, transpose_b=True))
            u = _unit(_m.matmul(v, w))
        u, v = _a.stop_gradient(u), _a.stop_gradient(v)
        sigma = _m.matmul(_m.matmul(v, w), u, transpose_b=True)
        return u, _a.reshape(_m.divide(self.kernel, sigma), self.kernel_shape)

    def call(self, inputs, training=False):
        if training:
            u, kernel = self.normalized_weights()
            zero = _r.reduce_all(_m.equal(self.kernel, 0))
            self.vector_u.assign(_a.where(zero, self.vector_u, u))
            self.kernel.assign(_a.where(zero, self.kernel, kernel))
        return _a.cast(self.layer(inputs), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        return dict(super().get_config(), power_iterations=self.power_iterations)
