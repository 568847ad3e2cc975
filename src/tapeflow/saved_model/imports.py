"""TF FunctionDefs run as tapeflow programs: an interpreter of TF op types.

``Library(function_defs, registered_gradients, path)`` holds a SavedModel's FunctionDefs;
``library.call(name, inputs)`` walks one in dependency order, calling a kernel per node
(``kernels.py``: TF op type -> tapeflow ops; attrs filled with TF's defaults from
``function/tf_op_defs.py``) and resolving ``node:arg:index`` inputs through the op's output
args. Called inside tapeflow's ``tf.function`` (``ImportedFunction``), the walk is a trace:
the loaded function then runs as a compiled tapeflow program, tapes record it (gradients come
from tapeflow's own rules) and nothing of TF is needed. Control flow maps onto tapeflow's:
If/StatelessIf -> ``cond``, Case -> ``switch_case``, While -> ``while_loop`` (resource loop
values stay outside the loop: a While only passes them through), calls -> the callee walked
inline. An IdentityN tagged ``_gradient_op_type`` (a saved ``tf.custom_gradient``) becomes a
``custom_gradient`` whose backward walks the registered gradient function.
"""
import numpy as np

from .._core import nest as _nest
from .._core.custom_gradient import custom_gradient
from .._core.tensor import constant
from ..function import tf_op_defs
from ..ops import array_ops, control_flow_ops
from ..ops.control_flow_ops import TensorArray
from . import kernels

__all__ = ["Library", "tensor_value", "attr_value", "missing_ops"]

_CALLS = {"StatefulPartitionedCall", "PartitionedCall"}
_IFS = {"If", "StatelessIf"}
_CASES = {"Case", "StatelessCase"}
_WHILES = {"While", "StatelessWhile"}
_CONTROL = _CALLS | _IFS | _CASES | _WHILES
_RESOURCE, _VARIANT = 20, 21
_FUNC_ATTRS = ("f", "then_branch", "else_branch", "cond", "body", "branches")

# TensorProto: the typed value field of each DataType, and the NumPy dtype to read it as
_VAL_FIELD = {1: "float_val", 2: "double_val", 3: "int_val", 4: "int_val", 5: "int_val",
              6: "int_val", 7: "string_val", 8: "scomplex_val", 9: "int64_val",
              10: "bool_val", 14: "half_val", 17: "int_val", 18: "dcomplex_val",
              19: "half_val", 22: "uint32_val", 23: "uint64_val"}
_NP = {1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
       7: object, 8: np.complex64, 9: np.int64, 10: np.bool_, 17: np.uint16,
       18: np.complex128, 19: np.float16, 22: np.uint32, 23: np.uint64}


def tensor_value(proto):
    """A TensorProto's value as a NumPy array.

    ``tensor_content`` holds the raw little-endian bytes; otherwise the typed ``*_val``
    list, whose last value fills the remaining elements (TF writes ``tf.zeros((2, 3))`` as
    one ``float_val``); an empty list means zeros.
    """
    dt = proto.dtype
    shape = [d.size for d in proto.tensor_shape.dim]
    n = int(np.prod(shape)) if shape else 1
    if dt == 14:
        import ml_dtypes
        np_dtype = ml_dtypes.bfloat16
    elif dt in _NP:
        np_dtype = _NP[dt]
    else:
        raise TypeError(f"cannot read a TensorProto of TF DataType {dt}")
    if proto.tensor_content:
        return np.frombuffer(proto.tensor_content, np_dtype).reshape(shape).copy()
    field = _VAL_FIELD[dt]
    vals = getattr(proto, field)
    if dt in (14, 19):
        arr = np.asarray(vals, np.uint16).view(np_dtype)
    elif dt in (8, 18):
        flat = np.asarray(vals, np.float32 if dt == 8 else np.float64)
        arr = (flat[0::2] + 1j * flat[1::2]).astype(np_dtype)
    elif dt == 7:
        arr = np.empty(len(vals), object)
        arr[:] = list(vals)
    else:
        arr = np.asarray(vals, np_dtype)
    if arr.size == n:
        return arr.reshape(shape)
    out = np.zeros(n, np_dtype) if dt != 7 else np.full(n, b"", object)
    if arr.size:
        out[:arr.size] = arr
        out[arr.size:] = arr[-1]
    return out.reshape(shape)


def _shape(s):
    return None if s.unknown_rank else [d.size for d in s.dim]


def attr_value(v):
    """An AttrValue as a Python value (str for ``s``, dims list for ``shape``, NumPy array
    for ``tensor``, the function name for ``func``)."""
    which = v.which_oneof("value")
    if which is None:
        return None
    if which == "s":
        try:
            return v.s.decode()
        except UnicodeDecodeError:
            return v.s
    if which == "shape":
        return _shape(v.shape)
    if which == "tensor":
        return tensor_value(v.tensor)
    if which == "func":
        return v.func.name
    if which == "list":
        lst = v.list
        for name in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
            items = getattr(lst, name)
            if items:
                if name == "s":
                    return [x.decode(errors="replace") for x in items]
                if name == "shape":
                    return [_shape(x) for x in items]
                if name == "tensor":
                    return [tensor_value(x) for x in items]
                if name == "func":
                    return [x.name for x in items]
                return list(items)
        return []
    return getattr(v, which)


def _functions_of(node):
    """The names of the functions a node calls (f, branches, cond/body)."""
    out = []
    for key in _FUNC_ATTRS:
        if key in node.attr:
            value = attr_value(node.attr[key])
            out += value if isinstance(value, list) else [value]
    return out


def missing_ops(library, roots):
    """``{op type: [function names]}`` of the ops without a kernel reachable from ``roots``."""
    seen, missing, stack = set(), {}, list(roots)
    while stack:
        name = stack.pop()
        if name in seen or name not in library:
            continue
        seen.add(name)
        for node in library[name].node_def:
            if node.op not in kernels.KERNELS and node.op not in _CONTROL:
                missing.setdefault(node.op, []).append(name)
            stack += _functions_of(node)
    return missing


class _Compiled:
    """One FunctionDef, prepared once: nodes in dependency order with decoded attrs and
    input references resolved to ``(node index or arg index, output position)``."""

    __slots__ = ("fdef", "steps", "ret", "n_args", "arg_types", "node_index", "arg_index")

    def __init__(self, fdef, path):
        self.fdef = fdef
        self.node_index = self.arg_index = None    # names -> positions, when first needed
        sig = fdef.signature
        args = {a.name: i for i, a in enumerate(sig.input_arg)}
        self.n_args = len(args)
        self.arg_types = [a.type for a in sig.input_arg]
        by_name = {n.name: n for n in fdef.node_def}
        order, state = [], {}

        def visit(name):
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                raise ValueError(f"{path}: function {sig.name} has a cycle at node {name}")
            state[name] = 1
            for ref in by_name[name].input:
                dep = ref.lstrip("^").split(":")[0]
                if dep in by_name:
                    visit(dep)
            state[name] = 2
            order.append(name)

        for n in fdef.node_def:
            visit(n.name)
        index = {name: i for i, name in enumerate(order)}
        self.steps = []
        attrs_of = {}
        for name in order:
            node = by_name[name]
            op_def = tf_op_defs.OP_DEFS.get(node.op)
            attrs = dict(op_def["defaults"]) if op_def else {}
            for k, v in node.attr.items():
                if k != "_output_shapes":    # never read: its ListValue stays undecoded
                    attrs[k] = attr_value(v)
            attrs_of[name] = attrs
        for name in order:
            node = by_name[name]
            ins = [self._ref(r, args, index, by_name, attrs_of, sig.name)
                   for r in node.input if not r.startswith("^")]
            self.steps.append((node.op, name, ins, attrs_of[name]))
        self.ret = [self._ref(fdef.ret[a.name], args, index, by_name, attrs_of, sig.name)
                    for a in sig.output_arg]

    @staticmethod
    def _ref(ref, args, index, by_name, attrs_of, fname):
        if ref in args:
            return (-1, args[ref])
        parts = ref.split(":")
        node = parts[0]
        if node not in by_name:
            raise ValueError(f"function {fname}: input {ref!r} names no node or argument")
        if len(parts) == 1:
            return (index[node], 0)
        if len(parts) == 2:   # a graph-style "node:k"
            return (index[node], int(parts[1]))
        op = by_name[node].op
        attrs = attrs_of[node]
        if op in _CONTROL:    # list outputs of calls, If, While, Case: "output"
            return (index[node], int(parts[2]))
        return (index[node], tf_op_defs.output_index(op, attrs, parts[1], int(parts[2])))


class Library:
    """A SavedModel's function library, run on tapeflow tensors.

    Args:
        functions: ``{name: FunctionDef message}``.
        gradients: ``{registered op type: gradient function name}`` (custom gradients).
        path: the SavedModel's path, for error messages.
    """

    def __init__(self, functions, gradients, path):
        self.functions = functions
        self.gradients = gradients
        self.path = path
        # gradient function name -> its captured inputs, ("variable", Variable) or
        # ("tensor", forward function name, "Exp:0"), and which IdentityN inputs get a
        # gradient (the loader fills both from the object graph)
        self.captures = {}
        self.grad_outputs = {}
        self._compiled = {}
        self.static = {}   # id(tensor) -> (tensor, NumPy value) of Const outputs in a call
        self._depth = 0

    def compiled(self, name):
        c = self._compiled.get(name)
        if c is None:
            if name not in self.functions:
                raise ValueError(f"{self.path}: the SavedModel has no function {name!r}")
            c = self._compiled[name] = _Compiled(self.functions[name], self.path)
        return c

    def call(self, name, inputs):
        """Run function ``name`` on ``inputs`` (one per input arg); its outputs as a list."""
        c = self.compiled(name)
        if len(inputs) != c.n_args:
            raise ValueError(f"function {name} takes {c.n_args} inputs, got {len(inputs)}")
        values = []
        self._depth += 1
        try:
            return self._run(c, name, inputs, values)
        finally:
            self._depth -= 1
            if not self._depth:
                self.static.clear()

    def _run(self, c, name, inputs, values):
        for op, node, refs, attrs in c.steps:
            ins = [inputs[j] if i < 0 else values[i][j] for i, j in refs]
            if op == "IdentityN" and "_gradient_op_type" in attrs:
                out = self.custom_gradient_identity(
                    kernels._s(attrs["_gradient_op_type"]), ins,
                    lambda t, c=c, name=name, inputs=inputs, values=values:
                        self._tensor_named(c, name, inputs, values, t))
            elif op in kernels.KERNELS:
                out = kernels.KERNELS[op](ins, attrs, self)
                if op == "Const":
                    self.static[id(out)] = (out, attrs["value"])
            elif op in _CALLS:
                out = self.call(attrs["f"], ins)
            elif op in _IFS:
                out = self._if(ins, attrs)
            elif op in _CASES:
                out = self._case(ins, attrs)
            elif op in _WHILES:
                out = self._while(ins, attrs)
            else:
                raise NotImplementedError(
                    f"{self.path}: op {op} (node {node!r} of function {name}) has no "
                    "tapeflow kernel")
            values.append(out if isinstance(out, list) else [out])
        return [inputs[j] if i < 0 else values[i][j] for i, j in c.ret]

    def _branch(self, name, ins):
        def run():
            out = self.call(name, ins)
            return out if out else [constant(np.int32(0))]
        return run

    def _if(self, ins, attrs):
        pred = ins[0]
        if pred.dtype.name != "bool":
            pred = array_ops.cast(pred, "bool") if pred.shape.rank == 0 else \
                array_ops.size(pred) > 0
        out = control_flow_ops.cond(pred, self._branch(attrs["then_branch"], ins[1:]),
                                    self._branch(attrs["else_branch"], ins[1:]))
        return list(out)[:len(attrs["Tout"])]

    def _case(self, ins, attrs):
        branches = [self._branch(b, ins[1:]) for b in attrs["branches"]]
        out = control_flow_ops.switch_case(ins[0], branches)
        return list(out)[:len(attrs["Tout"])]

    def _while(self, ins, attrs):
        types = attrs["T"]
        fixed = [i for i, t in enumerate(types) if t == _RESOURCE]
        moving = [i for i in range(len(ins)) if i not in fixed]

        def full(xs):
            vals = list(ins)
            for i, x in zip(moving, xs):
                vals[i] = x
            return vals

        def cond(*xs):
            out = self.call(attrs["cond"], full(xs))[0]
            return out if out.dtype.name == "bool" else array_ops.cast(out, "bool")

        def body(*xs):
            out = self.call(attrs["body"], full(xs))
            return [out[i] for i in moving]

        loop_vars = [ins[i] for i in moving]
        if not loop_vars:
            raise NotImplementedError("a While loop with only resource loop values")
        result = control_flow_ops.while_loop(cond, body, loop_vars)
        result = list(result) if isinstance(result, (list, tuple)) else [result]
        return full(result)

    def _tensor_named(self, c, fname, inputs, values, captured):
        """The value of the tensor ``captured`` = ``(function name, "node:k")`` names in
        function ``fname`` being run (``inputs``, ``values`` so far): TF's captured tensor
        of a gradient function, a tensor of the forward."""
        owner, tname = captured
        node, _, k = tname.rpartition(":")
        if owner != fname:
            raise NotImplementedError(
                f"{self.path}: a gradient function captures {tname} of {owner}, called from "
                f"{fname}: tapeflow feeds the tensors of the function holding the IdentityN")
        if c.node_index is None:
            c.node_index = {step[1]: i for i, step in enumerate(c.steps)}
            c.arg_index = {a.name: i for i, a in enumerate(c.fdef.signature.input_arg)}
        if node in c.arg_index and k == "0":
            return inputs[c.arg_index[node]]
        i = c.node_index.get(node)
        if i is None or i >= len(values) or int(k) >= len(values[i]):
            raise ValueError(f"{self.path}: a gradient function captures {tname}, which "
                             f"function {fname} does not compute before its IdentityN")
        return values[i][int(k)]

    def custom_gradient_identity(self, op_type, ins, resolve=None):
        """A saved ``tf.custom_gradient``: IdentityN over (results..., arguments...,
        variable reads...); the gradient function maps a gradient per IdentityN input
        (then what it captures: tensors of the forward named by ``resolve``, variables)
        to the arguments' and the variables' reads' gradients."""
        grad_name = self.gradients.get(op_type)
        if grad_name is None:
            # saved without its gradient (SaveOptions(experimental_custom_gradients=False)):
            # TF has no gradient for it either
            @custom_gradient
            def no_gradient(*xs):
                def grad(*dys):
                    raise LookupError(_NO_GRADIENT)
                return [array_ops.identity(x) for x in xs], grad
            out = no_gradient(*ins)
            return list(out) if isinstance(out, (list, tuple)) else [out]
        n_in = len(ins)
        present = self.grad_outputs.get(grad_name)
        if present is None or len(present) != n_in:
            n_args = len(self.compiled(grad_name).fdef.signature.output_arg)
            present = [False] * (n_in - n_args) + [True] * n_args
        binds, caps = [], []
        for b in self.captures.get(grad_name, ()):
            if b[0] == "variable":
                binds.append(b)
            else:
                if resolve is None:
                    raise NotImplementedError(f"{self.path}: the gradient function "
                                              f"{grad_name} captures a tensor {b[2]}")
                binds.append(("tensor", len(caps)))
                caps.append(resolve(b[1:]))

        # one custom gradient over every IdentityN input and the captured forward tensors
        # (arguments, so a replayed trace feeds this call's values): the gradient function
        # takes a gradient per IdentityN output (the engine fills unconnected ones with
        # zeros), then its captures, and gives the arguments' (and variable reads')
        # gradients; none flows to the results (their own ops carry none either way) nor
        # to the captured tensors.
        @custom_gradient
        def forward(*xs):
            held = xs[n_in:]

            def grad(*dys):
                fed = list(dys) + [held[b[1]] if b[0] == "tensor" else b[1] for b in binds]
                got = iter(self.call(grad_name, fed))
                return [next(got) if p else None for p in present] + [None] * len(held)
            return [array_ops.identity(x) for x in xs[:n_in]], grad

        out = forward(*ins, *caps)
        return list(out) if isinstance(out, (list, tuple)) else [out]


_NO_GRADIENT = (
    "No gradient defined for operation'IdentityN' (op type: IdentityN). In general every "
    "operation must have an associated `@tf.RegisterGradient` for correct autodiff, which "
    "this op is lacking. If you want to pretend this operation is a constant in your "
    "program, you may insert `tf.stop_gradient`. This can be useful to silence the error in "
    "cases where you know gradients are not needed, e.g. the forward pass of "
    "tf.custom_gradient. Please see more details in "
    "https://www.tensorflow.org/api_docs/python/tf/custom_gradient.")


def flat_specs(structure):
    """The TensorSpec leaves of a nest, in TF's flattening order."""
    from ..function.trace_type import TensorSpec
    return [x for x in _nest.flatten(structure) if isinstance(x, TensorSpec)]


def is_tensor_array(x):
    return isinstance(x, TensorArray)
