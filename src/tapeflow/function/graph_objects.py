"""TensorFlow's graph objects as its Python API shows them: ``tf.Operation`` (name, type,
inputs, outputs, ``node_def``, ``get_attr``), graph tensors (``"MatMul:0"``), and the
dtypes of graph-only tensors (``tf.resource``, ``tf.variant``), built from lowered nodes
(``operations_of``). ``ConcreteFunction.graph`` (``graph_def.GraphView``), ``tf.Graph`` and
a loaded ``GraphDef`` (``saved_model/graph_import.py``) hand these out.

TF's counterpart: ``tensorflow/python/framework/ops.py``'s ``Operation`` and ``Tensor``.
"""
from .._core.dtypes import as_dtype
from .graph_records import DT, DT_NAMES, _node_out_dtype

__all__ = ["GraphOnlyDType", "GraphTensor", "Operation", "operations_of"]

class GraphTensor:
    """A graph tensor as ``Operation.inputs``/``outputs`` and ``ConcreteFunction.inputs``
    show it: ``name`` (``"x:0"``), ``dtype``, ``shape``, ``op``."""

    __slots__ = ("name", "dtype", "shape", "op")

    def __init__(self, name, dtype, shape, op=None):
        self.name, self.dtype, self.shape, self.op = name, dtype, shape, op

    def __repr__(self):
        dt = None if self.dtype is None else self.dtype.name
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={dt}>"

    def __str__(self):
        dt = None if self.dtype is None else self.dtype.name
        if self.shape is None or getattr(self.shape, "rank", 0) is None:
            return f'Tensor("{self.name}", dtype={dt})'
        return f'Tensor("{self.name}", shape={self.shape}, dtype={dt})'

    def get_shape(self):
        return self.shape


class Operation:
    """A node of a concrete function's graph (``tf.Operation``): ``name``, ``type`` (the op
    type, ``"MatMul"``), ``inputs`` and ``outputs`` (graph tensors named ``"<op>:<k>"``,
    with their dtypes), ``node_def`` (the NodeDef record), ``control_inputs`` (the
    Operations this one waits on), ``get_attr(name)``."""

    __slots__ = ("name", "type", "inputs", "outputs", "node_def", "control_inputs", "graph")

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"

    def __str__(self):
        return str(self.node_def)

    def get_attr(self, name):
        """The value of attribute ``name`` as TF's ``Operation.get_attr`` gives it.

        Args:
            name: the attribute's name (``"T"``, ``"value"``, ``"transpose_a"``, ...).

        Returns:
            A ``tf.DType`` for a type, ``bool``/``int``/``float``, ``bytes`` for a string,
            the ``TensorProto``/``TensorShapeProto``/``NameAttrList`` record for a tensor,
            a shape or a function, a list of these for a list attribute (``[]`` empty).

        Raises:
            ValueError: the op has no attribute ``name`` (TF's text).
        """
        value = self.node_def.attr.get(name)
        if value is None:
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.")
        return _attr_python(value)

    @property
    def device(self):
        return self.node_def.device


def _attr_python(value):
    """An AttrValue record as TF's ``Operation.get_attr`` returns it."""
    field = value.which_oneof("value")
    if field is None:
        return None
    got = getattr(value, field)
    if field == "type":
        return _as_tf_dtype(got)
    if field == "list":
        for f in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
            items = getattr(got, f)
            if items:
                return [_as_tf_dtype(x) for x in items] if f == "type" else list(items)
        return []
    if field == "b":
        return bool(got)
    return got


class GraphOnlyDType:
    """``tf.resource`` / ``tf.variant``: the dtypes of graph tensors tapeflow holds no
    values of (a variable's handle, a dataset), as ``Operation`` outputs and ``get_attr``
    show them."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"tf.{self.name}"

    def __eq__(self, other):
        return isinstance(other, GraphOnlyDType) and other.name == self.name

    def __hash__(self):
        return hash(("GraphOnlyDType", self.name))


_GRAPH_ONLY = {DT["resource"]: GraphOnlyDType("resource"),
               DT["variant"]: GraphOnlyDType("variant")}


def _as_tf_dtype(enum):
    got = _GRAPH_ONLY.get(enum)
    return got if got is not None else as_dtype(DT_NAMES[enum])


def operations_of(fn):
    """A lowered top-level graph's nodes as :class:`Operation` objects, in order."""
    ops = {}
    out = []
    for node in fn.nodes:
        op = Operation()
        op.name, op.type, op.node_def, op.graph = node.name, node.op, node, None
        op.control_inputs = []
        op.inputs = []
        for i in node.input:
            if i.startswith("^"):
                continue
            src, _, k = i.partition(":")
            k = int(k or 0)
            op.inputs.append(ops[src].outputs[k] if src in ops else
                             GraphTensor(f"{src}:{k}", None, None))
        n_out = len(fn.layout.get(node.name) or ())
        op.outputs = []
        for k in range(n_out):
            try:
                dt = _as_tf_dtype(_node_out_dtype(node, k))
            except (KeyError, TypeError):
                dt = None
            op.outputs.append(GraphTensor(f"{node.name}:{k}", dt, None, op))
        ops[node.name] = op
        out.append(op)
    for op in out:   # a control input may come later in the list (the NoOp moved last)
        op.control_inputs = [ops[i[1:]] for i in op.node_def.input
                             if i.startswith("^") and i[1:] in ops]
    return out
