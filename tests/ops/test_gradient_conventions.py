"""Gradient conventions TensorFlow fixes where calculus leaves a choice, and gradients over
random broadcasting.

The per-op gradient checks (first and second order, full Jacobians, float32 against
float64, ops without a gradient) are rows of the op table (tests/ops/op_db.py, run by
tests/ops/test_op_db.py). Here: what happens at kinks, ties and zeros (values recorded from
TensorFlow 2.21), ops that record nothing, and hypothesis-drawn broadcast shapes checked by
the shipped finite-difference checker.
"""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import tapeflow as tf
from tapeflow._core import gradcheck as gc

F64 = tf.float64


def test_nondifferentiable_output_is_not_watched():
    x = tf.constant([0.25, 1.5, -2.0], dtype=F64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.stop_gradient(x)
        y = s * s + x
    assert [e.prim.name for e in tape._tape.entries] == ["AddV2"]
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 1.0, 1.0])


def test_floordiv_has_no_gradient():
    x, y = tf.constant([3.5, -1.2], F64), tf.constant([2.0, 2.0], F64)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = x // y
    assert tape.gradient(z, [x, y]) == [None, None]


def test_sign_gradient_is_zero_as_in_tensorflow():
    x = tf.constant([-1.5, 0.0, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sign(x)
    g = tape.gradient(y, x)
    assert g is not None and g.numpy().tolist() == [0.0, 0.0, 0.0]


def test_cumprod_gradient_at_a_zero_matches_tensorflow():
    # TensorFlow 2.21 divides with div_no_nan: [1, 0, 0] here (not the true derivative).
    x = tf.constant([-1.5, 0.0, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.cumprod(x)
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 0.0, 0.0]


def test_kink_conventions_match_tensorflow():
    # Values recorded from TensorFlow 2.21 at the kinks (x = 0 and ties).
    x = tf.constant([-1.5, 0.0, 2.5])
    zero = tf.zeros((3,))
    got = {}
    for name, f in {"abs": tf.abs, "relu": tf.nn.relu,
                    "maximum": lambda v: tf.maximum(v, zero),
                    "minimum": lambda v: tf.minimum(v, zero),
                    "clip": lambda v: tf.clip_by_value(v, 0.0, 2.5),
                    "leaky_relu": tf.nn.leaky_relu}.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        got[name] = np.round(tape.gradient(y, x).numpy().astype(np.float64), 6).tolist()
    assert got == {"abs": [-1.0, 0.0, 1.0], "relu": [0.0, 0.0, 1.0],
                   "maximum": [0.0, 1.0, 1.0], "minimum": [1.0, 1.0, 0.0],
                   "clip": [0.0, 1.0, 1.0], "leaky_relu": [0.2, 0.2, 1.0]}


# ----------------------------------------------------------------------- random broadcasting

@st.composite
def _broadcast_pair(draw):
    # Two shapes that broadcast: each axis of the result, kept or set to 1 per operand,
    # and the leading axes of one operand possibly dropped.
    out = draw(st.lists(st.integers(1, 3), min_size=0, max_size=3))
    shapes = []
    for _ in range(2):
        dims = [d if draw(st.booleans()) else 1 for d in out]
        drop = draw(st.integers(0, len(dims)))
        shapes.append(tuple(dims[drop:]))
    return shapes


_BROADCAST_OPS = {
    "add": tf.add, "subtract": tf.subtract, "multiply": tf.multiply,
    "squared_difference": tf.math.squared_difference,
    "divide": lambda x, y: x / (y * y + 1.0), "where": lambda x, y: tf.where(x > 0.0, x, y),
}


@settings(max_examples=40, deadline=None)
@given(shapes=_broadcast_pair(), name=st.sampled_from(sorted(_BROADCAST_OPS)),
       seed=st.integers(0, 2**16))
def test_broadcasting_gradients_sum_back_to_each_operand_shape(shapes, name, seed):
    rng = np.random.default_rng(seed)
    args = [rng.standard_normal(s) for s in shapes]
    gc._check_vjp(_BROADCAST_OPS[name], args, rng)
