"""Passes over a program's top-level steps before it is compiled: expansion of operator
expressions, forwarding of products by a constant of ones, scalar-constant merging, negation
sinking, common-subexpression elimination and dead-code elimination.

They work on the typed IR (``ir.py``) and change only what a compiled call computes, never
what it does: the program's own steps (``Program.steps``, which the interpreter, the graph
view and the trace report read) are left as traced.

- **Expansion** (:func:`expand_expressions`): a primitive whose forward is a plain operator
  expression of its inputs (``TanhGrad``'s ``g * (1 - y * y)``, ``SigmoidGrad``,
  ``Square``'s ``x * x``) becomes the ``Mul``/``Sub``/``AddV2``/``RealDiv``/``Neg`` steps it
  evaluates, in the same order on the same operands (so bit for bit the same result): the
  passes below then see the ``1 - y * y`` that two ``TanhGrad`` steps of one ``y`` share.
- **Ones** (:func:`forward_ones`): ``x * c`` where ``c`` is a constant array of ones whose
  product has ``x``'s shape and dtype is ``x`` itself, bit for bit (a gradient seeded by
  ``OnesLike`` multiplies by one; TF's grappler does the same). Only for programs traced with
  fixed shapes: a relaxed program's constant would not follow the shapes of a call.
- **Constants** (:func:`merge_constants`): NumPy-scalar and Python-number constants of the
  same type, dtype and bits share one slot, so CSE sees ``y * 2`` twice where two gradient
  rules each made their own ``2``.
- **Negations** (:func:`sink_negations`): negations move outward where IEEE arithmetic
  makes that exact (``x * -c`` beside ``x * c``, ``(-a) * b``, ``a + (-b)``...), so that a
  negation feeding an addition becomes a subtraction and CSE sees the un-negated product.
- **CSE** (:func:`eliminate_common`): a pure primitive applied again to the same input slots
  with equal attributes reads the first result (nested tapes recompute the forward). Never
  random draws or other stateful primitives, never variable reads (a read's slot already
  stands for one value of the variable, so a read after an ``assign`` is another slot), and
  never a step whose result the program returns.
- **Channel scales** (:func:`fold_channel_scales`): ``conv2d(x, k) * s`` with ``s`` one
  value per output channel (an inference batch normalization's ``gamma * rsqrt(var + eps)``)
  becomes ``conv2d(x, k * s)`` (depthwise: ``k * reshape(s, [C, M])``), where the filter is
  smaller than the activations the multiply would pass over. ``s`` is whatever the program
  computes at that call (variables included), so nothing is cached; the result differs from
  the traced order by float32 rounding only (the scale is applied to each product's terms
  before the sum instead of once after it). **Off unless** ``TAPEFLOW_FOLD_SCALES=1`` (read
  at import; :data:`FOLD_SCALES`): where a convolution's terms cancel, that rounding exceeds
  ``TAPEFLOW_VALIDATE_FUNCTIONS``' 1e-5 comparison with the eager run, and a trained model's
  rounding should follow TensorFlow's order (see ``ops/winograd.py`` for the compat case).
- **DCE** (:func:`eliminate_dead`): pure primitives and variable reads whose results nothing
  uses (the inner tape's loss of a Hessian-vector product). Effects are never dropped:
  assignments, Python calls (``tf.print``, ``py_function``), guards, branches and loops,
  random draws, ``Assert``, summary writes and collectives.
"""
import copy
import dis
import operator
import os

from .._core.backend import np
from .._core.registry import PRIMITIVES
from .ir import Op, Read, stateful, walk

__all__ = ["optimize", "optimized", "expand_expressions", "forward_ones", "merge_constants",
           "sink_negations", "eliminate_common", "fold_channel_scales", "eliminate_dead"]

# fold_channel_scales on compiled programs (TAPEFLOW_FOLD_SCALES=1; see the docstring)
FOLD_SCALES = [os.environ.get("TAPEFLOW_FOLD_SCALES", "") == "1"]

# Primitives with an effect besides their result: kept even when nothing reads it.
_EFFECT_WORDS = ("Assert", "Summary", "Collective", "TruncatedNormal", "Print")


def pure(step):
    """Whether ``step`` is a primitive with no effect beyond its outputs."""
    if type(step) is not Op:
        return False
    name = step.prim.name
    return not stateful(step.prim) and not any(w in name for w in _EFFECT_WORDS)


def optimize(program):
    """``(steps, outputs)`` of ``program`` after the passes (``program`` is not changed)."""
    work = optimized(program)
    return work.steps, work.outputs


def optimized(program):
    """A shallow copy of ``program`` after the passes: its ``steps`` and ``outputs``, and
    the ``consts`` and ``meta`` of the slots the passes made (new dicts when they made any;
    ``program``'s own are not changed)."""
    program = copy.copy(program)
    steps, outputs = program.steps, list(program.outputs)
    m = {}
    steps = expand_expressions(program, steps)
    if not program.relaxed:
        steps = forward_ones(steps, program.consts, program.meta, outputs, m)
    if merge_constants(program.consts, outputs, m):
        steps = [step.renamed(m) for step in steps]
    steps = sink_negations(program, steps)
    steps = eliminate_common(steps, outputs, m)
    if m:
        outputs = [None if s is None else m.get(s, s) for s in outputs]
    if FOLD_SCALES[0]:
        steps = fold_channel_scales(program, steps, outputs)
    program.steps = eliminate_dead(steps, outputs)
    program.outputs = outputs
    return program


def _ones(consts, s):
    v = consts.get(s)
    if type(v) is not np.ndarray and not isinstance(v, np.generic):
        return None
    if v.dtype.kind not in "fc" or v.size > 1 << 16 or not (v == 1).all():
        return None
    return v


def forward_ones(steps, consts, meta, outputs, m):
    """``steps`` with each ``x * ones`` that equals ``x`` dropped; ``m`` maps its result to
    ``x`` (the later steps read ``x``)."""
    keep = {s for s in outputs if s is not None}
    out = []
    for step in steps:
        if m:
            step = step.renamed(m)
        if (type(step) is Op and step.prim.name == "Mul" and not step.attrs
                and len(step.ins) == 2 and step.outs[0] not in keep):
            a, b = step.ins
            for x, c in ((a, b), (b, a)):
                ones = _ones(consts, c)
                mx, mo = meta.get(x), meta.get(step.outs[0])
                if (ones is not None and x not in consts and mx is not None and mo is not None
                        and mx == mo and ones.dtype == mx[1]
                        and np.broadcast_shapes(ones.shape, mx[0]) == tuple(mx[0])):
                    m[step.outs[0]] = x
                    break
            else:
                out.append(step)
            continue
        out.append(step)
    return out


def _attr_key(v):
    """A hashable key equal only for attributes of the same types and values, or None."""
    if v is None or type(v) in (bool, int, float, str):
        return (type(v), v)
    if type(v) in (tuple, list):
        keys = tuple(_attr_key(x) for x in v)
        return None if None in keys else (type(v), keys)
    if isinstance(v, np.dtype) or hasattr(v, "as_numpy_dtype"):   # a dtype
        return (type(v), str(v))
    return None


def _key(step):
    attrs = step.attrs
    if not attrs:
        return (step.prim, step.ins)
    keys = []
    for k in sorted(attrs):
        a = _attr_key(attrs[k])
        if a is None:
            return None
        keys.append((k, a))
    return (step.prim, step.ins, tuple(keys))


def eliminate_common(steps, outputs, m):
    """``steps`` with each repeated pure primitive dropped; ``m`` maps its results to the
    first's."""
    keep = {s for s in outputs if s is not None}
    seen = {}
    out = []
    for step in steps:
        if m:
            step = step.renamed(m)
        if pure(step):
            key = _key(step)
            if key is not None:
                first = seen.get(key)
                if first is not None and not keep.intersection(step.outs):
                    for s, f in zip(step.outs, first):
                        m[s] = f
                    continue
                seen.setdefault(key, step.outs)
        out.append(step)
    return out


_SCALED_CONVS = ("Conv2D", "DepthwiseConv2dNative")


def _static(meta, s):
    m = meta.get(s)
    if m is None or m[0] is None or None in tuple(m[0]):
        return None
    return tuple(m[0]), np.dtype(m[1])


def fold_channel_scales(program, steps, outputs):
    """``steps`` with each ``Mul(conv(x, k), s)`` (either operand order) whose ``s`` holds one
    value per output channel, and whose convolution result nothing else reads, computed as
    ``conv(x, k * s)`` at the multiply's place (see the module's docstring)."""
    convs = {st.outs[0]: i for i, st in enumerate(steps)
             if type(st) is Op and st.prim.name in _SCALED_CONVS and len(st.outs) == 1}
    if not convs:
        return steps
    uses = {}
    for st in steps:
        for u in st.uses():
            uses[u] = uses.get(u, 0) + 1
    for u in outputs:
        uses[u] = uses.get(u, 0) + 1
    # the slots computed from constants and variable reads alone: their shapes hold at every
    # call, a relaxed program's included (the filter and the scale must be among them)
    fixed = set(program.consts)
    for st in steps:
        if type(st) is Read:
            fixed.add(st.out)
        elif type(st) is Op and fixed.issuperset(st.ins) and not stateful(st.prim):
            fixed.update(st.outs)
    meta = program.meta
    plan = {}
    for i, st in enumerate(steps):
        if not (type(st) is Op and st.prim.name == "Mul" and not st.attrs
                and len(st.ins) == 2):
            continue
        for y, sc in (st.ins, st.ins[::-1]):
            j = convs.get(y)
            if j is None or j in plan.values() or uses.get(y) != 1:
                continue
            conv = steps[j]
            if conv.ins[1] not in fixed or sc not in fixed:
                continue
            my, mk, ms = (_static(meta, v) for v in (y, conv.ins[1], sc))
            mz = _static(meta, st.outs[0])
            if my is None or mk is None or ms is None or mz is None or len(mk[0]) != 4:
                continue
            o = my[0][-1]
            if (mz != my or my[1].kind != "f" or mk[1] != my[1] or ms[1] != my[1]
                    or int(np.prod(ms[0])) != o or any(d != 1 for d in ms[0][:-1])
                    or len(ms[0]) > len(my[0]) or mk[0][2] * mk[0][3] != o
                    and conv.prim.name == "DepthwiseConv2dNative"
                    or int(np.prod(mk[0])) >= int(np.prod(my[0]))):
                continue
            plan[i] = j
            break
    if not plan:
        return steps
    meta = program.meta = dict(meta)
    mul, reshape = PRIMITIVES["Mul"], PRIMITIVES["Reshape"]
    nxt = _max_slot(program, steps) + 1
    dropped = set(plan.values())
    out = []
    for i, st in enumerate(steps):
        if i in dropped:
            continue
        j = plan.get(i)
        if j is None:
            out.append(st)
            continue
        conv = steps[j]
        x, k = conv.ins
        sc = st.ins[1] if st.ins[0] == conv.outs[0] else st.ins[0]
        kshape, dtype = _static(meta, k)
        if conv.prim.name == "DepthwiseConv2dNative":
            meta[nxt] = (kshape[2:], dtype)
            out.append(Op(reshape, (sc,), {"shape": kshape[2:]}, (nxt,), st.site))
            sc, nxt = nxt, nxt + 1
        meta[nxt] = (kshape, dtype)
        out.append(Op(mul, (k, sc), {}, (nxt,), st.site))
        out.append(Op(conv.prim, (x, nxt), conv.attrs, st.outs, conv.site))
        nxt += 1
    return out


def eliminate_dead(steps, outputs):
    """``steps`` without the pure primitives and variable reads whose results nothing
    reads."""
    live = {s for s in outputs if s is not None}
    kept = []
    for step in reversed(steps):
        if (type(step) is Read or pure(step)) and live.isdisjoint(step.defs()):
            continue
        live.update(step.uses())
        kept.append(step)
    kept.reverse()
    return kept


# ---------------------------------------------------------------------------- expansion
_OPERATOR_PRIMS = {}     # operator function -> the primitive whose forward it is
_BINARY_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
_EXPANSIONS = {}         # primitive -> its expression (see _expression), or None


def _operator_prim(fn):
    if not _OPERATOR_PRIMS:
        for prim in PRIMITIVES.values():
            if prim.forward in (operator.add, operator.sub, operator.mul, operator.truediv,
                                operator.neg):
                _OPERATOR_PRIMS.setdefault(prim.forward, prim)
    return _OPERATOR_PRIMS.get(fn)


class _Sym:
    """A stand-in argument of an operator expression: each operator applied to it records a
    node ``(fn, operands)`` in evaluation order (operands: ``_Sym`` or Python numbers)."""

    __slots__ = ("nodes", "index")

    def __init__(self, nodes, index):
        self.nodes, self.index = nodes, index

    def _node(self, fn, *args):
        self.nodes.append((fn, args))
        return _Sym(self.nodes, -len(self.nodes))   # node k is -(k + 1)

    def __add__(self, o):
        return self._node(operator.add, self, o)

    def __radd__(self, o):
        return self._node(operator.add, o, self)

    def __sub__(self, o):
        return self._node(operator.sub, self, o)

    def __rsub__(self, o):
        return self._node(operator.sub, o, self)

    def __mul__(self, o):
        return self._node(operator.mul, self, o)

    def __rmul__(self, o):
        return self._node(operator.mul, o, self)

    def __truediv__(self, o):
        return self._node(operator.truediv, self, o)

    def __rtruediv__(self, o):
        return self._node(operator.truediv, o, self)

    def __neg__(self):
        return self._node(operator.neg, self)


def _expression(prim):
    """``(nodes, result)`` when ``prim.forward`` is a function whose body only applies
    ``+ - * /`` and unary ``-`` to its arguments and to int/float literals (no name, no
    attribute, no call: its bytecode says so), else None. ``nodes`` are the operators in the
    order Python applies them; operands are ``("arg", i)``, ``("node", k)`` or
    ``("const", value)``."""
    try:
        return _EXPANSIONS[prim]
    except KeyError:
        pass
    found = None
    fn = prim.forward
    code = getattr(fn, "__code__", None)
    if (code is not None and not stateful(prim) and not any(w in prim.name for w in _EFFECT_WORDS)
            and not code.co_names and not code.co_freevars
            and not getattr(fn, "__defaults__", None) and not getattr(fn, "__kwdefaults__", None)
            and code.co_kwonlyargcount == 0 and not code.co_flags & 0x0C):  # no *args/**kw
        ok = True
        for ins in dis.get_instructions(fn):
            name = ins.opname
            if name == "BINARY_OP":
                ok = ins.argrepr in _BINARY_OPS
            elif name == "LOAD_CONST":
                ok = type(ins.argval) in (int, float)
            elif not (name.startswith("LOAD_FAST") or name in (
                    "RESUME", "RETURN_VALUE", "UNARY_NEGATIVE", "NOP", "LOAD_SMALL_INT")):
                ok = False
            if not ok:
                break
        if ok:
            nodes = []
            args = [_Sym(nodes, i) for i in range(code.co_argcount)]
            try:
                result = fn(*args)
            except Exception:  # noqa: BLE001 - not an expression of its arguments
                result = None
            if type(result) is _Sym and nodes:
                found = ([(f, tuple(_operand(a) for a in ops)) for f, ops in nodes],
                         _operand(result))
    _EXPANSIONS[prim] = found
    return found


def _operand(a):
    if type(a) is _Sym:
        return ("arg", a.index) if a.index >= 0 else ("node", -a.index - 1)
    return ("const", a)


def _max_slot(program, steps):
    top = max([-1, *program.meta, *program.consts,
               *(s for s in program.inputs if s is not None),
               *(s for s in program.outputs if s is not None)])
    for step in walk(steps):
        for s in step.defs():
            top = max(top, s)
        for s in step.uses():
            top = max(top, s)
    return top


def expand_expressions(program, steps):
    """``steps`` with each primitive whose forward is an operator expression (see
    :func:`_expression`) replaced by the operator steps it evaluates; the new slots (one
    per operator but the last, which keeps the step's output slot) get metadata from a run
    on stand-in arrays, the literals one constant slot per value and type."""
    if not any(type(st) is Op and not st.attrs and len(st.outs) == 1
               and _expression(st.prim) is not None for st in steps):
        return steps
    consts = program.consts = dict(program.consts)
    meta = program.meta = dict(program.meta)
    literal = {}
    nxt = _max_slot(program, steps) + 1
    out = []
    for step in steps:
        expr = (_expression(step.prim) if type(step) is Op and not step.attrs
                and len(step.outs) == 1 else None)
        if expr is None or len(step.ins) != step.prim.forward.__code__.co_argcount:
            out.append(step)
            continue
        nodes, result = expr
        if result[0] != "node" or result[1] != len(nodes) - 1:
            out.append(step)   # (the result is an argument, or not the last operator)
            continue
        # stand-ins for the metadata of the intermediate values
        stand = []
        for s in step.ins:
            if s in consts:
                stand.append(consts[s])
            elif s in meta and None not in tuple(meta[s][0]):
                stand.append(np.ones(meta[s][0], meta[s][1]))
            else:
                stand = None
                break
        slots, values = [], []
        for k, (fn, operands) in enumerate(nodes):
            ins = []
            args = []
            for kind, v in operands:
                if kind == "arg":
                    ins.append(step.ins[v])
                    args.append(None if stand is None else stand[v])
                elif kind == "node":
                    ins.append(slots[v])
                    args.append(None if stand is None else values[v])
                else:
                    key = (type(v), v)
                    if key not in literal:
                        literal[key] = nxt
                        consts[nxt] = v
                        nxt += 1
                    ins.append(literal[key])
                    args.append(v)
            if k == len(nodes) - 1:
                o = step.outs[0]
            else:
                o = nxt
                nxt += 1
            value = None
            if stand is not None:
                with np.errstate(all="ignore"):
                    value = fn(*args)
                if k < len(nodes) - 1:
                    meta[o] = (np.shape(value), np.result_type(value))
            slots.append(o)
            values.append(value)
            out.append(Op(_operator_prim(fn), tuple(ins), {}, (o,), step.site))
    return out


# ---------------------------------------------------------------------------- constants
def _scalar_key(v):
    """A key equal for scalar constants of the same type, dtype and bits (NumPy scalars,
    Python numbers: immutable values), else None."""
    t = type(v)
    if isinstance(v, np.generic):
        return (t, v.dtype.str, v.tobytes())
    if t is int:
        return (t, v)
    if t is float:
        return (t, v.hex())
    return None


def merge_constants(consts, outputs, m):
    """Map each scalar constant slot to the first slot holding the same value (the same
    type, dtype and bits), in ``m``; returns whether it mapped any. CSE then sees ``y * 2``
    twice where two gradient rules each made their own ``2``. A returned constant keeps its
    slot."""
    keep = {s for s in outputs if s is not None}
    seen = {}
    merged = False
    for s, v in consts.items():
        key = _scalar_key(v)
        if key is None or s in keep:
            continue
        first = seen.setdefault(key, s)
        if first != s:
            m[s] = first
            merged = True
    return merged


# ---------------------------------------------------------------------------- negations
def _negative_scalar(v):
    """``-v`` when ``v`` is a negative float NumPy scalar (of the same type), else None."""
    if isinstance(v, np.generic) and v.dtype.kind == "f" and v < 0:
        return -v
    return None


def sink_negations(program, steps):
    """``steps`` with negations moved outward where IEEE arithmetic makes that exact, so
    that a negation feeding an addition disappears and CSE sees the un-negated product:
    ``x * c`` with ``c`` a negative scalar constant is ``-(x * -c)`` when ``x * -c`` is
    already computed (a second derivative's ``y * -2`` beside ``y * 2``);
    ``(-a) * b``, ``a * (-b)``, ``(-a) / b``, ``a / (-b)`` are ``-(a * b)``, ``-(a / b)``
    (the sign of a product or quotient is the XOR of the signs; rounding to nearest is
    symmetric) and ``(-a) * (-b)`` is ``a * b``; ``a + (-b)`` and ``(-b) + a`` are
    ``a - b`` and ``a - (-b)`` is ``a + b`` (IEEE 754 defines subtraction so, and addition
    commutes). ``(-a) + (-b)`` is left alone (``-(a + b)`` differs for ``a = -b``: -0
    against +0). Float results of fixed dtype only. A negation left unread is removed by
    DCE."""
    meta, consts = program.meta, program.consts
    neg_prim, add_prim, sub_prim = (_operator_prim(f) for f in (operator.neg, operator.add,
                                                                 operator.sub))
    if neg_prim is None:
        return steps
    scalar_slot = {}
    for s, v in consts.items():
        key = _scalar_key(v)
        if key is not None:
            scalar_slot.setdefault(key, s)
    neg = {}            # slot -> the slot it is the exact negation of
    made = set()        # (prim, ins) of products computed so far
    nxt = None
    out = []
    for step in steps:
        if (type(step) is not Op or step.attrs or len(step.outs) != 1
                or step.outs[0] not in meta or np.dtype(meta[step.outs[0]][1]).kind != "f"):
            out.append(step)
            continue
        f, ins, o = step.prim.forward, step.ins, step.outs[0]
        if f is operator.neg:
            neg[o] = ins[0]
        elif f is operator.mul or f is operator.truediv:
            a, b = ins
            na, nb = neg.get(a), neg.get(b)
            if na is None and nb is None:
                # a negative constant: when x * -c is made already
                for i in (1, 0) if f is operator.mul else (1,):
                    pos = _negative_scalar(consts.get(ins[i]))
                    p = None if pos is None else scalar_slot.get(_scalar_key(pos))
                    cand = (ins[0], p) if i == 1 else (p, ins[1])
                    if p is not None and (step.prim, cand) in made:
                        na, nb = (None, p) if i == 1 else (p, None)
                        break
            if na is None and nb is None:
                made.add((step.prim, ins))
                out.append(step)
                continue
            plain = (a if na is None else na, b if nb is None else nb)
            made.add((step.prim, plain))
            if na is not None and nb is not None:
                out.append(Op(step.prim, plain, {}, (o,), step.site))
                continue
            if nxt is None:
                program.meta = meta = dict(meta)
                nxt = _max_slot(program, steps) + 1
            t, nxt = nxt, nxt + 1
            meta[t] = meta[o]
            out.append(Op(step.prim, plain, {}, (t,), step.site))
            out.append(Op(neg_prim, (t,), {}, (o,), step.site))
            neg[o] = t
            continue
        elif f is operator.add and add_prim is not None and sub_prim is not None:
            a, b = ins
            na, nb = neg.get(a), neg.get(b)
            if (na is None) != (nb is None):
                plain = (a, nb) if nb is not None else (b, na)
                out.append(Op(sub_prim, plain, {}, (o,), step.site))
                continue
        elif f is operator.sub and add_prim is not None:
            a, b = ins
            if b in neg and a not in neg:
                out.append(Op(add_prim, (a, neg[b]), {}, (o,), step.site))
                continue
        out.append(step)
    return out
