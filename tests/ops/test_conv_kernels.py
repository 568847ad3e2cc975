"""The NumPy kernels behind tf.nn's convolution and pooling and tf.image.extract_patches:
direct-loop references for strides, dilations and padding, TensorFlow's first-maximum
routing of MaxPool's gradient (ties included), derivatives of third order, and the
patch buffer that is reused between calls."""
import threading

import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core import gradcheck as gc


def _pads(size, k, s, d, padding):
    if padding == "VALID":
        return 0, (size - (k - 1) * d - 1) // s + 1
    out = -(-size // s)
    return max((out - 1) * s + (k - 1) * d + 1 - size, 0) // 2, out


def _loop_conv(x, w, s, d, padding):
    n, h, wd, _ = x.shape
    kh, kw, _, o = w.shape
    top, oh = _pads(h, kh, s, d, padding)
    left, ow = _pads(wd, kw, s, d, padding)
    y = np.zeros((n, oh, ow, o))
    for r in range(oh):
        for q in range(ow):
            for i in range(kh):
                for j in range(kw):
                    a, b = r * s + i * d - top, q * s + j * d - left
                    if 0 <= a < h and 0 <= b < wd:
                        y[:, r, q] += x[:, a, b] @ w[i, j]
    return y


@pytest.mark.parametrize("s,d,padding", [(1, 1, "SAME"), (2, 1, "VALID"), (2, 2, "SAME"),
                                         (3, 2, "VALID"), (1, 3, "SAME")])
def test_conv2d_matches_a_direct_loop_for_strides_and_dilations(s, d, padding):
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((2, 9, 8, 3)), rng.standard_normal((3, 2, 3, 4))
    got = tf.nn.conv2d(x, w, s, padding, dilations=d).numpy()
    np.testing.assert_allclose(got, _loop_conv(x, w, s, d, padding), rtol=1e-12, atol=1e-12)


def test_conv2d_and_its_backprops_match_finite_differences_with_stride_and_dilation():
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((1, 7, 6, 2)), rng.standard_normal((2, 3, 2, 3))

    def f(a, b):
        return tf.nn.conv2d(a, b, 2, "SAME", dilations=1)

    def g(a, b):
        return tf.nn.conv2d(a, b, 1, "SAME", dilations=2)

    for fn in (f, g):
        assert {"Conv2D"} <= gc._check_vjp(fn, [x, w], rng)
        assert {"Conv2DBackpropInput", "Conv2DBackpropFilter"} <= gc._check_second_order(
            fn, [x, w], rng)


def _first_max_grad(x, k, s, padding, weights):
    """Each window's weight added to its first maximum (row-major), as TensorFlow routes."""
    n, h, w, c = x.shape
    top, oh = _pads(h, k, s, 1, padding)
    left, ow = _pads(w, k, s, 1, padding)
    dx = np.zeros_like(x)
    for b in range(n):
        for ch in range(c):
            for r in range(oh):
                for q in range(ow):
                    cells = [(r * s + i - top, q * s + j - left) for i in range(k)
                             for j in range(k)]
                    cells = [(a, e) for a, e in cells if 0 <= a < h and 0 <= e < w]
                    best = max(x[b, a, e, ch] for a, e in cells)
                    a, e = next(p for p in cells if x[b, p[0], p[1], ch] == best)
                    dx[b, a, e, ch] += weights[b, r, q, ch]
    return dx


# Small integers: most windows hold several equal maxima.
@pytest.mark.parametrize("shape,k,s,padding", [
    ((2, 4, 6, 3), 2, 2, "VALID"),   # windows tile the input
    ((1, 5, 7, 2), 2, 2, "VALID"),   # tiles leaving a last row and column out
    ((2, 5, 5, 2), 3, 1, "SAME"),    # overlapping, padded
    ((1, 6, 6, 1), 3, 2, "VALID"),   # overlapping
    ((1, 4, 4, 2), 2, 2, "SAME"),
])
def test_max_pool_gradient_goes_to_the_first_maximum_of_each_window(shape, k, s, padding):
    rng = np.random.default_rng(2)
    x = rng.integers(0, 3, shape).astype(np.float32)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.max_pool2d(xt, k, s, padding)
        weights = np.arange(1, 1 + y.numpy().size, dtype=np.float32).reshape(y.shape)
        loss = tf.reduce_sum(y * weights)
    np.testing.assert_array_equal(tape.gradient(loss, xt).numpy(),
                                  _first_max_grad(x, k, s, padding, weights))


def test_max_pool_ties_match_tensorflow_on_a_small_image():
    # Recorded with TensorFlow 2.21: each window's weight goes to its first maximum.
    x = np.array([[1, 3, 3, 0], [3, 2, 3, 3], [0, 3, 1, 1], [3, 0, 2, 1]],
                 np.float32).reshape(1, 4, 4, 1)
    want = {(2, 2, "VALID"): [[0, 1, 2, 0], [0, 0, 0, 0], [0, 3, 0, 0], [0, 0, 4, 0]],
            (3, 1, "SAME"): [[0, 24, 12, 0], [19, 0, 23, 0], [0, 42, 0, 0], [0, 0, 16, 0]],
            (2, 1, "VALID"): [[0, 3, 3, 0], [4, 0, 11, 0], [0, 15, 0, 0], [0, 0, 9, 0]]}
    for (k, s, padding), grad in want.items():
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = tf.nn.max_pool2d(xt, k, s, padding)
            loss = tf.reduce_sum(y * np.arange(1, 1 + y.numpy().size,
                                               dtype=np.float32).reshape(y.shape))
        np.testing.assert_array_equal(tape.gradient(loss, xt).numpy()[0, :, :, 0], grad)


@pytest.mark.parametrize("k,s,padding", [(2, 2, "VALID"), (3, 2, "SAME")])
def test_max_pool_derivatives_to_third_order_match_finite_differences(k, s, padding):
    rng = np.random.default_rng(3)
    x = rng.permutation(2 * 6 * 6 * 2).reshape(2, 6, 6, 2) / 10.0  # no ties: smooth there

    def cube(a):
        return tf.nn.max_pool2d(a, k, s, padding) ** 3

    gc._check_vjp(cube, [x], rng)
    assert "MaxPoolGrad" in gc._check_second_order(cube, [x], rng)
    u = rng.standard_normal(cube(tf.constant(x)).shape)
    second = gc._vjp_dot(cube, u, [rng.standard_normal(x.shape)])
    gc._check_second_order(second, [x], rng, rtol=1e-5, atol=1e-6)


def test_max_pool_ignores_padding_and_nan_windows_get_no_gradient():
    x = np.full((1, 3, 3, 1), -np.inf, np.float32)
    x[0, 1, 1, 0] = np.nan
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.max_pool2d(xt, 2, 2, "SAME")
        loss = tf.reduce_sum(tf.where(tf.math.is_nan(y), tf.zeros_like(y), y))
    # TensorFlow 2.21: a window of -inf and NaN pools to the lowest float32 (Eigen skips NaN)
    assert y.numpy()[0, 0, 0, 0] == np.finfo(np.float32).min
    assert np.all(np.isfinite(tape.gradient(loss, xt).numpy()) | np.isnan(x))


def _loop_patches(x, k, s, r, padding):
    n, h, w, c = x.shape
    top, oh = _pads(h, k[0], s[0], r[0], padding)
    left, ow = _pads(w, k[1], s[1], r[1], padding)
    out = np.zeros((n, oh, ow, k[0], k[1], c))
    for a in range(oh):
        for b in range(ow):
            for i in range(k[0]):
                for j in range(k[1]):
                    p, q = a * s[0] + i * r[0] - top, b * s[1] + j * r[1] - left
                    if 0 <= p < h and 0 <= q < w:
                        out[:, a, b, i, j] = x[:, p, q]
    return out.reshape(n, oh, ow, -1)


@pytest.mark.parametrize("k,s,r,padding", [((2, 2), (2, 2), (1, 1), "SAME"),
                                           ((3, 2), (1, 2), (2, 1), "VALID"),
                                           ((2, 3), (2, 1), (2, 2), "SAME")])
def test_extract_patches_matches_a_direct_loop_with_rates(k, s, r, padding):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 7, 6, 3))
    got = tf.image.extract_patches(x, [1, *k, 1], [1, *s, 1], [1, *r, 1], padding)
    np.testing.assert_array_equal(got.numpy(), _loop_patches(x, k, s, r, padding))

    def f(a):
        return tf.image.extract_patches(a, [1, *k, 1], [1, *s, 1], [1, *r, 1], padding) ** 2

    gc._check_vjp(f, [x[:1, :5, :5, :2]], rng)
    assert "ExtractImagePatchesTranspose" in gc._check_second_order(f, [x[:1, :5, :5, :2]], rng)


def test_extract_patches_refuses_a_rank_3_image():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"4-dimensional\[4,4,1\]"):
        tf.image.extract_patches(tf.ones([4, 4, 1]), [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1],
                                 "VALID")


def test_a_convolution_result_survives_later_convolutions_that_reuse_the_patch_buffer():
    rng = np.random.default_rng(5)
    x1, w1 = rng.standard_normal((2, 6, 6, 3)), rng.standard_normal((3, 3, 3, 2))
    x2, w2 = rng.standard_normal((3, 9, 9, 4)), rng.standard_normal((2, 2, 4, 5))
    xt, wt = tf.constant(x1), tf.constant(w1)
    with tf.GradientTape() as tape:
        tape.watch([xt, wt])
        y1 = tf.nn.conv2d(xt, wt, 1, "SAME")
        tf.nn.conv2d(x2, w2, 2, "VALID")  # a second patch matrix in between
    gw = tape.gradient(y1, wt)
    tf.nn.conv2d(x2, w2, 1, "SAME")
    np.testing.assert_allclose(y1.numpy(), _loop_conv(x1, w1, 1, 1, "SAME"), rtol=1e-12)
    # dL/dw for L = sum(y1): every window's sum, computed directly.
    xp = np.pad(x1, ((0, 0), (1, 1), (1, 1), (0, 0)))
    direct = np.array([[xp[:, i:i + 6, j:j + 6].sum((0, 1, 2)) for j in range(3)]
                       for i in range(3)])
    np.testing.assert_allclose(gw.numpy(), np.repeat(direct[..., None], 2, -1), rtol=1e-12)


def test_convolutions_on_two_threads_do_not_share_a_patch_buffer():
    rng = np.random.default_rng(6)
    cases = [(rng.standard_normal((4, 12, 12, 3)), rng.standard_normal((3, 3, 3, 4))),
             (rng.standard_normal((2, 10, 10, 5)), rng.standard_normal((2, 2, 5, 3)))]
    wants = [_loop_conv(x, w, 1, 1, "SAME") for x, w in cases]
    errors = []

    def work(x, w, want):
        for _ in range(30):
            got = tf.nn.conv2d(x, w, 1, "SAME").numpy()
            if not np.allclose(got, want, rtol=1e-12, atol=1e-12):
                errors.append("mismatch")

    threads = [threading.Thread(target=work, args=(x, w, want))
               for (x, w), want in zip(cases, wants, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_keras_conv2d_with_a_dilation_rate_matches_tf_nn_conv2d():
    layer = tf.keras.layers.Conv2D(3, 3, padding="same", dilation_rate=2, use_bias=False)
    x = tf.constant(np.random.default_rng(7).standard_normal((1, 7, 7, 2)).astype("float32"))
    y = layer(x)
    want = tf.nn.conv2d(x, layer.kernel, 1, "SAME", dilations=2)
    np.testing.assert_allclose(y.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


def test_keras_causal_conv1d_with_a_dilation_rate_sees_only_the_past():
    layer = tf.keras.layers.Conv1D(1, 2, padding="causal", dilation_rate=3, use_bias=False,
                                   kernel_initializer="ones")
    x = tf.reshape(tf.range(1.0, 7.0), [1, 6, 1])
    # out[t] = x[t - 3] + x[t] (zero before the start)
    np.testing.assert_array_equal(layer(x).numpy().ravel(), [1, 2, 3, 5, 7, 9])


@pytest.mark.parametrize("k,s,padding", [(2, 2, "VALID"), (3, 1, "SAME")])
def test_max_pool_gradient_keeps_an_infinite_upstream_off_the_other_cells(k, s, padding):
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    g = np.ones(tf.nn.max_pool2d(x, k, s, padding).shape, np.float32)
    g[0, 0, 0, 0] = np.inf
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.max_pool2d(xt, k, s, padding)
    got = tape.gradient(y, xt, output_gradients=tf.constant(g)).numpy()
    finite_g = np.where(np.isinf(g), 1000.0, g).astype(np.float32)
    want = _first_max_grad(x, k, s, padding, finite_g)
    want[want >= 1000] = np.inf
    assert not np.isnan(got).any()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape,k,s", [((1, 2, 2, 1), 3, 2), ((1, 2, 2, 1), (2, 3), (1, 2)),
                                       ((0, 4, 4, 2), 2, 2)])
def test_pooling_with_an_empty_output_has_a_zero_gradient(shape, k, s):
    xt = tf.constant(np.ones(shape, np.float32))
    for op in (tf.nn.max_pool2d, tf.nn.avg_pool2d):
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = op(xt, k, s, "VALID")
            loss = tf.reduce_sum(y * y)
        assert y.numpy().size == 0
        np.testing.assert_array_equal(tape.gradient(loss, xt).numpy(), np.zeros(shape))


def _loop_depthwise(x, w, s, padding):
    """Channel by channel: a direct-loop convolution of each input channel with its
    ``[kh, kw, 1, m]`` filter slice, outputs ordered ``c * m + k``."""
    outs = [_loop_conv(x[..., c:c + 1], w[:, :, c:c + 1, :], s, 1, padding)
            for c in range(x.shape[3])]
    return np.concatenate(outs, axis=3)


@pytest.mark.parametrize("k,s,padding,m", [(3, 1, "SAME", 1), (3, 2, "SAME", 1),
                                           (1, 1, "VALID", 1), (2, 1, "VALID", 2)])
def test_depthwise_conv2d_matches_a_direct_loop(k, s, padding, m):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 9, 8, 5))
    w = rng.standard_normal((k, k, 5, m))
    y = tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], padding).numpy()
    np.testing.assert_allclose(y, _loop_depthwise(x, w, s, padding), rtol=1e-12, atol=1e-12)
    # float32 within rounding of the float64 loop
    y32 = tf.nn.depthwise_conv2d(x.astype(np.float32), w.astype(np.float32), [1, s, s, 1],
                                 padding)
    assert y32.dtype == tf.float32
    np.testing.assert_allclose(y32.numpy(), y, rtol=1e-4, atol=1e-5)


def test_one_by_one_convolution_is_the_channel_matrix_product():
    # (the image is its own patch matrix: no copy; strided and padded 1x1 take im2col)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 6, 7, 8))
    w = rng.standard_normal((1, 1, 8, 3))
    y = tf.nn.conv2d(x, w, 1, "VALID").numpy()
    np.testing.assert_allclose(y, np.einsum("nhwc,co->nhwo", x, w[0, 0]), rtol=1e-12,
                               atol=1e-12)
    for s, padding in ((2, "VALID"), (1, [[0, 0], [1, 0], [0, 2], [0, 0]])):
        got = tf.nn.conv2d(x, w, s, padding).numpy()
        pads = ((0, 0), (1, 0), (0, 2), (0, 0)) if padding != "VALID" else ((0, 0),) * 4
        ref = np.einsum("nhwc,co->nhwo", np.pad(x, pads)[:, ::s, ::s], w[0, 0])
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
    # a non-contiguous input (a transposed view) gives the same
    xt = np.ascontiguousarray(x.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
    np.testing.assert_array_equal(tf.nn.conv2d(xt, w, 1, "VALID").numpy(), y)


def test_relu6_on_a_large_array_clamps_and_keeps_nan():
    # above 4096 elements the kernel takes array operands: the same values, NaN kept
    x = np.random.default_rng(5).uniform(-3, 9, 5000).astype(np.float32)
    x[:4] = [np.nan, np.inf, -np.inf, 6.0]
    y = tf.nn.relu6(x).numpy()
    assert np.isnan(y[0]) and y[1] == 6 and y[2] == 0 and y[3] == 6
    np.testing.assert_array_equal(y[4:], np.clip(x[4:], 0, 6))
    assert not np.shares_memory(y, x)


@pytest.mark.parametrize("k", [(2, 2), (3, 1), (1, 3), (3, 3), (1, 1)])
def test_tiling_max_pool_matches_window_maxima_and_skips_nan(k):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 9, 9, 3)).astype(np.float32)
    x[0, 0, 0, 0] = np.nan                  # a window with one NaN: the others' maximum
    x[1, :k[0], :k[1], 1] = np.nan          # a window of NaN only: the lowest float
    x[1, :k[0], :k[1], 2] = -np.inf         # a window of -inf: the lowest float too
    y = tf.nn.max_pool2d(x, k, k, "VALID").numpy()
    oh, ow = 9 // k[0], 9 // k[1]
    win = x[:, :oh * k[0], :ow * k[1]].reshape(2, oh, k[0], ow, k[1], 3)
    with np.errstate(invalid="ignore"):
        ref = np.fmax(np.nanmax(np.where(np.isnan(win), -np.inf, win), axis=(2, 4)),
                      np.finfo(np.float32).min)
    np.testing.assert_array_equal(y, ref)
    assert y[1, 0, 0, 1] == y[1, 0, 0, 2] == np.finfo(np.float32).min
    assert not np.shares_memory(y, x)


def test_float64_depthwise_input_gradient_multiplies_every_tap_as_tf():
    # TF's CPU DepthwiseConv2dNativeBackpropInput multiplies each tap by a zero where it meets
    # no output (past the edge, between strides): an inf tap makes those cells nan. Values
    # from TF 2.21 (/work/tfenv, session 12): a [1, 4, 2, 1] input 0..7, filter [inf, 1, 2]
    # down the rows, SAME, ones upstream.
    x = tf.constant(np.arange(8.).reshape(1, 4, 2, 1))
    w = tf.constant(np.array([np.inf, 1., 2.]).reshape(3, 1, 1, 1))
    inf, nan = np.inf, np.nan
    want = {1: [inf, inf, inf, inf, inf, inf, nan, nan],
            2: [inf, nan, nan, nan, inf, nan, nan, nan]}
    for s, expect in want.items():
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], "SAME")
        np.testing.assert_array_equal(t.gradient(y, x).numpy().ravel(), expect)
