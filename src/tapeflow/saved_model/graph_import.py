"""``tf.graph_util.import_graph_def``: a GraphDef's nodes into the default graph.

Where the nodes go depends on where it is called, as in TensorFlow 2.21:

- under ``with tf.Graph().as_default():`` (or eagerly: a process-wide graph, no name
  prefix) the nodes are added to the graph as data, renamed under ``name`` (``import/``,
  ``import_1/``...) with their inputs rewired through ``input_map``; the returned tensors
  are graph tensors (name, dtype and the static shape found by a stand-in run) and the
  returned operations the graph's ``tf.Operation``s;
- inside a ``tf.function`` trace the nodes run: each through the SavedModel loader's op
  interpreter (``imports.Library``: TF op types onto tapeflow ops, calls into the GraphDef's
  function library), on the tensors ``input_map`` feeds, so the returned tensors are the
  function's own values (tapes record them; gradients come from tapeflow's rules).
"""
import numpy as np

from .. import _protobuf as pb
from .._core import errors
from .._core.dtypes import as_dtype
from .._core.recording import current_tracer, suspend
from .._core.tensor import TensorShape, convert_to_tensor, traced_shape
from ..function import graph as _graph
from ..function import graph_def as _gd
from ..function import graph_objects as _go
from ..function import graph_records as _gr
from . import imports as _imports

__all__ = ["import_graph_def"]

_GRAPH_DEF = []        # the GraphDef message class (found once)
_EAGER_GRAPH = []      # the process-wide graph eager imports go to


def _is_graph_def(x):
    if not _GRAPH_DEF:
        _GRAPH_DEF.append(type(pb.Message("tensorflow.GraphDef")))
    return isinstance(x, _GRAPH_DEF[0])


def _split(ref):
    """``"x"``, ``"x:1"`` -> ``("x", k)``."""
    node, sep, k = ref.partition(":")
    return node, int(k) if sep and k.isdigit() else 0


def _dtype_name(enum):
    return as_dtype(_gr.DT_NAMES[enum]).name


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None,
                     op_dict=None, producer_op_list=None):
    """Import the nodes of ``graph_def`` into the default graph
    (``tf.graph_util.import_graph_def``).

    Args:
        graph_def: a GraphDef record (``ConcreteFunction.graph.as_graph_def()``,
            ``tf.Graph.as_graph_def()``, a SavedModel's ``meta_graphs[0].graph_def``).
        input_map: optional ``{tensor name in graph_def ("x:0" or "x"): tensor}``; the
            imported nodes that read that tensor read the given one instead.
        return_elements: optional names to return: ``"node:k"`` for a tensor, ``"node"``
            for an operation.
        name: the prefix of the imported names (default ``"import"``, made unique;
            ``""`` for none).
        op_dict, producer_op_list: accepted for TF's signature (ignored, as in TF 2).

    Returns:
        The list of requested tensors/operations, in ``return_elements`` order, or None.

    Raises:
        TypeError: ``graph_def`` is not a GraphDef, or an ``input_map`` key is not a
            string.
        ValueError: an ``input_map`` key or a ``return_elements`` name is not in the
            GraphDef.
        tf.errors.InvalidArgumentError: inside a ``tf.function``, a Placeholder the
            returned values depend on is not fed through ``input_map``.

    TensorFlow counterpart: ``tf.graph_util.import_graph_def``.
    """
    if not _is_graph_def(graph_def):
        raise TypeError("Argument `graph_def` must be a GraphDef proto.")
    nodes = list(graph_def.node)
    by_name = {n.name: n for n in nodes}
    mapped = {}
    missing = []
    for key, value in (input_map or {}).items():
        if not isinstance(key, str):
            raise TypeError(f"input_map must be a dictionary mapping strings to Tensor "
                            f"objects; got key {key!r}.")
        node, k = _split(key)
        if node not in by_name or k >= max(_gd.node_n_outputs(by_name[node]), 1):
            missing.append(key)
        mapped[(node, k)] = value
    if missing:
        raise ValueError(f"Attempted to map inputs that were not found in graph_def: "
                         f"[{', '.join(missing)}]")
    returns = list(return_elements or [])
    for r in returns:
        if not isinstance(r, str):
            raise TypeError(f"return_elements must be a list of strings; got {r!r}.")
        node, k = _split(r)
        if ":" in r:
            if node not in by_name:
                raise ValueError(f"Requested return tensor '{r}' not found in graph def")
            n_out = _gd.node_n_outputs(by_name[node])
            if k >= n_out:
                raise ValueError(f"Invalid return output {k} of node '{node}', which has "
                                 f"{n_out} output(s)")
        elif r not in by_name:
            raise ValueError(f"Requested return node '{r}' not found in graph def")
    functions = list(graph_def.library.function) if graph_def.has("library") else []
    tracer = current_tracer()
    if tracer is not None and not isinstance(tracer, _graph._GraphTracer):
        tr = tracer
        while tr is not None:   # an eager re-run of the body (the soundness switch) cannot
            tr.unlike_eager = True   # import: TF raises there
            tr = tr.parent
        return _run(nodes, by_name, mapped, returns, functions, name)
    if tracer is None and any(not isinstance(getattr(v, "name", None), str)
                              for v in mapped.values()):
        raise NotImplementedError(
            "_as_tf_output not supported when eager execution is enabled.")
    if tracer is not None:
        graph = tracer.graph
        prefix = graph._import_prefix(name)
    else:
        if not _EAGER_GRAPH:
            _EAGER_GRAPH.append(_graph.Graph())
        graph = _EAGER_GRAPH[0]
        prefix = ""
    return _add(graph, nodes, by_name, mapped, returns, functions, prefix)


# ------------------------------------------------------------------ as data
def _add(graph, nodes, by_name, mapped, returns, functions, prefix):
    names = {}
    for (node, k), value in mapped.items():
        names[(node, k)] = _graph_name(value)

    def rewire(ref):
        if ref.startswith("^"):
            return "^" + prefix + ref[1:]
        node, k = _split(ref)
        got = names.get((node, k))
        if got is not None:
            src, _, idx = got.partition(":")
            return src if idx in ("", "0") else got
        return prefix + ref

    out_nodes = []
    for n in nodes:
        out_nodes.append(pb.Message("tensorflow.NodeDef", name=prefix + n.name, op=n.op,
                                    input=[rewire(i) for i in n.input],
                                    attr=dict(n.attr), device=n.device))
    graph._add_nodes(out_nodes, functions)
    every = [f"{n.name}:{k}" for n in nodes for k in range(_gd.node_n_outputs(n))]
    shapes = _stand_in_shapes(nodes, by_name, mapped, functions, every)
    for r, shape in shapes.items():
        graph._shapes[prefix + r] = TensorShape(shape)
    if not returns:
        return None
    result = []
    for r in returns:
        if ":" not in r:
            result.append(graph.get_operation_by_name(prefix + r))
            continue
        node, k = _split(r)
        op = graph.get_operation_by_name(prefix + node)
        try:
            dtype = as_dtype(_gr.DT_NAMES[_gr._node_out_dtype(by_name[node], k)])
        except (KeyError, TypeError):
            dtype = None
        shape = shapes.get(r)
        result.append(_go.GraphTensor(f"{prefix}{node}:{k}", dtype,
                                  TensorShape(shape) if shape is not None
                                  else TensorShape(None), op))
    return result


def _graph_name(value):
    """The graph name (``"Const:0"``) of an ``input_map`` value inside a graph."""
    got = getattr(value, "name", None)
    if isinstance(got, str) and ":" in got:
        return got
    t = convert_to_tensor(value)
    from .._core.tensor import constant
    t = constant(t)   # a Const node of the graph (tf.constant inside Graph.as_default)
    return t.name


def _stand_in_shapes(nodes, by_name, mapped, functions, returns):
    """``{return name: static shape}`` from running the nodes on stand-ins: fed tensors'
    values, zeros for Placeholders of known shape (nothing recorded)."""
    feeds = {}
    for (node, k), value in mapped.items():
        v = getattr(value, "_value", None)
        if v is None or not hasattr(v, "shape"):
            return {}
        feeds[(node, k)] = convert_to_tensor(np.zeros(v.shape, v.dtype))
    wanted = [r for r in returns if ":" in r]
    try:
        with suspend():
            with np.errstate(all="ignore"):
                outs = _interpret(nodes, by_name, feeds, functions, wanted, None,
                                  stand_in=True)
    except Exception:  # noqa: BLE001 - shapes stay unknown, as for any graph TF cannot run
        return {}
    return {r: list(traced_shape(t).as_list()) for r, t in zip(wanted, outs)
            if hasattr(t, "shape")}


# ------------------------------------------------------------------ in a tf.function
def _run(nodes, by_name, mapped, returns, functions, name):
    feeds = {key: convert_to_tensor(v) if not hasattr(v, "_value") else v
             for key, v in mapped.items()}
    wanted = [r for r in returns if ":" in r]
    prefix = "import/" if name is None else (f"{name}/" if name else "")
    outs = iter(_interpret(nodes, by_name, feeds, functions, wanted, prefix) if wanted
                else ())
    if not returns:
        return None
    result = []
    for r in returns:
        if ":" in r:
            result.append(next(outs))
        else:
            op = _go.Operation()
            node = by_name[r]
            op.name, op.type, op.node_def, op.graph = prefix + r, node.op, node, None
            op.inputs, op.outputs, op.control_inputs = [], [], []
            result.append(op)
    return result


class _Arg:
    __slots__ = ("name", "type")

    def __init__(self, name, type_):
        self.name, self.type = name, type_


class _Signature:
    __slots__ = ("name", "input_arg", "output_arg")

    def __init__(self, name, input_arg, output_arg):
        self.name, self.input_arg, self.output_arg = name, input_arg, output_arg


class _FunctionView:
    """A GraphDef's nodes seen as the FunctionDef the interpreter walks: the fed tensors
    are its arguments, the wanted tensors its results."""

    __slots__ = ("signature", "node_def", "ret")

    def __init__(self, signature, node_def, ret):
        self.signature, self.node_def, self.ret = signature, node_def, ret


def _interpret(nodes, by_name, feeds, functions, wanted, prefix, stand_in=False):
    """The values of ``wanted`` (``"node:k"``) computed by the interpreter from ``feeds``
    (``{(node, k): Tensor}``); an unfed Placeholder is fed zeros when ``stand_in`` (and
    its shape is known), else raises TF's feed error."""
    args = {}
    for key in feeds:
        args[key] = f"__feed_{len(args)}"
    needed = _needed(by_name, feeds, wanted)
    for n in nodes:
        if n.name in needed and n.op == "Placeholder" and (n.name, 0) not in feeds:
            dims = _imports.attr_value(n.attr["shape"]) if "shape" in n.attr else None
            dtype = as_dtype(_gr.DT_NAMES[n.attr["dtype"].type])
            if stand_in and dims is not None and all(d >= 0 for d in dims):
                feeds[(n.name, 0)] = convert_to_tensor(np.zeros(dims, dtype.as_numpy_dtype))
                args[(n.name, 0)] = f"__feed_{len(args)}"
                continue
            shape = "<unknown>" if dims is None else \
                "[" + ",".join(str(d) for d in dims) + "]"
            raise errors.InvalidArgumentError(
                None, None, f"You must feed a value for placeholder tensor "
                f"'{(prefix or '')}{n.name}' with dtype {_tf_type_name(dtype)} and shape "
                f"{shape}")

    def rewire(ref):
        if ref.startswith("^"):
            return None
        node, k = _split(ref)
        return args.get((node, k), f"{node}:{k}" if ":" in ref else node)

    body = []
    for n in nodes:
        if n.name not in needed or (n.op == "Placeholder" and (n.name, 0) in args):
            continue
        ins = [r for r in (rewire(i) for i in n.input) if r is not None]
        body.append(pb.Message("tensorflow.NodeDef", name=n.name, op=n.op, input=ins,
                               attr=dict(n.attr)))
    input_arg = [_Arg(a, by_name[key[0]].attr["dtype"].type
                      if by_name[key[0]].op == "Placeholder" else 0)
                 for key, a in args.items()]
    ret, output_arg = {}, []
    for j, r in enumerate(wanted):
        node, k = _split(r)
        out_name = f"__out_{j}"
        output_arg.append(_Arg(out_name, 0))
        ret[out_name] = args.get((node, k), f"{node}:{k}")
    view = _FunctionView(_Signature("__import_graph_def", input_arg, output_arg), body, ret)
    library = {f.signature.name: f for f in functions}
    library["__import_graph_def"] = view
    lib = _imports.Library(library, {}, "GraphDef")
    return lib.call("__import_graph_def", [feeds[key] for key in args])


def _needed(by_name, feeds, wanted):
    """The nodes the wanted tensors depend on (through data and control inputs), stopping
    at fed tensors."""
    seen = set()
    stack = [_split(r)[0] for r in wanted]
    fed_nodes = {node for node, _ in feeds}
    while stack:
        name = stack.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        for ref in by_name[name].input:
            node, k = _split(ref.lstrip("^"))
            if (node, k) in feeds and not ref.startswith("^"):
                continue
            stack.append(node)
    return seen | (fed_nodes & seen)


def _tf_type_name(dtype):
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)
