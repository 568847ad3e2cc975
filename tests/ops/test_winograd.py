"""Winograd F(2x2, 3x3) (``ops/winograd.py``), the float32 kernel ``tf.nn.conv2d`` picks for
3x3 stride-1 convolutions with 32 or more channels (filters nothing can change by default,
every filter with ``TAPEFLOW_WINOGRAD=1``): its error against a float64 reference stays
within that of im2col's one product (both are within float32 rounding of the exact sum), for
SAME, VALID and explicit padding, odd and even sizes, views of the input, and every block
size; the filter transform is cached only for arrays nothing can change; a trained
(writeable) filter keeps im2col by default."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.ops import nn_conv_ops as C
from tapeflow.ops import winograd as W


def _reference(x, w, pads):
    return C._conv_forward(x.astype(np.float64), w.astype(np.float64), (1, 1), pads, (1, 1))


def _im2col(x, w, pads):
    n, h, wd, _ = x.shape
    ((pt, pb), (pl, pr)) = pads
    oh, ow = h + pt + pb - 2, wd + pl + pr - 2
    cols, transposed = C._im2col(x, 3, 3, (1, 1), pads, (1, 1), oh, ow)
    y = np.matmul(cols.T if transposed else cols, w.reshape(-1, w.shape[3]))
    return y.reshape(n, oh, ow, w.shape[3])


@pytest.mark.parametrize("shape,o,padding", [
    ((2, 16, 16, 32), 32, "SAME"), ((3, 15, 13, 32), 40, "SAME"),
    ((4, 17, 12, 48), 32, "VALID"), ((1, 23, 24, 64), 64, [[0, 0], [2, 0], [1, 3], [0, 0]])])
def test_conv2d_takes_winograd_and_stays_within_float32_rounding(monkeypatch, shape, o,
                                                                  padding):
    monkeypatch.setattr(W, "MODE", "all")
    rng = np.random.default_rng(sum(shape) + o)
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal((3, 3, shape[3], o)).astype(np.float32)
    y = tf.nn.conv2d(x, w, 1, padding).numpy()
    if isinstance(padding, list):
        pads = tuple(tuple(p) for p in padding[1:3])
    else:
        pads = C._pads(padding, shape[1:3], (3, 3), (1, 1), (1, 1), "Conv2D")
    oh, ow = y.shape[1:3]
    assert W.worth_it(shape[0], oh, ow, shape[3], o)
    ref = _reference(x, w, pads)
    assert y.shape == ref.shape and y.dtype == np.float32 and y.flags.c_contiguous
    scale = np.abs(ref).max()
    err = np.abs(y - ref).max() / scale
    # im2col's own error on the same case, and float32's unit roundoff times the sum's length
    err_im2col = np.abs(_im2col(x, w, pads) - ref).max() / scale
    assert err <= max(2 * err_im2col, 9 * shape[3] * 2.0 ** -24 / 8), (err, err_im2col)
    # each output element against its own magnitude of terms: sum |x| |w| bounds the rounding
    bound = _reference(np.abs(x), np.abs(w), pads) * 2.0 ** -24 * 12
    assert np.all(np.abs(y - ref) <= bound)


@pytest.mark.parametrize("block", [1, 2, 3, 5, None])
def test_every_block_size_gives_the_same_result_on_a_strided_view(block):
    rng = np.random.default_rng(block or 0)
    base = rng.standard_normal((5, 14, 20, 64)).astype(np.float32)
    x = base[:, 1:12, ::2, ::2]          # [5, 11, 10, 32], not contiguous
    w = rng.standard_normal((3, 3, 32, 33)).astype(np.float32)
    eh, ew = W.padding(9, 8, 11, 10)
    xp = C._pad(x, ((0, eh), (0, ew)))
    y = W.conv3x3(xp, W.filter_transform(w), 9, 8, block=block)
    ref = _reference(np.ascontiguousarray(x), w, ((0, 0), (0, 0)))
    np.testing.assert_allclose(y, ref, rtol=0, atol=np.abs(ref).max() * 2e-6)
    whole = W.conv3x3(xp, W.filter_transform(w), 9, 8, block=5)
    np.testing.assert_array_equal(y, whole)


def test_conv3x3_refuses_an_input_without_the_extra_padding():
    x = np.zeros((1, 11, 11, 32), np.float32)
    u = W.filter_transform(np.zeros((3, 3, 32, 32), np.float32))
    with pytest.raises(ValueError, match=r"pad it by \(1, 1\)"):
        W.conv3x3(x, u, 9, 9)


def test_filter_transform_is_g_w_g_transposed_per_channel_pair():
    rng = np.random.default_rng(3)
    w = rng.standard_normal((3, 3, 4, 5)).astype(np.float32)
    u = W.filter_transform(w)
    g = W._G.astype(np.float64)
    for c in range(4):
        for o in range(5):
            np.testing.assert_allclose(u[:, c, o].reshape(4, 4), g @ w[:, :, c, o] @ g.T,
                                       rtol=1e-6, atol=1e-6)


def test_a_writeable_filter_changed_in_place_is_transformed_again(monkeypatch):
    monkeypatch.setattr(W, "MODE", "all")
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 16, 16, 32)).astype(np.float32)
    w = rng.standard_normal((3, 3, 32, 32)).astype(np.float32)
    pads = ((1, 1), (1, 1))
    C._conv_forward(x, w, (1, 1), pads, (1, 1))
    w *= -2
    y = C._conv_forward(x, w, (1, 1), pads, (1, 1))
    np.testing.assert_allclose(y, _reference(x, w, pads), rtol=1e-4, atol=1e-3)


def test_only_filters_nothing_can_change_are_cached():
    w = np.ones((3, 3, 32, 32), np.float32)
    assert not C._immutable(w)
    ro = w.copy()
    ro.flags.writeable = False
    assert C._immutable(ro)
    view = w[:]
    view.flags.writeable = False
    assert not C._immutable(view)      # its base is writeable
    frozen = np.frombuffer(ro.tobytes(), np.float32).reshape(ro.shape)
    assert C._immutable(frozen)        # bytes cannot change
    x = np.random.default_rng(5).standard_normal((2, 16, 16, 32)).astype(np.float32)
    a = C._conv_forward(x, frozen, (1, 1), ((1, 1), (1, 1)), (1, 1))
    assert C._WINO_CACHE[id(frozen)][0] is frozen
    b = C._conv_forward(x, frozen, (1, 1), ((1, 1), (1, 1)), (1, 1))
    np.testing.assert_array_equal(a, b)


def test_by_default_only_an_immutable_filter_takes_winograd(monkeypatch):
    monkeypatch.setattr(W, "MODE", "constant")
    rng = np.random.default_rng(8)
    x = rng.standard_normal((2, 16, 16, 32)).astype(np.float32)
    w = rng.standard_normal((3, 3, 32, 32)).astype(np.float32)
    pads = ((1, 1), (1, 1))
    trained = C._conv_forward(x, w, (1, 1), pads, (1, 1))
    np.testing.assert_array_equal(trained, _im2col(x, w, pads))
    frozen = np.frombuffer(w.tobytes(), np.float32).reshape(w.shape)
    fast = C._conv_forward(x, frozen, (1, 1), pads, (1, 1))
    eh, ew = W.padding(16, 16, 18, 18)
    wino = W.conv3x3(C._pad(x, ((1, 1 + eh), (1, 1 + ew))), W.filter_transform(w), 16, 16)
    np.testing.assert_array_equal(fast, wino)
    monkeypatch.setattr(W, "MODE", "off")
    np.testing.assert_array_equal(C._conv_forward(x, frozen, (1, 1), pads, (1, 1)),
                                  _im2col(x, w, pads))


def test_gradients_through_a_winograd_convolution_match_finite_differences_in_float64(
        monkeypatch):
    monkeypatch.setattr(W, "MODE", "all")
    # float32 forward through Winograd; its gradients use the backprop kernels, checked
    # here against central differences of the float64 forward
    rng = np.random.default_rng(6)
    x64 = rng.standard_normal((1, 24, 24, 32))
    w64 = rng.standard_normal((3, 3, 32, 32)) * 0.1
    x = tf.constant(x64.astype(np.float32))
    w = tf.constant(w64.astype(np.float32))
    probe = rng.standard_normal((1, 24, 24, 32))
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = tf.nn.conv2d(x, w, 1, "SAME")
        loss = tf.reduce_sum(y * probe.astype(np.float32))
    g = tape.gradient(loss, w).numpy()
    pads = ((1, 1), (1, 1))
    for idx in [(0, 0, 0, 0), (1, 2, 5, 7), (2, 1, 31, 30)]:
        e = np.zeros_like(w64)
        e[idx] = 1e-4
        hi = (_reference(x64, w64 + e, pads) * probe).sum()
        lo = (_reference(x64, w64 - e, pads) * probe).sum()
        assert abs(g[idx] - (hi - lo) / 2e-4) <= 1e-3 * max(1, abs(g[idx]))
