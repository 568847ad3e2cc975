"""Binary element-wise ops on hypothesis-drawn broadcast-compatible shapes, against NumPy.

For each op: the forward equals the NumPy formula, and the gradient of ``sum(out * w)``
with respect to each operand has that operand's shape and equals the closed-form
derivative summed over the broadcast axes.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import tapeflow as tf


def _unbroadcast(g, shape):
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for i, d in enumerate(shape):
        if d == 1 and g.shape[i] != 1:
            g = g.sum(axis=i, keepdims=True)
    return g


# name: (tapeflow op, forward, d/dx, d/dy, x domain, y domain)
def _normal(rng, s):
    return rng.standard_normal(s)


def _positive(rng, s):
    return rng.uniform(0.5, 2.0, s)


def _away(rng, s):
    mag = rng.uniform(0.3, 1.5, s)
    return np.where(rng.random(s) < 0.5, -mag, mag)


def _distinct(rng, s):
    n = int(np.prod(s)) if s else 1
    return (rng.permutation(2 * n)[:n] * 0.31 - n * 0.3).reshape(s)


BINARY = {
    "add": (tf.math.add, np.add, lambda x, y: np.ones_like(x + y),
            lambda x, y: np.ones_like(x + y), _normal, _normal),
    "subtract": (tf.math.subtract, np.subtract, lambda x, y: np.ones_like(x + y),
                 lambda x, y: -np.ones_like(x + y), _normal, _normal),
    "multiply": (tf.math.multiply, np.multiply, lambda x, y: y + 0 * x,
                 lambda x, y: x + 0 * y, _normal, _normal),
    "divide": (tf.math.divide, np.divide, lambda x, y: 1 / y + 0 * x,
               lambda x, y: -x / y ** 2, _normal, _away),
    "pow": (tf.math.pow, np.power, lambda x, y: y * x ** (y - 1),
            lambda x, y: x ** y * np.log(x), _positive, _normal),
    "maximum": (tf.math.maximum, np.maximum, lambda x, y: (x >= y) * 1.0,
                lambda x, y: (x < y) * 1.0, _distinct, _distinct),
    "minimum": (tf.math.minimum, np.minimum, lambda x, y: (x <= y) * 1.0,
                lambda x, y: (x > y) * 1.0, _distinct, _distinct),
    "squared_difference": (tf.math.squared_difference, lambda x, y: (x - y) ** 2,
                           lambda x, y: 2 * (x - y), lambda x, y: -2 * (x - y),
                           _normal, _normal),
    "atan2": (tf.math.atan2, np.arctan2, lambda x, y: y / (x ** 2 + y ** 2),
              lambda x, y: -x / (x ** 2 + y ** 2), _away, _away),
    "xlogy": (tf.math.xlogy, lambda x, y: x * np.log(y), lambda x, y: np.log(y) + 0 * x,
              lambda x, y: x / y, _normal, _positive),
    "xdivy": (tf.math.xdivy, lambda x, y: x / y, lambda x, y: 1 / y + 0 * x,
              lambda x, y: -x / y ** 2, _normal, _away),
    "divide_no_nan": (tf.math.divide_no_nan, np.divide, lambda x, y: 1 / y + 0 * x,
                      lambda x, y: -x / y ** 2, _normal, _away),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@settings(max_examples=15, deadline=None)
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=4),
       seed=st.integers(0, 2 ** 16))
def test_binary_op_broadcasts_like_numpy_with_gradients_of_operand_shape(name, shapes, seed):
    op, ref, dx, dy, make_x, make_y = BINARY[name]
    (sx, sy), out_shape = shapes.input_shapes, shapes.result_shape
    rng = np.random.default_rng(seed)
    x, y = make_x(rng, sx), make_y(rng, sy)
    w = rng.uniform(0.5, 1.5, out_shape)
    tx, ty = tf.constant(x), tf.constant(y)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(tx)
        tape.watch(ty)
        out = op(tx, ty)
        loss = tf.reduce_sum(out * tf.constant(w))
    np.testing.assert_allclose(out.numpy(), ref(x, y), rtol=1e-12, atol=1e-12)
    assert out.shape == tuple(out_shape)
    gx, gy = tape.gradient(loss, [tx, ty])
    assert gx.shape == sx and gy.shape == sy
    np.testing.assert_allclose(gx.numpy(), _unbroadcast(w * dx(x, y), sx), rtol=1e-10,
                               atol=1e-12)
    np.testing.assert_allclose(gy.numpy(), _unbroadcast(w * dy(x, y), sy), rtol=1e-10,
                               atol=1e-12)
