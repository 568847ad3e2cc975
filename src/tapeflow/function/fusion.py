"""Element-wise fusion for compiled programs: a run of element-wise steps on small arrays
becomes one :class:`Fused` step whose intermediate values live in scratch buffers.

NumPy runs every element-wise operator as its own call; on an array of a few hundred floats
the call costs more than the arithmetic, and a fresh result array costs an allocation. XLA
fuses such a chain into one loop; NumPy cannot, but a compiled program can still skip the
allocations: a value made and used up inside the run is written with the ufunc's ``out=``
into a per-thread buffer reused at every call (and over an operand that dies at that step,
the same cache lines). The operators, their operands and their order are the traced ones, so
results are bit for bit those of the unfused program.

A run is a sequence of consecutive top-level steps, each a primitive without attributes whose
forward is ``+ - * /``, unary ``-`` or a one-output float ufunc (``Tanh``, ``Exp``,
``Maximum``...), whose result has a fixed shape of at least one dimension, a float dtype and
at most ``max_bytes`` (larger temporaries have the compiler's own buffer plan,
``codegen._plan_buffers``). A value is *internal* when every read of it is a later step of the
run and the program does not return it; only internal values go to buffers, so a buffer never
holds a value the caller, a variable, a tape or a later step outside the run can see. The other
values of the run (its *exports*) are fresh arrays as before. A run with no internal value is
left as it was.

``Fused`` is a step kind of compiled programs only (as ``blas.GemmUpdate``): the traced
program, which the interpreter and the graph view read, keeps its steps.
"""
import operator

from .._core.backend import np
from .ir import Op, Step, execute

__all__ = ["Fused", "fuse_elementwise", "assign_scratch"]

# operator forward -> (NumPy ufunc name, arity)
_OPERATOR_UFUNCS = {operator.add: ("add", 2), operator.sub: ("subtract", 2),
                    operator.mul: ("multiply", 2), operator.truediv: ("divide", 2),
                    operator.neg: ("negative", 1)}
# ufuncs whose output NumPy 2.4 wants as ``out=`` (a positional output is deprecated)
_KEYWORD_OUT = frozenset(("maximum", "minimum", "fmax", "fmin"))


def _ufunc_of(prim):
    """``(ufunc name, arity)`` when ``prim``'s forward is an operator or a NumPy ufunc of
    one output, else None."""
    fwd = prim.forward
    found = _OPERATOR_UFUNCS.get(fwd) if type(fwd) is not np.ufunc else None
    if found is not None:
        return found
    if type(fwd) is np.ufunc and fwd.nout == 1 and getattr(np, fwd.__name__, None) is fwd:
        return fwd.__name__, fwd.nin
    return None


class Fused(Step):
    """Consecutive element-wise steps of a compiled program (``ops``, :class:`~.ir.Op`
    steps) run as one: ``ins`` the slots they read from outside, ``outs`` the values read
    after them, ``scratch`` each internal value's buffer index (set by
    :func:`assign_scratch`)."""

    __slots__ = ("ops", "ins", "outs", "scratch")
    kind = "fused"
    _slot_fields = ("ins",)

    def __init__(self, ops, ins, outs, site=None):
        self.ops, self.ins, self.outs, self.site = ops, ins, outs, site
        self.scratch = {}

    def renamed(self, m):
        new = Step.renamed(self, m)
        new.ops = [op.renamed(m) for op in self.ops]
        new.scratch = dict(self.scratch)
        return new

    def defs(self):
        return self.outs

    def interpret(self, env, run, k):
        execute(self.ops, env, run)

    def evaluate(self, env, run, k):
        execute(self.ops, env, run)

    def probe(self, env, run, k):
        execute(self.ops, env, run)

    def emit(self, lines, em, k):
        consts, meta = em.program.consts, em.program.meta
        tag = f"{id(self):x}"
        for op in self.ops:
            o = op.outs[0]
            name, _ = _ufunc_of(op.prim)
            args = [_operand(s, op, consts, meta, em, tag) for s in op.ins]
            b = self.scratch.get(o)
            if b is not None:
                args.append(f"out=_B{b}" if name in _KEYWORD_OUT else f"_B{b}")
            lines.append(f"{em.pad}r{o} = {em.np(name)}({', '.join(args)})")


def _dtype_of(s, consts, meta):
    if s in consts:
        v = consts[s]
        return v.dtype if isinstance(v, (np.ndarray, np.generic)) else None
    m = meta.get(s)
    return None if m is None else np.dtype(m[1])


def _operand(s, op, consts, meta, em, tag):
    """The source of operand ``s`` of ``op``: a scalar constant as a 0-d array (NumPy's
    loop over an array operand is ~0.2 us quicker than its scalar path on a few hundred
    elements, 0.5 us for a Python int), of the dtype it computes in: a NumPy scalar's own
    (0-d arrays promote as NumPy scalars do), a Python number's the result's when the other
    operands already have that dtype (the number then only converts to it). Same values."""
    v = consts.get(s)
    if v is None:
        return f"r{s}"
    name = f"C{tag}_{s}"
    if name in em.ns:
        return name
    if isinstance(v, np.generic) and v.dtype.kind in "fiub":
        arr = np.asarray(v)
    elif type(v) in (int, float):
        out = np.dtype(meta[op.outs[0]][1])
        if any(_dtype_of(t, consts, meta) != out for t in op.ins if t != s):
            return f"r{s}"
        with np.errstate(all="ignore"):
            arr = np.asarray(v, out)
        if arr.item() != v:      # (not exactly representable: leave the conversion to NumPy)
            return f"r{s}"
    else:
        return f"r{s}"
    return em.const("C", f"{tag}_{s}", arr)


def _eligible(step, meta, max_bytes, fixed):
    if (type(step) is not Op or step.attrs or len(step.outs) != 1
            or not fixed.issuperset(step.ins) or step.outs[0] not in fixed):
        return False
    uf = _ufunc_of(step.prim)
    if uf is None or uf[1] != len(step.ins):
        return False
    m = meta.get(step.outs[0])
    if m is None:
        return False
    shape, dtype = m
    shape = tuple(shape)
    if not shape or None in shape or np.dtype(dtype).kind != "f":
        return False
    return int(np.prod(shape)) * np.dtype(dtype).itemsize <= max_bytes


def fuse_elementwise(program, max_bytes, fixed):
    """``program``'s top-level steps with each run of element-wise steps that has internal
    values (see the module's text) made one :class:`Fused` step. ``fixed``: the slots whose
    traced shape (``program.meta``) holds at every call (``Program._fixed_shape_slots``;
    ``tf.where``'s result, and what follows from it, has a shape of each call's values)."""
    steps, meta = program.steps, program.meta
    uses = {}
    for k, step in enumerate(steps):
        for s in step.uses():
            uses.setdefault(s, []).append(k)
    returned = {s for s in program.outputs if s is not None}
    out, run = [], []

    def close():
        if len(run) > 1:
            first, last = run[0][0], run[-1][0]
            made = {st.outs[0] for _, st in run}
            internal = {s for s in made if s not in returned and s in uses
                        and all(first < k <= last for k in uses[s])}
            if internal:
                ins = []
                for _, st in run:
                    for s in st.ins:
                        if s not in made and s not in ins:
                            ins.append(s)
                outs = tuple(st.outs[0] for _, st in run if st.outs[0] not in internal)
                fused = Fused([st for _, st in run], tuple(ins), outs, run[0][1].site)
                fused.scratch = dict.fromkeys(st.outs[0] for _, st in run
                                              if st.outs[0] in internal)
                out.append(fused)
                run.clear()
                return
        out.extend(st for _, st in run)
        run.clear()

    for k, step in enumerate(steps):
        if _eligible(step, meta, max_bytes, fixed):
            run.append((k, step))
        else:
            close()
            out.append(step)
    close()
    return out


def assign_scratch(steps, meta, specs):
    """Give the internal values of each :class:`Fused` step of ``steps`` a buffer: indices
    into ``specs`` (a list of ``(shape, dtype)``, extended here). Within a step, a value's
    buffer is free again after its last read there (an element-wise step may write over an
    operand it reads last); the steps share one pool, since no internal value outlives its
    step."""
    pool = {}                          # spec -> buffer indices made for fused steps
    for step in steps:
        if type(step) is not Fused:
            continue
        last = {}
        for j, op in enumerate(step.ops):
            for s in op.ins:
                last[s] = j
        free = {spec: list(reversed(ix)) for spec, ix in pool.items()}
        for j, op in enumerate(step.ops):
            o = op.outs[0]
            # operands read for the last time here give their buffers back first
            for s in dict.fromkeys(op.ins):
                b = step.scratch.get(s)
                if b is not None and last.get(s) == j:
                    spec = (tuple(meta[s][0]), np.dtype(meta[s][1]))
                    free.setdefault(spec, []).append(b)
            if o not in step.scratch:
                continue
            spec = (tuple(meta[o][0]), np.dtype(meta[o][1]))
            avail = free.get(spec)
            if avail:
                b = avail.pop()
            else:
                b = len(specs)
                specs.append(spec)
                pool.setdefault(spec, []).append(b)
            step.scratch[o] = b
    return specs
