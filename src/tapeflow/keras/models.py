"""Model (subclassable) and Sequential (a stack of layers), as in Keras 3."""
from .._core.backend import np
from .._core.tensor import Tensor
from . import _naming, _symbolic
from .layers import layer as _layer
from .layers.input_layer import InputLayer, KerasTensor
from .layers.layer import Layer
from .trainer import Trainer

__all__ = ["Model", "Sequential"]


class Model(Trainer, Layer):
    """A layer that groups layers (``tf.keras.Model``): subclass it and define ``call``, or
    build it from symbolic tensors as ``Model(inputs, outputs)`` (the functional API).

    In a subclass, layers, models and lists of layers assigned as attributes are tracked in
    assignment order, so ``trainable_variables`` lists each one's weights in that order,
    after any weights the model made itself. A functional model lists its layers (inputs
    included) in the order the graph reaches them from its outputs, as Keras does.

    Args:
        inputs, outputs: for the functional form, the ``tf.keras.Input`` tensors and the
            symbolic tensors computed from them (single, list or dict).
        name: the model's name (default ``functional`` or the class name in snake case).

    Raises:
        ValueError: for ``Model(inputs)`` without outputs.
    """

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if args else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        if inputs is None and outputs is None:
            super().__init__(**kwargs)
            return
        if inputs is None or outputs is None:
            raise ValueError("A functional model needs both `inputs` and `outputs`.")
        kwargs["name"] = kwargs.get("name") or _naming.auto_name("Functional")
        super().__init__(**kwargs)
        self._fn_layers = _graph_layers(outputs)
        self._fn_inputs, self._fn_outputs = inputs, outputs
        self.built = True
        first = _symbolic.flatten(outputs)[0]
        self._output_shape = first.shape

    def get_layer(self, name=None, index=None):
        """The layer called ``name`` (or at position ``index`` of ``layers``).

        Raises:
            ValueError: if no layer matches.
        """
        layers = self.layers
        if index is not None:
            if not -len(layers) <= index < len(layers):
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(layers)} layers.")
            return layers[index]
        for layer in layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[layer.name for layer in layers]}.")

    @property
    def inputs(self) -> list:
        return _symbolic.flatten(getattr(self, "_fn_inputs", None) or [])

    @property
    def outputs(self) -> list:
        return _symbolic.flatten(getattr(self, "_fn_outputs", None) or [])

    @property
    def input_shape(self):
        """The shape of the functional model's input (a list for several), batch ``None``.

        Raises:
            AttributeError: for a model without symbolic inputs.
        """
        shapes = [kt.shape for kt in self.inputs]
        if not shapes:
            raise AttributeError(f"Model '{self.name}' has no defined input shape yet.")
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        """The shape of the functional model's output (a list for several), batch ``None``.

        Raises:
            AttributeError: for a model without symbolic outputs.
        """
        shapes = [kt.shape for kt in self.outputs]
        if not shapes:
            raise AttributeError(f"Model '{self.name}' has no defined output shape yet.")
        return shapes[0] if len(shapes) == 1 else shapes

    def call(self, inputs, training=None):
        if getattr(self, "_fn_outputs", None) is not None:
            return self._run_graph(inputs, training)
        raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` "
                                  "method implemented.")

    def _run_graph(self, inputs, training):
        symbols = _symbolic.flatten(self._fn_inputs)
        if isinstance(inputs, dict):
            given = [inputs[kt._input_layer.name if kt._input_layer else kt.name]
                     for kt in symbols]
        else:
            given = _symbolic.flatten(inputs)
        if len(given) != len(symbols):
            raise ValueError(f"Model {self.name} expects {len(symbols)} input(s), but it "
                             f"received {len(given)} input tensors.")
        values = {id(kt): v for kt, v in zip(symbols, given, strict=True)}
        node_outputs = {}

        def value_of(kt):
            if id(kt) in values:
                return values[id(kt)]
            node = kt._node
            if id(node) not in node_outputs:
                args = _symbolic.map_structure(
                    lambda a: value_of(a) if type(a) is _symbolic.KerasTensor else a,
                    node.args)
                node_outputs[id(node)] = node.layer(args, training=training, **node.kwargs)
            out = node_outputs[id(node)]
            value = out if kt._index is None else out[kt._index]
            values[id(kt)] = value
            return value

        return _symbolic.map_structure(value_of, self._fn_outputs)

    def build(self, input_shape=None):
        """Create every weight by running the model once on zeros of ``input_shape``
        (``None`` dimensions taken as 1), as ``model.build((None, 784))`` does in Keras."""
        if (_layer.building and _layer.building[-1] is self) or input_shape is None:
            self.built = True
            return
        self._build_from_shape(tuple(input_shape))

    def _build_from_shape(self, input_shape):
        self.built = True
        shape = tuple(1 if d is None else d for d in input_shape)
        self(Tensor(np.zeros(shape, self.dtype_policy._np)), training=False)
        if input_shape[0] is None:
            for layer in [self, *self._all_layers()]:
                if layer._output_shape:
                    layer._output_shape = (None,) + layer._output_shape[1:]

    def _all_layers(self):
        found = []
        for layer in self.layers:
            found.append(layer)
            if isinstance(layer, Model):
                found += layer._all_layers()
        return found

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Print each layer's name, type, output shape and parameter count, and totals, in
        Keras 3's table as it prints on a plain terminal (``tf.keras.Model.summary``).

        Functional models list their ``InputLayer``s too, and a "Connected to" column when
        the graph is not a simple chain; an unbuilt layer shows ``?`` and ``0 (unbuilt)``.

        Args:
            line_length: the table's width (default: Keras's, from the terminal width).
            positions: the columns' right edges (fractions of ``line_length`` or
                characters).
            print_fn: called once with the whole text; default: written to stdout.
            expand_nested: also list the layers of nested models.
            show_trainable: add a "Trainable" column.
            layer_range: two regular expressions bounding the layers printed.
        """
        from .utils.summary_utils import print_summary
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn,
                      expand_nested=expand_nested, show_trainable=show_trainable,
                      layer_range=layer_range)


def _graph_layers(outputs):
    """The layers that compute ``outputs``, inputs first, in depth-first order."""
    order, seen = [], set()

    def visit(kt):
        if kt._node is None:
            layer = kt._input_layer
        else:
            for arg in _symbolic.flatten(kt._node.args):
                if type(arg) is _symbolic.KerasTensor:
                    visit(arg)
            layer = kt._node.layer
        if layer is not None and id(layer) not in seen:
            seen.add(id(layer))
            order.append(layer)

    for kt in _symbolic.flatten(outputs):
        visit(kt)
    return order


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

    @property
    def input_shape(self):
        """``(None, *example_shape)`` once the input shape is known (``Input`` first)."""
        if self._input_shape is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined input shape "
                                 "yet.")
        return tuple(self._input_shape)

    @property
    def output_shape(self):
        """The last layer's output shape, batch ``None``, once the model is built."""
        if self._input_shape is None or not self._layers or not self.built:
            raise AttributeError(f"Sequential model '{self.name}' has no defined output "
                                 "shape yet.")
        return tuple(self._layers[-1]._output_shape)

    def _maybe_build_from_input_shape(self):
        if self._input_shape is None or not self._layers:
            return
        # Keras 3 rebuilds a Sequential as an unnamed Functional model here, which takes
        # the next ``functional`` name (so a later functional model is ``functional_1``).
        _naming.auto_name("Functional")
        known = 0
        for layer in self._layers:
            if not (layer.built and layer._output_shape is not None):
                break
            known += 1
        if known == len(self._layers):
            self.built = True
            return
        if not known:
            self._build_from_shape(self._input_shape)
            return
        # Layers appended to a built stack: run only them, on zeros of the last known shape
        # (so a model grown by add() one layer at a time builds in linear time).
        self.built = True
        shape = self._layers[known - 1]._output_shape
        x = Tensor(np.zeros(tuple(1 if d is None else d for d in shape), self.dtype_policy._np))
        for layer in self._layers[known:]:
            x = layer(x, training=False) if layer._call_has_training else layer(x)
            if self._input_shape[0] is None and layer._output_shape:
                layer._output_shape = (None,) + tuple(layer._output_shape[1:])

    def build(self, input_shape=None):
        if (_layer.building and _layer.building[-1] is self) or input_shape is None:
            if self._layers and self._input_shape is None:
                _naming.auto_name("Functional")
            self.built = True
            return
        self._input_shape = tuple(input_shape)
        self._maybe_build_from_input_shape()

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            if layer._call_has_training:
                x = layer(x, training=training)
            else:
                x = layer(x)
        return x
