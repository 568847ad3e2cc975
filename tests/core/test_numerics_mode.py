"""``tf.debugging.enable_check_numerics`` / ``disable_check_numerics``: outcomes and messages
recorded from TensorFlow 2.21 (``tools/record_check_numerics.py``)."""
import json
import os
import re

import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core import dispatch, numerics_mode
from tapeflow.ops import math_ops
from tests.core.check_numerics_cases import CASES, run_case

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "core",
                       "check_numerics.json")
with open(FIXTURE) as fh:
    TF = json.load(fh)

_PLACEMENT = re.compile(r"^\{\{function_node [^}]*\}\} ")

# Where tapeflow differs, and why (checked: the difference must be exactly this):
# - variable_unchecked: TF reads a variable's value with a ReadVariableOp, which is checked;
#   tapeflow's variable read is no op.
KNOWN = {"variable_unchecked": "OK"}


@pytest.fixture
def checking():
    tf.debugging.enable_check_numerics()
    try:
        yield
    finally:
        tf.debugging.disable_check_numerics()


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_tensorflow(checking, name):
    want_cls, want_text = TF["eager"][name]
    got_cls, got_text = run_case(name, tf, np)
    if name in KNOWN:
        assert want_cls == "InvalidArgumentError" and got_cls == KNOWN[name]
        return
    assert got_cls == want_cls
    assert got_text == _PLACEMENT.sub("", want_text)


def test_exception_class_is_tf_errors(checking):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.math.log(tf.constant([0.0]))
    assert isinstance(info.value, tf.errors.OpError)


def test_function_raises_graph_form(checking):
    @tf.function
    def f(a):
        b = a * 2.0
        return tf.math.log(b)

    assert str(f(tf.constant([1.0, 2.0]))) == TF["function"]["finite"]
    want_cls, want = TF["function"]["error"]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([1.0, 0.0]))   # the trace of this shape exists: a replay
    got = str(info.value)
    assert type(info.value).__name__ == want_cls
    assert got.splitlines()[0] == want.splitlines()[0] == "Graph execution error:"
    for line in ('!!! Detected Infinity or NaN in output 0 of graph op "Log" (# of outputs: '
                 '1) !!!', "  dtype: <dtype: 'float32'>", "  shape: (2,)",
                 '  Graph name: "f"', " : Tensor had -Inf values"):
        assert line in want and line in got


def test_function_first_trace_raises_with_symbolic_inputs(checking):
    @tf.function
    def g(a):
        return tf.math.log(a * 2.0)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        g(tf.constant([3.0, 0.0]))
    text = str(info.value)
    assert 'Input tensor: Tensor("mul:0", shape=(2,), dtype=float32)' in text
    assert '  Graph name: "g"' in text and text.startswith("Graph execution error:")


def test_disable_restores_and_is_idempotent():
    before = dispatch.record
    active = dispatch.ACTIVE[0]
    tf.debugging.enable_check_numerics()
    tf.debugging.enable_check_numerics()
    assert dispatch.ACTIVE[0] == active + 1
    assert math_ops.record is not before
    tf.debugging.disable_check_numerics()
    tf.debugging.disable_check_numerics()
    assert dispatch.record is before and math_ops.record is before
    assert dispatch.ACTIVE[0] == active
    assert not numerics_mode.enabled()
    assert run_case("log_zero", tf, np) == TF["after_disable"]


def test_gradients_are_checked_and_tapes_still_work(checking):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert float(tape.gradient(y, x)) == 4.0
    x0 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.sqrt(x0)
    # TF names its SqrtGrad kernel: d sqrt(x)/dx at 0 is 0.5 / sqrt(0) = inf
    with pytest.raises(tf.errors.InvalidArgumentError, match="op \"SqrtGrad\""):
        tape.gradient(y, x0)
