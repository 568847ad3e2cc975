"""Misuse raises what TensorFlow 2.21 / Keras 3 raise: the programs of errors_cases.py,
compared with tests/fixtures/errors/errors.json (tools/record_errors.py)."""
import builtins
import contextlib
import io
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from tests.errors_cases import CASES

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "errors" / "errors.json"
RECORDED = json.loads(FIXTURE.read_text())["cases"]


def _run(code):
    tf.keras.backend.clear_session()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"tf": tf, "np": np})
    return out.getvalue()


def _expected_class(want):
    if want["kind"] == "OpError":
        return getattr(tf.errors, want["error"])
    return getattr(builtins, want["error"])


def _without_hint(message):
    """tapeflow may add ``Hint:`` lines after TensorFlow's text (DESIGN.md)."""
    return message.split("\nHint: ")[0]


def _bold(message):
    """The original message inside Keras's report; TensorFlow ends an op's message with
    ``name: `` or not depending on how the op was reached, so that ending is dropped."""
    inner = message.split("\x1b[1m", 1)[1].split("\x1b[0m", 1)[0]
    return inner[:-len(" name: ")] if inner.endswith(" name: ") else inner


@pytest.mark.parametrize("name,code,how", CASES, ids=[c[0] for c in CASES])
def test_misuse_raises_what_tensorflow_raises(name, code, how):
    want = RECORDED[name]
    assert want["how"] == how, "fixture out of date: rerun tools/record_errors.py"
    if "stdout" in want:
        assert _run(code) == want["stdout"]
        return
    with pytest.raises(Exception) as info:
        _run(code)
    err = info.value
    assert type(err) is _expected_class(want), f"{type(err).__name__}: {err}"
    got = _without_hint(str(err))
    if how == "exact":
        assert got == want["message"]
    elif how == "first_line":
        assert got.split("\n")[0] == want["message"].split("\n")[0]
    elif how == "keras":
        assert got.split("\n")[0] == want["message"].split("\n")[0]
        assert _bold(got).split("\n")[0] == _bold(want["message"]).split("\n")[0]
    else:  # TensorFlow's text is accidental; tapeflow's (hint included) names the argument
        arg = how.split(":", 1)[1]
        assert f"`{arg}`" in str(err) or f"{arg}[" in str(err) or f"{arg} " in str(err), err


# ------------------------------------------- where tapeflow refuses what TensorFlow lets by


def test_output_gradients_of_another_count_than_the_targets_is_refused():
    # TensorFlow zips them and silently drops the extra ones (a wrong answer, quietly).
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, z = x * x, x + 1.0
    with pytest.raises(ValueError, match=r"output_gradients \(1\) must match .* \(2\)"):
        tape.gradient([y, z], x, output_gradients=[tf.ones(2)])


def test_a_refused_call_does_not_use_up_the_tape():
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x, axis=1)
    with pytest.raises(ValueError, match="rank at least 2"):
        tape.batch_jacobian(y, x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[2.0, 4.0]])


def test_non_tensor_target_keeps_tensorflows_first_line_and_names_the_argument():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    with pytest.raises(AttributeError) as info:
        tape.gradient(3.0, x)
    first, hint = str(info.value).split("\n")
    assert first == "'float' object has no attribute 'dtype'"
    assert hint.startswith("Hint: `target` of GradientTape.gradient must be Tensors")


def test_optimizer_apply_refuses_lists_of_different_lengths():
    v = tf.Variable(tf.ones((2, 2)))
    with pytest.raises(ValueError, match="`grads` and `trainable_variables` .* 1 and 2"):
        tf.keras.optimizers.SGD(0.1).apply([tf.ones((2, 2))], [v, v])
    np.testing.assert_array_equal(v.numpy(), np.ones((2, 2)))


def test_optimizer_gradient_shape_error_leaves_the_variable_unchanged():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    opt = tf.keras.optimizers.Adam(0.1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \[2,2\].*shape \[2\]"):
        opt.apply_gradients([(tf.ones((2,)), v)])
    np.testing.assert_array_equal(v.numpy(), [[1.0, 2.0], [3.0, 4.0]])
    assert int(opt.iterations) == 0


# ------------------------------------------------------------- InputSpec for new layers


class _Pairs(tf.keras.layers.Layer):
    """A layer written the Keras 3 way: it states what it accepts in ``input_spec``."""

    def __init__(self):
        super().__init__()
        self.input_spec = tf.keras.layers.InputSpec(ndim=3, axes={-1: 2}, dtype="float32")

    def call(self, x):
        return tf.reduce_sum(x, axis=-1)


def test_a_layers_input_spec_checks_rank_axis_and_dtype_before_call():
    layer = _Pairs()
    np.testing.assert_allclose(layer(tf.ones((1, 3, 2))).numpy(), [[2.0, 2.0, 2.0]])
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
        layer(tf.ones((3, 2)))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 2"):
        layer(tf.ones((1, 3, 4)))
    with pytest.raises(ValueError, match="expected dtype=float32, found dtype=int32"):
        layer(tf.ones((1, 3, 2), dtype=tf.int32))


def test_keras_call_report_is_added_once_by_the_innermost_layer():
    class Inner(tf.keras.layers.Layer):
        def call(self, x):
            raise KeyError("missing")

    class Outer(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def call(self, x):
            return self.inner(x)

    with pytest.raises(KeyError) as info:
        Outer()(tf.ones((2,)))
    text = info.value.args[0]
    assert text.startswith("Exception encountered when calling Inner.call().")
    assert text.count("Exception encountered") == 1
    assert "x=tf.Tensor(shape=(2,), dtype=float32)" in text


def test_argument_validation_names_the_argument():
    from tapeflow.keras.utils.argument_validation import standardize_padding, standardize_tuple
    assert standardize_tuple((2, 3), 2, "strides") == (2, 3)
    assert standardize_tuple(0, 2, "strides", allow_zero=True) == (0, 0)
    with pytest.raises(ValueError, match=r"`dilation_rate` argument must be a tuple of 2"):
        standardize_tuple((1, "a"), 2, "dilation_rate")
    assert standardize_padding("SAME") == "same"
    with pytest.raises(ValueError, match="or one of {'valid', 'same', 'causal'}"):
        standardize_padding("full", allow_causal=True)
