"""Why a gradient is None, and the tape as text and DOT: the reports on top of a tape.

They read what a tape recorded and the events it noted while recording (``events.py``):
``explain`` and ``explain_gradient``, ``no_gradients_message`` for the optimizer, ``summary``
and ``to_dot``.
"""
import sys

from .events import _PACKAGE_DIR, _last_none, _where, held
from .tensor import Tensor

__all__ = ["explain", "no_gradients_message", "not_a_variable_message", "summary", "to_dot",
           "explain_gradient"]


# ----------------------------------------------------------------------------- explain


def _graph(entries):
    producers = {}
    for k, e in enumerate(entries):
        for o in e.out_ids:
            producers[o] = k
    return producers


def _forward(entries, start):
    reach = {start}
    for e in entries:
        for i in e.in_ids:
            if i in reach:
                reach.update(e.out_ids)
                break
    return reach


def _backward(entries, target_ids):
    need = set(target_ids)
    for e in reversed(entries):
        if any(o in need for o in e.out_ids):
            need.update(e.in_ids)
    return need


def _name_of(s, names, index):
    local = names.get(id(s))
    if type(s) is not Tensor and hasattr(s, "name"):
        label = f"Variable '{s.name}'"
        return f"{local} ({label})" if local else label
    return local or f"sources[{index}]"


def _caller_names(depth=3):
    frame = sys._getframe(depth)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return {}
    return {id(v): k for k, v in frame.f_locals.items() if not k.startswith("_")}


_HOW = {"numpy": "`.numpy()`", "array": "NumPy (`np.asarray` or an `np.*` function)",
        "float": "`float()`", "int": "`int()`", "bool": "`bool()` (an `if` on a tensor?)",
        "complex": "`complex()`", "format": "string formatting",
        "index": "use as an index (`range(t)`, `list[t]`)"}


def explain(gtape, target, sources):
    """For each source, why its gradient is ``None`` (or that it is not).

    Args:
        gtape: the GradientTape.
        target: the Tensor (or nested structure) the gradient would be taken of.
        sources: a Tensor/Variable or a nested structure of them.

    Returns:
        One short reason (a str) per source, packed like ``sources``.
    """
    from . import nest
    from .tensor import Tensor, _TensorLike
    names = _caller_names()
    flat_sources = nest.flatten(sources)
    flat_targets = [t for t in nest.flatten(target) if isinstance(t, _TensorLike)]
    tape = gtape._tape
    consumed = None
    if tape is None:
        retained = getattr(gtape, "_retained", None)
        if retained is not None and retained[1] is target:
            tape = retained[0]
        else:
            consumed = getattr(gtape, "_consumed_at", None)
    reasons = []
    for k, s in enumerate(flat_sources):
        name = _name_of(s, names, k)
        if not isinstance(s, _TensorLike):
            reasons.append(f"{name}: {s!r} is not a Tensor or Variable, so it has no gradient.")
            continue
        if s._value.dtype.kind not in "fcV":
            reasons.append(
                f"{name}: its dtype is {s.dtype.name}; only floating-point and complex "
                f"tensors have gradients. Make it float, e.g. tf.cast(x, tf.float32), before "
                f"the computation.")
            continue
        if tape is None:
            if consumed is not None or gtape._tape is None:
                reasons.append(
                    f"{name}: the tape was already consumed by the gradient call at "
                    f"{_where(consumed)}; a non-persistent tape gives one set of gradients. "
                    f"Create it with tf.GradientTape(persistent=True) to ask again.")
            else:
                reasons.append(f"{name}: nothing was recorded on this tape.")
            continue
        reasons.append(f"{name}: " + _reason(tape, s, flat_targets, Tensor))
    return nest.pack_sequence_as(sources, reasons)



def explain_gradient(tape, target, sources):
    """Why each source's gradient is ``None``; the same as ``tape.explain(target, sources)``.

    TensorFlow has no counterpart (``tf.debugging.explain_gradient`` is tapeflow's own).

    Args:
        tape: a ``tf.GradientTape`` (used or not).
        target: the Tensor (or nested structure) the gradient is taken of.
        sources: a Tensor/Variable or a nested structure of them.

    Returns:
        One short reason (a str) per source, packed like ``sources``.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * x
        >>> print(tf.debugging.explain_gradient(tape, y, x)[:17])
        x: never watched:
    """
    return tape.explain(target, sources)


def _reason(tape, s, targets, tensor_type):
    block = f"the `with` block at {_where(tape.started)}" if tape.started else "the `with` block"
    if s._id not in tape.watched:
        if type(s) is tensor_type:
            return ("never watched: a tape watches trainable tf.Variables by itself, but this "
                    f"is a tf.Tensor. Call tape.watch(...) on it inside {block} (or, "
                    "if it was a tf.Variable, update it with assign_sub instead of "
                    "`w = w - lr * g`, which replaces the Variable by a Tensor).")
        if not getattr(s, "trainable", True):
            return ("never watched: the Variable has trainable=False, and tapes watch only "
                    "trainable variables by themselves. Call tape.watch(...) on it.")
        if not tape.watch_accessed:
            return ("never watched: the tape was created with "
                    "watch_accessed_variables=False. Call tape.watch(...) on it.")
        return (f"never watched: it was not read inside {block}. Compute the target "
                "from it inside the block.")
    entries = tape.entries
    tids = [t._id for t in targets]
    need = _backward(entries, tids)
    if s._id in need:
        return "connected: its gradient is not None."
    reach = _forward(entries, s._id)
    events = tape.events or []
    for ev in events:
        if ev[0] == "left" and ev[1] in reach:
            producers = _graph(entries)
            k = producers.get(ev[1])
            what = (f"the output of {entries[k].prim.name}" if k is not None
                    else "the watched value itself")
            return (f"the chain left the tape at {_where(ev[3])}: {_HOW.get(ev[2], ev[2])} "
                    f"on {what} gave a NumPy/Python value, and whatever was computed from "
                    f"it is a constant to the tape. Keep that step in tapeflow ops.")
    for ev in events:
        if ev[0] == "assign" and (ev[1] in reach or ev[2] == s._id):
            via = " and the target reads it" if ev[2] in need else ""
            return (f"the value was written into Variable '{ev[3]}' by {ev[4]} at "
                    f"{_where(ev[5])}{via}; {ev[4]} is not differentiable, so the chain "
                    f"stops there. Use the tensor itself in the computation.")
    for ev in events:
        if ev[0] == "stopped" and ev[1] & reach:
            return (f"the ops on its path ({', '.join(ev[2])}) ran under "
                    f"tape.stop_recording() at {_where(ev[3])} and were not recorded.")
    if not any(t in tape.watched for t in tids):
        return ("not connected: the target was not computed on this tape from watched "
                f"values (was it computed before or outside {block}?).")
    return ("not connected: no recorded op leads from it to the target (tf.stop_gradient, "
            "argmax, comparisons and casts to integers also cut the path).")


# ----------------------------------------------------------------------------- messages


def _explain_variable(v):
    record = getattr(_last_none, "record", None)
    if record is None:
        return None
    gtape, target, flat_sources, result = record
    for s, g in zip(flat_sources, result):
        if s is v and g is None:
            tape = gtape._tape
            if tape is None:
                retained = getattr(gtape, "_retained", None)
                tape = retained[0] if retained else None
            if tape is None:
                return None
            from . import nest
            from .tensor import Tensor, _TensorLike
            targets = [t for t in nest.flatten(target) if isinstance(t, _TensorLike)]
            return _reason(tape, s, targets, Tensor)
    return None


def not_a_variable_message(value, index=None) -> str:
    """The error text when a Tensor is passed where a tf.Variable is needed.

    The first line is TensorFlow 2.21's (Keras 3 looks up ``_unique_id`` on the tensor);
    a ``Hint:`` line names the usual cause.
    """
    where = "" if index is None else f" (pair {index} of grads_and_vars)"
    return ("'tensorflow.python.framework.ops.EagerTensor' object has no attribute "
            "'_unique_id'\n"
            f"Hint: a tf.Tensor of shape {value.shape} was passed where a tf.Variable is "
            f"needed{where}. An update like `w = w - lr * g` replaces the Variable `w` by a "
            f"Tensor, which tapes do not watch and optimizers cannot update: use "
            f"w.assign_sub(lr * g) instead.")


def no_gradients_message(grads_and_vars) -> str:
    """The full "No gradients provided for any variable." text with a reason per variable.

    Args:
        grads_and_vars: the (gradient, variable) pairs given to ``apply_gradients``; every
            gradient is None.

    Returns:
        TensorFlow 2.21's first line, then one ``Hint:`` line per variable saying why its
        gradient is None (from the last ``GradientTape.gradient`` call that returned None).
    """
    lines = ["No gradients provided for any variable."]
    for _, v in grads_and_vars:
        if type(v) is Tensor:
            label = f"a tf.Tensor of shape {v.shape}"
            why = ("a tf.Tensor was passed where a tf.Variable is needed (an update like "
                   "`w = w - lr * g` replaces the Variable by a Tensor: use w.assign_sub).")
        else:
            label = f"'{getattr(v, 'name', v)}'"
            why = _explain_variable(v) or (
                "no recent GradientTape.gradient call returned None for it: was the loss "
                "computed inside the `with tf.GradientTape()` block, and was this variable "
                "among the sources?")
        lines.append(f"Hint: {label}: {why}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- text, DOT


def summary(gtape, print_fn=None):
    """Print the tape's entries, ops, bytes held and where it started recording."""
    from collections import Counter
    tape = gtape._tape
    print_fn = print_fn or print
    if tape is None:
        print_fn("GradientTape: nothing recorded (consumed by a gradient call, or never "
                 "entered).")
        return
    entries = tape.entries
    held_bytes = held(tape)
    ops = Counter(e.prim.name for e in entries)
    variables = [v.name for v in tape.variables.values()]
    lines = [
        f"GradientTape(persistent={tape.persistent}) started at "
        f"{_where(getattr(tape, 'started', None))}",
        f"  entries: {len(entries)}   watched tensors: {len(tape.watched)}   "
        f"bytes held: {held_bytes:,}",
        f"  variables: {len(variables)}" + (f" ({', '.join(variables)})" if variables else ""),
        "  ops: " + (", ".join(f"{n} x{c}" for n, c in ops.most_common()) or "none"),
    ]
    print_fn("\n".join(lines))


def _shape_text(shape):
    return "" if shape is None else "(" + ", ".join(map(str, shape)) + ")"


def _dot_label(text):
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_dot(gtape, target=None, filename=None, format=None):  # noqa: A002 - graphviz's name
    """The recorded graph as Graphviz DOT text; the path to ``target`` drawn in red.

    Args:
        gtape: the GradientTape.
        target: optional Tensor (or nested structure): its ancestors are highlighted.
        filename: optional path: the DOT text is written there, or rendered when ``format``
            is ``"png"``/``"svg"`` (needs the ``graphviz`` Python package and Graphviz's
            ``dot`` program).
        format: ``None`` (write DOT text), ``"png"`` or ``"svg"``.

    Returns:
        The DOT text.

    Raises:
        ImportError: when rendering is asked for and graphviz is not installed.
    """
    from . import nest
    from .tensor import _TensorLike
    tape = gtape._tape
    if tape is None:
        retained = getattr(gtape, "_retained", None)
        tape = retained[0] if retained else None
    entries = tape.entries if tape is not None else []
    tids = [t._id for t in nest.flatten(target) if isinstance(t, _TensorLike)] \
        if target is not None else []
    need = _backward(entries, tids) if tids else set()
    produced = {o for e in entries for o in e.out_ids}
    variables = tape.variables if tape is not None else {}
    lines = ["digraph tape {", "  rankdir=LR;", '  node [fontname="Helvetica"];']
    shapes = {}
    for e in entries:
        for i, s in zip(e.in_ids, e.in_shapes):
            shapes.setdefault(i, s)
    for e in entries:
        outs = e.out if isinstance(e.out, tuple) else ((e.out,) if e.out is not None else ())
        for o, t in zip(e.out_ids, outs):
            shapes.setdefault(o, t._value.shape)
    for t in nest.flatten(target) if target is not None else ():
        if isinstance(t, _TensorLike):
            shapes[t._id] = t._value.shape
    for o in produced:
        shapes.setdefault(o, None)
    for i in sorted(shapes):
        if i in produced and i not in tids:
            label = _shape_text(shapes[i])
            style = ""
        else:
            kind = (f"Variable '{variables[i].name}'" if i in variables
                    else "target" if i in tids else "watched" if i in tape.watched
                    else "constant")
            label = f"{kind}\n{_shape_text(shapes[i])}"
            style = ", style=filled, fillcolor=lightblue" if i not in tids else \
                ", style=filled, fillcolor=salmon"
        color = ", color=red, penwidth=2" if i in need else ""
        lines.append(f'  t{i} [shape=ellipse, label="{_dot_label(label)}"{style}{color}];')
    for k, e in enumerate(entries):
        on_path = any(o in need for o in e.out_ids)
        color = ", color=red, penwidth=2" if on_path else ""
        lines.append(f'  op{k} [shape=box, label="{_dot_label(e.prim.name)}"{color}];')
        for i in e.in_ids:
            edge = " [color=red, penwidth=2]" if on_path and i in need else ""
            lines.append(f"  t{i} -> op{k}{edge};")
        for o in e.out_ids:
            edge = " [color=red, penwidth=2]" if on_path else ""
            lines.append(f"  op{k} -> t{o}{edge};")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if filename is not None:
        if format is None:
            with open(filename, "w") as fh:
                fh.write(text)
        else:
            try:
                import graphviz
            except ImportError:
                raise ImportError("Rendering a tape needs the optional `graphviz` package "
                                  "(pip install tapeflow[graphviz]) and Graphviz's `dot` "
                                  "program; without them pass format=None for DOT text."
                                  ) from None
            base = filename[: -len(format) - 1] if filename.endswith("." + format) else filename
            graphviz.Source(text).render(base, format=format, cleanup=True)
    return text
