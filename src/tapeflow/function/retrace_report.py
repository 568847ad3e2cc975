"""Why a ``tf.function`` traced again: TensorFlow's frequent-retracing warning (one detector
per Python code object) and the texts of ``Function.experimental_trace_report``."""
import os
import sys
import threading
import weakref

from .. import _logging
from .._core.tensor import TensorShape
from .function_type import _arg_name
from .trace_type import is_tensor_key

_HISTORY = 10       # TensorFlow's FREQUENT_TRACING_WARNING_MAX_CALL_HISTORY
_THRESHOLD = 5      # FREQUENT_TRACING_WARNING_THRESHOLD
_MAX_WARNINGS = 2   # FREQUENT_TRACING_WARNING_MAX_WARNING_PER_DETECTOR


class _Detector:
    """TensorFlow's ``_FrequentTracingDetector``: one per Python code object, shared by
    every ``tf.function`` of it (so functions re-created in a loop add up)."""

    __slots__ = ("calls", "count", "warnings", "__weakref__")

    def __init__(self):
        self.calls = []
        self.count = 0
        self.warnings = 0

    def traced(self, fn, detail):
        self.count += 1
        self.calls.append(1)
        while self.calls and self.count - self.calls[0] > _HISTORY:
            self.count -= self.calls.pop(0)
        if self.warnings >= _MAX_WARNINGS or len(self.calls) < _THRESHOLD:
            return
        self.warnings += 1
        _logging.warning(
            f"{len(self.calls)} out of the last {self.count} calls to "
            f"{fn} triggered tf.function retracing. Tracing is expensive and the excessive "
            "number of tracings could be due to (1) creating @tf.function repeatedly in a "
            "loop, (2) passing tensors with different shapes, (3) passing Python objects "
            "instead of tensors. For (1), please define your @tf.function outside of the "
            "loop. For (2), @tf.function has reduce_retracing=True option that can avoid "
            "unnecessary retracing. For (3), please refer to "
            "https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details.")
        if detail:
            sys.stderr.write(f"WARNING:tapeflow:{detail}\n")

    def not_traced(self):
        if not self.calls:
            self.calls = [0]
        self.calls[-1] += 1
        self.count += 1


_detectors = weakref.WeakKeyDictionary()
_detectors_lock = threading.Lock()


def _detector(code):
    with _detectors_lock:
        d = _detectors.get(code)
        if d is None:
            d = _detectors[code] = _Detector()
        return d


def _key_text(key, names):
    parts = []
    args = key[0] if (type(key) is tuple and len(key) == 2 and type(key[0]) is tuple
                      and type(key[1]) is tuple and key[1] and type(key[1][0]) is tuple
                      and len(key[1][0]) == 2 and isinstance(key[1][0][0], str)) else key
    for i, k in enumerate(args if type(args) is tuple else (args,)):
        parts.append(f"{_arg_name(names, i)}={_one_key_text(k)}")
    return "(" + ", ".join(parts) + ")"


def _one_key_text(k):
    if is_tensor_key(k):
        shape = "<unknown>" if k[0] is None else str(TensorShape(k[0]))
        return f"Tensor{shape} {k[1]}"
    if type(k) is tuple and len(k) == 5 and k[0] == "Variable":
        return f"Variable{TensorShape(k[1])} {k[2]}"
    if type(k) is tuple and len(k) == 2 and isinstance(k[0], type):
        inner = ", ".join(_one_key_text(e) for e in k[1])
        return f"{k[0].__name__}[{inner}]"
    if type(k) is tuple and len(k) == 3 and isinstance(k[0], type) and type(k[2]) is tuple:
        # a composite (a distributed batch's PerReplica): its components
        inner = ", ".join(_one_key_text(e) for e in k[2])
        return f"{k[0].__name__}[{inner}]"
    if hasattr(k, "ref"):
        obj = k.ref()
        return f"<{type(obj).__name__} object>"
    return repr(k)


def _key_diff(old, new, names):
    o = old if type(old) is tuple else (old,)
    n = new if type(new) is tuple else (new,)
    diffs = []
    for i, (a, b) in enumerate(zip(o, n)):
        if a != b:
            name = _arg_name(names, i)
            diffs.append(f"argument `{name}` {_one_key_text(a)} -> {_one_key_text(b)}")
    if len(o) != len(n):
        diffs.append(f"{len(o)} -> {len(n)} arguments")
    return "; ".join(diffs) or "a keyword argument changed"


def _ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _relaxed_why(program):
    why = getattr(program, "why_not_generic", None)
    return "new shapes under a relaxed trace" + (f" ({why})" if why else "")


def _site_text(failed):
    if failed.site is None:
        return "an unknown line"
    filename, lineno, name = failed.site
    return f"{os.path.basename(filename)}:{lineno} (`{failed.how}()` of a tensor)"


def _array_orphans(program):
    """The orphan constants that are arrays: a Python number made a tensor (a literal, a
    ``Dropout`` rate) is a constant of TensorFlow's graph too, and so is a literal shape
    (``conv2d_transpose``'s ``output_shape``, passed as a zero-stride stand-in)."""
    out = []
    for o in program.orphans:
        v = program.consts[o[0]]
        if getattr(v, "ndim", 0) and any(v.strides):
            out.append(o)
    return out


def _orphan_text(program):
    parts = []
    if program.n_guards:
        parts.append(f"{program.n_guards} guard(s): Python read tensor values "
                     "(bool/float/int); a replay with other values re-specializes")
    if program.orphans:
        sites = ", ".join(f"{os.path.basename(s[0])}:{s[1]}" for _, s in program.orphans[:5]
                          if s)
        parts.append(f"{len(program.orphans)} constant(s) made during the trace outside the "
                     f"op layer, baked into the program (Python numbers made tensors; "
                     f"anything else computed from a tensor's value would be frozen: {sites})")
    return "; ".join(parts)
