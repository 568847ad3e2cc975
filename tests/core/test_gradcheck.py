"""The finite-difference checkers themselves (the tests' random-direction checks and the shipped
``tf.test.compute_gradient`` / ``tf.test.check_gradients``): they pass right rules and catch
wrong ones."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core.dispatch import apply
from tapeflow._core.registry import Primitive, defvjp
from tests.core.gradcheck import check_jacobian, check_second_order, check_vjp


def _sin_with(rule):
    # An unregistered primitive, so the op table stays as it is.
    prim = defvjp(Primitive("Sin", np.sin), rule)
    return lambda x: apply(prim, (x,))


RIGHT = _sin_with(lambda g, y, x: g * tf.cos(x))
SCALED = _sin_with(lambda g, y, x: g * tf.cos(x) * 1.0001)
FLAT = _sin_with(lambda g, y, x: g * tf.stop_gradient(tf.cos(x)))

ARGS = [np.linspace(-1.0, 1.0, 6).reshape(2, 3)]


def test_right_rule_passes_all_checks():
    rng = np.random.default_rng(0)
    check_vjp(RIGHT, ARGS, rng)
    check_jacobian(RIGHT, ARGS)
    check_second_order(RIGHT, ARGS, rng)


def test_first_order_check_catches_a_rule_off_by_one_in_ten_thousand():
    with pytest.raises(AssertionError, match="finite differences"):
        check_vjp(SCALED, ARGS, np.random.default_rng(0))


def test_jacobian_check_catches_a_wrong_rule():
    with pytest.raises(AssertionError, match="Jacobian"):
        check_jacobian(SCALED, ARGS)


def test_second_order_check_catches_a_rule_that_is_not_differentiable():
    rng = np.random.default_rng(0)
    check_vjp(FLAT, ARGS, rng)
    with pytest.raises(AssertionError, match="finite differences"):
        check_second_order(FLAT, ARGS, rng)


def test_shipped_compute_gradient_passes_a_right_rule_to_the_op_table_tolerance():
    theoretical, numerical = tf.test.compute_gradient(RIGHT, ARGS, delta=1e-6)
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-7, atol=1e-8)
    assert theoretical[0].shape == numerical[0].shape == (6, 6)


def test_shipped_compute_gradient_catches_a_rule_off_by_one_in_ten_thousand():
    theoretical, numerical = tf.test.compute_gradient(SCALED, ARGS, delta=1e-6)
    with pytest.raises(AssertionError):
        np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-5, atol=1e-8)


def test_shipped_check_gradients_passes_right_and_catches_wrong_rules():
    tf.test.check_gradients(RIGHT, ARGS, order=2, modes=("rev",))
    with pytest.raises(AssertionError, match="central differences"):
        tf.test.check_gradients(SCALED, ARGS, order=1, modes=("rev",))
    tf.test.check_gradients(FLAT, ARGS, order=1, modes=("rev",))
    with pytest.raises(AssertionError, match="order 2"):
        tf.test.check_gradients(FLAT, ARGS, order=2, modes=("rev",))
