"""Tiles and chunks of the convolution kernels give the bits of the whole-array computation:
the depthwise convolution tile by tile of output rows (on one thread and on two) against
one pass per kernel offset over the whole output, and a 1x1 convolution's product in fewer
row chunks against the eight chunks it was cut into before (OpenBLAS gives a row the same
bits whatever rows are computed with it, above its small-matrix kernels)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.ops import _depthwise as dwk
from tapeflow.ops import _parallel as par
from tapeflow.ops import nn_conv_ops as conv


def _passes(x, w, strides, padding, dilations):
    """The depthwise convolution as whole-array passes: x0*w0, then += x_k*w_k in kernel-
    offset order (a product per offset, then its sum into the output)."""
    kh, kw, c, _ = w.shape
    pads = conv._pads(padding, x.shape[1:3], (kh, kw), strides, dilations, "t")
    pads = conv._resolve(pads, x.shape[1:3], (kh, kw), strides, dilations)
    oh = conv._out_size(x.shape[1], kh, strides[0], dilations[0], *pads[0])
    ow = conv._out_size(x.shape[2], kw, strides[1], dilations[1], *pads[1])
    (sh, sw), (dh, dw) = strides, dilations
    xp = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    out = None
    for k in range(kh * kw):
        i, j = divmod(k, kw)
        win = xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw]
        prod = win * w[i, j, :, 0]
        out = prod if out is None else out + prod
    return out


@pytest.mark.parametrize("tile_bytes,parallel", [(64, 1), (3000, 1), (1 << 14, 1 << 40),
                                                 (3 << 18, 1)])
def test_depthwise_tiles_give_the_whole_array_bits(monkeypatch, tile_bytes, parallel):
    monkeypatch.setattr(dwk, "TILE_BYTES", tile_bytes)
    monkeypatch.setattr(dwk, "PARALLEL", parallel)
    monkeypatch.setitem(par._STATE, "on", True)
    rng = np.random.default_rng(tile_bytes)
    for trial in range(40):
        n, h, wd, c = (int(rng.integers(1, 4)), int(rng.integers(1, 30)),
                       int(rng.integers(1, 30)), int(rng.integers(1, 40)))
        kh, kw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        s, d = (int(rng.integers(1, 4)), 1) if trial % 2 else (1, int(rng.integers(1, 3)))
        padding = "VALID" if trial % 3 == 0 else "SAME"
        if padding == "VALID" and (h <= (kh - 1) * d or wd <= (kw - 1) * d):
            padding = "SAME"
        dtype = (np.float32, np.float64)[trial % 2]
        x = rng.standard_normal((n, h, wd, c)).astype(dtype)
        if trial % 4 == 0:
            x.flat[rng.integers(0, x.size, 4)] = [np.nan, np.inf, -np.inf, np.nan]
        w = rng.standard_normal((kh, kw, c, 1)).astype(dtype)
        got = tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], padding,
                                     dilations=[d, d] if s == 1 else None).numpy()
        want = _passes(x, w, (s, s), padding, (d, d))
        assert got.dtype == dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes(), (n, h, wd, c, kh, kw, s, d, padding, dtype)


def test_depthwise_tiles_of_a_mobilenet_layer_on_two_threads(monkeypatch):
    monkeypatch.setitem(par._STATE, "on", True)
    rng = np.random.default_rng(7)
    for shape, s, padding in (((1, 112, 112, 32), 1, "SAME"), ((2, 57, 57, 48), 2, "VALID")):
        x = rng.standard_normal(shape).astype(np.float32)
        w = rng.standard_normal((3, 3, shape[3], 1)).astype(np.float32)
        got = tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], padding).numpy()
        assert got.tobytes() == _passes(x, w, (s, s), padding, (1, 1)).tobytes()


# MobileNetV2's 1x1 convolutions at batch 1 ([rows, k] @ [k, n]), and more
_PRODUCTS = [(12544, 32, 16), (12544, 16, 96), (3136, 96, 24), (3136, 24, 144),
             (784, 32, 192), (196, 64, 384), (196, 384, 96), (196, 96, 576), (196, 576, 96),
             (49, 160, 960), (49, 960, 160), (49, 960, 320), (49, 320, 1280), (49, 576, 160),
             (300, 128, 200), (131, 106, 644), (50, 874, 1185), (36, 955, 746)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pointwise_product_chunks_give_the_eight_chunk_bits(monkeypatch, dtype):
    monkeypatch.setitem(par._STATE, "on", True)
    rng = np.random.default_rng(3)
    changed = 0
    for rows, k, n in _PRODUCTS:
        chunks = conv._product_chunks(rows, k, n, np.dtype(dtype))
        changed += chunks != conv._row_chunks(rows)
        assert chunks[0][0] == 0 and chunks[-1][1] == rows
        x = rng.standard_normal((1, rows, 1, k)).astype(dtype)
        w = rng.standard_normal((1, 1, k, n)).astype(dtype)
        x2, w2 = x.reshape(rows, k), w.reshape(k, n)
        want = np.empty((rows, n), dtype)

        def eight(want=want, x2=x2, w2=w2, rows=rows):
            for a, b in conv._row_chunks(rows):
                np.matmul(x2[a:b], w2, out=want[a:b])
        par.one_blas_thread(eight)
        got = conv._conv_product(x, w, (1, 1), ((0, 0), (0, 0)), (1, 1), rows, 1, True)
        assert got.tobytes() == want.tobytes(), (rows, k, n, len(chunks))
    # float32 products whose eight chunks all run OpenBLAS's blocked kernel get fewer chunks
    assert changed == (6 if dtype == np.float32 else 0)
