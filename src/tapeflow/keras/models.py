"""Model (subclassable) and Sequential (a stack of layers), as in Keras 3."""
from .._core.backend import np
from .._core.tensor import Tensor
from .layers.input_layer import InputLayer, KerasTensor
from .layers.layer import Layer

__all__ = ["Model", "Sequential"]


class Model(Layer):
    """A layer that groups layers; subclass it and define ``call`` (``tf.keras.Model``).

    Layers, models and lists of layers assigned as attributes are tracked in assignment
    order, so ``trainable_variables`` lists each one's weights in that order, after any
    weights the model made itself.

    Raises:
        NotImplementedError: for the functional form ``Model(inputs, outputs)``, which
            tapeflow does not build.
    """

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise NotImplementedError(
                "tapeflow does not build functional models (Model(inputs, outputs)). "
                "Hint: subclass tf.keras.Model or use tf.keras.Sequential.")
        super().__init__(**kwargs)

    def call(self, inputs, training=None):
        raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` "
                                  "method implemented.")

    def summary(self, line_length=None, positions=None, print_fn=None, **kwargs):
        """Print each sublayer's name, type, output shape and parameter count, and totals.

        Shapes are known once the model has been called (or built from an input shape).
        """
        print_fn = print_fn or print
        rows = [(f"{layer.name} ({type(layer).__name__})",
                 str(layer._output_shape) if layer._output_shape else "?",
                 f"{layer.count_params():,}") for layer in self.layers]
        width = (33, 24, 15)
        print_fn(f'Model: "{self.name}"')
        rule = "+" + "+".join("-" * w for w in width) + "+"
        print_fn(rule)
        print_fn("|" + "Layer (type)".ljust(width[0]) + "|" + "Output Shape".ljust(width[1])
                 + "|" + "Param #".rjust(width[2]) + "|")
        print_fn(rule.replace("-", "="))
        for name, shape, count in rows:
            print_fn("|" + name[:width[0]].ljust(width[0]) + "|" + shape.ljust(width[1])
                     + "|" + count.rjust(width[2]) + "|")
        print_fn(rule)
        total = self.count_params()
        trainable = int(sum(w._value.size for w in self.trainable_weights))

        def size(n):
            nbytes = 4 * n
            return f"{nbytes / 1024:.2f} KB" if nbytes >= 1024 else f"{nbytes:.2f} B"
        print_fn(f" Total params: {total:,} ({size(total)})")
        print_fn(f" Trainable params: {trainable:,} ({size(trainable)})")
        print_fn(f" Non-trainable params: {total - trainable:,} ({size(total - trainable)})")


class Sequential(Model):
    """A plain stack of layers, each feeding the next (``tf.keras.Sequential``).

    If the first entry is ``tf.keras.Input(shape)`` or a layer given ``input_shape``, the
    model builds its weights at once; otherwise on the first call.

    Args:
        layers: optional list of layers (an ``Input`` may come first).
        name: the model's name (default ``sequential``, ``sequential_1``, ...).
        trainable: whether the weights are trainable.

    >>> import tapeflow as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dense(1)])
    >>> model(tf.ones((2, 3))).shape
    TensorShape([2, 1])
    >>> len(model.trainable_variables)
    4
    """

    def __init__(self, layers=None, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._layers = []
        self._input_shape = None
        for layer in layers or ():
            self.add(layer, rebuild=False)
        self._maybe_build_from_input_shape()

    def add(self, layer, rebuild=True):
        """Append a layer (or an ``Input`` to declare the input shape).

        Raises:
            ValueError: for something that is neither a layer nor an Input.
        """
        if isinstance(layer, KerasTensor):
            self._input_shape = layer.shape
            return
        if isinstance(layer, InputLayer):
            self._input_shape = layer.batch_shape
            return
        if not isinstance(layer, Layer):
            raise ValueError("Only instances of `keras.Layer` can be added to a Sequential "
                             f"model. Received: {layer} (of type {type(layer)})")
        if not self._layers and layer._input_shape_arg is not None:
            self._input_shape = (None,) + layer._input_shape_arg
        self._layers.append(layer)
        self.built = False
        if rebuild:
            self._maybe_build_from_input_shape()

    def pop(self):
        """Remove and return the last layer."""
        layer = self._layers.pop()
        self.built = False
        return layer

    @property
    def layers(self) -> list:
        return list(self._layers)

    def _maybe_build_from_input_shape(self):
        if self._input_shape is None or not self._layers:
            return
        if all(layer.built for layer in self._layers):
            self.built = True
            return
        shape = tuple(1 if d is None else d for d in self._input_shape)
        self(Tensor(np.zeros(shape, self.dtype_policy._np)), training=False)

    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            if layer._call_has_training:
                x = layer(x, training=training)
            else:
                x = layer(x)
        return x
