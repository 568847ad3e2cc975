"""``keras.utils.model_to_dot`` and ``plot_model``: a model's layer graph as Graphviz, through
pydot (an optional dependency: ``pip install "tapeflow[plot]"``; rendering to an image also
needs Graphviz's ``dot`` program)."""
import os
import sys

__all__ = ["model_to_dot", "plot_model"]


def _pydot():
    for name in ("pydot", "pydot_ng", "pydotplus"):
        try:
            return __import__(name)
        except ImportError:
            continue
    return None


def _has_graphviz(pydot):
    try:
        pydot.Dot.create(pydot.Dot())
        return True
    except (OSError, pydot.PydotException):
        return False


def _activation_name(layer):
    act = layer.activation
    if hasattr(act, "name"):
        return act.name
    if hasattr(act, "__name__"):
        return act.__name__
    return str(act)


def _shape_text(shape):
    if shape is None:
        return "?"
    text = ", ".join(f"{k}: {v}" for k, v in shape.items()) if isinstance(shape, dict) \
        else f"{shape}"
    return text.replace("}", "").replace("{", "")


def _map(fn, x):
    if isinstance(x, dict):
        return {k: _map(fn, v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_map(fn, v) for v in x)
    return fn(x)


def _label(layer, show_layer_names, show_layer_activations, show_dtype, show_shapes,
           show_trainable):
    """The node's HTML-like table label, cell for cell as Keras 3 writes it."""
    kind = type(layer).__name__
    span = max(1, int(show_dtype) + int(show_trainable) + (2 if show_shapes else 0))
    title = f"<b>{layer.name}</b> ({kind})" if show_layer_names else f"<b>{kind}</b>"
    html = ('<<table border="0" cellborder="1" bgcolor="black" cellpadding="10">'
            f'<tr><td colspan="{span}" bgcolor="black"><font point-size="16" color="white">'
            f"{title}</font></td></tr>")
    if show_layer_activations and getattr(layer, "activation", None) is not None:
        html += (f'<tr><td bgcolor="white" colspan="{span}"><font point-size="14">'
                 f"Activation: <b>{_activation_name(layer)}</b></font></td></tr>")
    cells = []
    if show_shapes:
        from ..layers.input_layer import InputLayer
        try:   # an InputLayer's input is its output, as in Keras
            shape_out = _map(lambda t: t.shape, layer.output)
            shape_in = shape_out if isinstance(layer, InputLayer) else _map(
                lambda t: t.shape, layer.input)
        except (ValueError, AttributeError):
            shape_in = shape_out = None
        if kind != "InputLayer":
            cells.append('<td bgcolor="white"><font point-size="14">Input shape: '
                         f"<b>{_shape_text(shape_in)}</b></font></td>")
        cells.append('<td bgcolor="white"><font point-size="14">Output shape: '
                     f"<b>{_shape_text(shape_out)}</b></font></td>")
    if show_dtype:
        try:
            dtype = _map(lambda t: getattr(t.dtype, "name", t.dtype), layer.output)
        except (ValueError, AttributeError):
            dtype = None
        cells.append('<td bgcolor="white"><font point-size="14">Output dtype: '
                     f"<b>{dtype or '?'}</b></font></td>")
    if show_trainable and hasattr(layer, "trainable") and layer.weights:
        cells.append('<td bgcolor="forestgreen"><font point-size="14" color="white"><b>'
                     "Trainable</b></font></td>" if layer.trainable else
                     '<td bgcolor="firebrick"><font point-size="14" color="white"><b>'
                     "Non-trainable</b></font></td>")
    if cells:
        html += f"<tr>{''.join(cells)}</tr>"
    return html + "</table>>"


def _node(pydot, layer, options):
    node = pydot.Node(str(id(layer)), label=_label(layer, **options))
    node.set("fontname", "Helvetica")
    node.set("border", "0")
    node.set("margin", "0")
    return node


def _edge(pydot, dot, src, dst):
    a, b = str(id(src)), str(id(dst))
    if not dot.get_edge(a, b):
        edge = pydot.Edge(a, b)
        edge.set("penwidth", "2")
        dot.add_edge(edge)


def _is_model(layer):
    from ..models import Model
    return isinstance(layer, Model) and (getattr(layer, "_fn_outputs", None) is not None
                                         or _is_sequential(layer))


def _is_sequential(model):
    from ..models import Sequential
    return isinstance(model, Sequential)


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True,
                 rankdir="TB", expand_nested=False, dpi=200, subgraph=False,
                 show_layer_activations=False, show_trainable=False, splines="ortho",
                 **kwargs):
    """A ``pydot.Dot`` graph of ``model``'s layers (``keras.utils.model_to_dot``).

    One node per layer (a table: name and class, optionally activation, input/output
    shapes, output dtype, trainability), one edge per connection; a subclassed model is a
    single node. Node names are the layers' ``id``.

    Args:
        model: a built ``Sequential``, Functional or subclassed model.
        show_shapes, show_dtype, show_layer_names, show_layer_activations, show_trainable:
            what each node shows.
        rankdir: 'TB' (top to bottom) or 'LR'.
        expand_nested: draw nested Sequential/Functional models as dashed clusters.
        dpi, splines: Graphviz attributes of the graph.
        subgraph: return a ``pydot.Cluster`` (for nesting).

    Raises:
        ValueError: for an unbuilt model or unknown keyword arguments (``layer_range`` is
            no longer supported, as in Keras 3).
        ImportError: without pydot (the ``tapeflow[plot]`` extra).
    """
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling "
                         "`build()` or by calling the model on a batch of data.")
    pydot = _pydot()
    if pydot is None:
        raise ImportError("You must install pydot (`pip install pydot`) for model_to_dot to "
                          'work. (tapeflow: pip install "tapeflow[plot]")')
    if subgraph:
        dot = pydot.Cluster(style="dashed", graph_name=model.name)
        dot.set("label", model.name)
        dot.set("labeljust", "l")
    else:
        dot = pydot.Dot()
        dot.set("rankdir", rankdir)
        dot.set("concentrate", True)
        dot.set("dpi", dpi)
        dot.set("splines", splines)
        dot.set_node_defaults(shape="record")
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("Argument `layer_range` is no longer supported.")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
    options = {"show_layer_names": show_layer_names,
               "show_layer_activations": show_layer_activations, "show_dtype": show_dtype,
               "show_shapes": show_shapes, "show_trainable": show_trainable}
    functional = getattr(model, "_fn_outputs", None) is not None and not _is_sequential(model)
    if _is_sequential(model):
        layers, inbound = model.layers, None
    elif not functional:
        dot.add_node(_node(pydot, model, options))
        return dot
    else:
        from .summary_utils import _functional_layout
        layers, _, _ = _functional_layout(model)
        inbound = _inbound(model)
    for layer in layers:
        if expand_nested and _is_model(layer):
            dot.add_subgraph(model_to_dot(
                layer, show_shapes, show_dtype, show_layer_names, rankdir, expand_nested,
                subgraph=True, show_layer_activations=show_layer_activations,
                show_trainable=show_trainable))
        else:
            dot.add_node(_node(pydot, layer, options))
    if inbound is None:
        if not expand_nested:
            for a, b in zip(layers, layers[1:]):
                _edge(pydot, dot, a, b)
            return dot
        inbound = {id(b): [a] for a, b in zip(layers, layers[1:])}
        layers = layers[1:]
    for layer in layers:
        for source in inbound.get(id(layer), ()):
            destination = layer
            if expand_nested:
                source, destination = _last_layer(source), _first_layer(destination)
            _edge(pydot, dot, source, destination)
    return dot


def _inbound(model):
    """``{id(layer): [source layers of its inputs, in call order]}`` of a Functional model."""
    from .._symbolic import KerasTensor, flatten
    out, seen = {}, set()

    def visit(kt):
        node = kt._node
        if node is None or id(node) in seen:
            return
        seen.add(id(node))
        for arg in node.inputs:
            visit(arg)
        sources = [arg._input_layer if arg._node is None else arg._node.layer
                   for arg in node.inputs]
        out.setdefault(id(node.layer), []).extend(s for s in sources if s is not None)

    for kt in flatten(model._fn_outputs):
        if type(kt) is KerasTensor:
            visit(kt)
    return out


def _last_layer(layer):
    while _is_model(layer):
        layer = layer.layers[-1]
    return layer


def _first_layer(layer):
    while _is_model(layer):
        layer = layer.layers[0]
    return layer


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=False, rankdir="TB", expand_nested=False, dpi=200,
               show_layer_activations=False, show_trainable=False, splines="ortho", **kwargs):
    """Draw :func:`model_to_dot`'s graph into ``to_file`` (``keras.utils.plot_model``); the
    format comes from the extension (default png). In IPython, returns the image.

    Raises:
        ValueError: for an unbuilt model or unknown keyword arguments.
        ImportError: without pydot (the ``tapeflow[plot]`` extra) or Graphviz's ``dot``
            program (in IPython both are printed instead).
    """
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling "
                         "`build()` or by calling the model on a batch of data.")
    pydot = _pydot()
    if pydot is None or not _has_graphviz(pydot):
        message = ("You must install pydot (`pip install pydot`) for `plot_model` to work."
                   if pydot is None else
                   "You must install graphviz (see instructions at "
                   "https://graphviz.gitlab.io/download/) for `plot_model` to work.")
        if "IPython.core.magics.namespace" in sys.modules:
            print(message)
            return None
        raise ImportError(message + ' (tapeflow: pip install "tapeflow[plot]" and Graphviz)')
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("Argument `layer_range` is no longer supported.")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
    dot = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype,
                       show_layer_names=show_layer_names, rankdir=rankdir,
                       expand_nested=expand_nested, dpi=dpi,
                       show_layer_activations=show_layer_activations,
                       show_trainable=show_trainable, splines=splines)
    to_file = str(to_file)
    extension = os.path.splitext(to_file)[1][1:] or "png"
    dot.write(to_file, format=extension)
    if extension != "pdf":
        try:
            from IPython import display
            return display.Image(filename=to_file)
        except ImportError:
            pass
    return None
