"""jacobian and batch_jacobian: one reverse sweep with a batch of one-hot cotangents.

The seed is ``n`` one-hot rows stacked on a new leading axis, so every gradient in the sweep
carries that batch axis. Element-wise rules broadcast over it as they are; a primitive whose
rule reshapes, reduces or indexes declares a batch-aware rule with :func:`defbatch`. The
identity seed itself is kept implicit (``_Diag``) for as long as rules act element by element,
so a dense ``n x n`` batch is made only where one is needed. An entry
whose primitive has neither runs its ordinary rule once per row (the per-entry fallback), so
the answer is the same in every case; ``experimental_use_pfor=False`` loops over whole sweeps.
"""
from .backend import np
from .backprop import (
    UnconnectedGradients,
    _not_a_tensor,
    backward,
    reachable,
    sum_to_shape,
    take_output_grads,
)
from .engine_ops import OPS, load_rules
from .tensor import Tensor, _TensorLike

__all__ = ["jacobian", "batch_jacobian", "defbatch", "batch_safe", "BATCHED", "DIAGONAL",
           "DIAGONAL_SAFE"]

# Primitive -> per-input batch-aware rules ``rule(g, y, *inputs, **attrs)`` where ``g`` has a
# leading batch axis and the result must too; ``SAFE`` marks the ordinary rules as such.
BATCHED = {}
SAFE = "safe"
_rules_loaded = [False]


def defbatch(prim, *rules):
    """Give ``prim`` batch-aware VJP rules (``None`` where its ordinary rule is safe)."""
    BATCHED[prim] = rules


def batch_safe(*prims):
    """Declare that these primitives' ordinary rules broadcast over a leading batch axis."""
    for p in prims:
        BATCHED[p] = SAFE


def _load_rules():
    if not _rules_loaded[0]:
        load_rules("batching")
        _rules_loaded[0] = True


def _ops():
    return OPS, OPS


# ----------------------------------------------------------------------------- the sweep


def _sum_to_batched(g, shape):
    """Sum a batched gradient ``[n] + broadcast shape`` back to ``[n] + shape``."""
    gshape = g._value.shape
    if gshape[1:] == shape:
        return g
    a, m = _ops()
    lead = len(gshape) - 1 - len(shape)
    axes = [1 + i for i in range(lead)]
    for i, d in enumerate(shape):
        if d == 1 and gshape[1 + lead + i] != 1:
            axes.append(1 + lead + i)
    if axes:
        g = m.reduce_sum(g, axis=axes, keepdims=True)
    full = (gshape[0],) + tuple(shape)
    if g._value.shape != full:
        g = a.reshape(g, full)
    return g


def _rows_rule(rule, n, in_shape):
    """The per-entry fallback: run an ordinary rule once per row and stack the answers."""
    def run(g, y, *inputs, **attrs):
        a, m = _ops()
        if isinstance(g, tuple):
            rows = list(zip(*(a.unstack(x) for x in g)))
        else:
            rows = a.unstack(g)
        out = []
        for row in rows:
            r = rule(row, y, *inputs, **attrs)
            if r is None:
                return None
            if r._value.shape != in_shape:
                r = sum_to_shape(r, in_shape)
            out.append(r)
        return a.stack(out, axis=0)
    return run


class _Diag:
    """A batch of cotangents that is still diagonal: row ``k`` is ``d`` masked to element
    ``k`` of its trailing axes (all ``lead`` leading axes kept: batch_jacobian's examples).
    The identity seed starts so, element-wise rules keep it so (they act on ``d`` alone),
    and it is made dense only where a rule mixes elements."""

    __slots__ = ("d", "lead")

    def __init__(self, d, lead=0):
        self.d = d
        self.lead = lead


def _dense(g):
    if type(g) is not _Diag:
        return g
    a, m = _ops()
    d = g.d
    shape = d._value.shape
    b = int(np.prod(shape[:g.lead]))
    n = int(np.prod(shape[g.lead:]))
    eye = Tensor(np.eye(n, dtype=d._value.dtype).reshape(n, 1, n))
    return a.reshape(m.multiply(eye, a.reshape(d, (1, b, n))), (n,) + shape)


# Primitives whose rule maps an output-shaped ``g`` element by element to an input of the
# same shape: on a diagonal batch they run once, on ``d``.
DIAGONAL_SAFE = set()
# Primitive -> per-input rules ``rule(d, y, *inputs, **attrs)`` for a diagonal batch,
# returning a batched (dense) gradient or a ``_Diag``.
DIAGONAL = {}
STRUCTURED = [True]


def _diag_rule(prim, k, d, in_shape, vjp):
    """The rule for a diagonal cotangent, or None when it must be made dense first."""
    if prim in DIAGONAL_SAFE and in_shape == d._value.shape:
        return lambda g, y, *xs, **attrs: _Diag(vjp(g.d, y, *xs, **attrs), g.lead)
    rules = DIAGONAL.get(prim)
    if rules is not None and k < len(rules) and rules[k] is not None:
        return rules[k]
    return None


def _accumulate(prev, gi):
    add = _ops()[1].add
    if type(prev) is _Diag and type(gi) is _Diag and prev.lead == gi.lead:
        return _Diag(add(prev.d, gi.d), gi.lead)
    return add(_dense(prev), _dense(gi))


def backward_batched(entries, target_id, seed, source_ids, stats=None):
    """The reverse sweep with a leading batch axis on every gradient.

    Args:
        entries: the tape's entries in execution order.
        target_id: the id of the target where the sweep starts.
        seed: the batch of cotangents, a Tensor of shape ``[n] + target.shape``, or a
            ``_Diag`` (the identity, without making it).
        source_ids: the ids whose gradients are wanted.
        stats: optional dict; counts ``"fallback"`` entries that ran row by row and
            ``"dense"`` diagonal batches made dense.

    Returns:
        A dict from source id to its ``[n] + source.shape`` gradient; unconnected ids absent.
    """
    _load_rules()
    relevant, reach = reachable(entries, source_ids)
    sources = set(source_ids)
    if type(seed) is _Diag:
        n = int(np.prod(seed.d._value.shape[seed.lead:]))
    else:
        n = seed._value.shape[0]
    grads = {target_id: seed}
    for e in reversed(relevant):
        g = take_output_grads(e, grads, sources)
        if g is None:
            continue
        prim = e.prim
        if prim.n_outputs != 1:
            g = tuple(Tensor(np.zeros((n,) + np.shape(y._value), y._value.dtype))
                      if x is None else _dense(x) for x, y in zip(g, e.out))
        inputs = e.in_shapes if e.inputs is None else e.inputs
        batched = BATCHED.get(prim)
        vjps = prim.vjps
        for k, iid in enumerate(e.in_ids):
            if iid not in reach or k >= len(vjps) or vjps[k] is None:
                continue
            shape = e.in_shapes[k]
            gk = g
            rule = _diag_rule(prim, k, g.d, shape, vjps[k]) if type(g) is _Diag else None
            if rule is None:
                if type(g) is _Diag:
                    gk = _dense(g)
                    if stats is not None:
                        stats["dense"] = stats.get("dense", 0) + 1
                if batched is SAFE:
                    rule = vjps[k]
                elif batched is not None and k < len(batched) and batched[k] is not None:
                    rule = batched[k]
                else:
                    rule = _rows_rule(vjps[k], n, shape)
                    if stats is not None:
                        stats["fallback"] = stats.get("fallback", 0) + 1
            gi = rule(gk, e.out, *inputs, **e.attrs) if e.attrs else rule(gk, e.out, *inputs)
            if gi is NotImplemented:  # a diagonal rule that does not apply here
                gk = _dense(g)
                rule = vjps[k] if batched is SAFE else (
                    batched[k] if batched is not None and k < len(batched)
                    and batched[k] is not None else _rows_rule(vjps[k], n, shape))
                gi = rule(gk, e.out, *inputs, **e.attrs) if e.attrs else rule(gk, e.out,
                                                                              *inputs)
            if gi is None:
                continue
            if type(gi) is not _Diag and (gi._value.shape[1:] != shape
                                          or gi._value.ndim != len(shape) + 1):
                gi = _sum_to_batched(gi, shape)
            prev = grads.get(iid)
            grads[iid] = gi if prev is None else _accumulate(prev, gi)
    return {i: _dense(grads[i]) for i in source_ids if i in grads}


# ----------------------------------------------------------------------------- jacobians


def _source_ids(flat_sources, watched):
    ids = []
    for s in flat_sources:
        if not isinstance(s, _TensorLike):
            raise _not_a_tensor(s, "sources", "jacobian")
        ok = s._value.dtype.kind in "fcV" and s._id in watched
        ids.append(s._id if ok else None)
    return ids


def _zeros(shape, dtype):
    return Tensor(np.zeros(shape, dtype) if shape else dtype.type(0))


def _eye_seed(n, tshape, dtype):
    return Tensor(np.eye(n, dtype=dtype).reshape((n,) + tuple(tshape)))


def _finish(found, ids, flat_sources, lead_shape, unconnected):
    a, _ = _ops()
    out = []
    for s, i in zip(flat_sources, ids):
        g = found.get(i) if i is not None else None
        shape = tuple(lead_shape) + s._value.shape
        if g is None:
            out.append(_zeros(shape, s._value.dtype)
                       if unconnected is UnconnectedGradients.ZERO else None)
        elif g._value.shape != shape:
            out.append(a.reshape(g, shape))
        else:
            out.append(g)
    return out


def jacobian(gtape, target, flat_sources, unconnected, use_pfor=True, stats=None):
    """``d target / d source`` for each source; see ``GradientTape.jacobian``.

    With ``use_pfor`` one batched sweep, else one sweep per element of ``target``.
    """
    from .tensor import convert_to_tensor
    target = convert_to_tensor(target) if not isinstance(target, _TensorLike) else target
    ids = _source_ids(flat_sources, gtape._tape.watched)
    live = [i for i in ids if i is not None]
    tshape = target._value.shape
    n = int(np.prod(tshape)) if tshape else 1
    dtype = target._value.dtype
    if n == 0 or not live:
        found = {}
        if n == 0:
            return [_zeros(tshape + s._value.shape, s._value.dtype) for s in flat_sources]
    elif use_pfor:
        if STRUCTURED[0]:
            seed = _Diag(Tensor(np.ones(tshape, dtype) if tshape else dtype.type(1)))
        else:
            seed = _eye_seed(n, tshape, dtype)
        found = backward_batched(gtape._tape.entries, target._id, seed, live, stats)
    else:
        found = _loop(gtape._tape.entries, target._id, tshape, dtype, n, live)
    return _finish(found, ids, flat_sources, tshape, unconnected)


def _loop(entries, target_id, tshape, dtype, n, live):
    """One ordinary sweep per one-hot seed, stacked: the reference the batched sweep meets."""
    a, _ = _ops()
    rows = {i: [] for i in live}
    for k in range(n):
        seed = np.zeros(n, dtype=dtype)
        seed[k] = 1
        found = backward(entries, [(target_id, Tensor(seed.reshape(tshape)))], live)
        for i in live:
            rows[i].append(found.get(i))
    out = {}
    for i, rs in rows.items():
        if all(r is None for r in rs):
            continue
        like = next(r for r in rs if r is not None)
        zero = None
        filled = []
        for r in rs:
            if r is None:
                zero = zero if zero is not None else Tensor(np.zeros_like(like._value))
                r = zero
            filled.append(r)
        out[i] = a.stack(filled, axis=0)
    return out


def batch_jacobian(gtape, target, source, unconnected, use_pfor=True, stats=None):
    """Per-example Jacobians; see ``GradientTape.batch_jacobian``.

    The seed holds, for each non-batch element ``k`` of the target, ones at ``[:, k]``: one
    sweep gives ``[m, b] + source.shape[1:]`` which is moved to ``[b, m, ...]``.
    """
    tshape = target._value.shape
    sshape = source._value.shape
    b = tshape[0]
    m = int(np.prod(tshape[1:])) if len(tshape) > 1 else 1
    dtype = target._value.dtype
    out_shape = tshape + sshape[1:]
    (sid,) = _source_ids([source], gtape._tape.watched)
    if m == 0 or b == 0:
        return _zeros(out_shape, source._value.dtype)
    found = None
    if sid is not None:
        seed = np.zeros((m, b, m), dtype=dtype)
        seed[np.arange(m), :, np.arange(m)] = 1
        seed = seed.reshape((m,) + tshape)
        entries = gtape._tape.entries
        if use_pfor:
            start = _Diag(Tensor(np.ones(tshape, dtype)), 1) if STRUCTURED[0] else Tensor(seed)
            found = backward_batched(entries, target._id, start, [sid], stats).get(sid)
        else:
            a, _ = _ops()
            rows = [backward(entries, [(target._id, Tensor(seed[k]))], [sid]).get(sid)
                    for k in range(m)]
            if any(r is not None for r in rows):
                zero = Tensor(np.zeros(sshape, source._value.dtype))
                found = a.stack([zero if r is None else r for r in rows], axis=0)
    if found is None:
        # As TensorFlow: zeros either way, of the source's dtype for 'zero' and of the
        # target's dtype for 'none'.
        if unconnected is UnconnectedGradients.ZERO:
            return _zeros(out_shape, source._value.dtype)
        return _zeros(out_shape, dtype)
    a, _ = _ops()
    rest = len(sshape) - 1
    found = a.reshape(found, (m, b) + sshape[1:])
    found = a.transpose(found, [1, 0] + [2 + i for i in range(rest)])
    return a.reshape(found, out_shape)
