"""jacobian, batch_jacobian, jvp, HVP and compute_gradient against numbers TensorFlow 2.21
recorded (tools/record_core_autodiff.py), in float32 as TensorFlow computed them."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf

_FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "core", "autodiff.json")
with open(_FIXTURE) as _fh:
    TF = json.load(_fh)

W = np.array(TF["W"], np.float32)
B = np.array(TF["B"], np.float32)
X = np.array(TF["X"], np.float32)
XB = np.array(TF["XB"], np.float32)
V = np.array(TF["V"], np.float32)


def dense(x):
    return tf.tanh(tf.squeeze(tf.matmul(tf.constant(W), tf.expand_dims(x, 1)), 1) + B)


@pytest.mark.parametrize("use_pfor", [True, False])
def test_jacobian_as_tensorflow(use_pfor):
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = dense(x)
    jac = tape.jacobian(y, x, experimental_use_pfor=use_pfor)
    assert jac.dtype == tf.float32
    # Row 0 is near tanh's saturation, where 1 - y^2 amplifies the last-bit difference
    # between NumPy's and Eigen's float32 tanh: an absolute tolerance covers it.
    np.testing.assert_allclose(jac.numpy(), TF["jacobian"], rtol=2e-6, atol=1e-6)


def test_batch_jacobian_of_softmax_as_tensorflow():
    xb = tf.constant(XB)
    with tf.GradientTape() as tape:
        tape.watch(xb)
        yb = tf.nn.softmax(tf.matmul(xb, tf.constant(W), transpose_b=True))
    np.testing.assert_allclose(tape.batch_jacobian(yb, xb).numpy(),
                               TF["batch_jacobian_softmax"], rtol=2e-5, atol=1e-7)


def test_jvp_and_forward_over_reverse_hvp_as_tensorflow():
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = dense(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), TF["jvp"], rtol=2e-6, atol=1e-6)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.sigmoid(dense(x)) ** 2)
        g = tape.gradient(loss, x)
    np.testing.assert_allclose(acc.jvp(g).numpy(), TF["hvp"], rtol=2e-5, atol=1e-6)


def test_compute_gradient_as_tensorflow_two_arguments():
    theoretical, numerical = tf.test.compute_gradient(
        lambda a, b: tf.reduce_prod(a) * tf.sin(b), [X, np.float32(0.3) * V])
    for mine, theirs in zip(theoretical, TF["compute_gradient"]["theoretical"]):
        assert mine.dtype == np.float32
        np.testing.assert_allclose(mine, theirs, rtol=2e-6, atol=1e-7)
    for mine, theirs in zip(numerical, TF["compute_gradient"]["numerical"]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-3, atol=1e-4)
