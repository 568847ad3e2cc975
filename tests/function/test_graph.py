"""``tf.Graph``: graphs built under ``Graph.as_default()`` and ``ConcreteFunction.graph`` read
as TensorFlow 2.21 shows them (fixtures recorded by ``tools/record_graph.py`` from
``graph_cases.py``)."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.function.graph_cases import CASES, run_case
from tests.function.graph_guide_funcs import observe

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "function", "graph.json")
with open(FIXTURE) as fh:
    _RECORDED = json.load(fh)
TF = _RECORDED["cases"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    got = run_case(name, tf)
    want = TF[name]
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        assert got[key] == value, key


def test_graph_ops_compute_nothing_visible_and_eager_resumes():
    v = tf.Variable(1.0)
    g = tf.Graph()
    with g.as_default():
        v.assign_add(5.0)   # a graph op: nothing runs in TF until a session does
        x = tf.constant([1.0, 2.0]) * 2.0
        assert not tf.executing_eagerly()
    assert tf.executing_eagerly()
    assert float(v.numpy()) == 1.0
    assert isinstance(x, tf.Tensor)
    # eager code after the block is plain eager code again
    y = tf.constant([1.0, 2.0]) * 2.0
    np.testing.assert_array_equal(y.numpy(), [2.0, 4.0])


def test_default_graph_stack_is_per_block():
    from tapeflow.function.graph import get_default_graph
    g1, g2 = tf.Graph(), tf.Graph()
    assert get_default_graph() is None
    with g1.as_default():
        a = tf.constant(1.0) + 1.0
        with g2.as_default():
            assert get_default_graph() is g2
        assert get_default_graph() is g1
    assert get_default_graph() is None
    assert a.graph is g1
    assert [op.type for op in g1.get_operations()] == ["Const", "Const", "AddV2"]


def test_finalized_graph_refuses_ops():
    g = tf.Graph()
    g.finalize()
    with g.as_default():
        with pytest.raises(RuntimeError, match="finalized"):
            tf.constant(1.0) * 2.0


def test_as_graph_def_tracks_new_ops():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0)
    assert len(g.as_graph_def().node) == 1
    with g.as_default():
        tf.square(a)
    assert [n.op for n in g.as_graph_def().node] == ["Const", "Square"]
    assert g.get_operation_by_name("Square").inputs[0].name == "Const:0"


def test_function_guide_graph_cells_match_tensorflow():
    got = observe(tf)
    want = _RECORDED["guide"]
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        assert got[key] == value, key


def test_as_graph_element_and_name_scope():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant([1.0, 2.0])
        b = a * 3.0
        with tf.name_scope("outer"):
            with tf.name_scope("inner"):
                assert g.get_name_scope() == "outer/inner"
    assert g.as_graph_element("mul:0") is b
    assert g.as_graph_element("mul").type == "Mul"
    assert g.as_graph_element(b) is b
    with pytest.raises(ValueError):
        g.as_graph_element("mul:0", allow_tensor=False)
    with pytest.raises(KeyError):
        g.as_graph_element("nope")
    with pytest.raises(TypeError):
        g.as_graph_element(3)


def test_check_numerics_does_not_run_a_graph():
    """TF 2.21 under ``tf.debugging.enable_check_numerics()`` builds a ``tf.Graph`` whose ops
    would make NaNs (a log of -1, a NaN variable) without an error: nothing runs in a graph
    (TF adds CheckNumericsV2 nodes instead); the same ops eagerly raise."""
    tf.debugging.enable_check_numerics()
    try:
        g = tf.Graph()
        with g.as_default():
            w = tf.Variable([1.0, np.nan])
            y = tf.math.log(tf.constant([1.0, -1.0]))
            z = y + w
        assert z.shape == (2,) and "Log" in [op.type for op in g.get_operations()]
        with pytest.raises(tf.errors.InvalidArgumentError, match='op "Log"'):
            tf.math.log(tf.constant([1.0, -1.0]))
    finally:
        tf.debugging.disable_check_numerics()
