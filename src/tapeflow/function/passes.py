"""Passes over a program's top-level steps before it is compiled: forwarding of products by a
constant of ones, common-subexpression elimination and dead-code elimination.

They work on the typed IR (``ir.py``) and change only what a compiled call computes, never
what it does: the program's own steps (``Program.steps``, which the interpreter, the graph
view and the trace report read) are left as traced.

- **Ones** (:func:`forward_ones`): ``x * c`` where ``c`` is a constant array of ones whose
  product has ``x``'s shape and dtype is ``x`` itself, bit for bit (a gradient seeded by
  ``OnesLike`` multiplies by one; TF's grappler does the same). Only for programs traced with
  fixed shapes: a relaxed program's constant would not follow the shapes of a call.
- **CSE** (:func:`eliminate_common`): a pure primitive applied again to the same input slots
  with equal attributes reads the first result (nested tapes recompute the forward). Never
  random draws or other stateful primitives, never variable reads (a read's slot already
  stands for one value of the variable, so a read after an ``assign`` is another slot), and
  never a step whose result the program returns.
- **DCE** (:func:`eliminate_dead`): pure primitives and variable reads whose results nothing
  uses (the inner tape's loss of a Hessian-vector product). Effects are never dropped:
  assignments, Python calls (``tf.print``, ``py_function``), guards, branches and loops,
  random draws, ``Assert``, summary writes and collectives.
"""
from .._core.backend import np
from .ir import Op, Read, stateful

__all__ = ["optimize", "forward_ones", "eliminate_common", "eliminate_dead"]

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
    steps, outputs = program.steps, list(program.outputs)
    m = {}
    if not program.relaxed:
        steps = forward_ones(steps, program.consts, program.meta, outputs, m)
    steps = eliminate_common(steps, outputs, m)
    if m:
        outputs = [None if s is None else m.get(s, s) for s in outputs]
    steps = eliminate_dead(steps, outputs)
    return steps, outputs


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
