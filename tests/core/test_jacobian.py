"""tape.jacobian / batch_jacobian: the batched sweep against finite differences and the loop."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core import jacobians

RNG = np.random.default_rng(7)


def numeric_jacobian(f, xs, eps=1e-6):
    """Central differences in float64: one [y.size, x.size] block per x, reshaped to y+x."""
    xs = [np.array(x, np.float64) for x in xs]
    y0 = np.asarray(f(*[tf.constant(x) for x in xs]))
    out = []
    for j, x in enumerate(xs):
        jac = np.zeros(y0.shape + x.shape)
        flat = jac.reshape(y0.size, x.size)
        for i in range(x.size):
            for sgn in (1, -1):
                xp = [v.copy() for v in xs]
                xp[j].reshape(-1)[i] += sgn * eps
                flat[:, i] += sgn * np.asarray(f(*[tf.constant(v) for v in xp])).reshape(-1)
        out.append(jac / (2 * eps))
    return out


def tape_jacobian(f, xs, use_pfor=True, stats=None):
    ts = [tf.constant(np.array(x, np.float64)) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(ts)
        y = f(*ts)
    if stats is not None:
        return [jacobians.jacobian(tape, y, ts, tf.UnconnectedGradients.NONE, use_pfor, stats)]
    return tape.jacobian(y, ts, experimental_use_pfor=use_pfor)


W = RNG.normal(size=(4, 3))
CASES = {
    "elementwise": (lambda x: tf.tanh(x) * tf.exp(x) / (1.0 + x * x), [RNG.normal(size=(2, 3))]),
    "broadcast_add": (lambda x, b: tf.sigmoid(x + b) - b * b,
                      [RNG.normal(size=(2, 3)), RNG.normal(size=(3,))]),
    "broadcast_scalar": (lambda x, s: x * s + tf.sin(s), [RNG.normal(size=(3,)), 0.7]),
    "matmul": (lambda x: tf.matmul(tf.constant(W), x), [RNG.normal(size=(3, 2))]),
    "matmul_both": (lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
                    [RNG.normal(size=(3, 2)), RNG.normal(size=(4, 3))]),
    "matmul_ta": (lambda a, b: tf.matmul(a, b, transpose_a=True),
                  [RNG.normal(size=(3, 2)), RNG.normal(size=(3, 4))]),
    "matvec": (lambda a, x: tf.linalg.matvec(a, x) + tf.linalg.matvec(a, x * x,
                                                                        transpose_a=True),
               [RNG.normal(size=(3, 3)), RNG.normal(size=(3,))]),
    "batch_matmul": (lambda a, b: tf.matmul(a, b),
                     [RNG.normal(size=(2, 2, 3)), RNG.normal(size=(3, 2))]),
    "reductions": (lambda x: tf.stack([tf.reduce_sum(x, 0), tf.reduce_mean(x, 0),
                                       tf.reduce_max(x, 0), tf.reduce_prod(x, 0)]),
                   [RNG.normal(size=(3, 2))]),
    "reduce_keepdims": (lambda x: tf.reduce_min(x, axis=1, keepdims=True) * x,
                        [RNG.normal(size=(2, 3))]),
    "reshape_transpose": (lambda x: tf.transpose(tf.reshape(x, (3, 2, 2)), [2, 0, 1]) ** 2,
                          [RNG.normal(size=(4, 3))]),
    "slicing": (lambda x: x[1:, ::2] * x[0, None, 1:], [RNG.normal(size=(3, 3))]),
    "concat_tile": (lambda x, y: tf.tile(tf.concat([x, y], axis=1), [2, 1]),
                    [RNG.normal(size=(2, 2)), RNG.normal(size=(2, 1))]),
    "gather": (lambda x: tf.gather(x, tf.constant([2, 0, 2]), axis=1),
               [RNG.normal(size=(2, 3))]),
    "softmax": (lambda x: tf.nn.softmax(x) + tf.nn.log_softmax(x, axis=0),
                [RNG.normal(size=(2, 3))]),
    "cumulative": (lambda x: tf.math.cumsum(x, axis=1) + tf.math.cumprod(x, axis=0),
                   [RNG.uniform(1, 2, size=(2, 3))]),
    "select": (lambda x, y: tf.where(x > y, x * y, tf.maximum(x, 0.3)) + tf.minimum(x, y),
               [RNG.normal(size=(5,)), RNG.normal(size=(5,))]),
    "relu": (lambda x: tf.nn.relu(x) ** 3, [RNG.normal(size=(4,))]),
    "scalar_target": (lambda x: tf.reduce_sum(tf.square(x)), [RNG.normal(size=(2, 2))]),
    "rank3_source": (lambda x: tf.reduce_sum(x * x, axis=[0, 2]), [RNG.normal(size=(2, 3, 2))]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_jacobian_matches_finite_differences_and_loop(name):
    f, xs = CASES[name]
    vec = tape_jacobian(f, xs)
    loop = tape_jacobian(f, xs, use_pfor=False)
    num = numeric_jacobian(f, xs)
    for v, lp, nm in zip(vec, loop, num):
        assert v.shape == nm.shape
        np.testing.assert_allclose(v.numpy(), nm, rtol=1e-6, atol=1e-6)
        np.testing.assert_array_equal(v.numpy(), lp.numpy())


def test_jacobian_through_cast_to_float32():
    x = tf.constant([1.0, -2.0, 0.5], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.cast(x, tf.float32) * tf.constant([1.0, 2.0, 3.0])
    jac = tape.jacobian(y, x)
    assert jac.dtype == tf.float64
    np.testing.assert_array_equal(jac.numpy(), np.diag([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(
        jac.numpy(), tape.jacobian(y, x, experimental_use_pfor=False).numpy())


def test_entry_without_batch_rule_falls_back_row_by_row(monkeypatch):
    f, xs = CASES["reshape_transpose"]
    monkeypatch.delitem(jacobians.BATCHED, tf._ops.array_ops._TRANSPOSE)
    stats = {}
    (vec,) = tape_jacobian(f, xs, stats=stats)
    assert stats["fallback"] == 1
    np.testing.assert_allclose(vec[0].numpy(), numeric_jacobian(f, xs)[0], atol=1e-6)


def test_dense_layer_jacobian_never_makes_the_identity_batch():
    stats = {}
    f = lambda x: tf.tanh(tf.linalg.matvec(tf.constant(W), x) + 1.0)  # noqa: E731
    tape_jacobian(f, [RNG.normal(size=(3,))], stats=stats)
    assert stats == {}
    f = lambda x: tf.tanh(tf.squeeze(tf.matmul(tf.constant(W), x[:, None]), 1) + 1.0)  # noqa
    tape_jacobian(f, [RNG.normal(size=(3,))], stats=stats)
    assert stats == {}
    stats = {}
    f = lambda x: tf.tanh(tf.matmul(tf.constant(W), x[:, None])[:, 0] + 1.0)  # noqa: E731
    tape_jacobian(f, [RNG.normal(size=(3,))], stats=stats)
    assert stats == {"dense": 1}


@pytest.mark.parametrize("name", sorted(CASES))
def test_diagonal_seed_matches_dense_identity_seed(name, monkeypatch):
    f, xs = CASES[name]
    structured = tape_jacobian(f, xs)
    monkeypatch.setattr(jacobians, "STRUCTURED", [False])
    dense = tape_jacobian(f, xs)
    for a, b in zip(structured, dense):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-13, atol=1e-14)


def test_jacobian_of_variable_and_nested_sources():
    v = tf.Variable([1.0, 2.0, 3.0])
    c = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(c)
        y = v * v * c
    jac = tape.jacobian(y, {"v": v, "pair": (c, tf.constant(1.0))})
    np.testing.assert_allclose(jac["v"].numpy(), np.diag([4.0, 8.0, 12.0]))
    np.testing.assert_allclose(jac["pair"][0].numpy(), [1.0, 4.0, 9.0])
    assert jac["pair"][1] is None


def test_unconnected_jacobian_none_or_zero():
    x = tf.constant([1.0, 2.0])
    z = tf.constant([[3.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 2.0
    assert tape.jacobian(y, z) is None
    zero = tape.jacobian(y, z, unconnected_gradients="zero")
    assert zero.shape == (2, 1, 1) and not zero.numpy().any()
    zero = tape.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO,
                         experimental_use_pfor=False)
    assert zero.shape == (2, 1, 1)


def test_empty_target_gives_empty_jacobian():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x[:0] * 3.0
    assert tape.jacobian(y, x).shape == (0, 2)
    assert tape.batch_jacobian(tf.reshape(x, (2, 1))[:, :0], tf.reshape(x, (2, 1))).shape == (
        2, 0, 1)


def test_loop_form_needs_persistent_tape():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.jacobian(y, x, experimental_use_pfor=False)


def test_hessian_as_jacobian_of_gradient_in_nested_tapes():
    a = RNG.normal(size=(3, 3))
    x = tf.constant(RNG.normal(size=(3,)))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.sin(tf.linalg.matmul(tf.constant(a), x[:, None])) * x[:, None])
        g = inner.gradient(y, x)
    hess = outer.jacobian(g, x).numpy()
    ref = numeric_jacobian(lambda x: _grad(a, x), [x.numpy()])[0]
    np.testing.assert_allclose(hess, ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hess, hess.T, atol=1e-12)


def _grad(a, x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.sin(tf.linalg.matmul(tf.constant(a), x[:, None])) * x[:, None])
    return t.gradient(y, x)


def test_jacobian_of_jacobian_inside_persistent_tape():
    x = tf.constant([0.5, -1.0])
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape(persistent=True) as inner:
            inner.watch(x)
            y = x ** 3
        jac = inner.jacobian(y, x)
    second = outer.jacobian(jac, x).numpy()
    expected = np.zeros((2, 2, 2))
    expected[0, 0, 0], expected[1, 1, 1] = 6 * 0.5, -6.0
    np.testing.assert_allclose(second, expected, atol=1e-6)


@pytest.mark.parametrize("use_pfor", [True, False])
def test_batch_jacobian_matches_per_example_jacobians(use_pfor):
    x = tf.constant(RNG.normal(size=(4, 3)))
    w = tf.constant(RNG.normal(size=(3, 2, 2)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(tf.reshape(tf.matmul(x, tf.reshape(w, (3, 4))), (4, 2, 2)))
    bj = tape.batch_jacobian(y, x, experimental_use_pfor=use_pfor)
    assert bj.shape == (4, 2, 2, 3)
    full = tape.jacobian(y, x).numpy()
    for i in range(4):
        np.testing.assert_allclose(bj.numpy()[i], full[i, :, :, i, :], atol=1e-12)


def test_batch_jacobian_unconnected_and_mismatch():
    x = tf.constant(np.ones((2, 3)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.constant(np.ones((2, 2)))
        z = x * 2.0
    # As TensorFlow 2.21: zeros either way (of the target's dtype for 'none', of the
    # source's for 'zero').
    none = tape.batch_jacobian(y, tf.cast(x, tf.float32))
    assert none.shape == (2, 2, 3) and none.dtype == tf.float64 and not none.numpy().any()
    zero = tape.batch_jacobian(y, x, unconnected_gradients="zero")
    assert zero.shape == (2, 2, 3) and not zero.numpy().any()
    with pytest.raises(ValueError, match="first dimension"):
        tape.batch_jacobian(z[:1], x)


W2 = RNG.normal(size=(3, 4))
BATCH_CASES = {
    "dense_layer": lambda x: tf.tanh(tf.matmul(x, tf.constant(W2)) + 0.5),
    "dense_transposed": lambda x: tf.sigmoid(tf.matmul(x, tf.constant(W2.T), transpose_b=True)),
    "x_transposed": lambda x: tf.matmul(tf.transpose(x), tf.constant(RNG.normal(size=(3, 2))),
                                        transpose_a=True) * x[:, :1],
    "reshape_keeps_batch": lambda x: tf.reshape(tf.exp(x) * x, (5, 3, 1)),
    "reshape_mixes_batch": lambda x: tf.reshape(tf.reshape(x * x, (15,)), (5, 3)),
    "softmax": lambda x: tf.nn.softmax(x * 2.0),
    "rank3_target": lambda x: tf.reshape(tf.matmul(x, tf.constant(RNG.normal(size=(3, 6)))),
                                         (5, 2, 3)) ** 2,
}


@pytest.mark.parametrize("name", sorted(BATCH_CASES))
def test_batch_jacobian_structured_dense_loop_and_full_agree(name, monkeypatch):
    f = BATCH_CASES[name]
    x = tf.constant(RNG.normal(size=(5, 3)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    structured = tape.batch_jacobian(y, x).numpy()
    loop = tape.batch_jacobian(y, x, experimental_use_pfor=False).numpy()
    full = tape.jacobian(y, x).numpy()
    monkeypatch.setattr(jacobians, "STRUCTURED", [False])
    dense = tape.batch_jacobian(y, x).numpy()
    np.testing.assert_allclose(structured, dense, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(structured, loop, rtol=1e-13, atol=1e-14)
    for i in range(5):
        np.testing.assert_allclose(structured[i], full[i, ..., i, :], rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_mode_jvp_equals_jacobian_times_tangent(name):
    f, xs = CASES[name]
    ts = [tf.constant(np.array(x, np.float64)) for x in xs]
    vs = [tf.constant(RNG.normal(size=np.shape(x))) for x in xs]
    with tf.autodiff.ForwardAccumulator(ts, vs) as acc:
        y = f(*ts)
    jvp = acc.jvp(y, unconnected_gradients="zero").numpy()
    expected = sum(np.tensordot(j.numpy(), v.numpy(), axes=v.numpy().ndim)
                   for j, v in zip(tape_jacobian(f, xs), vs))
    np.testing.assert_allclose(jvp, expected, rtol=1e-10, atol=1e-12)


def test_batch_jacobian_of_empty_batch():
    x = tf.constant(np.zeros((0, 3)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x)[:, :2]
    bj = tape.batch_jacobian(y, x)
    assert bj.shape == (0, 2, 3)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jvp_rules_match_the_transposed_vjp(name, monkeypatch):
    from tapeflow._core.registry import PRIMITIVES
    f, xs = CASES[name]
    ts = [tf.constant(np.array(x, np.float64)) for x in xs]
    vs = [tf.constant(RNG.normal(size=np.shape(x))) for x in xs]
    with tf.autodiff.ForwardAccumulator(ts, vs) as acc:
        y = f(*ts)
    with_rules = acc.jvp(y, unconnected_gradients="zero").numpy()
    for prim in PRIMITIVES.values():
        if prim.name != "Cast":
            monkeypatch.setattr(prim, "jvp", None)
    with tf.autodiff.ForwardAccumulator(ts, vs) as acc:
        y = f(*ts)
    np.testing.assert_allclose(with_rules, acc.jvp(y, unconnected_gradients="zero").numpy(),
                               rtol=1e-12, atol=1e-13)
