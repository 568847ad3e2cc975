"""The compiler's batch-norm fusion (function/fusion.py, ``fuse_affine``): ``x * s + b`` on a
large array, and the ReLU or ReLU6 right after it, run as one tiled step
(``ops/_kernels.scale_shift``), bit for bit the traced steps' values (nan, infinities and
signed zeros included), on one thread and on two; left alone where an intermediate value is
read elsewhere."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.function.fusion import Affine, fuse_affine
from tapeflow.ops import _kernels
from tapeflow.ops import _parallel as par
from tests.function.test_fusion import _same, _unfused


def _values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    flat = x.reshape(-1)
    flat[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 6.0]
    return x


def _bn(act, c, dtype, seed=1):
    rng = np.random.default_rng(seed)
    k = tf.constant(rng.standard_normal((3, 3, 4, c)).astype(dtype))
    scale = rng.standard_normal(c).astype(dtype)
    scale[:2] = [0.0, -0.0]
    s = tf.Variable(scale)
    b = tf.Variable(rng.standard_normal(c).astype(dtype))

    @tf.function
    def f(x):
        y = tf.nn.conv2d(x, k, 1, "SAME")
        z = y * s + b
        return act(z) if act is not None else z
    return f


@pytest.fixture(autouse=True)
def _record_steps(monkeypatch):
    """Keep the steps each compile ends with (on the concrete function made next)."""
    from tapeflow.function import codegen
    seen = []
    real = fuse_affine

    def spy(program, min_bytes, fixed):
        steps = real(program, min_bytes, fixed)
        seen.append(steps)
        return steps
    monkeypatch.setattr(codegen, "fuse_affine", spy)
    return seen


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("act,name", [(tf.nn.relu6, "relu6"), (tf.nn.relu, "relu"),
                                      (None, None)])
@pytest.mark.parametrize("threads", [False, True])
def test_batch_norm_and_activation_are_one_step_with_the_same_bits(
        monkeypatch, _record_steps, dtype, act, name, threads):
    monkeypatch.setitem(par._STATE, "on", threads)
    monkeypatch.setattr(_kernels, "_PARALLEL_BYTES", 1)
    monkeypatch.setattr(_kernels, "_TILE_BYTES", 4096)
    for c in (16, 24, 300):
        x = _values((2, 32, 33, 4), dtype, c)
        f = _bn(act, c, dtype)
        concrete = f.get_concrete_function(tf.constant(x))
        want = _unfused(concrete, x)[0]
        got = concrete(tf.constant(x)).numpy()
        fused = [st for steps in _record_steps for st in steps if type(st) is Affine]
        assert len(fused) == 1 and fused[0].act == name
        _record_steps.clear()
        _same(want, got)
        assert np.isnan(got).any()
        if name == "relu6":
            assert np.nanmax(got) == 6 and np.nanmin(got) == 0


def _two_outputs(fn):
    k = tf.constant(np.random.default_rng(2).standard_normal((1, 1, 4, 32)).astype(np.float32))
    s = tf.Variable(np.random.default_rng(3).standard_normal(32).astype(np.float32))
    b = tf.Variable(np.random.default_rng(4).standard_normal(32).astype(np.float32))
    f = tf.function(lambda x: fn(tf.nn.conv2d(x, k, 1, "VALID"), s, b))
    x = _values((1, 32, 32, 4), np.float32, 0)
    concrete = f.get_concrete_function(tf.constant(x))
    got = concrete(tf.constant(x))
    for w, g in zip(_unfused(concrete, x), got):
        _same(w, np.asarray(g))


def test_a_product_read_elsewhere_is_not_fused(_record_steps):
    def fn(y, s, b):
        t = y * s
        return tf.nn.relu6(t + b), t
    _two_outputs(fn)
    assert not [st for steps in _record_steps for st in steps if type(st) is Affine]


def test_a_sum_read_elsewhere_keeps_its_activation_apart(_record_steps):
    def fn(y, s, b):
        u = y * s + b
        return tf.nn.relu6(u), u
    _two_outputs(fn)
    fused = [st for steps in _record_steps for st in steps if type(st) is Affine]
    assert len(fused) == 1 and fused[0].act is None


@pytest.mark.parametrize("threads", [False, True])
def test_a_convolution_takes_its_norm_block_by_block(monkeypatch, _record_steps, threads):
    """A 1x1 convolution cut into row chunks and a depthwise one cut into tiles run the norm
    and ReLU6 on each block (ops/_conv_epilogue.py): the bits of the steps one by one."""
    monkeypatch.setitem(par._STATE, "on", threads)
    rng = np.random.default_rng(5)
    k1 = tf.constant(rng.standard_normal((1, 1, 64, 96)).astype(np.float32))
    kd = tf.constant(rng.standard_normal((3, 3, 96, 1)).astype(np.float32))
    s1, b1, s2, b2 = (tf.Variable(rng.standard_normal(96).astype(np.float32) * 3)
                      for _ in range(4))

    @tf.function
    def f(x):
        y = tf.nn.relu6(tf.nn.conv2d(x, k1, 1, "VALID") * s1 + b1)
        return tf.nn.relu6(tf.nn.depthwise_conv2d(y, kd, [1, 2, 2, 1], "SAME") * s2 + b2)
    x = _values((1, 48, 50, 64), np.float32, 9)
    concrete = f.get_concrete_function(tf.constant(x))
    got = concrete(tf.constant(x)).numpy()
    fused = [st for steps in _record_steps for st in steps if type(st) is Affine]
    assert [st.kernel is not None for st in fused] == [True, True]
    assert [st.ops[0].prim.name for st in fused] == ["Conv2D", "DepthwiseConv2dNative"]
    _same(_unfused(concrete, x)[0], got)
    assert np.isnan(got).any() and np.nanmax(got) == 6
