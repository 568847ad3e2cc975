"""Compile a traced program to one straight-line Python function over NumPy values.

Locals ``r0 .. rN`` are the slots; primitives whose forward is a Python operator are emitted as
that operator (NumPy's scalar fast path), the others as calls of their forward bound as
keyword-only defaults (locals, the fastest lookup). Variable reads are ``v._value``; updates go
through ``update_in_place`` (in place when nothing else holds the array, the eager rule), so
slots are deleted after their last use; an SGD update of a dense weight
(``w.assign_sub(lr * matmul(a, b))``) becomes one BLAS call into it (``blas.py``), a run of
element-wise steps on small arrays one step writing its intermediates into scratch buffers
(``fusion.py``), a batch norm ``x * s + b`` on a large array with its ReLU/ReLU6 one tiled
step (``fusion.Affine``), and a matrix-vector product of a contiguous matrix an ``np.dot``
call.
Branches (``tf.cond``, ``tf.switch_case``) become ``if`` blocks and loops
(``tf.while_loop``) ``while`` blocks. Guards compare the Python value a trace read with the
replayed one and raise ``GuardFailed`` before any variable write is visible (programs with
guards restore the variables they write).
"""
import copy
import operator
import threading

from .._core.backend import np
from .._core.tensor import Tensor
from .._core.variable import update_in_place
from ..ops import _kernels
from .batch_chunks import chunk_batches
from .blas import dot_matches_matmul, fuse_gemm_updates, gemm_update
from .fusion import Affine, assign_scratch, fuse_affine, fuse_elementwise
from .ir import GuardFailed, Op, Structured, branch_index, execute, guard_holds, run_guard
from .passes import eliminate_dead, optimized

__all__ = ["compile_program"]

_OPERATORS = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
    operator.matmul: "@", operator.floordiv: "//", operator.pow: "**",
}
_UNARY = {operator.neg: "-"}
# Forwards with a NumPy ufunc that can write into a given buffer (``out=``).
_OUT_UFUNCS = {operator.add: "add", operator.sub: "subtract", operator.mul: "multiply",
               operator.truediv: "divide"}
# Primitives whose output is always a new array (never a view of an input): a buffer that
# feeds any other primitive stays busy while that primitive's output lives.
_FRESH = frozenset((
    "MatMul", "AddV2", "Sub", "Mul", "RealDiv", "Relu", "ReluGrad", "Sum", "Mean", "Max",
    "Min", "Square", "Tanh", "Sigmoid", "Exp", "Log", "Neg", "TanhGrad", "SigmoidGrad",
    "Maximum", "Minimum", "SparseSoftmaxCrossEntropyWithLogits", "Softmax", "LogSoftmax",
    "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPool", "MaxPoolGrad",
    "AvgPool", "AvgPoolGrad", "Cast", "Sqrt", "Rsqrt", "Pow", "Abs", "Sign", "Greater",
    "Less", "Equal", "NotEqual", "GreaterEqual", "LessEqual", "SelectV2"))
_MIN_BUFFER_BYTES = 16384
_AFFINE_BYTES = 1 << 16


class _Emitter:
    """The ``emit`` rules' context (``ir.execute`` walks the steps): the namespace and
    keyword defaults of the compiled function, variable names, buffers, and where the
    step being written stands (``pad``, ``top``)."""

    rule = "emit"

    def __init__(self, program, buffers=None, on_write=None):
        self.program = program
        # __name__ puts NumPy's warnings from compiled code under tapeflow's filter
        self.ns = {"__name__": "tapeflow.function.compiled",
                   "Tensor": Tensor, "GuardFailed": GuardFailed, "_guard": run_guard,
                   "_holds": guard_holds, "_update": update_in_place, "_gemm": gemm_update,
                   "_branch": branch_index, "np": np, "_add_rows": _kernels.add_rows}
        self.defaults = []
        self.var_names = {}
        self.buffers = buffers or {}   # top-level slot -> buffer index
        self.pad = ""
        self.top = True
        self.on_write = on_write      # (k, lines) before a top-level variable write
        self._made_by = None          # top-level slot -> the Op step that makes it
        self.fixed = set()            # top-level slots whose traced shape holds at every call

    def failed(self, exc, k, step):
        pass

    def block(self, steps, lines):
        """Write ``steps`` one level deeper (a branch, a loop body)."""
        pad, top = self.pad, self.top
        self.pad, self.top = pad + "    ", False
        try:
            execute(steps, lines, self)
        finally:
            self.pad, self.top = pad, top

    def before_write(self, k, lines):
        if self.top and self.on_write is not None:
            self.on_write(k, lines)

    def _row_add(self, ins):
        """For ``x + b`` with ``b`` a short vector along ``x``'s last axis (a bias add, as
        traced), the index of ``x`` in ``ins``; else None. ``_add_rows`` checks again at
        run time, so a relaxed program stays right for any shape."""
        if len(ins) != 2:
            return None
        meta = self.program.meta
        a, b = meta.get(ins[0]), meta.get(ins[1])
        if a is None or b is None:
            return None
        for i, (x, v) in enumerate(((a, b), (b, a))):
            if (len(v[0]) == 1 and x[0] and x[0][-1] == v[0][0] < 256 and x[1] == v[1]
                    and x[1].kind == "f" and int(np.prod(x[0])) >= 4096):
                return i
        return None

    def _small(self, slot):
        """Whether ``slot`` holds a traced array of at most ``_MIN_BUFFER_BYTES``."""
        m = self.program.meta.get(slot)
        return (m is not None and None not in m[0]
                and int(np.prod(m[0])) * m[1].itemsize <= _MIN_BUFFER_BYTES)

    def _contiguous(self, slot):
        """Whether ``slot`` holds a C- or F-contiguous array at every call: a constant that
        is one, or the result of a primitive whose output is a new array."""
        v = self.program.consts.get(slot)
        if v is not None:
            return type(v) is np.ndarray and (v.flags.c_contiguous or v.flags.f_contiguous)
        if self._made_by is None:
            self._made_by = {o: st for st in self.program.steps if type(st) is Op
                             for o in st.outs}
        st = self._made_by.get(slot)
        return st is not None and st.prim.name in _FRESH

    def _matrix_vector(self, step):
        """Whether a ``MatMul`` step is a matrix-vector product that ``np.dot`` computes as
        ``np.matmul`` does, only quicker (``blas.dot_matches_matmul``): 2-D operands of
        one float dtype, a result with one dimension 1, and the matrix known contiguous."""
        meta, consts = self.program.meta, self.program.consts
        if not self.fixed.issuperset((*step.ins, *step.outs)):
            return False
        ms = [meta.get(s) if s not in consts or type(consts[s]) is not np.ndarray
              else (consts[s].shape, consts[s].dtype) for s in (*step.ins, step.outs[0])]
        if None in ms or set(step.attrs) - {"transpose_a", "transpose_b"}:
            return False
        (sa, da), (sb, db), (so, do) = ms
        if (len(sa) != 2 or len(sb) != 2 or len(so) != 2 or None in (*sa, *sb, *so)
                or not da == db == do or np.dtype(da) not in (np.float32, np.float64)):
            return False
        k = sa[0] if step.attrs.get("transpose_a") else sa[1]
        if k < 2 or sorted(so)[0] != 1 or sorted(so)[1] < 2:
            return False
        mat = step.ins[0] if so[1] == 1 else step.ins[1]
        return self._contiguous(mat) and dot_matches_matmul()

    def np(self, name):
        """A NumPy function as a local of the compiled function (a keyword default: no
        global and attribute lookup per call; outputs are then passed positionally)."""
        local = f"_np_{name}"
        if local not in self.ns:
            self.ns[local] = getattr(np, name)
            self.defaults.append(f"{local}={local}")
        return local

    def const(self, prefix, i, value):
        n = f"{prefix}{i}"
        self.ns[n] = value
        self.defaults.append(f"{n}={n}")
        return n

    def op(self, step, lines):
        """An :class:`~.ir.Op` as Python: an operator, a NumPy call into a buffer, or its
        forward bound as a keyword default."""
        pad, top, tag = self.pad, self.top, f"{id(step):x}"
        prim, ins, attrs, outs = step.prim, step.ins, step.attrs, step.outs
        args = [f"r{s}" for s in ins]
        fwd = prim.forward
        target = ", ".join(f"r{s}" for s in outs) + ("," if len(outs) > 1 else "")
        sym = _OPERATORS.get(fwd) if not attrs and len(args) == 2 else None
        buf = self.buffers.get(outs[0]) if top and len(outs) == 1 else None
        if prim.name == "MatMul" and len(args) == 2:
            a = args[0] + (".mT" if attrs.get("transpose_a") else "")
            b = args[1] + (".mT" if attrs.get("transpose_b") else "")
            if attrs.get("transpose_b") and self._small(ins[1]):
                # BLAS's NT kernels are slow for a thin inner dimension (a dense
                # layer's input gradient with few units): a transposed copy of a
                # small operand costs less than a microsecond
                b = f"{self.np('ascontiguousarray')}({b})"
            if buf is not None:
                lines.append(f"{pad}{target} = {self.np('matmul')}({a}, {b}, _B{buf})")
            elif self._matrix_vector(step):
                lines.append(f"{pad}{target} = {self.np('dot')}({a}, {b})")
            else:
                lines.append(f"{pad}{target} = {a} @ {b}")
        elif fwd is operator.add and not attrs and (row := self._row_add(ins)) is not None:
            x, b = args if row == 0 else args[::-1]
            out = f", out=_B{buf}" if buf is not None else ""
            lines.append(f"{pad}{target} = _add_rows({x}, {b}{out})")
        elif buf is not None and not attrs and fwd in _OUT_UFUNCS:
            lines.append(f"{pad}{target} = {self.np(_OUT_UFUNCS[fwd])}({args[0]}, "
                         f"{args[1]}, _B{buf})")
        elif buf is not None and prim.name == "Relu":
            # a zeros array, not the scalar 0: NumPy's vectorised loop (5x faster)
            z = self.const("Z", tag, _kernels.zeros_of(*self.program.meta[outs[0]]))
            # (NumPy 2.4 deprecates a positional output for maximum/minimum)
            lines.append(f"{pad}{target} = {self.np('maximum')}({args[0]}, {z}, "
                         f"out=_B{buf})")
        elif buf is not None and prim.name == "ReluGrad":
            lines.append(f"{pad}{target} = {self.np('multiply')}({args[0]}, {args[1]} > 0, "
                         f"_B{buf})")
        elif sym is not None:
            lines.append(f"{pad}{target} = {args[0]} {sym} {args[1]}")
        elif not attrs and len(args) == 1 and fwd in _UNARY:
            lines.append(f"{pad}{target} = {_UNARY[fwd]}{args[0]}")
        else:
            f = self.const("F", tag, fwd)
            for key, val in (attrs or {}).items():
                args.append(f"{key}={self.const('K', f'{tag}_{key}', val)}")
            lines.append(f"{pad}{target} = {f}({', '.join(args)})")


def compile_program(program, name="program", single_output=False, buffers=True, meta=None):
    """Python source and function for ``program``: ``fn(*flat_args) -> tuple of arrays``
    (the array itself when ``single_output``).

    Flat arguments are NumPy values for tensor arguments and Variables for variable ones.
    With ``buffers`` (programs for fixed shapes only), large temporaries of matmuls and
    element-wise arithmetic are written into per-thread buffers reused from call to call
    (a fresh 128 KiB array costs page faults; see ``_plan_buffers``). ``meta`` gives the
    slots' shapes to plan them for (a relaxed program compiled for one call's shapes; by
    default the traced ones).
    """
    program = copy.copy(program)
    if meta is not None:
        program.meta = meta
    program = optimized(program)
    program.steps = fuse_gemm_updates(program, _MIN_BUFFER_BYTES)
    # The slots whose meta shape holds at every call: none in a relaxed program compiled
    # for every shape; else not those whose shape depends on values (tf.where's).
    fixed = (program._fixed_shape_slots() if buffers or not program.relaxed
             or meta is not None else set())
    if buffers:
        # the shape arithmetic of a relaxed trace, once for these shapes (a Flatten's
        # Shape, StridedSlice and Pack: a constant shape for its Reshape)
        consts = program.consts
        program.consts = dict(consts)
        if program._fold_constants(fixed):
            program.steps = eliminate_dead(program.steps, program.outputs)
            fixed = program._fixed_shape_slots()
        else:
            program.consts = consts
        # row-wise runs of a large batch, chunk by chunk on two threads (batch_chunks.py)
        program.steps = chunk_batches(program, program.steps, fixed)
        program.steps = fuse_elementwise(program, _MIN_BUFFER_BYTES, fixed)
        # a large batch norm (and its ReLU/ReLU6) in one tiled step (fusion.Affine)
        program.steps = fuse_affine(program, _AFFINE_BYTES, fixed)
    plan, specs = _plan_buffers(program) if buffers else ({}, [])
    if buffers:
        assign_scratch(program.steps, program.meta, specs)
    em = _Emitter(program, plan)
    em.fixed = fixed
    params = []
    used = {s for step in program.steps for s in step.uses()}
    used.update(program.outputs)
    for s, value in program.consts.items():
        if s in used:   # (the passes may leave a constant unread)
            em.const("r", s, value)
    for i, (slot, var) in enumerate(zip(program.inputs, program.arg_vars)):
        if var is not None:
            em.var_names[id(var)] = f"a{i}"
            params.append(f"a{i}")
        else:
            params.append(f"r{slot}")
    for j, var in enumerate(program.variables):
        if id(var) not in em.var_names:
            em.var_names[id(var)] = em.const("v", j, var)

    last_use = _last_uses(program)
    outputs = set(program.outputs)
    deleted = set()

    def free_dead(k, lines):
        # Free dead slots first, so an unshared array can be updated in place.
        dead = [f"r{x}" for x in sorted(last_use) if last_use[x] < k
                and x not in deleted and x not in outputs and x not in program.consts]
        if dead:
            lines.append("del " + ", ".join(dead))
            deleted.update(int(d[1:]) for d in dead)

    em.on_write = free_dead
    lines = []
    if specs:
        em.ns["_buffers"] = _thread_buffers(specs)
        lines.append(", ".join(f"_B{i}" for i in range(len(specs))) + ", = _buffers()")
    execute(program.steps, lines, em)
    outs = ", ".join("None" if s is None else f"r{s}" for s in program.outputs)
    if single_output:
        lines.append(f"return {outs}")
    else:
        lines.append(f"return ({outs}{',' if len(program.outputs) == 1 else ''})")

    written = []
    for var in program.writes:
        n = em.var_names[id(var)]
        if n not in written:
            written.append(n)
    body = lines
    if program.n_guards and written:
        # Restore what the program wrote when a guard fails after a write.
        saves = [f"_s{j} = {n}._value" for j, n in enumerate(written)]
        restore = [f"{n}._value = _s{j}" for j, n in enumerate(written)]
        body = (saves + ["try:"] + ["    " + ln for ln in lines]
                + ["except GuardFailed:"] + ["    " + ln for ln in restore] + ["    raise"])
    sig = ", ".join(params)
    if em.defaults:
        sig += (", *, " if params else "*, ") + ", ".join(em.defaults)
    src = f"def {name}({sig}):\n" + "".join(f"    {ln}\n" for ln in body)
    code = compile(src, f"<tf.function {name}>", "exec")
    exec(code, em.ns)  # noqa: S102 - our own generated source
    return src, em.ns[name]


def _thread_buffers(specs):
    """``get()`` -> this thread's buffers for ``specs`` (made on a thread's first call):
    replicas of a strategy may run one program in several threads at once."""
    local = threading.local()

    def get():
        try:
            return local.buffers
        except AttributeError:
            local.buffers = tuple(np.empty(shape, dtype) for shape, dtype in specs)
            return local.buffers
    return get


def _plan_buffers(program):
    """``(slot -> buffer index, [(shape, dtype)])``: which top-level temporaries may live in
    reused buffers. A temporary qualifies when a primitive writes it with ``out=`` (matmul,
    add/sub/mul/div, relu), it is at least 16 KiB of floats, and neither it nor anything
    that may alias it (the outputs of non-``_FRESH`` primitives it feeds) leaves the
    program: an output, a value assigned to a variable, an argument of a Python call, a use
    inside a branch or loop (a :class:`~.fusion.Affine` step's output qualifies too). A
    buffer is free again after the last use of every alias."""
    steps = program.steps
    meta = program.meta
    escapes = set(s for s in program.outputs if s is not None)
    alias_of = {}            # slot -> root slots whose buffer it may alias
    last = {}
    for k, step in enumerate(steps):
        used = step.uses()
        for s in used:
            last[s] = k
        if step.kind == "assign" and step.how == "assign":
            escapes.add(step.src)   # the variable keeps the array (assign_add/sub consume it)
        elif step.kind == "call" or isinstance(step, Structured):
            escapes.update(used)
        elif type(step) is Op and step.prim.name not in _FRESH:
            roots = set()
            for s in step.ins:
                roots |= alias_of.get(s, {s})
            for o in step.outs:
                alias_of[o] = roots
    # a root escapes when any alias of it does; it is busy until the last alias use
    root_last = {}
    bad = set()
    for s, k in last.items():
        for r in alias_of.get(s, {s}):
            root_last[r] = max(root_last.get(r, -1), k)
    for s in escapes:
        bad |= alias_of.get(s, {s})
    plan, specs, free = {}, [], {}
    releases = {}
    for k, step in enumerate(steps):
        for b, spec in releases.pop(k, ()):
            free.setdefault(spec, []).append(b)
        affine = type(step) is Affine and step.kernel is None
        if not affine and (type(step) is not Op or len(step.outs) != 1):
            continue
        out = step.outs[0]
        writable = affine or (step.prim.name in ("MatMul", "Relu", "ReluGrad")
                              or (not step.attrs and step.prim.forward in _OUT_UFUNCS))
        if not writable or out in bad or out not in meta or out not in root_last:
            continue
        shape, dtype = meta[out]
        if dtype.kind != "f" or np.prod(shape) * dtype.itemsize < _MIN_BUFFER_BYTES:
            continue
        spec = (tuple(shape), dtype)
        pool = free.get(spec)
        b = None
        if affine or step.prim.name != "MatMul":
            # element-wise: write over an input that dies here (same cache lines)
            for s in step.ins:
                if (s in plan and root_last.get(s) == k and s not in alias_of
                        and specs[plan[s]] == spec and (plan[s], spec) in releases.get(k + 1,
                                                                                   ())):
                    b = plan[s]
                    releases[k + 1].remove((b, spec))
                    break
        if b is not None:
            pass
        elif pool:
            b = pool.pop()
        else:
            b = len(specs)
            specs.append(spec)
        plan[out] = b
        # free once every alias has had its last use (from the next step on)
        releases.setdefault(root_last[out] + 1, []).append((b, spec))
    return plan, specs


def _last_uses(program):
    """Top-level slot -> index of the last top-level step that uses it (or defines it, when
    nothing does); uses inside branches and loops count at their step."""
    last = {}
    for k, step in enumerate(program.steps):
        for s in step.defs():
            last.setdefault(s, k)
        for s in step.uses():
            last[s] = k
    return last
