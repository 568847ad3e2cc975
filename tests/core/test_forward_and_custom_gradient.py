"""ForwardAccumulator, custom_gradient, recompute_grad, stop_gradient and gradient checks."""
import numpy as np
import pytest

import tapeflow as tf

RNG = np.random.default_rng(3)
A = RNG.normal(size=(3, 3))


def f_dense(x):
    return tf.reduce_sum(tf.tanh(tf.matmul(tf.constant(A), x[:, None])) ** 2)


def numeric_grad(f, x, eps=1e-6):
    out = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.reshape(-1)[i] = eps
        out.reshape(-1)[i] = (float(f(tf.constant(x + d))) - float(f(tf.constant(x - d)))) / (
            2 * eps)
    return out


# ----------------------------------------------------------------------- forward mode


def test_jvp_of_elementwise_product():
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as acc:
        y = x * x
    np.testing.assert_array_equal(acc.jvp(y).numpy(), [2.0, 0.0])
    np.testing.assert_array_equal(acc.jvp(x).numpy(), [1.0, 0.0])


@pytest.mark.parametrize("fn", [
    lambda x: tf.nn.softmax(tf.reshape(x, (2, 3))) * tf.reduce_max(x),
    lambda x: tf.concat([tf.math.cumsum(x), tf.gather(x, tf.constant([5, 0]))], 0),
    lambda x: tf.transpose(tf.tile(tf.reshape(x, (3, 2)), [1, 2]))[1:, ::2],
    lambda x: tf.where(x > 0.0, tf.sqrt(tf.abs(x) + 1.0), x * x) / tf.reduce_mean(x * x),
    lambda x: tf.stack([tf.reduce_prod(x[:3]), tf.nn.log_softmax(x)[1]]),
])
def test_jvp_equals_jacobian_times_tangent(fn):
    x = tf.constant(RNG.normal(size=6))
    v = tf.constant(RNG.normal(size=6))
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = fn(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y2 = fn(x)
    jac = tape.jacobian(y2, x).numpy()
    np.testing.assert_allclose(acc.jvp(y).numpy(), jac @ v.numpy(), rtol=1e-10, atol=1e-12)


def test_jvp_through_variable_and_cast():
    v = tf.Variable([1.0, 2.0], dtype=tf.float64)
    with tf.autodiff.ForwardAccumulator(v, tf.constant([0.5, 1.0], tf.float64)) as acc:
        y = tf.cast(v, tf.float32) * 3.0
        z = tf.cast(v, tf.int32)
    t = acc.jvp(y)
    assert t.dtype == tf.float32
    np.testing.assert_allclose(t.numpy(), [1.5, 3.0])
    assert acc.jvp(z) is None


def test_jvp_unconnected_none_or_zero():
    x = tf.constant(1.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        c = tf.constant([2.0, 3.0]) * 2.0
    assert acc.jvp(c) is None
    np.testing.assert_array_equal(acc.jvp(c, unconnected_gradients="zero").numpy(), [0, 0])
    assert acc.jvp({"a": c, "b": [x]})["b"][0].numpy() == 1.0


def test_forward_over_reverse_hessian_vector_product():
    x = tf.constant(RNG.normal(size=3))
    v = tf.constant(RNG.normal(size=3))
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f_dense(x)
        g = tape.gradient(y, x)
    hvp = acc.jvp(g).numpy()
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f_dense(x)
        g = inner.gradient(y, x)
    hess = outer.jacobian(g, x).numpy()
    np.testing.assert_allclose(hvp, hess @ v.numpy(), rtol=1e-10)


def test_reverse_over_forward():
    x = tf.constant([0.3, -0.7])
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = tf.reduce_sum(tf.sin(x) * x)
        jvp = acc.jvp(y)
    # d/dx of  sum((cos x * x + sin x) * v)
    expected = (-np.sin(x.numpy()) * x.numpy() + 2 * np.cos(x.numpy())) * v.numpy()
    np.testing.assert_allclose(tape.gradient(jvp, x).numpy(), expected, rtol=1e-6)


def test_accumulator_refuses_mismatched_tangent():
    with pytest.raises(ValueError, match="shape"):
        tf.autodiff.ForwardAccumulator(tf.constant([1.0, 2.0]), tf.constant([1.0]))


# ----------------------------------------------------------------------- custom gradient


def test_custom_gradient_replaces_the_gradient():
    @tf.custom_gradient
    def clip_grad(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clip_grad(x) * 10.0
    assert tape.gradient(y, x).numpy() == 1.0
    assert clip_grad(x).numpy() == 2.0


def test_custom_gradient_second_order_through_grad_fn():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        return tf.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))

    x = tf.constant(1.0, tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = log1pexp(x)
        g = t1.gradient(y, x)
    s = 1 / (1 + np.exp(-1.0))
    np.testing.assert_allclose(g.numpy(), s)
    np.testing.assert_allclose(t2.gradient(g, x).numpy(), s * (1 - s))


def test_custom_gradient_with_variables_and_nested_structures():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(pair):
        a, b = pair
        out = {"sum": a * w + b, "prod": a * b}

        def grad(d_prod, d_sum, variables=None):
            assert [v.name for v in variables] == ["Variable:0"]
            return ([d_sum * w + d_prod * b, d_sum + d_prod * a], [d_sum * a * 100.0])
        return out, grad

    a, b = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        out = scale((a, b))
        loss = out["sum"] + out["prod"]
    ga, gb, gw = tape.gradient(loss, [a, b, w])
    assert (ga.numpy(), gb.numpy(), gw.numpy()) == (8.0, 3.0, 200.0)


def test_custom_gradient_using_variables_needs_variables_argument():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def bad(x):
        return x * w, lambda dy: dy

    with tf.GradientTape():
        with pytest.raises(TypeError, match="variables"):
            bad(tf.constant(1.0))


def test_custom_gradient_wrong_gradient_count():
    @tf.custom_gradient
    def two(x, y):
        return x * y, lambda dy: dy

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = two(x, tf.constant(2.0))
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        tape.gradient(z, x)


def test_custom_gradient_in_jacobian_and_forward_mode():
    @tf.custom_gradient
    def double_grad(x):
        return tf.identity(x), lambda dy: dy * 2.0

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = double_grad(x)
    np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), 2 * np.eye(2))
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 3.0])) as acc:
        y = double_grad(x)
    np.testing.assert_array_equal(acc.jvp(y).numpy(), [2.0, 6.0])


def test_recompute_grad_matches_plain_gradient_and_records_less():
    w = tf.Variable(RNG.normal(size=(3, 3)))

    def block(x):
        return tf.tanh(tf.matmul(x, w)) * x

    x = tf.constant(RNG.normal(size=(2, 3)))
    with tf.GradientTape() as t1:
        t1.watch(x)
        y1 = tf.reduce_sum(block(block(x)))
    plain = t1.gradient(y1, [x, w])
    remat = tf.recompute_grad(block)
    with tf.GradientTape() as t2:
        t2.watch(x)
        y2 = tf.reduce_sum(remat(remat(x)))
        n_entries = len(t2._tape.entries)
    again = t2.gradient(y2, [x, w])
    assert n_entries == 3
    for p, q in zip(plain, again):
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-12)


def test_stop_gradient_blocks_and_unconnected_zero():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x) + x
    assert tape.gradient(y, x).numpy() == 1.0
    z = tf.stop_gradient(x) * 2.0
    assert tape.gradient(z, x) is None
    assert tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() == 0


def test_output_gradients_of_nested_structure():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        ys = {"a": x * 2.0, "b": (x * x,)}
    g = tape.gradient(ys, x, output_gradients={"a": tf.constant([1.0, 0.0]),
                                               "b": (tf.constant([0.0, 1.0]),)})
    np.testing.assert_array_equal(g.numpy(), [2.0, 4.0])


def test_gradient_through_python_control_flow_and_variable_reads_in_loop():
    v = tf.Variable(1.5)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        acc = tf.constant(0.0)
        for i in range(4):
            if i % 2 == 0:
                acc = acc + v * x
            else:
                acc = acc * v
    gv, gx = tape.gradient(acc, [v, x])
    # acc = ((v x) v + v x) v = v^3 x + v^2 x
    assert gv.numpy() == pytest.approx(3 * 1.5 ** 2 * 2 + 2 * 1.5 * 2)
    assert gx.numpy() == pytest.approx(1.5 ** 3 + 1.5 ** 2)


# ----------------------------------------------------------------------- gradient checks


def test_compute_gradient_as_tensorflow():
    # Recorded with TensorFlow 2.21: the same f and x give exactly these two matrices.
    x = tf.constant([1.0, 2.0, 3.0])
    th, nu = tf.test.compute_gradient(lambda x: tf.reduce_sum(x * x) * x[:2], [x])
    expected = np.array([[16.0, 4.0, 6.0], [4.0, 22.0, 12.0]], np.float32)
    assert len(th) == len(nu) == 1 and th[0].dtype == np.float32
    np.testing.assert_array_equal(th[0], expected)
    np.testing.assert_allclose(nu[0], expected, rtol=1e-4)
    with pytest.raises(ValueError, match="list or tuple"):
        tf.test.compute_gradient(lambda x: x, x)


def test_compute_gradient_two_args_unconnected_is_zero():
    th, nu = tf.test.compute_gradient(lambda a, b: a * 2.0, [np.ones(2), np.ones(3)])
    assert th[1].shape == (2, 3) and not th[1].any() and not nu[1].any()


def test_check_gradients_second_order_both_modes():
    f = lambda x, b: tf.reduce_sum(tf.tanh(tf.matmul(tf.constant(A), x[:, None]) + b) ** 2,  # noqa: E731
                                   axis=0)
    tf.test.check_gradients(f, [RNG.normal(size=3), RNG.normal(size=1)], order=2)


def test_check_gradients_catches_a_wrong_rule():
    @tf.custom_gradient
    def wrong_square(x):
        return x * x, lambda dy: dy * x  # should be 2 x

    with pytest.raises(AssertionError, match="rev-mode derivative of order 1"):
        tf.test.check_gradients(wrong_square, [RNG.normal(size=3)], order=1, modes=("rev",))
    with pytest.raises(AssertionError, match="fwd-mode"):
        tf.test.check_gradients(wrong_square, [RNG.normal(size=3)], order=1, modes=("fwd",))
