"""``tf.graph_util.import_graph_def``: into a ``tf.Graph`` as data, and run inside a
``tf.function`` through the SavedModel loader's op interpreter (values recorded from
TensorFlow 2.21 by ``tools/record_import_graph_def.py``)."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow import _protobuf as pb
from tests.function.import_graph_def_cases import CASES, run_case

HERE = os.path.dirname(__file__)
FIXTURE = os.path.join(HERE, "..", "fixtures", "function", "import_graph_def.json")
SAVED = os.path.join(HERE, "..", "fixtures", "saved_model", "keras_mlp", "saved_model.pb")
with open(FIXTURE) as fh:
    TF = json.load(fh)["cases"]


@pytest.fixture(scope="module")
def saved_graph_def():
    with open(SAVED, "rb") as fh:
        return pb.decode("tensorflow.SavedModel", fh.read()).meta_graphs[0].graph_def


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, saved_graph_def):
    got = run_case(name, tf, np, saved_graph_def)
    want = TF[name]
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        assert got[key] == value, key


def test_gradient_matches_finite_differences():
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.tanh(x * x + 1.0))

    gd = f.get_concrete_function(tf.TensorSpec([3], tf.float64)).graph.as_graph_def()

    @tf.function
    def g(x):
        res, = tf.graph_util.import_graph_def(gd, input_map={"x:0": x},
                                              return_elements=["Identity:0"])
        return res

    x0 = np.array([0.3, -0.7, 1.1])
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    got = tape.gradient(y, x).numpy()
    eps = 1e-6
    fd = [(np.sum(np.tanh((x0 + eps * e) ** 2 + 1)) - np.sum(np.tanh((x0 - eps * e) ** 2 + 1)))
          / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(got, fd, rtol=1e-6)
    np.testing.assert_allclose(float(y), np.sum(np.tanh(x0 ** 2 + 1)), rtol=1e-12)


def test_unfed_placeholder_in_function_raises_feed_error():
    @tf.function
    def f(x, y):
        return x + y

    gd = f.get_concrete_function(tf.TensorSpec([2]), tf.TensorSpec([2])).graph.as_graph_def()

    @tf.function
    def g(x):
        res, = tf.graph_util.import_graph_def(gd, input_map={"x:0": x},
                                              return_elements=["Identity:0"])
        return res

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="You must feed a value for placeholder tensor 'import/y' "
                             "with dtype float and shape \\[2\\]"):
        g(tf.constant([1.0, 2.0]))


def test_graph_round_trip_keeps_attrs():
    @tf.function
    def f(x):
        return tf.reduce_mean(x, axis=1, keepdims=True)

    gd = f.get_concrete_function(tf.TensorSpec([2, 3])).graph.as_graph_def()
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(gd, name="")
    again = g.as_graph_def()
    assert [n.name for n in again.node] == [n.name for n in gd.node]
    assert [str(n) for n in again.node] == [str(n) for n in gd.node]
    assert str(g.get_tensor_by_name("Mean:0")) == \
        'Tensor("Mean:0", shape=(2, 1), dtype=float32)'
