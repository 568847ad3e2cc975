"""ops/_pool_kernels.py and ops/_conv_windows.py (function/batch_chunks.py's pooling of a
convolution): a convolution computed window offset by offset gives its forward's value at
every position a tiling pool reads (with a bias in the product: the forward's value plus the
bias, bit for bit), and window_max folds the blocks in tiled_max's order, NaN, infinities
and signed-zero ties included."""
import numpy as np
import pytest

from tapeflow.ops import _pool_kernels as pk
from tapeflow.ops import nn_conv_ops as cv
from tapeflow.ops._conv_windows import WindowConv


def _by_windows(x, w, strides, pads, dilations, window, grid, b=None):
    conv = WindowConv.plan(x.shape[1:], w.shape, x.dtype, strides, pads, dilations, window,
                           grid, batch=x.shape[0])
    if conv is None or not conv.usable(w):
        return None
    return conv(x, conv.matrix(w, b)).copy()


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint32)


GEOMETRIES = [
    # x shape, filter shape, strides, pads, dilations, pool window
    ((6, 28, 28, 1), (3, 3, 1, 16), (1, 1), ((0, 0), (0, 0)), (1, 1), (2, 2)),
    ((6, 13, 13, 16), (3, 3, 16, 32), (1, 1), ((0, 0), (0, 0)), (1, 1), (2, 2)),
    ((5, 17, 15, 3), (3, 2, 3, 8), (2, 1), ((1, 1), (0, 2)), (1, 1), (3, 2)),
    ((4, 20, 19, 8), (2, 3, 8, 16), (1, 1), ((1, 0), (2, 1)), (2, 1), (1, 3)),
    ((4, 9, 9, 2), (3, 3, 2, 8), (1, 1), ((1, 1), (1, 1)), (1, 1), (2, 1)),
    # few channels, windows much larger than the patch spread: the phase planes
    ((4, 12, 12, 2), (3, 3, 2, 8), (1, 1), ((1, 1), (1, 1)), (1, 1), (3, 3)),
]


# the geometries whose patch rows are gathered from the input's phase planes
PHASES = [GEOMETRIES[0], GEOMETRIES[5]]


@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_conv_by_windows_gives_the_forward_at_the_windows(geometry):
    shape, wshape, strides, pads, dilations, (ph, pw) = geometry
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape).astype(np.float32)
    x[0, :3, :3] = np.nan
    x[1, 2:5, 1:4] = np.inf
    x[2] = 0.0
    w = rng.standard_normal(wshape).astype(np.float32)
    y = cv._conv_forward(x, w, strides, pads, dilations)
    gh, gw = y.shape[1] // ph, y.shape[2] // pw
    b = rng.standard_normal(wshape[3]).astype(np.float32)
    b[0] = -0.0
    conv = WindowConv.plan(shape[1:], wshape, np.float32, strides, pads, dilations, (ph, pw),
                           (y.shape[1] // ph, y.shape[2] // pw), batch=shape[0])
    assert (conv.phases is not None) == (geometry in PHASES)
    blocks = _by_windows(x, w, strides, pads, dilations, (ph, pw), (gh, gw))
    biased = _by_windows(x, w, strides, pads, dilations, (ph, pw), (gh, gw), b)
    assert blocks.shape == biased.shape == (ph, pw, shape[0], gh, gw, wshape[3])
    for i in range(ph):
        for j in range(pw):
            at = y[:, i:gh * ph:ph, j:gw * pw:pw]
            np.testing.assert_array_equal(_bits(blocks[i, j]), _bits(at))
            np.testing.assert_array_equal(_bits(biased[i, j]), _bits(at + b))
    np.testing.assert_array_equal(_bits(pk.window_max(blocks)),
                                  _bits(pk.tiled_max(y, ph, pw, gh, gw)))


def test_conv_by_windows_declines_the_other_kernels():
    rng = np.random.default_rng(1)
    none = ((0, 0), (0, 0))
    x = rng.standard_normal((4, 8, 8, 8)).astype(np.float32)
    # a 1x1 convolution (the image is its own patch matrix), a float64 input with a float32
    # filter, a padded convolution by a filter holding inf (the masked kernel), windows
    # larger than the output
    assert _by_windows(x, np.ones((1, 1, 8, 8), np.float32), (1, 1), none, (1, 1),
                       (2, 2), (4, 4)) is None
    assert _by_windows(x.astype(np.float64), np.ones((3, 3, 8, 8), np.float32),
                       (1, 1), none, (1, 1), (2, 2), (3, 3)) is None
    w = np.ones((3, 3, 8, 8), np.float32)
    w[0, 0, 0, 0] = np.inf
    assert _by_windows(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1), (2, 2), (4, 4)) is None
    assert _by_windows(x, np.ones((3, 3, 8, 8), np.float32), (1, 1), none, (1, 1),
                       (2, 2), (4, 4)) is None


def test_window_max_folds_as_tiled_max():
    rng = np.random.default_rng(2)
    for kh, kw in [(2, 2), (3, 2), (1, 3), (2, 1), (1, 1)]:
        x = rng.standard_normal((3, 4 * kh, 5 * kw, 8)).astype(np.float32)
        flat = x.reshape(-1)
        pick = rng.integers(0, flat.size, 200)
        flat[pick[:50]] = np.nan
        flat[pick[50:100]] = -np.inf
        flat[pick[100:150]] = -0.0
        flat[pick[150:]] = 0.0
        x[0, :kh, :kw] = np.nan
        x[1, :kh, :kw] = -np.inf
        x[2, :kh, :kw] = -0.0
        x[2, 0, 0, ::2] = 0.0
        blocks = np.ascontiguousarray(pk.tiled(x, kh, kw, 4, 5).transpose(2, 4, 0, 1, 3, 5))
        want = pk.tiled_max(x, kh, kw, 4, 5)
        got = pk.window_max(blocks)
        np.testing.assert_array_equal(_bits(got), _bits(want))
        # and the NaN-window pass gives TF's lowest float for NaN/-inf-only windows
        done = pk.nan_windows(got.copy())
        assert done[0, 0, 0, 0] == done[1, 0, 0, 0] == np.finfo(np.float32).min
