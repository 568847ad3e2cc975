"""``tf.Graph``: a dataflow graph as TensorFlow 2.21 shows one.

Two kinds of graph share this class's reading methods (``get_operations``,
``get_operation_by_name``, ``get_tensor_by_name``, ``as_graph_def``):

- a ``tf.function``'s ``ConcreteFunction.graph`` (``graph_def.GraphView``, TF's ``FuncGraph``
  subclass), lowered from the traced program;
- a graph built with ``with tf.Graph().as_default():``. Inside the block the ops are recorded
  by a tracer (tapeflow's, with real values, as a ``tf.function`` trace), so
  ``tf.executing_eagerly()`` is False, tensors print as TF's graph tensors
  (``Tensor("add:0", shape=(2,), dtype=float32)``), ``.numpy()`` raises AttributeError, and
  ``tf.name_scope`` prefixes op names (``blk/Sum``). When the block ends the tensors become
  graph tensors (``SymbolicTensor``) and the values the ops computed are dropped, as nothing
  runs in a TF graph; variable writes made inside are undone.

An op's ``name=`` names its node (``tf.add(a, b, name="sum")``: ``sum``, then ``sum_1``;
``scope/sum`` under ``tf.name_scope``): the public op function that records the op holds it
as its ``name`` parameter, which the graph's tracer reads from that call's frame (only
while a ``tf.Graph`` is being built, so nothing is added to the eager or traced path).

What differs from TF: there is no ``tf.compat.v1.Session`` to run the graph
(``tf.graph_util.import_graph_def`` reads GraphDefs into one).
"""
import re
import sys
import threading
import weakref

from .._core import recording as _rec
from .._core import tensor as _tensor
from .._core.variable import name_scopes as _name_scopes
from .tracer import Tracer

__all__ = ["Graph", "get_default_graph"]

_TENSOR_NAME = re.compile(r"^(.+):(\d+)$")


class _Default(threading.local):
    def __init__(self):
        self.stack = []


_DEFAULT = _Default()


# The lowering of a recorded graph to TF's GraphDef (``lower_graph``, ``graph_def_of``,
# ``operations_of``): filled by ``graph_def.py`` when it loads, which it does whenever a
# Graph exists (``tf.Graph`` is bound through it; it subclasses Graph for ``GraphView``).
LOWERING = {}


class Graph:
    """A TensorFlow computation as a dataflow graph (``tf.Graph``).

    ``with g.as_default():`` makes ``g`` the default graph: ops run in the block are added to
    ``g`` (``tf.executing_eagerly()`` is False there). ``g.get_operations()`` lists its
    ``tf.Operation``s, ``g.as_graph_def()`` gives the GraphDef record (``.node``:
    ``name``, ``op``, ``input``, ``attr``), ``g.get_tensor_by_name("add:0")`` a tensor.
    ``ConcreteFunction.graph`` is an instance too (a ``FuncGraph``).

    TensorFlow counterpart: ``tf.Graph`` (``tensorflow.python.framework.ops.Graph``).

    >>> import tapeflow as tf
    >>> g = tf.Graph()
    >>> with g.as_default():
    ...     c = tf.constant(30.0)
    ...     d = c * 2.0
    >>> c.graph is g, d.name
    (True, 'mul:0')
    >>> [(op.name, op.type) for op in g.get_operations()]
    [('Const', 'Const'), ('mul/y', 'Const'), ('mul', 'Mul')]
    """

    _tf_path = "tensorflow.python.framework.ops.Graph"

    def __init__(self):
        self._tracer = None
        self._cache = None        # (version, built)
        self._tensors = {}        # TF tensor name -> weakref to the Tensor
        self._shapes = {}         # TF tensor name -> static shape of imported nodes
        self.finalized = False
        self.building_function = False
        self.seed = None

    # ------------------------------------------------------------------ building
    def as_default(self):
        """A context manager making this graph the default: the ops run inside are added to
        it. Returns the graph on entry (``with g.as_default() as g:``)."""
        return _AsDefault(self)

    def _graph_tracer(self):
        if self._tracer is None:
            self._tracer = _GraphTracer(self)
        return self._tracer

    @property
    def version(self):
        """A number that grows as operations are added (TF: the number of operations
        created)."""
        tr = self._tracer
        return 0 if tr is None else len(tr.steps) + len(tr.const_order) + len(tr.imports)

    def finalize(self):
        """Make the graph read-only: ops added afterwards raise RuntimeError."""
        self.finalized = True

    def _import_prefix(self, name):
        """The name scope of an ``import_graph_def`` into this graph (``import/``,
        ``import_1/``, under the current ``tf.name_scope``; ``""`` for ``name=""``)."""
        if name == "":
            return ""
        return self._graph_tracer()._op_name_text(name or "import") + "/"

    def _add_nodes(self, nodes, functions=()):
        """Add GraphDef nodes (already named and wired) and the FunctionDefs they call, as
        they are: ``import_graph_def``."""
        if self.finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        tr = self._graph_tracer()
        tr.imports.append((tr.new_slot(), list(nodes)))
        for f in functions:
            tr.import_functions.setdefault(f.signature.name, f)

    def name_scope(self, name):
        """``tf.name_scope(name)`` for this graph's ops (a context manager returning the
        scope string, ``"blk/"``)."""
        from .._core.variable import name_scope
        return name_scope(name)

    # ------------------------------------------------------------------ reading
    def _build(self):
        """``(the lowered _Fn, its library, output node names)``: lowered once per
        version."""
        version = self.version
        if self._cache is None or self._cache[0] != version:
            self._cache = (version, LOWERING["lower_graph"](self._tracer))
        return self._cache[1]

    def as_graph_def(self, from_version=None, add_shapes=False):
        """The graph as a GraphDef record (TF: ``Graph.as_graph_def()``): ``node`` (NodeDef
        records with ``name``, ``op``, ``input``, ``attr``), ``library`` and ``versions``."""
        fn, lib, _ = self._build()
        return LOWERING["graph_def_of"](fn, lib)

    def get_operations(self):
        """The graph's ``tf.Operation``s, in creation order."""
        fn, _, _ = self._build()
        ops = LOWERING["operations_of"](fn)
        shapes = self._shapes
        for op in ops:
            op.graph = self
            if shapes:
                for t in op.outputs:
                    if t.name in shapes:
                        t.shape = shapes[t.name]
        return ops

    def get_operation_by_name(self, name):
        """The ``tf.Operation`` named ``name``.

        Raises:
            TypeError: ``name`` is not a string.
            ValueError: ``name`` looks like a tensor name (``"add:0"``).
            KeyError: no operation has that name.
        """
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not "
                            f"{type(name).__name__}.")
        if ":" in name:
            raise ValueError(f"Name '{name}' appears to refer to a Tensor, not a Operation.")
        for op in self.get_operations():
            if op.name == name:
                return op
        raise KeyError(f"The name '{name}' refers to an Operation not in the graph.")

    def get_tensor_by_name(self, name):
        """The tensor named ``name`` (``"<op name>:<output index>"``).

        Raises:
            TypeError: ``name`` is not a string.
            ValueError: ``name`` has no ``:<index>``.
            KeyError: no such operation or output.
        """
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not "
                            f"{type(name).__name__}.")
        m = _TENSOR_NAME.match(name)
        if m is None:
            if any(op.name == name for op in self.get_operations()):
                raise ValueError(
                    f"The name '{name}' refers to an Operation, not a Tensor. Tensor names "
                    f"must be of the form \"<op_name>:<output_index>\".")
            raise ValueError(
                f"The name '{name}' looks like an (invalid) Operation name, not a Tensor. "
                f"Tensor names must be of the form \"<op_name>:<output_index>\".")
        ref = self._tensors.get(name)
        t = ref() if ref is not None else None
        if t is not None:
            return t
        op_name, k = m.group(1), int(m.group(2))
        ops = {op.name: op for op in self.get_operations()}
        op = ops.get(op_name)
        if op is None:
            raise KeyError(f"The name '{name}' refers to a Tensor which does not exist. The "
                           f"operation, '{op_name}', does not exist in the graph.")
        if k >= len(op.outputs):
            raise KeyError(f"The name '{name}' refers to a Tensor which does not exist. The "
                           f"operation, '{op_name}', exists but only has "
                           f"{len(op.outputs)} outputs.")
        return op.outputs[k]

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """``obj`` as an element of this graph: a name (``"add:0"`` a tensor, ``"add"`` an
        operation) looked up, a tensor or operation of this graph returned as it is.

        Raises:
            ValueError: a tensor name when ``allow_tensor`` is False, an operation name when
                ``allow_operation`` is False.
            KeyError: no such element.
            TypeError: ``obj`` is neither a name, a tensor nor an operation."""
        if isinstance(obj, str):
            if ":" in obj:
                if not allow_tensor:
                    raise ValueError(f"Name '{obj}' appears to refer to a Tensor, not a "
                                     f"Operation.")
                return self.get_tensor_by_name(obj)
            if not allow_operation:
                raise ValueError(f"The name '{obj}' refers to an Operation, not a Tensor. "
                                 f"Tensor names must be of the form "
                                 f"\"<op_name>:<output_index>\".")
            return self.get_operation_by_name(obj)
        if hasattr(obj, "name") and (hasattr(obj, "dtype") or hasattr(obj, "node_def")):
            return obj
        raise TypeError(f"Can not convert a {type(obj).__name__} into a "
                        f"{'Tensor or Operation' if allow_tensor else 'Operation'}.")

    def get_name_scope(self):
        """The current ``tf.name_scope`` without its trailing ``/`` (``"outer/inner"``)."""
        return _name_scopes.stack[-1].rstrip("/")

    def __repr__(self):
        return f"<{self._tf_path} object at {hex(id(self))}>"


class _AsDefault:
    __slots__ = ("graph", "tracer")

    def __init__(self, graph):
        self.graph = graph
        self.tracer = None

    def __enter__(self):
        g = self.graph
        _DEFAULT.stack.append(g)
        if g.building_function:
            return g
        self.tracer = g._graph_tracer()
        self.tracer.reopen()
        _rec.push_tracer(self.tracer)
        return g

    def __exit__(self, *exc):
        _DEFAULT.stack.pop()
        tr = self.tracer
        if tr is not None:
            _rec.pop_tracer(tr)
            tr.close()
        return False


def get_default_graph():
    """The innermost graph of ``Graph.as_default()`` on this thread, else None."""
    return _DEFAULT.stack[-1] if _DEFAULT.stack else None


def _name_argument():
    """The ``name=`` argument of the public op function recording an op: a ``name``
    parameter of the function that called ``dispatch.record`` (two frames up from the
    tracer's ``op``; a rebound ``record`` adds one), when it holds a non-empty string."""
    frame = sys._getframe(3)
    for _ in range(2):
        if frame is None:
            return None
        code = frame.f_code
        params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        if "name" in params:
            name = frame.f_locals.get("name")
            return name if isinstance(name, str) and name else None
        frame = frame.f_back
    return None


class _GraphTracer(Tracer):
    """The tracer of ``Graph.as_default()``: TF's names under ``tf.name_scope``, a Const
    node per ``tf.constant``, tensors registered by name with their graph."""

    # Nothing runs in a TF graph: its ops are not checked for infinities and NaNs
    # (tf.debugging.enable_check_numerics; numerics_mode reads this)
    runs_ops = False

    def __init__(self, graph):
        super().__init__(allow_creation=True)
        self.graph = graph
        self.const_order = []      # (slot, scope, name) of tf.constant tensors, in order
        self.step_scopes = {}      # id(step) -> the name scope the op was made in
        self.values = {}           # tensor id -> its value while the graph is not default
        self.imports = []          # (marker slot, [NodeDef]) of import_graph_def, in order
        self.import_functions = {}  # name -> FunctionDef of imported GraphDefs' libraries
        self.user_names = {}       # id(step) -> the op's name= argument
        self._pending_name = None

    def reopen(self):
        """Entering ``as_default()`` again: this graph's tensors are usable by its ops."""
        from .._core.tensor import _SYMBOLIC, SymbolicTensor, Tensor

        for ref in self.known.values():
            t = ref() if type(ref) is weakref.ref else None
            if type(t) is SymbolicTensor and t._id in self.values:
                t._value = self.values.pop(t._id)
                t.__class__ = Tensor
                _SYMBOLIC.pop(t._id, None)
        self.values.clear()

    def _op_name_text(self, base):
        scope = _name_scopes.stack[-1] if not self.scope else ""
        key = self.scope + scope + base
        n = self._name_counts.get(key, 0)
        self._name_counts[key] = n + 1
        return key if n == 0 else f"{key}_{n}"

    def _op_name(self, prim):
        user = self._pending_name
        if user is not None:
            return self._op_name_text(user)
        return super()._op_name(prim)

    def op(self, prim, inputs, out, attrs):
        if self.graph.finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        n = len(self.steps)
        self._pending_name = None if self.scope else _name_argument()
        try:
            super().op(prim, inputs, out, attrs)
        finally:
            user, self._pending_name = self._pending_name, None
        if len(self.steps) > n and not self.scope:
            step = self.steps[-1]
            if user is not None:
                self.user_names[id(step)] = user
            self.step_scopes[id(step)] = _name_scopes.stack[-1]
            outs = (out,) if prim.n_outputs == 1 else tuple(out)
            base = self.names.get(step.outs[0])
            if base is None:
                base = self.names[step.outs[0]] = self._op_name(prim)
            for k, o in enumerate(outs):
                self.graph._tensors[f"{base}:{k}"] = weakref.ref(o)

    def graph_constant(self, t, name):
        """``tf.constant(value, name=...)`` inside the graph: a Const node of its own."""
        if self.graph.finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        if t._id in self.slots or self.suspended:
            return   # tf.constant(t) of a graph tensor: the same tensor
        if not isinstance(name, str) or not name:
            name = "Const"
        scope = _name_scopes.stack[-1]
        s = self.const(t._value)
        self.slots[t._id] = s
        self.known[s] = weakref.ref(t)
        full = self._op_name_text(name)
        self.names[s] = full
        self.const_order.append((s, scope, name))
        self.graph._tensors[full + ":0"] = weakref.ref(t)

    def symbolic_text(self, t, is_repr):
        s = self.slots.get(t._id)
        if s is not None and s in self.consts and s in self.names:
            name, shape = self.names[s], t.shape
            if is_repr:
                return f"<tf.Tensor '{name}:0' shape={shape} dtype={t.dtype.name}>"
            return f'Tensor("{name}:0", shape={shape}, dtype={t.dtype.name})'
        return super().symbolic_text(t, is_repr)

    def leave(self, t, how, convert):
        if how == "numpy":
            raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")
        return super().leave(t, how, convert)

    def graph_tensor_attr(self, t, what):
        """``t.name``/``t.op``/``t.graph`` of a tensor this graph made, else None."""
        s = self.slots.get(t._id)
        name = None if s is None else self.names.get(s)
        if name is None:
            return None
        if what == "name":
            return name + ":0"
        if what == "graph":
            return self.graph
        return self.graph.get_operation_by_name(name)

    def close(self):
        """The block ends: its tensors become graph tensors (no value, TF's printed form);
        variable writes and effects are undone (nothing runs in a TF graph)."""
        from .._core.tensor import SymbolicTensor, Tensor, TensorShape, make_symbolic

        graph = self.graph
        for s, ref in list(self.known.items()):
            t = ref() if type(ref) is weakref.ref else None
            if type(t) is Tensor:
                name = self.names.get(s)
                if name is None:
                    continue
                self.values[t._id] = t._value
                make_symbolic(t, name, TensorShape(t._value.shape), None, "graph", True)
                _tensor.GRAPH_OF[t._id] = weakref.ref(graph)
                weakref.finalize(t, _tensor.GRAPH_OF.pop, t._id, None)
            elif type(t) is SymbolicTensor and t._id not in _tensor.GRAPH_OF:
                _tensor.GRAPH_OF[t._id] = weakref.ref(graph)
        self.rollback()
        self.snapshots.clear()
