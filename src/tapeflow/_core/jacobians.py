"""jacobian and batch_jacobian: one reverse sweep per output element (the loop form)."""
from .backend import np
from .backprop import backward
from .tensor import Tensor, _TensorLike

__all__ = ["jacobian", "batch_jacobian"]


def _source_ids(flat_sources, watched):
    ids = []
    for s in flat_sources:
        if not isinstance(s, _TensorLike):
            raise ValueError(f"Argument `sources` should be a list or nested structure of "
                             f"Tensors or Variables, but received {s!r}.")
        ok = s._value.dtype.kind in "fc" and s._id in watched
        ids.append(s._id if ok else None)
    return ids


def _assemble(rows, lead_shape, source, unconnected, stack_axis):
    from ..ops import array_ops
    from .tape import UnconnectedGradients
    if all(r is None for r in rows):
        if unconnected is UnconnectedGradients.ZERO:
            return Tensor(np.zeros(lead_shape + source._value.shape, source._value.dtype))
        return None
    zero = None
    filled = []
    for r in rows:
        if r is None:
            if zero is None:
                zero = Tensor(np.zeros(source._value.shape, source._value.dtype))
            r = zero
        filled.append(r)
    return array_ops.stack(filled, axis=stack_axis)


def jacobian(gtape, target, flat_sources, unconnected):
    """Loop over the elements of ``target``; see ``GradientTape.jacobian``."""
    from ..ops import array_ops
    from .tensor import convert_to_tensor
    target = convert_to_tensor(target) if not isinstance(target, _TensorLike) else target
    ids = _source_ids(flat_sources, gtape._tape.watched)
    live = [i for i in ids if i is not None]
    tshape = target._value.shape
    n = int(np.prod(tshape)) if tshape else 1
    rows = [[] for _ in flat_sources]
    entries = gtape._tape.entries
    for k in range(n):
        seed = np.zeros(n, dtype=target._value.dtype)
        seed[k] = 1
        found = backward(entries, [(target._id, Tensor(seed.reshape(tshape)))], live)
        for j, i in enumerate(ids):
            rows[j].append(found.get(i) if i is not None else None)
    out = []
    for j, s in enumerate(flat_sources):
        sshape = s._value.shape
        if n == 0:
            out.append(Tensor(np.zeros(tshape + sshape, s._value.dtype)))
            continue
        jac = _assemble(rows[j], (n,), s, unconnected, 0)
        if jac is not None:
            jac = array_ops.reshape(jac, tshape + sshape)
        out.append(jac)
    return out


def batch_jacobian(gtape, target, source, unconnected):
    """Loop over the non-batch elements of ``target``; see ``GradientTape.batch_jacobian``."""
    from ..ops import array_ops
    tshape = target._value.shape
    sshape = source._value.shape
    if not tshape or not sshape or tshape[0] != sshape[0]:
        raise ValueError(
            f"Need first dimension of target shape ({target.shape}) and source shape "
            f"({source.shape}) to match.")
    b = tshape[0]
    m = int(np.prod(tshape[1:])) if len(tshape) > 1 else 1
    (sid,) = _source_ids([source], gtape._tape.watched)
    rows = []
    entries = gtape._tape.entries
    for k in range(m):
        seed = np.zeros((b, m), dtype=target._value.dtype)
        seed[:, k] = 1
        if sid is None:
            rows.append(None)
            continue
        found = backward(entries, [(target._id, Tensor(seed.reshape(tshape)))], [sid])
        rows.append(found.get(sid))
    if m == 0 or b == 0:
        return Tensor(np.zeros(tshape + sshape[1:], source._value.dtype))
    jac = _assemble(rows, (b, m), source, unconnected, 1)
    if jac is None:  # TensorFlow answers zeros here whatever `unconnected_gradients` says
        return Tensor(np.zeros(tshape + sshape[1:], target._value.dtype))
    if jac._value.shape[:2] != (b, m):  # the all-zero case returns the final shape directly
        return Tensor(np.zeros(tshape + sshape[1:], source._value.dtype))
    return array_ops.reshape(jac, tshape + sshape[1:])
