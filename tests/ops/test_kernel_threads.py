"""Convolutions on two threads (``ops/_parallel.py``): the chunked kernels give the one-thread
kernels' values (im2col by images and by output rows, the 1x1 product by rows, Winograd by
blocks), errors in a chunk reach the caller, and OpenBLAS's thread count is restored."""
import numpy as np
import pytest

from tapeflow.ops import _parallel as P
from tapeflow.ops import nn_conv_ops as C


@pytest.fixture
def one_thread(monkeypatch):
    def serial(fn, *args):
        monkeypatch.setitem(P._STATE, "on", False)
        try:
            return fn(*args)
        finally:
            monkeypatch.setitem(P._STATE, "on", True)
    monkeypatch.setitem(P._STATE, "on", True)
    return serial


@pytest.mark.parametrize("shape,k,o,s,d,pads,dtype", [
    ((8, 24, 23, 8), 3, 16, (1, 1), (1, 1), ((1, 1), (1, 1)), np.float32),   # images
    ((1, 64, 60, 16), 3, 24, (2, 1), (1, 2), ((0, 1), (2, 2)), np.float32),  # rows
    ((3, 30, 30, 2), 5, 64, (1, 1), (1, 1), ((2, 2), (2, 2)), np.float64),   # C <= 3
    ((4, 24, 24, 64), 1, 96, (1, 1), (1, 1), ((0, 0), (0, 0)), np.float32),  # 1x1
    ((9, 20, 18, 32), 3, 40, (1, 1), (1, 1), ((1, 1), (1, 1)), np.float32),  # Winograd
])
def test_two_thread_convolution_matches_one_thread(one_thread, monkeypatch, shape, k, o, s,
                                                   d, pads, dtype):
    from tapeflow.ops import winograd
    monkeypatch.setattr(winograd, "MODE", "all")
    rng = np.random.default_rng(shape[0] * k)
    x = rng.standard_normal(shape).astype(dtype)
    w = rng.standard_normal((k, k, shape[3], o)).astype(dtype)
    n, h, wd, c = shape
    oh = C._out_size(h, k, s[0], d[0], *pads[0])
    ow = C._out_size(wd, k, s[1], d[1], *pads[1])
    assert n * oh * ow * k * k * c * o >= P.MIN_WORK
    two = C._conv_forward(x, w, s, pads, d)
    one = one_thread(C._conv_forward, x, w, s, pads, d)
    assert two.shape == one.shape == (n, oh, ow, o) and two.dtype == dtype
    assert two.flags.c_contiguous
    ref = C._conv_forward(x.astype(np.float64), w.astype(np.float64), s, pads, d)
    tol = np.abs(ref).max() * (2e-6 if dtype == np.float32 else 1e-13)
    np.testing.assert_allclose(two, ref, rtol=0, atol=tol)
    np.testing.assert_allclose(two, one, rtol=0, atol=tol)


def test_an_error_in_a_chunk_reaches_the_caller_and_blas_threads_are_restored():
    blas = P._blas_threads_control()
    before = blas[0]() if blas else None
    seen = []

    def fn(a, b):
        seen.append(a)
        if a == 3:
            raise FloatingPointError("chunk 3")

    with pytest.raises(FloatingPointError, match="chunk 3"):
        P.run(fn, [(i, i + 1) for i in range(6)])
    assert sorted(seen) == list(range(6))
    if blas:
        assert blas[0]() == before


def test_every_chunk_runs_once_when_the_helper_is_busy():
    import threading
    gate = threading.Event()
    P.run(lambda a, b: None, [(0, 1)])        # start the helper
    P._STATE["queue"].put(type("Busy", (), {"work": lambda self: gate.wait(5)})())
    out = np.zeros(10)
    try:
        P.run(lambda a, b: out.__setitem__(slice(a, b), out[a:b] + 1),
              [(i, i + 1) for i in range(10)])
    finally:
        gate.set()
    np.testing.assert_array_equal(out, np.ones(10))


def test_a_mid_size_convolution_runs_with_one_blas_thread_and_restores_the_count():
    blas = P._blas()
    if blas is None or blas[0]() < 2:
        pytest.skip("needs OpenBLAS with two or more threads")
    before = blas[0]()
    inside = P.one_blas_thread(blas[0])
    assert inside == 1 and blas[0]() == before
    with pytest.raises(ZeroDivisionError):
        P.one_blas_thread(lambda: 1 / 0)
    assert blas[0]() == before
