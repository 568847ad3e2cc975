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

Large arrays have one fused form, :class:`Affine`: an inference batch norm ``x * s + b``
(vectors ``s``, ``b`` along the last axis) and the ReLU/ReLU6 right after it, run tile by
tile (``ops/_kernels.scale_shift``) so that the array is read from memory once, not once per
operation (MobileNetV2 at batch 1: four passes over 1-5 MB activations per layer).
"""
import operator

from .._core.backend import np
from ..ops import _conv_epilogue, _kernels
from .ir import Op, Read, Step, execute

__all__ = ["Fused", "fuse_elementwise", "assign_scratch", "Affine", "fuse_affine"]

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


class _OpsStep(Step):
    """A compiled program's step standing for traced :class:`~.ir.Op` steps (``ops``):
    renamed with them, and run op by op where the compiled form is not used (the
    interpreter, evaluation, the shape probe)."""

    __slots__ = ()

    def renamed(self, m):
        new = Step.renamed(self, m)
        new.ops = [op.renamed(m) for op in self.ops]
        return new

    def defs(self):
        return self.outs

    def interpret(self, env, run, k):
        execute(self.ops, env, run)

    def evaluate(self, env, run, k):
        execute(self.ops, env, run)

    def probe(self, env, run, k):
        execute(self.ops, env, run)


class Fused(_OpsStep):
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
        new = _OpsStep.renamed(self, m)
        new.scratch = dict(self.scratch)
        return new

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


# activation primitives an Affine step may end with -> scale_shift's ``act``
_ACTS = {"Relu": "relu", "Relu6": "relu6"}
# convolutions an Affine step may start with -> their kernel with the norm as epilogue
_PRODUCERS = {"Conv2D": _conv_epilogue.conv2d,
              "DepthwiseConv2dNative": _conv_epilogue.depthwise_conv2d}


class Affine(_OpsStep):
    """``x * scale + shift`` over a large array, then a ReLU or ReLU6 (``ops``: the traced
    :class:`~.ir.Op` steps it stands for): an inference batch norm after a convolution. Run
    as ``ops/_kernels.scale_shift``, tile by tile in the core's cache (one pass over the
    array from memory where the steps take three or four), the same operations per element
    in the same order: the same bits. ``ins`` = (x, scale, shift); ``outs`` its one
    value, in a buffer when the compiler's plan gives it one."""

    __slots__ = ("ops", "ins", "outs", "act", "kernel")
    kind = "affine"
    _slot_fields = ("ins",)

    def __init__(self, ops, ins, outs, act, site=None, kernel=None):
        self.ops, self.ins, self.outs, self.act, self.site = ops, ins, outs, act, site
        # with the convolution that makes x (ops[0]): ``ops/_conv_epilogue``'s kernel, and
        # ins = (the convolution's inputs, scale, shift)
        self.kernel = kernel

    def emit(self, lines, em, k):
        tag = f"{id(self):x}"
        if self.kernel is not None:
            fn = em.const("A", tag, self.kernel)
            conv = self.ops[0]
            args = [f"r{v}" for v in self.ins] + [repr(self.act)] + [
                em.const("K", f"{tag}_{key}", conv.attrs[key])
                for key in ("strides", "pads", "dilations")]
            lines.append(f"{em.pad}r{self.outs[0]} = {fn}({', '.join(args)})")
            return
        fn = em.const("A", tag, _kernels.scale_shift)
        x, sc, sh = (f"r{v}" for v in self.ins)
        buf = em.buffers.get(self.outs[0]) if em.top else None
        out = f", _B{buf}" if buf is not None else ""
        lines.append(f"{em.pad}r{self.outs[0]} = {fn}({x}, {sc}, {sh}, {self.act!r}{out})")


def _shape_dtype(s, consts, meta):
    v = consts.get(s) if s in consts else None
    if v is not None:
        return (v.shape, v.dtype) if type(v) is np.ndarray else None
    m = meta.get(s)
    return None if m is None else (tuple(m[0]), np.dtype(m[1]))


def fuse_affine(program, min_bytes, fixed):
    """``program``'s top-level steps with each ``t = x * s; u = t + b`` (``s``, ``b``
    vectors along the last axis of a float32/float64 ``x`` of at least ``min_bytes`` and a
    fixed shape; ``t`` read only by the sum), and a ``Relu``/``Relu6`` of ``u`` right after
    it (``u`` read only there), made one :class:`Affine` step at the sum's (or the
    activation's) place. Between the product and the sum only :class:`~.ir.Op`,
    :class:`Fused` and :class:`~.ir.Read` steps that do not read ``x`` (nothing there
    writes an array)."""
    steps, meta, consts = program.steps, program.meta, program.consts
    uses = {}
    for k, step in enumerate(steps):
        for s in step.uses():
            uses.setdefault(s, []).append(k)
    returned = {s for s in program.outputs if s is not None}
    made = {o: k for k, st in enumerate(steps) if type(st) is Op for o in st.outs}

    def vector(s, c, dtype):
        sd = _shape_dtype(s, consts, meta)
        return sd is not None and tuple(sd[0]) == (c,) and sd[1] == dtype

    def only_use(s, k):
        return s not in returned and uses.get(s) == [k]

    replace, drop = {}, set()
    for k, step in enumerate(steps):
        if (type(step) is not Op or step.prim.forward is not operator.mul or step.attrs
                or len(step.ins) != 2 or len(step.outs) != 1 or k in drop):
            continue
        t = step.outs[0]
        mt = _shape_dtype(t, consts, meta)
        if (mt is None or t not in fixed or len(mt[0]) < 2 or None in mt[0]
                or mt[1] not in (np.float32, np.float64)
                or int(np.prod(mt[0])) * mt[1].itemsize < min_bytes):
            continue
        shape, dtype = mt
        c = shape[-1]
        x = sc = None
        for a, v in (step.ins, step.ins[::-1]):
            if (a in fixed and a not in consts and _shape_dtype(a, consts, meta) == (shape, dtype)
                    and vector(v, c, dtype)):
                x, sc = a, v
                break
        if x is None or t in returned or len(uses.get(t, ())) != 1:
            continue
        j = uses[t][0]
        add = steps[j]
        if (type(add) is not Op or add.prim.forward is not operator.add or add.attrs
                or len(add.ins) != 2 or len(add.outs) != 1 or t not in add.ins
                or add.ins[0] == add.ins[1]):
            continue
        sh = add.ins[1] if add.ins[0] == t else add.ins[0]
        u = add.outs[0]
        if not vector(sh, c, dtype) or _shape_dtype(u, consts, meta) != (shape, dtype):
            continue
        if not all(type(steps[i]) in (Op, Fused, Read) and x not in steps[i].uses()
                   for i in range(k + 1, j)):
            continue
        ops, act, at, out = [step, add], None, j, u
        nxt = steps[j + 1] if j + 1 < len(steps) else None
        if (type(nxt) is Op and nxt.prim.name in _ACTS and not nxt.attrs
                and tuple(nxt.ins) == (u,) and len(nxt.outs) == 1 and only_use(u, j + 1)
                and _shape_dtype(nxt.outs[0], consts, meta) == (shape, dtype)):
            ops.append(nxt)
            act, at, out = _ACTS[nxt.prim.name], j + 1, nxt.outs[0]
        drop.update((k, j))
        # the convolution that makes x (read by the product only), moved to the sum's place
        # over pure steps: its norm then runs on each block of its output while in cache
        p = made.get(x)
        conv = steps[p] if p is not None else None
        if (type(conv) is Op and conv.prim.name in _PRODUCERS and only_use(x, k)
                and set(conv.attrs) == {"strides", "pads", "dilations"}
                and len(conv.ins) == 2 and p not in drop and p not in replace
                and all(type(steps[i]) in (Op, Fused, Read) for i in range(p + 1, at)
                        if i not in drop)):
            drop.add(p)
            replace[at] = Affine([conv] + ops, (*conv.ins, sc, sh), (out,), act, step.site,
                                 _PRODUCERS[conv.prim.name])
            continue
        replace[at] = Affine(ops, (x, sc, sh), (out,), act, step.site)
    if not replace:
        return steps
    return [replace.get(k, st) for k, st in enumerate(steps)
            if k in replace or k not in drop]
