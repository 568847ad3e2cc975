"""float16 MatMul and BiasAddGrad bit for bit as TensorFlow 2.21 computes them on this CPU
(float32 products summed in Eigen's contraction blocks, rounded once; BiasAddGrad's float32
row blocks), against values recorded by tools/record_half_reductions.py."""
from pathlib import Path

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.ops import half_matmul, half_reduce
from tests.ops import half_reduce_cases as C

_DATA = np.load(Path(__file__).resolve().parent.parent / "fixtures/ops/half_reductions.npz")


def _bits(x):
    return np.asarray(x).view(np.uint16).reshape(-1)


@pytest.mark.parametrize("m,k,n,seed", C.MATMUL, ids=[f"{m}x{k}x{n}" for m, k, n, _ in C.MATMUL])
def test_matmul_matches_tensorflow(m, k, n, seed):
    a, b = C.matmul_inputs(m, k, n, seed)
    got = tf.matmul(tf.constant(a), tf.constant(b))
    assert got.dtype == tf.float16
    np.testing.assert_array_equal(_bits(got.numpy()), _DATA[f"matmul{seed}"])


@pytest.mark.parametrize("m,k,n,ta,tb,seed", C.MATMUL_T)
def test_transposed_matmul_matches_tensorflow(m, k, n, ta, tb, seed):
    a, b = C.matmul_inputs(m, k, n, seed)
    a, b = (a.T.copy() if ta else a), (b.T.copy() if tb else b)
    got = tf.matmul(tf.constant(a), tf.constant(b), transpose_a=ta, transpose_b=tb)
    np.testing.assert_array_equal(_bits(got.numpy()), _DATA[f"matmul{seed}"])


def test_the_order_matters_for_the_recorded_products():
    """One float32 product rounded once (NumPy's BLAS order) misses TF's answer somewhere:
    the fixture checks the order, not only the precision."""
    misses = 0
    for m, k, n, seed in C.MATMUL:
        a, b = C.matmul_inputs(m, k, n, seed)
        blas = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
        misses += int((_bits(blas) != _DATA[f"matmul{seed}"]).sum())
    assert misses > 20


def test_k_blocks():
    assert [half_matmul.kc_for(k) for k in (64, 320, 321, 392, 784, 1000)] == \
        [64, 320, 160, 200, 264, 256]


@pytest.mark.parametrize("shape,seed", C.BIAS_GRAD)
def test_bias_add_grad_matches_tensorflow(shape, seed):
    g = (np.random.default_rng(seed).standard_normal(shape) * 100).astype(np.float16)
    np.testing.assert_array_equal(_bits(half_reduce.bias_add_grad(g)),
                                  _DATA[f"biasaddgrad{seed}"])
    # through the tape: tf.nn.bias_add's bias gradient is BiasAddGrad (not a float16 Sum)
    b = tf.constant(np.zeros(shape[-1], np.float16))
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = tf.nn.bias_add(tf.constant(np.zeros(shape, np.float16)), b)
    got = tape.gradient(y, b, output_gradients=tf.constant(g))
    np.testing.assert_array_equal(_bits(got.numpy()), _DATA[f"biasaddgrad{seed}"])


def test_bias_add_second_order_and_forward_mode():
    x = tf.constant(np.arange(6, dtype=np.float16).reshape(2, 3))
    b = tf.constant(np.array([1, 2, 3], np.float16))
    with tf.GradientTape() as outer:
        outer.watch(b)
        with tf.GradientTape() as inner:
            inner.watch(b)
            y = tf.nn.bias_add(x, b)
            loss = tf.reduce_sum(y * y)
        gb = inner.gradient(loss, b)
    # d/db sum((x + b)^2) = 2 * column sums of (x + b); its derivative 2 * rows on the diagonal
    np.testing.assert_array_equal(gb.numpy(), np.array([2 * (1 + 4), 2 * (3 + 6), 2 * (5 + 8)],
                                                       np.float16))
    np.testing.assert_array_equal(outer.gradient(gb, b).numpy(), np.full(3, 4, np.float16))
    with tf.autodiff.ForwardAccumulator(b, tf.constant(np.ones(3, np.float16))) as acc:
        y = tf.nn.bias_add(x, b)
    np.testing.assert_array_equal(acc.jvp(y).numpy(), np.ones((2, 3), np.float16))
