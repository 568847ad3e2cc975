"""ops/_kernels.py: the fast forms give NumPy's plain results (bits where the order of
operations is the same, float64 references where it is not), and the ops built on them
(Relu, bias adds in compiled programs, Sum over leading axes, Mean, MaxPool's route) keep
their values."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.ops import _kernels, nn_conv_ops

RNG = np.random.default_rng(7)


def _data(shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("shape", [(3,), (128, 256), (64, 8, 8, 16), (5000,)])
def test_relu_equals_maximum_with_zero(shape):
    x = _data(shape)
    x.ravel()[:3] = [np.nan, -0.0, 0.0]
    out = _kernels.relu(x)
    np.testing.assert_array_equal(out, np.maximum(x, 0))
    buf = np.empty_like(x)
    assert _kernels.relu(x, out=buf) is buf
    np.testing.assert_array_equal(buf, np.maximum(x, 0))


def test_zeros_are_cached_and_read_only():
    z = _kernels.zeros_of((64, 64), np.dtype(np.float32))
    assert z is _kernels.zeros_of((64, 64), np.dtype(np.float32))
    assert not z.flags.writeable and not z.any()


@pytest.mark.parametrize("shape", [(64, 8, 8, 16), (4096, 3), (7, 3, 5), (2, 300), (1023, 4)])
def test_add_rows_is_numpys_broadcast_add(shape):
    x, b = _data(shape), _data(shape[-1:])
    np.testing.assert_array_equal(_kernels.add_rows(x, b), x + b)
    out = np.empty_like(x)
    _kernels.add_rows(x, b, out=out)
    np.testing.assert_array_equal(out, x + b)
    # non-contiguous x: the plain add
    xt = _data(shape[::-1]).T
    np.testing.assert_array_equal(_kernels.add_rows(xt, b), xt + b)


@pytest.mark.parametrize("shape,n_axes", [((64, 8, 8, 16), 3), ((4096, 10), 1),
                                          ((32, 32, 3), 2), ((10, 7), 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_leading_against_float64(shape, n_axes, dtype):
    x = _data(shape, dtype)
    want = x.astype(np.float64).sum(axis=tuple(range(n_axes)))
    got = _kernels.sum_leading(x, n_axes)
    assert got.dtype == dtype and got.shape == shape[n_axes:]
    # as accurate as NumPy's row-by-row sum (within a factor 2; it is often 3x better)
    plain = np.add.reduce(x, axis=tuple(range(n_axes)))
    assert np.abs(got - want).max() <= 2 * np.abs(plain - want).max() + 1e-12
    kept = _kernels.sum_leading(x, n_axes, keepdims=True)
    assert kept.shape == (1,) * n_axes + shape[n_axes:]
    np.testing.assert_array_equal(kept.reshape(got.shape), got)


def test_sum_leading_declines_what_blas_does_not_sum():
    assert _kernels.sum_leading(_data((8, 4), np.float16), 1) is None
    assert _kernels.sum_leading(_data((8, 4)), 2) is None          # every axis: NumPy
    assert _kernels.sum_leading(_data((4, 8)).T, 1) is None        # not C-contiguous
    x = _data((5, 3))
    x[1, 0], x[2, 1] = np.inf, np.nan
    got = _kernels.sum_leading(x, 1)
    assert got[0] == np.inf and np.isnan(got[1])


def test_reduce_sum_bias_gradient_and_mean():
    x = _data((64, 8, 8, 16))
    got = tf.reduce_sum(tf.constant(x), axis=[0, 1, 2]).numpy()
    np.testing.assert_allclose(got, x.astype(np.float64).sum(axis=(0, 1, 2)), rtol=2e-6,
                               atol=2e-5)
    y = _data((128, 10))
    for axis in ((0,), (0, 1)):   # leading axes: a BLAS sum, then the division
        np.testing.assert_allclose(_kernels.mean(y, axis, False),
                                   y.astype(np.float64).mean(axis=axis), rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(_kernels.mean(y, (1,), False),
                                  np.mean(y, axis=1, dtype=np.float32))
    np.testing.assert_array_equal(_kernels.mean(y, (1,), True),
                                  np.mean(y, axis=1, dtype=np.float32, keepdims=True))


def _route_by_loops(x, k):
    """First maximum of each k x k tile, row-major, by plain loops, as TensorFlow 2.21's
    MaxPoolGrad picks it: the first cell, replaced by each strictly larger later one (so a
    NaN in first place keeps it)."""
    n, h, w, c = x.shape
    route = np.zeros((k * k, n, h // k, w // k, c), x.dtype)
    for b in range(n):
        for i in range(h // k):
            for j in range(w // k):
                for ch in range(c):
                    tile = x[b, i * k:i * k + k, j * k:j * k + k, ch].ravel()
                    best = 0
                    for q in range(1, len(tile)):
                        if tile[q] > tile[best]:
                            best = q
                    route[best, b, i, j, ch] = 1
    return route


@pytest.mark.parametrize("ties", [False, True])
def test_max_pool_route_takes_the_first_maximum(ties):
    x = _data((2, 6, 6, 3))
    if ties:
        x = np.maximum(x, 0)      # many all-zero tiles, as after a relu
        x[0, 0:2, 0:2, 0] = 1.5   # a tile of four equal maxima
        x[1, 2, 2, 1] = np.nan
    y = nn_conv_ops._max_pool_forward(x, (2, 2), (2, 2), ((0, 0), (0, 0)))
    route = nn_conv_ops._max_pool_route(x, y, (2, 2), (2, 2), ((0, 0), (0, 0)))
    np.testing.assert_array_equal(route, _route_by_loops(x, 2))
    g = _data(y.shape)
    dx = nn_conv_ops._max_pool_grad_forward(g, x.shape, route, (2, 2), (2, 2),
                                            ((0, 0), (0, 0)))
    # every tile's gradient lands once, on its first maximum
    want = np.zeros_like(x)
    for k in range(4):
        i, j = divmod(k, 2)
        want[:, i::2, j::2, :] += route[k] * g
    np.testing.assert_array_equal(dx, want)
