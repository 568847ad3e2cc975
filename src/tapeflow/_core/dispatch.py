"""apply(op, inputs, attrs): compute, then record on the active tapes. The hot path.

With no tape active anywhere an op costs its NumPy call, one Tensor and one list test.
"""
from . import errors
from .events import check_size
from .recording import (
    ACTIVE,
    Entry,
    _state,
    current_tracer,
    pop_tracer,
    push_tape,
    push_tracer,
    remove_tape,
    tape_stack,
)
from .tensor import Tensor, _FailedValue, _GraphValue, alias, scope_error

__all__ = ["apply", "record", "tape_stack", "push_tape", "remove_tape", "Entry", "ACTIVE",
           "current_tracer", "push_tracer", "pop_tracer"]


# Every 1024 recorded entries a tape checks the bytes it holds (events.check_size).
_CHECK_MASK = 1023


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
            elif type(t) is not Tensor and tape.watch_accessed and t._watchable(tape):
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
            check_size(tape)


def raise_op_error(prim, values, attrs, exc):
    """Turn a NumPy failure inside ``prim``'s forward into TensorFlow's error class and text."""
    if isinstance(exc, errors.OpError):
        raise exc
    for v in values:
        if type(v) is _GraphValue:   # a graph tensor leaked out of its tf.function
            raise scope_error(v.text) from None
    for v in values if prim.error is None else ():  # string ops name their own errors
        if getattr(v, "dtype", None) is not None and v.dtype.kind in "OSU":
            raise errors.op_error(
                errors.InvalidArgumentError,
                "Value for attr 'T' of string is not in the list of allowed values: "
                "bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, "
                "uint32, uint64, complex64, complex128", prim.name) from None
    if prim.error is None:
        raise errors.op_error(errors.InvalidArgumentError, str(exc), prim.name) from None
    found = prim.error(values, attrs or {}, exc)   # (class, text[, static shape mismatch])
    err = errors.op_error(found[0], found[1], prim.name)
    if len(found) > 2 and found[2]:
        err.static_shape = True
    raise err from None


def op_failed(prim, values, attrs, exc):
    """An op's kernel raised ``exc``: raise TensorFlow's error, or, while a ``tf.function``
    traces (outside ``tf.init_scope`` and a loop's later iterations), return failing output
    values (:class:`_FailedValue`): the op is left out of the program and its error is
    raised only where its value is needed, as TensorFlow prunes an unused op."""
    for v in values:
        if type(v) is _FailedValue:   # an input already failed: this op fails with it
            err = v.exc
            break
    else:
        try:
            raise_op_error(prim, values, attrs, exc)
        except errors.OpError as e:
            err = e
            if e.static_shape:   # TensorFlow finds it while building the graph
                raise
    tracer = _state.tracer
    if tracer is None or tracer.suspended:
        raise err
    dtype = getattr(values[0], "dtype", None) if values else None
    if prim.n_outputs == 1:
        return _FailedValue(err, dtype)
    return tuple([_FailedValue(err, dtype) for _ in range(prim.n_outputs)])


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
        out = op_failed(prim, values, attrs, exc)
    if prim.n_outputs == 1:
        out = Tensor(out)
    else:
        out = tuple(Tensor(o) for o in out)
    if ACTIVE[0]:
        record(prim, inputs, out, attrs)
    return out
