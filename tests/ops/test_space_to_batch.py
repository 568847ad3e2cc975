"""``tf.space_to_batch_nd``, ``tf.batch_to_space`` and their aliases against TF 2.21.

Each case of ``tests/fixtures/ops/space_to_batch.json`` (``tools/record_space_to_batch.py``)
is a few lines of a TF program run here with ``tf`` bound to tapeflow: values over dtypes,
ranks, paddings, crops and size-0 axes, gradients, and TensorFlow's error class and first
message line. Gradients and forward mode are checked by float64 finite differences too.
"""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core import gradcheck
from tests.ops.test_tf_regressions import _compare

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "ops", "space_to_batch.json")
with open(FIXTURE) as _f:
    DATA = json.load(_f)
CASES = DATA["cases"]


def _run(src):
    env = {"tf": tf, "np": np}
    exec(DATA["prelude"], env)  # noqa: S102 - the fixture's own case text
    exec(src, env)  # noqa: S102
    return env["out"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_tensorflow(case):
    if "error" in case:
        cls, line = case["error"]
        with pytest.raises(Exception) as info:
            _run(case["src"])
        assert type(info.value).__name__ == cls, f"{type(info.value).__name__}: {info.value}"
        assert line in str(info.value)
        return
    _compare(_run(case["src"]), case["out"], case["name"])


def test_fixture_covers_values_gradients_and_errors():
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
    assert sum("error" in c for c in CASES) >= 20
    assert sum(n.startswith(("s2b_grad", "b2s_grad")) for n in names) >= 15


@pytest.mark.parametrize("block, pads, shape", [
    ([2, 3], [[1, 1], [1, 2]], (2, 4, 6, 2)),
    ([3], [[2, 1]], (1, 3, 2)),
    ([2, 1, 2], [[0, 0], [1, 0], [1, 1]], (1, 2, 3, 2, 1)),
])
def test_finite_differences(block, pads, shape):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=shape))
    s2b = lambda v: tf.space_to_batch_nd(v, block, pads)  # noqa: E731
    gradcheck.check_gradients(s2b, [x], order=2)
    y = tf.constant(rng.normal(size=s2b(x).shape))
    b2s = lambda v: tf.batch_to_space(v, block, pads)  # noqa: E731
    gradcheck.check_gradients(b2s, [y], order=2)
    # the two are a linear map and its transpose: <s2b(x), y> == <x, b2s(y)>
    np.testing.assert_allclose(tf.reduce_sum(s2b(x) * y), tf.reduce_sum(x * b2s(y)), rtol=1e-12)


def test_forward_mode_matches_the_op_on_the_tangent():
    x = tf.constant(np.arange(24.).reshape(1, 4, 6, 1))
    t = tf.constant(np.random.default_rng(2).normal(size=(1, 4, 6, 1)))
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.space_to_batch_nd(x, [2, 3], [[0, 0], [0, 0]])
    np.testing.assert_array_equal(acc.jvp(y), tf.space_to_batch_nd(t, [2, 3], [[0, 0], [0, 0]]))


def test_traced_relaxed_sizes_check_each_call():
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.space_to_batch_nd(x, [2], [[1, 0]])
    f(tf.zeros([1, 3, 1]))
    assert f(tf.ones([2, 5, 1])).shape == (4, 3, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="padded_shape"):
        f(tf.ones([1, 4, 1]))


# ------------------------------------------------- tf.nn.convolution with dilations (issue 19)


@pytest.mark.parametrize("padding", ["SAME", "VALID", [[0, 0], [2, 1], [0, 3], [0, 0]]])
def test_dilated_convolution_is_the_dilated_kernel_in_float64(padding):
    """Through space_to_batch_nd it computes what conv2d's dilated kernel computes."""
    rng = np.random.default_rng(3)
    x = tf.constant(rng.normal(size=(2, 7, 9, 3)))
    w = tf.constant(rng.normal(size=(3, 2, 3, 2)))
    got = tf.nn.convolution(x, w, padding=padding, dilations=[2, 3])
    want = tf.nn.conv2d(x, w, 1, padding, dilations=[2, 3])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    gradcheck.check_gradients(
        lambda x, w: tf.nn.convolution(x, w, padding=padding, dilations=[2, 3]), [x, w])


def test_dilated_convolution_traced_with_relaxed_sizes():
    """The padding to a multiple of the block depends on the input's size: a trace with
    relaxed shapes computes each call's (as eager execution does)."""
    rng = np.random.default_rng(4)
    w = tf.constant(rng.normal(size=(3, 3, 1, 2)))
    f = tf.function(lambda x: tf.nn.convolution(x, w, padding="SAME", dilations=2),
                    reduce_retracing=True)
    for size in (5, 6, 8, 7):
        x = tf.constant(rng.normal(size=(1, size, size + 1, 1)))
        np.testing.assert_allclose(f(x), tf.nn.conv2d(x, w, 1, "SAME", dilations=2),
                                   rtol=1e-12, atol=1e-12)
