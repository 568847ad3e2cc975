"""``tf.debugging.enable_check_numerics``: every op's floating outputs are checked for
infinities and NaNs, and the first op that makes one raises ``InvalidArgumentError`` naming it.

Free when off: enabling rebinds the ``record`` function that the op modules call when
``ACTIVE[0]`` is set (``dispatch.record`` and every loaded module's binding of it) to a
checking one, and counts as one active recorder so that every op reaches it; disabling
restores both. Nothing on the eager path tests a flag.

Inside a ``tf.function`` the check runs while the function is traced and, as long as the
mode is on, at each call (the program then runs op by op through dispatch instead of its
compiled form); the message is TensorFlow's graph form (``graph op "Log"``, the symbolic
inputs, ``Graph name``).
"""
import sys
import threading

from . import dispatch as _dispatch
from . import errors
from . import recording as _rec
from .backend import np
from .tensor import Tensor

__all__ = ["enable_check_numerics", "disable_check_numerics", "enabled", "in_function"]

# TF's check_numerics callback skips these op types (frequent, numerically safe) and the
# auxiliary outputs of batch normalization; Identity and constants are never checked.
_SAFE = frozenset((
    "Concat", "ConcatV2", "ExpandDims", "Fill", "Gather", "Maximum", "Minimum", "Reshape",
    "Slice", "Squeeze", "Stack", "StridedSlice", "StridedSliceGrad", "TensorListConcatV2",
    "TensorListGather", "TensorListGetItem", "TensorListPopBack", "TensorListStack",
    "Transpose", "Unpack", "Identity", "IdentityN", "CheckNumerics", "CheckNumericsV2",
    "Pack", "GatherV2"))
_IGNORED_OUTPUTS = {"FusedBatchNorm": 1, "FusedBatchNormV2": 1, "FusedBatchNormV3": 1}

_BASE = _dispatch.record   # the unchecked record
_ORIGINAL = [None]   # _BASE while the mode is on
_local = threading.local()


def enabled():
    """Whether ``enable_check_numerics`` is in force."""
    return _ORIGINAL[0] is not None


class in_function:  # noqa: N801 - a small context manager
    """Ops run inside are a ``tf.function``'s graph ops named ``name`` (for the message)."""

    __slots__ = ("name", "saved")

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.saved = getattr(_local, "function", None)
        _local.function = self.name

    def __exit__(self, *exc):
        _local.function = self.saved
        return False


def _kinds(v):
    """``(message lines, summary)`` of the non-finite elements of array ``v``."""
    inf = np.isinf(v)
    neg = int(np.count_nonzero(inf & (v < 0)))
    pos = int(np.count_nonzero(inf & (v > 0)))
    nan = int(np.count_nonzero(np.isnan(v)))
    lines, names = [], []
    for count, label, name in ((neg, "-Inf", "-Inf"), (pos, "+Inf", "+Inf"),
                               (nan, "+NaN", "NaN")):
        if count:
            lines.append(f"  # of {label} elements: {count}\n")
            names.append(name)
    if len(names) == 1:
        summary = names[0]
    elif len(names) == 2:
        summary = f"{names[0]} and {names[1]}"
    else:
        summary = f"{names[0]}, {names[1]}, and {names[2]}"
    return lines, summary


def _input_text(t, tracer):
    if tracer is not None:
        text = tracer.symbolic_text(t, False)
        if text is not None:
            return text
    return str(t)


def _message(op_type, k, n, out, inputs, tracer, fn_name):
    graph = tracer is not None or fn_name is not None
    v = out._value
    text = (f"\n\n!!! Detected Infinity or NaN in output {k} of "
            f"{'graph' if graph else 'eagerly-executing'} op \"{op_type}\" "
            f"(# of outputs: {n}) !!!\n  dtype: <dtype: '{out.dtype.name}'>\n"
            f"  shape: {out.shape}\n")
    lines, summary = _kinds(v)
    if not graph:
        text += "".join(lines)
    ins = [t for t in inputs if hasattr(t, "_value")]
    if len(ins) > 1:
        text += f"\n  Input tensors ({len(ins)}):\n"
        for i, t in enumerate(ins):
            text += f"         {i}: {_input_text(t, tracer)}\n"
    elif ins:
        text += f"\n  Input tensor: {_input_text(ins[0], tracer)}\n"
    if graph and fn_name:
        text += f"  Graph name: \"{fn_name}\"\n"
    text += f"\n : Tensor had {summary} values"
    if graph:
        return "Graph execution error:\n" + text + f" [Op:__inference_{fn_name or 'f'}]"
    return text + " [Op:CheckNumericsV2] name: "


def _check(prim, inputs, out):
    op_type = prim.name
    if op_type in _SAFE:
        return
    outs = (out,) if prim.n_outputs == 1 else tuple(out)
    first_ignored = _IGNORED_OUTPUTS.get(op_type, len(outs))
    for k, o in enumerate(outs):
        if k >= first_ignored or type(o) is not Tensor:
            continue
        v = o._value
        dt = getattr(v, "dtype", None)
        if dt is None or dt.kind != "f" and dt.name != "bfloat16":
            continue
        if np.isfinite(v).all():
            continue
        tracer = _rec._state.tracer
        if tracer is not None and (getattr(tracer, "dry", None)
                                   or not getattr(tracer, "runs_ops", True)):
            return   # an untaken branch traced for its graph, a tf.Graph: nothing runs
        fn_name = getattr(_local, "function", None)
        if tracer is not None and fn_name is None:
            fn_name = getattr(tracer, "fn_name", None)
        raise errors.InvalidArgumentError(
            None, None, _message(op_type, k, len(outs), o, inputs, tracer, fn_name))


def _checked_record(prim, inputs, out, attrs):
    _BASE(prim, inputs, out, attrs)
    _check(prim, inputs, out)


def _rebind(old, new):
    _dispatch.record = new
    for module in list(sys.modules.values()):
        d = getattr(module, "__dict__", None)
        if d is not None and d.get("record") is old and \
                str(d.get("__name__", "")).startswith("tapeflow."):
            d["record"] = new


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """Check every op's floating outputs for infinities and NaNs from now on
    (``tf.debugging.enable_check_numerics``); idempotent.

    The first op that makes one raises ``tf.errors.InvalidArgumentError`` whose message
    names the op, the output, its dtype and shape, the number of ``-Inf``/``+Inf``/NaN
    elements, and the op's inputs, in TensorFlow's form (``!!! Detected Infinity or NaN in
    output 0 of eagerly-executing op "Log" (# of outputs: 1) !!!``). Ops TF deems safe
    (reshapes, slices, concatenations, gathers, ``Maximum``/``Minimum``, ``Identity``) and
    constants are not checked.

    Args:
        stack_height_limit, path_length_limit: TF's limits of the op-creation stack trace
            printed for graph ops; accepted (tapeflow prints no such trace).

    TensorFlow counterpart: ``tf.debugging.enable_check_numerics``.
    """
    if _ORIGINAL[0] is not None:
        return
    _ORIGINAL[0] = _dispatch.record
    _rebind(_ORIGINAL[0], _checked_record)
    _rec.ACTIVE[0] += 1


def disable_check_numerics():
    """Stop checking ops' outputs (``tf.debugging.disable_check_numerics``); a no-op when
    checking is off.

    TensorFlow counterpart: ``tf.debugging.disable_check_numerics``."""
    original = _ORIGINAL[0]
    if original is None:
        return
    _ORIGINAL[0] = None
    _rebind(_checked_record, original)
    _rec.ACTIVE[0] -= 1
