"""A functional model's config, as Keras 3 writes it: every layer with its calls
(``inbound_nodes``), then ``input_layers`` and ``output_layers``; and the model rebuilt from it.

A call's arguments are written with each symbolic tensor as ``{"class_name":
"__keras_tensor__", "config": {"shape", "dtype", "keras_history": [layer name, node index,
tensor index]}}``, node indices counting the layer's calls inside this model.
"""
from .._symbolic import KerasTensor, Node, map_structure, operation_order
from .serialization import MODEL_CLASSES, deserialize_keras_object, serialize_keras_object

__all__ = ["graph", "functional_config", "functional_from_config"]


def _node_of(kt):
    return kt._node if kt._node is not None else kt._input_layer


def _layer_of(node):
    return node.layer if isinstance(node, Node) else node


def graph(model):
    """``(layers, nodes)``: the layers in Keras 3's order (unused inputs included) and the
    set of node ids inside the model."""
    return operation_order(model._fn_outputs, model._fn_inputs)


def functional_config(model) -> dict:
    """``{"name", "trainable", "layers", "input_layers", "output_layers"}``."""
    layers, nodes = graph(model)
    names = [layer.name for layer in layers]
    for name in names:
        if names.count(name) != 1:
            raise ValueError(f'The name "{name}" is used {names.count(name)} times in the '
                             "model. All operation names should be unique.")
    index = {}  # id(node) -> its index among the layer's calls in this model
    for layer in layers:
        calls = [n for n in getattr(layer, "_inbound_nodes", []) if id(n) in nodes]
        for i, node in enumerate(calls):
            index[id(node)] = i

    def history(kt):
        node = _node_of(kt)
        return [_layer_of(node).name, index.get(id(node), 0), kt._index or 0]

    def tensor(value):
        if type(value) is KerasTensor:
            return {"class_name": "__keras_tensor__",
                    "config": {"shape": list(value.shape), "dtype": value.dtype,
                               "keras_history": history(value)}}
        return serialize_keras_object(value)

    entries = []
    for layer in layers:
        entry = serialize_keras_object(layer)
        entry["name"] = layer.name
        calls = [n for n in getattr(layer, "_inbound_nodes", []) if id(n) in nodes]
        entry["inbound_nodes"] = [
            {"args": [map_structure(tensor, a) for a in node.args],
             "kwargs": map_structure(tensor, dict(node.kwargs))} for node in calls]
        entries.append(entry)

    def endpoints(structure):
        if type(structure) is KerasTensor:
            return history(structure)
        if isinstance(structure, dict):
            return {k: endpoints(v) for k, v in structure.items()}
        return [endpoints(v) for v in structure]

    return {"name": model.name, "trainable": model.trainable, "layers": entries,
            "input_layers": endpoints(model._fn_inputs),
            "output_layers": endpoints(model._fn_outputs)}


def _is_history(value):
    return (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str)
            and isinstance(value[1], int) and isinstance(value[2], int))


def functional_from_config(config, custom_objects=None):
    """The functional ``Model`` that :func:`functional_config` (or Keras 3) described.

    Raises:
        ValueError: if a call refers to a tensor no layer produces.
    """
    from ..layers.input_layer import InputLayer
    created, pending = {}, []
    for entry in config["layers"]:
        layer_config = {k: v for k, v in entry.items() if k not in ("name", "inbound_nodes")}
        layer = deserialize_keras_object(layer_config, custom_objects)
        # a call refers to its layer by the config's name, which a custom layer whose
        # get_config leaves the name out does not get back (Keras keys by it too)
        created[entry["name"]] = layer
        for node in entry.get("inbound_nodes", []):
            pending.append((entry["name"], layer, node))
    outputs = {}  # (layer name, node index) -> output structure
    for name, layer in created.items():
        if isinstance(layer, InputLayer):
            outputs[(name, 0)] = layer.output
    calls = {}

    def ready(value):
        if isinstance(value, dict) and value.get("class_name") == "__keras_tensor__":
            name, node_index, _ = value["config"]["keras_history"]
            return (name, node_index) in outputs
        if isinstance(value, dict):
            return all(ready(v) for v in value.values())
        if isinstance(value, list):
            return all(ready(v) for v in value)
        return True

    def resolve(value):
        if isinstance(value, dict) and value.get("class_name") == "__keras_tensor__":
            name, node_index, tensor_index = value["config"]["keras_history"]
            out = outputs[(name, node_index)]
            return out[tensor_index] if isinstance(out, (list, tuple)) else out
        if isinstance(value, dict) and "class_name" in value:
            return deserialize_keras_object(value, custom_objects)
        if isinstance(value, dict):
            return {k: resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v) for v in value]
        return value

    while pending:
        progressed, waiting = False, []
        for name, layer, node in pending:
            if not (ready(node["args"]) and ready(node["kwargs"])):
                waiting.append((name, layer, node))
                continue
            args = resolve(node["args"])
            kwargs = resolve(node["kwargs"])
            kwargs.pop("training", None)  # Keras records the call's default
            if kwargs.get("mask", 0) is None:
                kwargs.pop("mask")
            out = layer(*args, **kwargs)
            i = calls.get(name, 0)
            calls[name] = i + 1
            outputs[(name, i)] = out
            progressed = True
        if not progressed:
            raise ValueError("Cannot rebuild the functional model: a layer's inputs are never "
                             f"produced: {[name for name, _, _ in waiting]}")
        pending = waiting

    def endpoints(spec):
        if _is_history(spec):
            name, node_index, tensor_index = spec
            out = outputs[(name, node_index)]
            return out[tensor_index] if isinstance(out, (list, tuple)) else out
        if isinstance(spec, dict):
            return {k: endpoints(v) for k, v in spec.items()}
        return [endpoints(v) for v in spec]

    model = MODEL_CLASSES["Model"]   # keras.models files it (a floor above)
    return model(inputs=endpoints(config["input_layers"]),
                 outputs=endpoints(config["output_layers"]), name=config["name"],
                 trainable=config.get("trainable", True))
