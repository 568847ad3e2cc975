"""``tf.variable_creator_scope``: the creator chain as TensorFlow 2.21 runs it (values recorded
by ``tools/record_variable_creator.py`` from ``variable_creator_cases.py``)."""
import json
import os

import pytest

import tapeflow as tf
from tapeflow import keras
from tapeflow._core import variable as _variable
from tests.core.variable_creator_cases import CASES, run_case

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "core",
                       "variable_creator.json")
with open(FIXTURE) as fh:
    TF = json.load(fh)["cases"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    got = run_case(name, tf, keras)
    assert got == TF[name]


def test_scope_is_left_on_error_and_stack_restored():
    def boom(next_creator, **kwargs):
        raise RuntimeError("creator failed")

    with pytest.raises(RuntimeError, match="creator failed"):
        with tf.variable_creator_scope(boom):
            tf.Variable(1.0)
    assert _variable._creators.stack == []
    assert not _variable._MADE
    v = tf.Variable(2.0)
    assert float(v.numpy()) == 2.0


def test_created_variable_is_trainable_and_differentiable():
    def passthrough(next_creator, **kwargs):
        return next_creator(**kwargs)

    with tf.variable_creator_scope(passthrough):
        v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = v * v
    assert float(tape.gradient(y, v)) == 6.0
    assert v.trainable
