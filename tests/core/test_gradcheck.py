"""The shipped finite-difference checker (``src/tapeflow/_core/gradcheck.py``): the public
``tf.test.compute_gradient`` and ``tf.test.check_gradients``, and the private checks every
test of the suite runs through (``_check_vjp``, ``_check_jvp``, ``_check_jacobian``,
``_check_second_order``). Each passes a right rule and catches a wrong one, for real and
complex arguments."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core import gradcheck as gc
from tapeflow._core.dispatch import apply
from tapeflow._core.registry import Primitive, defvjp


def _sin_with(rule):
    # An unregistered primitive, so the op table stays as it is. With no forward rule,
    # forward mode differentiates the reverse one: a wrong rule is wrong in both modes.
    prim = defvjp(Primitive("Sin", np.sin), rule)
    return lambda x: apply(prim, (x,))


RIGHT = _sin_with(lambda g, y, x: g * tf.cos(x))
SCALED = _sin_with(lambda g, y, x: g * tf.cos(x) * 1.0001)
FLAT = _sin_with(lambda g, y, x: g * tf.stop_gradient(tf.cos(x)))

ARGS = [np.linspace(-1.0, 1.0, 6).reshape(2, 3)]


def _exp_with(rule):
    # A complex exp whose rule is TensorFlow's (conj(exp(z)) * g) or a wrong one.
    prim = defvjp(Primitive("Exp", np.exp), rule)
    return lambda z: apply(prim, (z,))


C_RIGHT = _exp_with(lambda g, y, x: g * tf.math.conj(tf.exp(x)))
C_UNCONJUGATED = _exp_with(lambda g, y, x: g * tf.exp(x))  # misses TensorFlow's conjugate
C_ARGS = [np.array([[0.3 + 0.4j, -0.2 + 1.1j], [0.5 - 0.7j, 1.0 + 0.0j]])]


def test_right_rule_passes_all_checks():
    rng = np.random.default_rng(0)
    assert "Sin" in gc._check_vjp(RIGHT, ARGS, rng)
    gc._check_jacobian(RIGHT, ARGS)
    gc._check_jvp(RIGHT, ARGS, rng)
    assert "Cos" in gc._check_second_order(RIGHT, ARGS, rng)


def test_first_order_check_catches_a_rule_off_by_one_in_ten_thousand():
    with pytest.raises(AssertionError, match="finite differences"):
        gc._check_vjp(SCALED, ARGS, np.random.default_rng(0))


def test_jvp_check_catches_a_forward_rule_off_by_one_in_ten_thousand():
    with pytest.raises(AssertionError, match="tangent of output 0"):
        gc._check_jvp(SCALED, ARGS, np.random.default_rng(0))


def test_jacobian_check_catches_a_wrong_rule():
    with pytest.raises(AssertionError, match="Jacobian"):
        gc._check_jacobian(SCALED, ARGS)


def test_jacobian_check_catches_a_wrong_jacobian_shape():
    # A rule whose gradient has the right size but the wrong shape.
    prim = defvjp(Primitive("Sin", np.sin), lambda g, y, x: tf.reshape(
        tf.transpose(g * tf.cos(x)), x.shape))
    with pytest.raises(AssertionError):
        gc._check_jacobian(lambda x: apply(prim, (x,)), ARGS)


def test_second_order_check_catches_a_rule_that_is_not_differentiable():
    rng = np.random.default_rng(0)
    gc._check_vjp(FLAT, ARGS, rng)
    with pytest.raises(AssertionError, match="finite differences"):
        gc._check_second_order(FLAT, ARGS, rng)


def test_skipped_arguments_are_not_moved():
    # d/dy is wrong (the rule gives nothing), but y is skipped: the check passes.
    def f(x, y):
        return tf.sin(x) * tf.stop_gradient(y)

    args = [ARGS[0], ARGS[0] + 1.0]
    gc._check_vjp(f, args, np.random.default_rng(0), skip=(1,))
    with pytest.raises(AssertionError, match="finite differences"):
        gc._check_vjp(f, args, np.random.default_rng(0))


def test_complex_arguments_follow_tensorflows_convention():
    rng = np.random.default_rng(1)
    gc._check_vjp(C_RIGHT, C_ARGS, rng)
    gc._check_jacobian(C_RIGHT, C_ARGS)
    gc._check_second_order(C_RIGHT, C_ARGS, rng)
    with pytest.raises(AssertionError, match="finite differences"):
        gc._check_vjp(C_UNCONJUGATED, C_ARGS, np.random.default_rng(1))
    with pytest.raises(AssertionError, match="Jacobian"):
        gc._check_jacobian(C_UNCONJUGATED, C_ARGS)


def test_assert_close_rules():
    gc._assert_close(1.0 + 5e-8, 1.0, 1e-7, 0.0, "x")
    gc._assert_close(1e-3 + 5e-8, 1e-3, 1e-7, 0.0, "x")  # floor 1: scaled as 1
    with pytest.raises(AssertionError, match="1 of 1 off"):
        gc._assert_close(1e-3 + 5e-8, 1e-3, 1e-7, 0.0, "x", floor=0.0)
    gc._assert_close([np.nan, 2.0], [np.nan, 2.0], 0.0, 0.0, "x")
    with pytest.raises(AssertionError, match="shape"):
        gc._assert_close([1.0], [1.0, 1.0], 1.0, 1.0, "x")


def test_shipped_compute_gradient_passes_a_right_rule_to_the_op_table_tolerance():
    theoretical, numerical = tf.test.compute_gradient(RIGHT, ARGS, delta=1e-6)
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-7, atol=1e-8)
    assert theoretical[0].shape == numerical[0].shape == (6, 6)


def test_shipped_compute_gradient_catches_a_rule_off_by_one_in_ten_thousand():
    theoretical, numerical = tf.test.compute_gradient(SCALED, ARGS, delta=1e-6)
    with pytest.raises(AssertionError):
        np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-5, atol=1e-8)


def test_shipped_compute_gradient_on_complex_values_as_tensorflow():
    # Recorded with TensorFlow 2.21: tf.test.compute_gradient(lambda z: z * z,
    # [tf.constant([1+2j, 0.5-1j], tf.complex128)]): each complex element is two reals.
    want = np.array([[2.0, -4.0, 0.0, 0.0], [4.0, 2.0, 0.0, 0.0],
                     [0.0, 0.0, 1.0, 2.0], [0.0, 0.0, -2.0, 1.0]])
    theoretical, numerical = tf.test.compute_gradient(
        lambda z: z * z, [tf.constant([1 + 2j, 0.5 - 1j], tf.complex128)])
    assert theoretical[0].dtype == numerical[0].dtype == np.float64
    np.testing.assert_array_equal(theoretical[0], want)
    np.testing.assert_allclose(numerical[0], want, rtol=1e-6)
    # |z| at 1+2j: a real output, a complex argument (TF: [[0.4472136, 0.89442719]])
    theoretical, _ = tf.test.compute_gradient(tf.math.abs, [tf.constant([1 + 2j])])
    np.testing.assert_allclose(theoretical[0], [[0.4472136, 0.89442719]], rtol=1e-7)


def test_shipped_compute_gradient_jacobians_are_in_the_arguments_real_dtype():
    # As TensorFlow 2.21: float32 argument, float64 output -> float32 matrices, and back.
    for src, dst in ((tf.float32, tf.float64), (tf.float64, tf.float32)):
        theoretical, numerical = tf.test.compute_gradient(
            lambda x, d=dst: tf.cast(x, d) * 2.0, [tf.constant([1.0], src)])
        assert theoretical[0].dtype == numerical[0].dtype == src.as_numpy_dtype


def test_shipped_check_gradients_passes_right_and_catches_wrong_rules():
    tf.test.check_gradients(RIGHT, ARGS, order=2, modes=("rev",))
    with pytest.raises(AssertionError, match="central differences"):
        tf.test.check_gradients(SCALED, ARGS, order=1, modes=("rev",))
    tf.test.check_gradients(FLAT, ARGS, order=1, modes=("rev",))
    with pytest.raises(AssertionError, match="order 2"):
        tf.test.check_gradients(FLAT, ARGS, order=2, modes=("rev",))
