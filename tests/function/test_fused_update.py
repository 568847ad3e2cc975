"""The fused SGD update of compiled programs (``function/blas.py``): ``w -= lr * (a @ b)`` as
one BLAS call into the variable, checked against float64 NumPy, against eager execution, and
for the eager in-place rule (a value read before the update keeps its old value)."""
import itertools
import operator
import os
import weakref

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.function import blas

# Under the soundness switch each replay's check holds the variables' old values (to compare
# with an eager run from them), so every update takes NumPy's path, never the in-place call.
VALIDATING = os.environ.get("TAPEFLOW_VALIDATE_FUNCTIONS", "") not in ("", "0", "false")
pytestmark = pytest.mark.skipif(not blas.gemm_available(),
                                reason="NumPy's BLAS was not found: nothing is fused")


def _operand(rng, shape, dtype, fortran):
    x = rng.standard_normal(shape).astype(dtype)
    return np.asfortranarray(x) if fortran else x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ta,tb,fa,fb", list(itertools.product([False, True], repeat=4)))
def test_gemm_update_equals_the_product_in_float64(dtype, ta, tb, fa, fb):
    rng = np.random.default_rng(1)
    a = _operand(rng, (7, 5) if ta else (5, 7), dtype, fa)
    b = _operand(rng, (9, 7) if tb else (7, 9), dtype, fb)
    w0 = rng.standard_normal((5, 9)).astype(dtype)
    v = tf.Variable(w0)
    before = weakref.ref(v._value)                 # (a reference would block the fusion)
    blas.gemm_update(v, a, ta, b, tb, dtype(0.25), True, np.subtract, operator.sub)
    f64 = [x.astype(np.float64) for x in (a, b, w0)]
    want = f64[2] - 0.25 * ((f64[0].T if ta else f64[0]) @ (f64[1].T if tb else f64[1]))
    assert v._value is before()                     # in place: one BLAS call into the array
    tol = 1e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(v.numpy(), want, rtol=tol, atol=tol)


def test_gemm_update_adds_with_the_learning_rate_on_either_side():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 6))
    w0 = rng.standard_normal((4, 6))
    for lr_left in (True, False):
        v = tf.Variable(w0)
        blas.gemm_update(v, a, False, b, False, np.float64(-0.5), lr_left, np.add, operator.add)
        np.testing.assert_allclose(v.numpy(), w0 - 0.5 * (a @ b), rtol=1e-14)


def test_a_value_held_elsewhere_keeps_its_old_value():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 6))
    w0 = rng.standard_normal((4, 6))
    v = tf.Variable(w0)
    held = v._value
    blas.gemm_update(v, a, False, b, False, 0.5, True, np.subtract, operator.sub)
    np.testing.assert_array_equal(held, w0)
    assert v._value is not held
    np.testing.assert_array_equal(v.numpy(), w0 - 0.5 * (a @ b))   # NumPy's own rounding


def test_operands_blas_cannot_read_take_numpys_path():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((4, 6)).astype(np.float32)[:, ::2]     # strided: not for BLAS
    b = rng.standard_normal((3, 5)).astype(np.float32)
    w0 = rng.standard_normal((4, 5)).astype(np.float32)
    v = tf.Variable(w0)
    blas.gemm_update(v, a, False, b, False, np.float32(0.1), True, np.subtract, operator.sub)
    np.testing.assert_array_equal(v.numpy(), w0 - np.float32(0.1) * (a @ b))


def _mlp_step(params):
    W0, b0, W1, b1 = params

    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, W0) + b0)
            logits = tf.matmul(h, W1) + b1
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        for v, g in zip(params, tape.gradient(loss, params)):
            v.assign_sub(0.1 * g)
        return loss
    return step


def _train(compiled, steps=6):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((32, 64)).astype(np.float32)
    y = rng.integers(0, 10, 32).astype(np.int32)
    params = [tf.Variable(rng.standard_normal(s).astype(np.float32) * 0.1)
              for s in ((64, 128), (128,), (128, 10), (10,))]
    step = _mlp_step(params)
    f = tf.function(step) if compiled else step
    losses = [float(f(x, y)) for _ in range(steps)]
    return f, losses, [p.numpy() for p in params]


def test_a_compiled_sgd_step_fuses_the_dense_update():
    f, losses, params = _train(True)
    source = f.get_concrete_function(tf.TensorSpec([32, 64]), tf.TensorSpec([32], tf.int32)).source
    assert "_gemm(" in source                       # the 64x128 weight: one BLAS call
    _, eager_losses, eager_params = _train(False)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-6)
    for ours, theirs in zip(params, eager_params):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-7)


def test_without_the_fusion_a_compiled_step_rounds_exactly_as_eager(monkeypatch):
    monkeypatch.setattr(blas, "_GEMM", {})          # as TAPEFLOW_FUSED_GEMM=0 leaves it
    _, losses, params = _train(True)
    _, eager_losses, eager_params = _train(False)
    assert losses == eager_losses
    for ours, theirs in zip(params, eager_params):
        np.testing.assert_array_equal(ours, theirs)


def test_a_value_read_before_a_fused_update_keeps_its_value():
    rng = np.random.default_rng(6)
    w0 = rng.standard_normal((64, 128)).astype(np.float32)
    w = tf.Variable(w0)
    a = rng.standard_normal((16, 64)).astype(np.float32)
    b = rng.standard_normal((16, 128)).astype(np.float32)

    @tf.function
    def step(a, b):
        old = w.read_value()
        w.assign_sub(0.5 * tf.matmul(a, b, transpose_a=True))
        return old

    expected = w0
    for _ in range(3):
        old = step(a, b)
        np.testing.assert_array_equal(old.numpy(), expected)
        new = expected - np.float32(0.5) * (a.T @ b)
        np.testing.assert_allclose(w.numpy(), new, rtol=1e-5, atol=1e-6)
        expected = w.numpy().copy()


def _keras_fit(run_eagerly):
    rng = np.random.default_rng(7)
    x = rng.random((96, 64), dtype=np.float32)
    y = rng.integers(0, 10, 96)
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((64,)),
                                 tf.keras.layers.Dense(128, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), run_eagerly=run_eagerly,
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=32, epochs=2, verbose=0)
    return history.history["loss"], [w.numpy() for w in model.weights]


def test_keras_sgd_fit_takes_the_fused_update(monkeypatch):
    calls = []
    fused = blas._gemm
    monkeypatch.setattr(blas, "_gemm", lambda *args: calls.append(args[1].shape) or fused(*args))
    losses, weights = _keras_fit(run_eagerly=False)
    if not VALIDATING:
        assert calls and set(calls) == {(64, 128)}  # the 64x128 kernel; the others are small
    eager_losses, eager_weights = _keras_fit(run_eagerly=True)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-6)
    for ours, theirs in zip(weights, eager_weights):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-7)
