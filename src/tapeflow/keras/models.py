"""Model (subclassable) and Sequential (a stack of layers), as in Keras 3."""
from .._core.backend import np
from .._core.tensor import Tensor
from . import _naming, _symbolic
from .layers import layer as _layer
from .layers.input_layer import InputLayer, KerasTensor
from .layers.layer import Layer
from .saving import functional as _functional
from .saving import saving_lib as _saving_lib
from .saving import serialization as _serialization
from .saving.saving_lib import load_model, model_from_json, save_model
from .trainers.trainer import Trainer

__all__ = ["Model", "Sequential", "clone_model", "load_model", "model_from_json", "save_model"]


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

    def __new__(cls, *args, **kwargs):
        # ``Model(inputs, outputs)`` makes a ``Functional``, as Keras 3's ``Model`` does
        if cls is Model and (len(args) > 1 or "outputs" in kwargs):
            cls = Functional
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if args else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        if inputs is None and outputs is None:
            super().__init__(**kwargs)
            self._remember_strategy()
            return
        if inputs is None or outputs is None:
            raise ValueError("A functional model needs both `inputs` and `outputs`.")
        kwargs["name"] = kwargs.get("name") or _naming.auto_name("Functional")
        super().__init__(**kwargs)
        self._remember_strategy()
        self._fn_layers = _graph_layers(outputs, inputs)
        self._fn_inputs, self._fn_outputs = inputs, outputs
        self._allow_non_tensor_positional_args = True  # as Keras's Functional
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
    def output_names(self) -> list:
        """The names of the layers that make the outputs of a functional or Sequential
        model (Keras's ``Functional.output_names``), the per-output keys of ``compile``.

        Raises:
            AttributeError: for a subclassed model (Keras's has no such attribute), unless
                set.
        """
        given = self.__dict__.get("_given_output_names")
        if given is not None:
            return given
        outputs = self.outputs
        if not outputs:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                 "'output_names'")
        if isinstance(getattr(self, "_fn_outputs", None), dict):
            outputs = [self._fn_outputs[k] for k in sorted(self._fn_outputs)]
        return [(kt._node.layer.name if kt._node is not None else
                 getattr(kt._input_layer, "name", kt.name)) for kt in outputs]

    @output_names.setter
    def output_names(self, names):
        self.__dict__["_given_output_names"] = names

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
        given = [_adjust_rank(kt, v) for kt, v in zip(symbols, given)]
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
                kwargs = {k: _symbolic.map_structure(
                    lambda a: value_of(a) if type(a) is _symbolic.KerasTensor else a, v)
                    for k, v in node.kwargs.items()}
                node_outputs[id(node)] = node.layer(*args, training=training, **kwargs)
            out = node_outputs[id(node)]
            value = out if kt._index is None else out[kt._index]
            values[id(kt)] = value
            return value

        # the deepest calls first, from an explicit stack: value_of then recurses one level
        # only (a deep graph, EfficientNetV2's or ResNet152's, would exceed Python's limit)
        stack = list(_symbolic.flatten(self._fn_outputs))
        while stack:
            kt = stack[-1]
            if id(kt) in values or kt._node is None:
                stack.pop()
                continue
            pending = [a for a in kt._node.inputs if id(a) not in values]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            value_of(kt)
        return _symbolic.map_structure(value_of, self._fn_outputs)

    def build(self, input_shape=None):
        """Create every weight by running the model once on zeros of ``input_shape``
        (``None`` dimensions taken as 1), as ``model.build((None, 784))`` does in Keras."""
        if (_layer.building and _layer.building[-1] is self) or input_shape is None:
            self.built = True
            return
        self._build_from_shape(tuple(input_shape))

    build._keras_default = True   # Keras's Model keeps Layer's default build()

    def _build_from_shape(self, input_shape):
        self.built = True
        self._build_shape = tuple(input_shape)
        shape = tuple(1 if d is None else d for d in input_shape)
        if input_shape[0] is None:
            _symbolic.unknown_batch.append(True)
        try:
            self(Tensor(np.zeros(shape, self.dtype_policy._np)), training=False)
        finally:
            if input_shape[0] is None:
                _symbolic.unknown_batch.pop()
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

    # -- saving (the logic lives in keras/saving) ------------------------------------------
    def export(self, filepath, format="tf_saved_model", verbose=True, input_signature=None,
               **kwargs):
        """Write the model's inference pass as a serving SavedModel (``tf.keras.Model.export``):
        the ``serve`` endpoint and ``serving_default`` signature, the ``variables`` lists; the
        logic is ``keras/export``.

        Args:
            filepath: the directory (str or path-like).
            format: only ``"tf_saved_model"``.
            verbose: print Keras's listing of the endpoints.
            input_signature: a list of ``tf.TensorSpec``; default from ``model.inputs``.

        Raises:
            ValueError: another format, or an unbuilt model without ``input_signature``.
        """
        if format != "tf_saved_model":
            raise ValueError("Unrecognized format=" + repr(format) + ". tapeflow exports "
                             "only format='tf_saved_model'.")
        from .export import export_saved_model

        export_saved_model(self, filepath, verbose=verbose, input_signature=input_signature)

    def _default_save_signature(self):
        """TF's protocol for ``tf.saved_model.save(model)``: the ``serving_default`` of a model
        with symbolic inputs (its inference call on them), else None."""
        from .export import _model_signature

        if not self.inputs:
            return None
        from ..function import function as _function
        from .export import _serve_fn

        return _function(_serve_fn(self), input_signature=_model_signature(self),
                         autograph=False)

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Write the model to a Keras 3 ``.keras`` file (``tf.keras.Model.save``): a zip of
        ``config.json`` (the architecture and compile arguments), ``model.weights.h5`` and
        ``metadata.json``, that ``tf.keras.models.load_model`` and Keras 3 both read.

        Args:
            filepath: a path ending in ``.keras``.
            overwrite: if False and the file exists, ask on the console.

        Raises:
            ValueError: for another extension (the legacy ``.h5`` included) or a layer
                that cannot be saved (named in the message).
            ImportError: without h5py (``pip install "tapeflow[h5]"``).

        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
        >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
        >>> model.save(path)
        >>> import zipfile
        >>> zipfile.ZipFile(path).namelist()
        ['metadata.json', 'config.json', 'model.weights.h5']
        """
        _saving_lib.save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """Write the weights (and the optimizer's state) to a Keras 3 ``.weights.h5`` file
        (``tf.keras.Model.save_weights``).

        Args:
            filepath: a path ending in ``.weights.h5``.
            overwrite: if False and the file exists, ask on the console.

        Raises:
            ValueError: if the model is not built, or for another extension.
            ImportError: without h5py (``pip install "tapeflow[h5]"``).

        >>> import os, tempfile
        >>> import h5py
        >>> import tapeflow as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
        >>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
        >>> model.save_weights(path)
        >>> with h5py.File(path) as f:
        ...     print(f["layers/dense/vars/0"].shape, f["layers/dense/vars/1"].shape)
        (3, 2) (2,)
        """
        _saving_lib.save_weights(self, filepath, overwrite=overwrite,
                                max_shard_size=max_shard_size)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Assign the weights stored in a ``.weights.h5`` or ``.keras`` file
        (``tf.keras.Model.load_weights``); matching is by the layers' positions in the
        model (Keras 3's group paths), not by their names.

        Raises:
            ValueError: if the model is not built, for another file type, or (unless
                ``skip_mismatch``) when the stored variables do not fit.
            ImportError: without h5py.
        """
        _saving_lib.load_weights(self, filepath, skip_mismatch=skip_mismatch, **kwargs)

    def get_config(self) -> dict:
        """A functional model's graph (layers, their calls, inputs and outputs) as Keras 3
        writes it; for a subclassed model, its plain-data constructor arguments."""
        if getattr(self, "_fn_outputs", None) is not None and type(self) in (Model, Functional):
            return _functional.functional_config(self)
        return super().get_config()

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A model from :meth:`get_config`'s dict (a functional graph, or a subclass's
        constructor arguments).

        Raises:
            TypeError: if a subclass's constructor does not take the config.
        """
        if cls in (Model, Functional) and all(
                k in config for k in ("name", "layers", "input_layers", "output_layers")):
            return _functional.functional_from_config(config, custom_objects)
        try:
            return cls(**_serialization.deserialize_config_values(config, custom_objects))
        except TypeError as e:
            raise TypeError(
                "Unable to revive model from config. When overriding the `get_config()` "
                "method, make sure that the returned config contains all items used as "
                f"arguments in the  constructor to {cls}, which is the default behavior. "
                "You can override this default behavior by defining a `from_config(cls, "
                "config)` class method to specify how to create an instance of "
                f"{cls.__name__} from its config.\n\nReceived config={config}\n\nError "
                f"encountered during deserialization: {e}") from e

    def get_compile_config(self):
        """The ``compile`` arguments (optimizer serialized), or ``{}`` if not compiled."""
        if not self.compiled:
            return {}
        # the metrics of this compile (an earlier compile's stay in use when it gave none)
        cm = self._compile_metrics if self._compile_options["metrics_given"] else None
        options = {k: v for k, v in self._compile_options.items() if k != "metrics_given"}
        serialize = _serialization.serialize_keras_object
        return {"optimizer": serialize(self.optimizer), "loss": serialize(self.loss),
                "loss_weights": (None if self._compile_loss is None
                                 else self._compile_loss._user_loss_weights),
                "metrics": serialize(_given_metrics(cm)) if cm else None,
                "weighted_metrics": (serialize(_given_metrics(cm, 1))
                                     if cm and cm._user_weighted else None),
                **options}

    def compile_from_config(self, config):
        """``compile`` with the arguments :meth:`get_compile_config` returned; the
        optimizer's slots are made at once so a loaded state has somewhere to go."""
        config = _serialization.deserialize_keras_object(config)
        self.compile(**config)
        if self.built:
            self.optimizer._build_once(self.trainable_variables)

    def get_build_config(self):
        if getattr(self, "_fn_outputs", None) is not None:
            return {"input_shape": self._build_shape}  # Keras writes None for a graph
        return super().get_build_config()

    def build_from_config(self, config):
        if config and config.get("input_shape") is not None:
            self.build(tuple(config["input_shape"]))

    def to_json(self, **kwargs) -> str:
        """The model's config (``serialize_keras_object``) as a JSON string."""
        import json

        return json.dumps(_serialization.serialize_keras_object(self), **kwargs)

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


def _graph_layers(outputs, inputs=()):
    """The layers that compute ``outputs`` (and the unused ``inputs``), in Keras's order."""
    # operations on KerasTensors (``x + 3.0``) run in the graph but are not layers
    return [layer for layer in _symbolic.operation_order(outputs, inputs)[0]
            if not getattr(layer, "_is_operation", False)]


def _adjust_rank(kt, value):
    """A concrete input one rank off its ``Input`` by a trailing 1, squeezed or expanded to
    it (Keras's ``Functional._adjust_input_rank``): ``(batch,)`` feeds ``Input((1,))``."""
    shape = getattr(value, "shape", None)
    if shape is None or type(value) is KerasTensor or kt.shape is None:
        return value
    rank, want = len(shape), len(kt.shape)
    if rank == want + 1 and shape[-1] == 1:
        from ..ops import array_ops
        return array_ops.squeeze(value, axis=-1)
    if rank == want - 1 and want and kt.shape[-1] == 1:
        from ..ops import array_ops
        return array_ops.expand_dims(value, axis=-1)
    return value


class Functional(Model):
    """The class of ``Model(inputs, outputs)`` (Keras 3's ``Functional``, which its ``Model``
    constructor returns for symbolic inputs and outputs): a model whose ``call`` runs the
    graph of layers between them. ``input``/``output`` are the tensors given to the
    constructor, in their structure (a dict stays a dict); ``inputs``/``outputs`` flat, a
    dict's values in key order, as Keras flattens."""

    @property
    def input(self):
        return self._fn_inputs

    @property
    def output(self):
        return self._fn_outputs


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
            self._input_layer = layer._input_layer
            return
        if isinstance(layer, InputLayer):
            self._input_shape = layer.batch_shape
            self._input_layer = layer
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
        seq = getattr(self, "_seq_layers", None)
        if seq and seq[-1] is layer:
            seq.pop()
            self._seq_output = seq[-1].output if seq else None
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
            if getattr(self, "_input_layer", None) is None:
                # Keras 3 makes the InputLayer of a known input shape (a first layer's
                # ``input_shape``, ``build(shape)``) and builds the stack as a graph on it
                self._input_layer = InputLayer(batch_shape=self._input_shape)
            self._build_symbolic(self._input_layer.output, self._layers)
            return
        if getattr(self, "_seq_output", None) is not None and known == len(self._seq_layers):
            # appended to a stack built from an Input: call them symbolically too
            self._build_symbolic(self._seq_output, self._layers[known:])
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

    def _build_symbolic(self, x, layers):
        """Call ``layers`` one after another on KerasTensors from ``x`` (the Input's, or the
        stack's last output), as Keras 3 builds a Sequential with a known input as a
        functional graph: each layer gets its ``input``/``output``, the model its
        ``inputs``/``outputs``, so a feature extractor can be cut from it
        (``Model(model.inputs, model.get_layer(name).output)``). Each layer is built by that
        call, on zeros, as the plain build does."""
        if not getattr(self, "_seq_layers", None) or x is self._input_layer.output:
            self._seq_layers = []
        self.built = True
        self._build_shape = tuple(self._input_shape)
        with _naming.name_scope(self.name, self):    # weights are 'seq/d1/kernel'
            for layer in layers:
                x = layer(x)
                self._seq_layers.append(layer)
        self._seq_output = x
        if self._input_shape[0] is None:
            for layer in self._all_layers():
                if layer._output_shape:
                    layer._output_shape = (None,) + tuple(layer._output_shape[1:])
        self._output_shape = layers[-1]._output_shape if layers else self._output_shape

    @property
    def inputs(self) -> list:
        if getattr(self, "_seq_output", None) is not None:
            return [self._input_layer.output]
        return super().inputs

    @property
    def outputs(self) -> list:
        if getattr(self, "_seq_output", None) is not None:
            return _symbolic.flatten(self._seq_output)
        return super().outputs

    def build(self, input_shape=None):
        if (_layer.building and _layer.building[-1] is self) or input_shape is None:
            if self._layers and self._input_shape is None:
                _naming.auto_name("Functional")
            self.built = True
            return
        self._input_shape = tuple(input_shape)
        self._maybe_build_from_input_shape()

    def get_config(self) -> dict:
        """``name``, ``trainable``, ``dtype``, the layers (an ``InputLayer`` first when the
        input shape is known) and ``build_input_shape``, as Keras 3 writes them."""
        layers = [_serialization.serialize_keras_object(layer) for layer in self._layers]
        shape = self._input_shape or self._build_shape
        if shape is not None:  # Keras adds an InputLayer once the input shape is known
            given = getattr(self, "_input_layer", None)
            if given is None:
                given = InputLayer(batch_shape=shape, name="input_layer")
            layers.insert(0, _serialization.serialize_keras_object(given))
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": _serialization.dtype_policy_config(self.dtype), "layers": layers}
        if shape is not None:
            config["build_input_shape"] = list(shape)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        model = cls(name=config.get("name"), trainable=config.get("trainable", True))
        for layer_config in config["layers"]:
            layer = _serialization.deserialize_keras_object(layer_config, custom_objects)
            model.add(layer, rebuild=False)
        shape = config.get("build_input_shape")
        if shape and not model.built:
            model.build(tuple(shape))
        return model

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            if layer._call_has_training:
                x = layer(x, training=training)
            else:
                x = layer(x)
        return x


def _given_metrics(compile_metrics, which=0):
    """The ``metrics`` (``which=0``) or ``weighted_metrics`` (1) of a compile config: a flat
    list, or the per-output list or dict as given to ``compile``."""
    given = compile_metrics._given[which]
    if isinstance(given, dict) or (isinstance(given, (list, tuple)) and any(
            isinstance(m, (list, tuple, dict)) or m is None for m in given)):
        return given
    return list(compile_metrics._user_weighted if which else compile_metrics._user)


def clone_model(model, input_tensors=None, clone_function=None, call_function=None,
                recursive=False, **kwargs):
    """A new model of the same architecture with new weights (``tf.keras.models.clone_model``).

    Args:
        model: a Sequential, functional or subclassed model.
        input_tensors: new inputs for a Sequential or functional model (``keras.Input``
            tensors).
        clone_function: ``layer -> new layer`` (default: ``layer.__class__.from_config(
            layer.get_config())``, which keeps names and makes new weights).
        call_function, recursive: Keras 3's; ``recursive`` clones nested models with the
            same function (the default ``clone_function`` clones a nested model whole).

    Returns:
        The new model (not compiled; its weights are freshly initialized).

    Raises:
        ValueError: ``input_tensors`` or ``clone_function`` for a subclassed model (Keras's
            text).
    """
    def default_clone(layer):
        return layer.__class__.from_config(layer.get_config())

    clone = clone_function or default_clone

    def clone_layer(layer):
        if recursive and isinstance(layer, (Sequential,)) or (
                recursive and getattr(layer, "_fn_outputs", None) is not None):
            return clone_model(layer, clone_function=clone_function, recursive=True)
        return clone(layer)

    if isinstance(model, Sequential):
        layers = [clone_layer(layer) for layer in model.layers]
        head = []
        if input_tensors is not None:
            head = _symbolic.flatten(input_tensors)[:1]
        elif getattr(model, "_input_layer", None) is not None:
            spec = model._input_layer
            head = [InputLayer(batch_shape=spec.batch_shape, dtype=spec.dtype,
                               name=spec.name).output]
        return Sequential(head + layers, name=model.name, trainable=model.trainable)
    if getattr(model, "_fn_outputs", None) is not None and type(model) in (Model, Functional):
        old_inputs = _symbolic.flatten(model._fn_inputs)
        if input_tensors is None:
            new_inputs = [InputLayer(batch_shape=kt.shape, dtype=kt.dtype,
                                     name=kt._input_layer.name if kt._input_layer
                                     else None).output for kt in old_inputs]
        else:
            new_inputs = _symbolic.flatten(input_tensors)
        values = {id(old): new for old, new in zip(old_inputs, new_inputs, strict=True)}
        clones, done = {}, {}

        def value_of(kt):
            if id(kt) in values:
                return values[id(kt)]
            node = kt._node
            if id(node) not in done:
                layer = node.layer
                if id(layer) not in clones:
                    clones[id(layer)] = clone_layer(layer)
                args = _symbolic.map_structure(
                    lambda a: value_of(a) if type(a) is KerasTensor else a, node.args)
                kw = {k: _symbolic.map_structure(
                    lambda a: value_of(a) if type(a) is KerasTensor else a, v)
                    for k, v in node.kwargs.items()}
                done[id(node)] = clones[id(layer)](*args, **kw)
            out = done[id(node)]
            value = out if kt._index is None else out[kt._index]
            values[id(kt)] = value
            return value

        outputs = _symbolic.map_structure(value_of, model._fn_outputs)
        inputs = new_inputs if isinstance(model._fn_inputs, (list, tuple)) else new_inputs[0]
        return Model(inputs, outputs, name=model.name)
    if input_tensors is not None or clone_function is not None:
        raise ValueError("Arguments `clone_function` and `input_tensors` are only supported "
                         "for Sequential models or Functional models. Received model of type "
                         f"'{type(model).__name__}', with clone_function={clone_function} "
                         f"and input_tensors={input_tensors}")
    return model.__class__.from_config(model.get_config())


# The config format, the weights layout and the callbacks (floors below) know them by type.
_serialization.register_model_classes(Model=Model, Functional=Functional, Sequential=Sequential)

