"""``tf.print``: TensorFlow's text for tensors (``[1 2 ... 9]``), to standard error."""
import sys

from .._core import dispatch as _dispatch
from .._core import nest as _nest
from .._core.backend import np
from .._core.tensor import _TensorLike

__all__ = ["print"]


def _scalar_text(v):
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (float, np.floating)):
        # TensorFlow's StrCat (FloatToBuffer/DoubleToBuffer): 6 (15) significant digits
        # when that reads back as the same value, else 9 (17).
        if isinstance(v, (np.float32, np.float16)):
            short = f"{float(v):.6g}"
            return short if np.float32(short) == v else f"{float(v):.9g}"
        short = f"{float(v):.15g}"
        return short if float(short) == float(v) else f"{float(v):.17g}"
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def _elem_text(x):
    """An element of an array: strings print quoted (``["p" "q"]``)."""
    return f'"{_scalar_text(x)}"' if isinstance(x, bytes) else _scalar_text(x)


def _format(value, summarize):
    if value.ndim == 0:
        return _scalar_text(value[()] if isinstance(value, np.ndarray) else value)

    def rec(a, depth):
        if a.ndim == 1:
            items = list(a)
            if summarize >= 0 and len(items) > 2 * summarize:
                parts = ([_elem_text(x) for x in items[:summarize]] + ["..."]
                         + [_elem_text(x) for x in items[-summarize:]])
            else:
                parts = [_elem_text(x) for x in items]
            return "[" + " ".join(parts) + "]"
        n = a.shape[0]
        idx = list(range(n))
        if summarize >= 0 and n > 2 * summarize:
            idx = idx[:summarize] + [None] + idx[-summarize:]
        sep = "\n" + " " * (depth + 1)
        rows = ["..." if i is None else rec(a[i], depth + 1) for i in idx]
        return "[" + sep.join(rows) + "]"

    return rec(np.asarray(value), 0)


_STDERR, _STDOUT = sys.stderr, sys.stdout


def print(*inputs, output_stream=_STDERR, summarize=3, sep=" ", end="\n", name=None):  # noqa: A001
    """Print tensors and Python values as TensorFlow's ``tf.print`` does.

    Inside a ``tf.function`` it prints on every call (the traced program keeps it as a step);
    on a call that traces, after all the Python output of the trace, as in TensorFlow.

    Args:
        *inputs: tensors, Python values, or nested structures of them.
        output_stream: ``sys.stderr`` (default), ``sys.stdout``, or a ``'file://path'``.
        summarize: elements shown at each end of every axis; -1 shows all.
        sep, end: strings between inputs and at the end.
    """
    if _dispatch.ACTIVE[0]:
        tracer = _dispatch.current_tracer()
        if tracer is not None:
            _traced_print(tracer, inputs, output_stream, summarize, sep, end)
            return
    _write(_render(inputs, summarize, sep, end), output_stream)


def _render(inputs, summarize, sep, end):
    parts = []
    for x in inputs:
        if isinstance(x, _TensorLike):
            parts.append(_format(x._value, summarize))
        elif isinstance(x, (list, tuple, dict)):
            parts.append(_nested_text(x, summarize))
        else:
            parts.append(str(x))
    return sep.join(parts) + end


def _nested_text(x, summarize):
    """A list, tuple or dict holding tensors as TensorFlow prints it: Python's form with
    each tensor's text in place (``{'k': 2}``, ``[3, 't']``), dict keys sorted."""
    if isinstance(x, _TensorLike):
        v = x._value
        if v.ndim == 0 and isinstance(v[()] if isinstance(v, np.ndarray) else v, bytes):
            return '"' + _format(v, summarize) + '"'
        return _format(v, summarize)
    if isinstance(x, dict):
        try:
            keys = sorted(x)
        except TypeError:
            keys = list(x)
        return "{" + ", ".join(f"{k!r}: {_nested_text(x[k], summarize)}" for k in keys) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(_nested_text(v, summarize) for v in x) + "]"
    if isinstance(x, tuple):
        inner = ", ".join(_nested_text(v, summarize) for v in x)
        return "(" + inner + ("," if len(x) == 1 else "") + ")"
    return repr(x)


def _write(text, output_stream):
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        with open(output_stream[len("file://"):], "a") as f:
            f.write(text)
        return
    stream = output_stream
    # The standard streams as they are now (contextlib.redirect_stderr, pytest's capture):
    # the default argument holds the stream of import time.
    if stream is _STDERR or stream is sys.__stderr__ or stream is sys.stderr:
        stream = sys.stderr
    elif stream is _STDOUT or stream is sys.__stdout__ or stream is sys.stdout:
        stream = sys.stdout
    stream.write(text)
    stream.flush()


def _traced_print(tracer, inputs, output_stream, summarize, sep, end):
    # A step of the program (it prints on every replay) whose output on this call waits
    # for the trace to finish: TensorFlow prints a trace's Python output first.
    flat = _nest.flatten(list(inputs))
    tensors = [x for x in flat if isinstance(x, _TensorLike)]

    def replay(*values):
        it = iter(values)
        now = _nest.pack_sequence_as(list(inputs), [
            next(it) if isinstance(x, _TensorLike) else x for x in flat])
        print(*now, output_stream=output_stream, summarize=summarize, sep=sep, end=end)
        return ()

    replay.op_type = "PrintV2"
    if not tracer.suspended:
        tracer.call(replay, tensors, [])
    text = _render(inputs, summarize, sep, end)
    root = tracer
    while root.parent is not None:
        root = root.parent
    root.effects.append(lambda: _write(text, output_stream))
