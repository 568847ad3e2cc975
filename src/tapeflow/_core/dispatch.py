"""apply(op, inputs, attrs): compute, then record on the active tapes. The hot path.

With no tape active anywhere an op costs its NumPy call, one Tensor and one list test.
"""
import threading

from . import errors
from .tensor import Tensor, alias

__all__ = ["apply", "record", "tape_stack", "push_tape", "remove_tape", "Entry", "ACTIVE",
           "current_tracer", "push_tracer", "pop_tracer"]


class _ThreadState(threading.local):
    def __init__(self):
        self.stack = []
        # The innermost tf.function tracer of this thread (function/tracer.py), or None.
        self.tracer = None


_state = _ThreadState()
# How many tapes are recording in all threads together. While it is zero no thread needs
# to look at its own (thread-local) stack: the check on the hot path is one list index.
ACTIVE = [0]
_lock = threading.Lock()
# Every 1024 recorded entries a tape checks the bytes it holds (explain.check_size).
_CHECK_MASK = 1023


def tape_stack() -> list:
    """This thread's stack of recording tapes, innermost last."""
    return _state.stack


def push_tape(tape):
    _state.stack.append(tape)
    with _lock:
        ACTIVE[0] += 1


def remove_tape(tape):
    stack = _state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is tape:
            del stack[i]
            with _lock:
                ACTIVE[0] -= 1
            return


def current_tracer():
    """This thread's innermost ``tf.function`` tracer, or None."""
    return _state.tracer


def push_tracer(tracer):
    """Make ``tracer`` this thread's innermost; it counts as an active tape while it traces,
    so every op reaches :func:`record` (and the tracer) behind the same one-attribute test."""
    tracer.parent = _state.tracer
    _state.tracer = tracer
    with _lock:
        ACTIVE[0] += 1


def pop_tracer(tracer):
    _state.tracer = tracer.parent
    with _lock:
        ACTIVE[0] -= 1


class Entry:
    """One recorded op: what the reverse sweep needs, and ids for everything else."""

    __slots__ = ("prim", "in_ids", "in_shapes", "inputs", "out", "out_ids", "attrs")

    def __init__(self, prim, in_ids, in_shapes, inputs, out, out_ids, attrs):
        self.prim = prim
        self.in_ids = in_ids
        self.in_shapes = in_shapes
        self.inputs = inputs
        self.out = out
        self.out_ids = out_ids
        self.attrs = attrs


def record(prim, inputs, out, attrs):
    """Record one op on every recording tape of this thread that watches one of its inputs.

    A trainable variable read under a tape with ``watch_accessed_variables`` becomes
    watched here, for differentiable and non-differentiable ops alike.
    """
    tracer = _state.tracer
    if tracer is not None:
        tracer.op(prim, inputs, out, attrs)
    entry = None
    for tape in _state.stack:
        watched = tape.watched
        hit = False
        for t in inputs:
            if t._id in watched:
                hit = True
            elif type(t) is not Tensor and tape.watch_accessed and t._watchable():
                tape.watch_variable(t)
                hit = True
        if not hit or not prim.differentiable:
            continue
        if entry is None:
            ids = []
            shapes = []
            for t in inputs:
                ids.append(t._id)
                shapes.append(t._value.shape)
            if prim.save_inputs:
                # A variable may be reassigned later: keep the value it has now.
                saved = tuple([t if type(t) is Tensor else alias(t._value, t._id)
                               for t in inputs])
            else:
                saved = None
            if prim.n_outputs == 1:
                out_ids = (out._id,)
            else:
                out_ids = tuple([o._id for o in out])
            entry = Entry(prim, tuple(ids), tuple(shapes), saved,
                          out if prim.save_output else None, out_ids, attrs)
        entries = tape.entries
        entries.append(entry)
        if prim.n_outputs == 1:
            watched.add(out._id)
        else:
            watched.update(entry.out_ids)
        if not len(entries) & _CHECK_MASK:
            from .explain import check_size
            check_size(tape)


def raise_op_error(prim, values, attrs, exc):
    """Turn a NumPy failure inside ``prim``'s forward into TensorFlow's error class and text."""
    if isinstance(exc, errors.OpError):
        raise exc
    for v in values:
        if getattr(v, "dtype", None) is not None and v.dtype.kind in "OSU":
            raise errors.op_error(
                errors.InvalidArgumentError,
                "Value for attr 'T' of string is not in the list of allowed values: "
                "bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, "
                "uint32, uint64, complex64, complex128", prim.name) from None
    if prim.error is not None:
        cls, text = prim.error(values, attrs or {}, exc)
    else:
        cls, text = errors.InvalidArgumentError, str(exc)
    raise errors.op_error(cls, text, prim.name) from None


def apply(prim, inputs, attrs=None):
    """Run ``prim`` on Tensors/Variables ``inputs`` (already of matching dtypes) and record it.

    Returns:
        A Tensor, or a tuple of Tensors for a multi-output primitive.

    Raises:
        tf.errors.InvalidArgumentError (or the class the primitive names) if NumPy fails.
    """
    values = [t._value for t in inputs]
    try:
        if attrs:
            out = prim.forward(*values, **attrs)
        else:
            out = prim.forward(*values)
    except Exception as exc:  # noqa: BLE001 - rethrown as TensorFlow's class
        raise_op_error(prim, values, attrs, exc)
    if prim.n_outputs == 1:
        out = Tensor(out)
    else:
        out = tuple(Tensor(o) for o in out)
    if ACTIVE[0]:
        record(prim, inputs, out, attrs)
    return out
