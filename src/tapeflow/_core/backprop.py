"""The reverse sweep over a tape's entries: pruning, accumulation and sum-to-shape.

Gradients are Tensors made by tapeflow's own ops, so when an outer tape is recording, the
sweep itself is recorded and can be differentiated again.
"""
import enum

from .backend import np
from .engine_ops import OPS
from .tensor import Tensor

__all__ = ["backward", "reachable", "sum_to_shape", "take_output_grads",
           "UnconnectedGradients"]


def sum_to_shape(g, shape):
    """Sum ``g`` over the axes that broadcasting added or stretched to reach ``shape``."""
    gshape = g._value.shape
    if gshape == shape:
        return g
    m = OPS
    lead = len(gshape) - len(shape)
    stretched = [lead + i for i, d in enumerate(shape) if d == 1 and gshape[lead + i] != 1]
    if not stretched:
        # Only leading axes were added (a bias, say): one reduction, no reshape.
        return m.reduce_sum(g, axis=list(range(lead)))
    g = m.reduce_sum(g, axis=list(range(lead)) + stretched, keepdims=True)
    if g._value.shape != shape:
        g = m.reshape(g, shape)
    return g


def take_output_grads(e, grads, sources):
    """The gradients reaching entry ``e``'s outputs, taken out of ``grads`` (kept there for
    ids wanted as sources): a Tensor for a one-output op, a list with ``None`` gaps for a
    multi-output op, or ``None`` when no gradient reaches the entry."""
    if e.prim.n_outputs == 1:
        oid = e.out_ids[0]
        g = grads.get(oid)
        if g is not None and oid not in sources:
            del grads[oid]
        return g
    gs = [grads.get(o) for o in e.out_ids]
    if all(x is None for x in gs):
        return None
    for o in e.out_ids:
        if o not in sources:
            grads.pop(o, None)
    return gs


def reachable(entries, source_ids):
    """The entries on some path from a source, and every id those entries make."""
    reach = set(source_ids)
    relevant = []
    for e in entries:
        for i in e.in_ids:
            if i in reach:
                reach.update(e.out_ids)
                relevant.append(e)
                break
    return relevant, reach


def backward(entries, target_grads, source_ids, keep_sparse=False):
    """Run the reverse sweep.

    Args:
        entries: the tape's entries in execution order.
        target_grads: (id, gradient Tensor) pairs to start from; repeated ids accumulate.
        source_ids: the ids whose gradients are wanted.
        keep_sparse: give a source that an op with a sparse rule (``tf.gather``) reads
            directly an ``IndexedSlices``, as ``GradientTape.gradient`` does; else dense.

    Returns:
        A dict from source id to its accumulated gradient; unconnected ids are absent.
    """
    relevant, reach = reachable(entries, source_ids)
    sources = set(source_ids)
    grads = {}
    add = None
    for tid, g in target_grads:
        if tid in grads:
            add = add or OPS.add
            grads[tid] = add(grads[tid], g)
        else:
            grads[tid] = g
    for e in reversed(relevant):
        g = take_output_grads(e, grads, sources)
        if g is None:
            continue
        if add is _accumulate:  # a source's IndexedSlices may flow on into its producer
            g = _densify(g)
        prim = e.prim
        if prim.sparse_vjps is not None and keep_sparse and _sparse_entry(
                e, g, grads, sources, reach):
            add = _accumulate  # an IndexedSlices is among the gradients from now on
            continue
        if prim.n_outputs != 1:
            if prim.none_grads:
                g = tuple(g)
            else:
                m = OPS
                g = tuple(m.zeros_like(y) if x is None else x for x, y in zip(g, e.out))
        inputs = e.in_shapes if e.inputs is None else e.inputs
        y = e.out
        attrs = e.attrs
        vjps = prim.vjps
        for k, iid in enumerate(e.in_ids):
            if iid not in reach or k >= len(vjps) or vjps[k] is None:
                continue
            gi = vjps[k](g, y, *inputs, **attrs) if attrs else vjps[k](g, y, *inputs)
            if gi is None:
                continue
            shape = e.in_shapes[k]
            if gi._value.shape != shape:
                gi = sum_to_shape(gi, shape)
            prev = grads.get(iid)
            if prev is None:
                grads[iid] = gi
            else:
                add = add or OPS.add
                grads[iid] = add(prev, gi)
    return {i: grads[i] for i in source_ids if i in grads}


def _accumulate(a, b):
    if type(a) is Tensor and type(b) is Tensor:
        return OPS.add(a, b)
    from .indexed_slices import accumulate
    return accumulate(a, b)


def _densify(g):
    if type(g) is list:
        return [x if x is None or type(x) is Tensor else x._dense() for x in g]
    return g if type(g) is Tensor else g._dense()


def _sparse_entry(e, g, grads, sources, reach):
    """The sweep's step for an op with sparse rules, when one of its inputs is a source:
    that input gets an IndexedSlices. False (nothing done) when no input is a source."""
    prim = e.prim
    sparse = prim.sparse_vjps
    if not any(iid in sources and k < len(sparse) and sparse[k] is not None
               for k, iid in enumerate(e.in_ids)):
        return False
    inputs = e.in_shapes if e.inputs is None else e.inputs
    attrs = e.attrs or {}
    for k, iid in enumerate(e.in_ids):
        if iid not in reach or k >= len(prim.vjps) or prim.vjps[k] is None:
            continue
        if iid in sources and k < len(sparse) and sparse[k] is not None:
            gi = sparse[k](g, e.out, *inputs, **attrs)
        else:
            gi = prim.vjps[k](g, e.out, *inputs, **attrs)
            if gi is not None and gi._value.shape != e.in_shapes[k]:
                gi = sum_to_shape(gi, e.in_shapes[k])
        if gi is None:
            continue
        prev = grads.get(iid)
        grads[iid] = gi if prev is None else _accumulate(prev, gi)
    return True


def ones_like_value(t):
    """The default output gradient: ones shaped and typed like ``t``."""
    return Tensor(np.ones_like(t._value))


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on.

    ``NONE`` gives ``None``; ``ZERO`` gives zeros shaped like the source.
    TensorFlow counterpart: ``tf.UnconnectedGradients``.
    """

    NONE = "none"
    ZERO = "zero"


def _not_a_tensor(value, arg, method="gradient"):
    """The error TensorFlow raises for a leaf of ``arg`` that is not a Tensor or Variable.

    TensorFlow's text comes from where its code first touches the value (``as_dtype``, the
    ``_id`` of a tensor); tapeflow keeps that first line and adds a hint naming ``arg``.
    """
    hint = (f"\nHint: `{arg}` of GradientTape.{method} must be Tensors or Variables (or a "
            f"nested structure of them), but received {value!r} of type "
            f"{type(value).__name__!r}.")
    if value is None or isinstance(value, str):
        return TypeError(f"Cannot convert the argument `type_value`: {value!r} to a "
                         f"TensorFlow DType.{hint}")
    if isinstance(value, np.ndarray):
        return AttributeError(f"'numpy.ndarray' object has no attribute '_id'{hint}")
    return AttributeError(f"'{type(value).__name__}' object has no attribute 'dtype'{hint}")
