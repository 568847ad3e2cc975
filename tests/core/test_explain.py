"""tape.explain: one small program per reason a gradient is None; summary, DOT, messages."""
import sys
import warnings

import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core import dispatch, events, explain


def line_of(text):
    """The line number in this file of the first line containing ``text``."""
    with open(__file__) as fh:
        for n, line in enumerate(fh, 1):
            if text in line and "line_of(" not in line:
                return n
    raise AssertionError(text)


def test_constant_never_watched():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * x)
    assert tape.gradient(y, x) is None
    reason = tape.explain(y, x)
    assert reason.startswith("x: never watched")
    assert "tape.watch" in reason and "assign_sub" in reason
    assert "inside the `with` block at test_explain.py:" in reason


def test_nontrainable_and_unaccessed_variables_never_watched():
    frozen = tf.Variable(1.0, trainable=False)
    v = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = frozen * v
    reasons = tape.explain(y, [frozen, v])
    assert reasons[0].startswith("frozen (Variable 'Variable:0'): never watched")
    assert "trainable=False" in reasons[0]
    assert "watch_accessed_variables=False" in reasons[1]


def test_integer_source():
    n = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch(tf.constant(1.0))
        y = tf.cast(n, tf.float32) * 2.0
    assert "dtype is int32" in tape.explain(y, n)


def test_not_connected_and_target_not_on_tape():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y = a * 3.0
        z = tf.constant(5.0) * 2.0
    assert tape.explain(y, b).startswith("b: not connected: no recorded op")
    assert "target was not computed on this tape" in tape.explain(z, a)
    assert tape.explain(y, a) == "a: connected: its gradient is not None."


def test_chain_left_the_tape_through_numpy():
    w = tf.Variable([1.0, -2.0], name="w")
    with tf.GradientTape() as tape:
        h = tf.tanh(w * 2.0)
        h_np = h.numpy()  # the chain leaves here
        loss = tf.reduce_sum(tf.constant(h_np) ** 2)
    reason = tape.explain(loss, w)
    line = line_of("h_np = h.numpy()")
    assert reason.startswith("w (Variable 'w:0'): the chain left the tape at "
                             f"test_explain.py:{line} (`h_np = h.numpy()")
    assert "`.numpy()` on the output of Tanh" in reason


@pytest.mark.parametrize("leave,how", [
    (lambda t: tf.constant(float(t)), "`float()`"),
    (lambda t: tf.constant(np.exp(t)), "NumPy"),
])
def test_chain_left_the_tape_through_float_and_numpy_functions(leave, how):
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = leave(x * 2.0) * 3.0
    reason = tape.explain(y, x)
    assert "the chain left the tape at test_explain.py:" in reason
    assert how in reason and "output of Mul" in reason


def test_value_written_by_assign():
    v = tf.Variable(0.0, name="v")
    a = tf.Variable(2.0, name="a")
    with tf.GradientTape() as tape:
        v.assign(a * 3.0)
        loss = v * v
    reason = tape.explain(loss, a)
    assert f"written into Variable 'v:0' by assign at test_explain.py:{line_of('v.assign(a')}" \
        in reason
    assert "the target reads it" in reason


def test_recorded_under_stop_recording():
    z = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(z)
        with tape.stop_recording():
            y = z * z
        loss = y + 1.0
    reason = tape.explain(loss, z)
    assert reason.startswith("z: the ops on its path (Mul) ran under tape.stop_recording() "
                             f"at test_explain.py:{line_of('with tape.stop_recording')}")


def test_tape_consumed_by_earlier_gradient_call():
    a = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        loss = a * a
    tape.gradient(loss, a)
    with pytest.raises(RuntimeError):
        tape.gradient(loss, a)
    reason = tape.explain(loss, a)
    assert "consumed by the gradient call at " \
           f"test_explain.py:{line_of('tape.gradient(loss, a)')}" in reason
    assert "persistent=True" in reason


def test_explain_after_a_none_gradient_on_nonpersistent_tape_keeps_the_reason():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.constant(x.numpy()) * 2.0
    assert tape.gradient(y, x) is None
    assert "the chain left the tape" in tape.explain(y, x)


def test_explain_gradient_function_and_nested_sources():
    x = tf.constant(1.0)
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = v * x
    out = tf.debugging.explain_gradient(tape, y, {"x": x, "v": [v]})
    assert out["x"].startswith("x: never watched")
    assert out["v"][0].endswith("connected: its gradient is not None.")


def test_no_events_are_recorded_without_an_active_tape(monkeypatch):
    calls = []
    monkeypatch.setattr(events, "on_leave", lambda *a: calls.append(a))
    monkeypatch.setattr(events, "on_assign", lambda *a: calls.append(a))
    assert dispatch.ACTIVE[0] == 0
    x = tf.constant([1.0])
    x.numpy(), float(x[0]), np.asarray(x)
    tf.Variable(1.0).assign(2.0)
    assert calls == []
    with tf.GradientTape() as tape:
        tape.watch(x)
        x.numpy()
    assert len(calls) == 1


def test_unwatched_conversions_under_a_tape_add_no_events():
    c = tf.constant(1.0)
    with tf.GradientTape() as tape:
        float(c)
        tape.watch(tf.constant(2.0))
    assert tape._tape.events is None


# ----------------------------------------------------------------------- messages


def test_no_gradients_message_appends_reasons():
    a = tf.Variable(2.0, name="a")
    with tf.GradientTape() as tape:
        loss = tf.constant(float((a * 2.0).numpy()))
    grads = tape.gradient(loss, [a])
    text = explain.no_gradients_message(zip(grads, [a]))
    first, hint = text.split("\n")
    assert first == "No gradients provided for any variable."
    assert hint.startswith("Hint: 'a:0': the chain left the tape at test_explain.py:")
    assert "`float()`" in hint or "`.numpy()`" in hint


def test_no_gradients_message_for_tensor_in_place_of_variable():
    w = tf.constant([1.0, 2.0])
    text = explain.no_gradients_message([(None, w)])
    assert text.splitlines()[1] == (
        "Hint: a tf.Tensor of shape (2,): a tf.Tensor was passed where a tf.Variable is "
        "needed (an update like `w = w - lr * g` replaces the Variable by a Tensor: use "
        "w.assign_sub).")
    msg = explain.not_a_variable_message(w, 0)
    assert msg.startswith("'tensorflow.python.framework.ops.EagerTensor' object has no "
                          "attribute '_unique_id'\nHint: a tf.Tensor of shape (2,)")


def test_no_gradients_message_without_a_recorded_call():
    explain._last_none.record = None
    text = explain.no_gradients_message([(None, tf.Variable(1.0, name="k"))])
    assert "Hint: 'k:0': no recent GradientTape.gradient call returned None" in text


# ----------------------------------------------------------------------- summary, DOT, size


def test_summary_counts_entries_ops_and_bytes():
    w = tf.Variable(np.ones((4, 4), np.float32), name="w")
    x = tf.constant(np.ones((2, 4), np.float32))
    lines = []
    with tf.GradientTape() as tape:
        tf.tanh(tf.matmul(x, w)) * 2.0
    tape.summary(print_fn=lines.append)
    text = lines[0].splitlines()
    assert text[0].startswith("GradientTape(persistent=False) started at test_explain.py:")
    # MatMul saves x (32 B) and w (64 B); Tanh its output (32 B); Mul saves tanh's output
    # (the same array) and the scalar 2.0 (4 B).
    assert text[1] == "  entries: 3   watched tensors: 4   bytes held: 132"
    assert text[2] == "  variables: 1 (w:0)"
    assert text[3] == "  ops: MatMul x1, Tanh x1, Mul x1"


def test_to_dot_highlights_the_path_to_the_target(tmp_path):
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    with tf.GradientTape(persistent=True) as tape:
        y = tf.sin(a) * 2.0
        side = tf.exp(b)
    dot = tape.to_dot(y)
    assert dot.startswith("digraph tape {") and dot.endswith("}\n")
    assert f't{a._id} [shape=ellipse, label="Variable \'a:0\'\\n()"' in dot
    assert 'label="Sin", color=red' in dot
    assert 'label="Exp"];' in dot  # not on the path: plain
    assert 'label="target\\n()", style=filled, fillcolor=salmon' in dot
    assert side is not None
    path = tmp_path / "tape.dot"
    assert tape.to_dot(y, filename=str(path)) == path.read_text()


def test_to_dot_rendering_needs_graphviz(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with tf.GradientTape() as tape:
        y = tf.Variable(1.0) * 2.0
    with pytest.raises(ImportError, match="graphviz"):
        tape.to_dot(y, filename=str(tmp_path / "t.png"), format="png")


def test_tape_size_warning_once_naming_where_recording_started():
    x = tf.constant(np.ones(256, np.float32))
    old = events._TAPE_BYTES_WARNING[0]
    tf.debugging.set_tape_size_warning(1_000_000)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with tf.GradientTape(persistent=True) as tape:  # the leaky tape
                tape.watch(x)
                total = tf.constant(0.0)
                for _ in range(1500):
                    total = total + tf.reduce_sum(tf.tanh(x * 1.5))
    finally:
        tf.debugging.set_tape_size_warning(old)
    assert len(caught) == 1
    msg = str(caught[0].message)
    assert f"started recording at test_explain.py:{line_of('# the leaky tape')}" in msg
    assert "persistent tape for a whole epoch" in msg


def test_to_dot_renders_through_the_graphviz_package(monkeypatch, tmp_path):
    calls = []

    class Source:
        def __init__(self, text):
            calls.append(text)

        def render(self, base, format, cleanup):  # noqa: A002 - graphviz's signature
            calls.append((base, format, cleanup))

    monkeypatch.setitem(sys.modules, "graphviz", type(sys)("graphviz"))
    sys.modules["graphviz"].Source = Source
    with tf.GradientTape() as tape:
        y = tf.Variable(1.0) * 2.0
    text = tape.to_dot(y, filename=str(tmp_path / "tape.svg"), format="svg")
    assert calls == [text, (str(tmp_path / "tape"), "svg", True)]


def test_numpy_on_a_variable_inside_the_tape_watches_it_and_explains_the_break():
    # As in TensorFlow, .numpy() reads the variable: the tape watches it.
    b = tf.Variable(1.0, name="b")
    with tf.GradientTape() as tape:
        loss = tf.constant(b.numpy()) * 2.0
    watched = tape.watched_variables()
    assert len(watched) == 1 and watched[0] is b
    reason = tape.explain(loss, b)
    assert "left the tape" in reason and "`.numpy()`" in reason
