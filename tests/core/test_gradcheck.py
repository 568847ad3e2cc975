"""The finite-difference checker itself: it passes right rules and catches wrong ones."""
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
