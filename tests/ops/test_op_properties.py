"""Behaviour the op table cannot pin down with TensorFlow's numbers.

Special functions over wide ranges against SciPy (tests only; src is NumPy-only), dropout
(TensorFlow's random stream differs, so its properties are checked instead), and a few
documented conventions: top_k ties, unique's indices, Cholesky of an indefinite matrix.
"""
import numpy as np
import pytest
import scipy.special as sp

import tapeflow as tf


@pytest.mark.parametrize("name, ref, lo, hi, rtol, atol", [
    ("erf", sp.erf, -7.0, 7.0, 1e-14, 1e-15),
    ("erfc", sp.erfc, -7.0, 7.0, 1e-10, 1e-300),
    ("lgamma", sp.gammaln, 0.01, 60.0, 1e-12, 1e-13),
    ("digamma", sp.digamma, 0.01, 60.0, 1e-12, 1e-12),
])
def test_special_function_matches_scipy_in_float64(name, ref, lo, hi, rtol, atol):
    x = np.linspace(lo, hi, 2001)
    got = getattr(tf.math, name)(tf.constant(x)).numpy()
    np.testing.assert_allclose(got, ref(x), rtol=rtol, atol=atol)


def test_lgamma_and_digamma_use_reflection_for_negative_arguments():
    x = np.array([-3.7, -2.5, -1.2, -0.3])
    np.testing.assert_allclose(tf.math.lgamma(tf.constant(x)).numpy(), sp.gammaln(x),
                               rtol=1e-11)
    np.testing.assert_allclose(tf.math.digamma(tf.constant(x)).numpy(), sp.digamma(x),
                               rtol=1e-9)
    assert np.isinf(tf.math.lgamma(tf.constant([-2.0, 0.0])).numpy()).all()


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_polygamma_matches_scipy(n):
    x = np.linspace(0.05, 30.0, 500)
    got = tf.math.polygamma(tf.constant(np.full_like(x, n)), tf.constant(x)).numpy()
    np.testing.assert_allclose(got, sp.polygamma(n, x), rtol=1e-12)


def test_float32_special_functions_return_float32():
    x = tf.constant([0.5, 1.5], tf.float32)
    for fn in (tf.math.erf, tf.math.erfc, tf.math.lgamma, tf.math.digamma):
        assert fn(x).dtype == tf.float32


def test_dropout_zeroes_or_rescales_each_element():
    tf.random.set_seed(3)
    x = tf.constant(np.arange(1.0, 2001.0).reshape(40, 50), tf.float32)
    y = tf.nn.dropout(x, rate=0.25).numpy()
    kept = y != 0
    np.testing.assert_allclose(y[kept], x.numpy()[kept] / 0.75, rtol=1e-6)
    assert abs(1 - kept.mean() - 0.25) < 0.03


def test_dropout_gradient_is_the_mask_over_keep_probability():
    x = tf.constant(np.ones((6, 7)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, 0.5, seed=1)
    g = tape.gradient(y, x).numpy()
    np.testing.assert_array_equal(g, y.numpy())
    assert set(np.unique(g)) <= {0.0, 2.0}


def test_dropout_noise_shape_drops_whole_columns():
    x = tf.constant(np.ones((5, 8)), tf.float32)
    y = tf.nn.dropout(x, 0.5, noise_shape=[1, 8], seed=7).numpy()
    assert all(len(set(col)) == 1 for col in y.T)


def test_dropout_is_reproducible_under_a_global_seed_and_rate_zero_is_identity():
    x = tf.constant(np.ones((4, 4)), tf.float32)
    tf.random.set_seed(11)
    a = tf.nn.dropout(x, 0.3, seed=2).numpy()
    tf.random.set_seed(11)
    b = tf.nn.dropout(x, 0.3, seed=2).numpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(tf.nn.dropout(x, 0.0).numpy(), x.numpy())


@pytest.mark.parametrize("rate", [-0.1, 1.0, 1.5])
def test_dropout_refuses_a_rate_outside_zero_one(rate):
    with pytest.raises(ValueError, match="rate"):
        tf.nn.dropout(tf.constant([1.0]), rate)


def test_top_k_keeps_the_lower_index_first_on_ties():
    values, indices = tf.math.top_k(tf.constant([1.0, 3.0, 3.0, 2.0, 3.0]), k=3)
    np.testing.assert_array_equal(indices.numpy(), [1, 2, 4])
    np.testing.assert_array_equal(values.numpy(), [3.0, 3.0, 3.0])


def test_unique_indices_rebuild_the_input():
    x = tf.constant([5, 3, 5, 9, 3, 3])
    y, idx = tf.unique(x)
    np.testing.assert_array_equal(y.numpy(), [5, 3, 9])
    np.testing.assert_array_equal(tf.gather(y, idx).numpy(), x.numpy())


def test_cholesky_of_an_indefinite_matrix_is_nan_not_an_error():
    out = tf.linalg.cholesky(tf.constant([[[1.0, 2.0], [2.0, 1.0]], [[4.0, 0.0], [0.0, 9.0]]]))
    assert np.isnan(out.numpy()[0]).all()
    np.testing.assert_allclose(out.numpy()[1], [[2.0, 0.0], [0.0, 3.0]])


def test_conv2d_matches_a_direct_loop():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 6, 5, 3))
    w = rng.standard_normal((3, 2, 3, 4))
    out = tf.nn.conv2d(tf.constant(x), tf.constant(w), [1, 2, 1, 1], "VALID").numpy()
    ref = np.zeros((2, 2, 4, 4))
    for i in range(2):
        for j in range(4):
            patch = x[:, 2 * i:2 * i + 3, j:j + 2, :]
            ref[:, i, j, :] = np.einsum("nhwc,hwco->no", patch, w)
    np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)
