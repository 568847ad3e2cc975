"""A traced program: the steps of one trace, its inputs, outputs and constants, and two ways to
run it: compiled (``codegen.py``, NumPy values only) and through dispatch (Tensors, so outer
tapes and forward accumulators record every op; also the path that reports errors).
"""
import operator

from .._core import dispatch
from .._core.backend import np
from .._core.tensor import Tensor
from .._core.variable import update_in_place

__all__ = ["Program", "GuardFailed", "run_guard"]


class GuardFailed(Exception):
    """A replay met a Python value that differs from the trace's (it re-specializes)."""

    def __init__(self, index, site=None, how=None, expected=None, got=None):
        super().__init__(index)
        self.index = index
        self.site = site
        self.how = how
        self.expected = expected
        self.got = got


_CONVERT = {"bool": bool, "float": float, "int": int, "index": int}


def run_guard(how, value):
    return _CONVERT[how](value)


def guard_holds(expected, got):
    if expected != expected and got != got:   # NaN == NaN, as TensorFlow's trace keys
        return True
    return expected == got and type(expected) is type(got)


UPDATES = {"assign_add": (np.add, operator.add), "assign_sub": (np.subtract, operator.sub)}


class Program:
    """The recorded steps of one trace.

    Attributes:
        steps: the step tuples (see ``tracer.py``).
        inputs: per flat argument, its slot (tensors) or ``None`` (variables, read by steps).
        arg_vars: per flat argument, the Variable it was at trace time (or None).
        outputs: the output slots, in the order of the flattened output structure.
        consts: slot -> NumPy value.
        n_slots: number of slots.
    """

    def __init__(self, tracer, inputs, arg_vars, outputs):
        self.steps = list(tracer.steps)
        self.inputs = inputs
        self.arg_vars = arg_vars
        self.outputs = outputs
        self.consts = dict(tracer.consts)
        self.n_slots = tracer.n
        self.orphans = list(tracer.orphans)
        self.grad_consts = set(tracer.grad_consts)
        self.n_guards = tracer.n_guards
        self.variables = list(tracer.variables.values())
        self.compiled = None
        self.source = None
        # a variable argument is read through the argument at replay, not the traced object
        self.var_arg_index = {id(v): i for i, v in enumerate(arg_vars) if v is not None}
        self.writes = [s[1] for s in self.steps if s[0] == "assign"]

    def shape_generic(self, sizes):
        """True when no step attribute and no constant holds one of ``sizes`` (the concrete
        sizes of dimensions a relaxed trace leaves unknown), so the same steps compute any
        other size: element-wise ops, matmul, reductions over given axes... A reshape to the
        traced batch size, a mean's element count or a constant of that shape are not."""
        sizes = {d for d in sizes if d > 1}
        if not sizes:
            return True
        for step in self.steps:
            if step[0] == "op" and step[3] and _holds_size(step[3].values(), sizes):
                return False
            if step[0] == "call":
                return False
        for s, v in self.consts.items():
            a = np.asarray(v)
            if any(d in sizes for d in a.shape):
                return False
            # Integers (shapes, counts) anywhere; floats only where a gradient computation
            # made them (a mean's 1/n), not the user's own literals (``x * 2.0``).
            kinds = "iuf" if s in self.grad_consts else "iu"
            if a.dtype.kind in kinds and a.size <= 16 and any(x in sizes for x in a.ravel()):
                return False
        return True

    def op_types(self):
        """The TF op types of the recorded steps, in order (``ConcreteFunction.graph``)."""
        names = []
        for s in self.steps:
            if s[0] == "op":
                names.append(s[1].name)
            elif s[0] == "read":
                names.append("ReadVariableOp")
            elif s[0] == "assign":
                names.append({"assign": "AssignVariableOp", "assign_add": "AssignAddVariableOp",
                              "assign_sub": "AssignSubVariableOp"}[s[2]])
            elif s[0] == "call":
                names.append(getattr(s[1], "op_type", "PyFunc"))
        return names

    # ------------------------------------------------------------------ through dispatch
    def interpret(self, leaves):
        """Run the steps as tapeflow ops on Tensors: outer tapes, accumulators and an outer
        tracer see every op; errors are the eager ones. ``leaves`` are the flat arguments
        (Tensors and Variables). Returns the output Tensors."""
        env = {}
        for s, v in self.consts.items():
            env[s] = Tensor(v)
        for slot, leaf in zip(self.inputs, leaves):
            if slot is not None:
                env[slot] = leaf
        for var in self.variables:
            # TensorFlow marks every captured variable accessed on each call.
            self._var(var, leaves)._read()
        saved = [(v, v._value) for v in {id(v): v for v in self.writes}.values()] \
            if self.n_guards else ()
        try:
            return self._steps(env, leaves)
        except GuardFailed:
            for v, value in saved:
                v._value = value
            raise

    def _steps(self, env, leaves):
        apply = dispatch.apply
        for k, step in enumerate(self.steps):
            kind = step[0]
            if kind == "op":
                _, prim, ins, attrs, outs, site = step
                try:
                    out = apply(prim, [env[s] for s in ins], attrs)
                except Exception as exc:
                    _add_site(exc, site)
                    raise
                if len(outs) == 1:
                    env[outs[0]] = out
                else:
                    for s, o in zip(outs, out):
                        env[s] = o
            elif kind == "read":
                env[step[2]] = self._var(step[1], leaves)._read()
            elif kind == "assign":
                _, var, how, s, site = step
                getattr(self._var(var, leaves), how)(env[s])
            elif kind == "call":
                _, fn, ins, outs, site = step
                res = fn(*[env[s] for s in ins])
                for s, o in zip(outs, res or ()):
                    env[s] = o
            else:
                _, s, how, expected, site = step
                got = run_guard(how, env[s]._value)
                if not guard_holds(expected, got):
                    raise GuardFailed(k, site, how, expected, got)
        return [None if s is None else env[s] for s in self.outputs]

    def _var(self, var, leaves):
        i = self.var_arg_index.get(id(var))
        return var if i is None else leaves[i]


def _holds_size(values, sizes):
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            continue
        if isinstance(v, (int, np.integer)):
            if int(v) in sizes:
                return True
        elif isinstance(v, (tuple, list)):
            if _holds_size(v, sizes):
                return True
        elif isinstance(v, np.ndarray) and v.dtype.kind in "iu" and v.size <= 16:
            if any(int(x) in sizes for x in v.ravel()):
                return True
    return False


def _add_site(exc, site):
    if site is None or not exc.args or not isinstance(exc.args[0], str):
        return
    filename, lineno, name = site
    note = f"\n  (in tf.function, traced at {filename}:{lineno}, in {name})"
    if note not in exc.args[0]:
        exc.args = (exc.args[0] + note,) + exc.args[1:]
        if hasattr(exc, "message"):
            try:
                exc.message = exc.args[0]
            except AttributeError:
                pass


def update(var, array, how):
    ufunc, pyop = UPDATES[how]
    update_in_place(var, array, ufunc, pyop)
