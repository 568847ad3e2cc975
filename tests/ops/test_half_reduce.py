"""float16 / bfloat16 Sum and Mean bit for bit as TensorFlow 2.21 computes them on the CPU
(Eigen's order of half-precision partial sums; bfloat16 summed in float32): values recorded by
tools/record_half_reductions.py for the cases of half_reduce_cases.py."""
import json
from pathlib import Path

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.ops import half_reduce
from tests.ops import half_reduce_cases as C

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures/ops/half_reductions.npz"
_DATA = np.load(FIXTURE)
_INDEX = {name: (dig, tuple(shape))
          for name, dig, shape in json.loads(_DATA["index"].tobytes().decode())}
BF16 = tf.bfloat16.as_numpy_dtype
CASES = C.cases()


def _bits(x):
    return np.asarray(x).view(np.uint16).reshape(-1)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_matches_tensorflow_bit_for_bit(case):
    name, op, dtype, shape, axis = case[:5]
    x = C.make_input(case, BF16)
    dig, out_shape = _INDEX[name]
    assert C.digest(x) == dig, "the case generator changed: re-record the fixture"
    fn = tf.reduce_sum if op == "sum" else tf.reduce_mean
    y = fn(tf.constant(x), axis=axis)
    assert y.dtype.name == dtype and tuple(y.shape) == out_shape
    np.testing.assert_array_equal(_bits(y.numpy()), _DATA[name])


@pytest.mark.parametrize("name", sorted(C.SPECIAL))
def test_special_values(name):
    got = tf.reduce_sum(tf.constant(C.SPECIAL[name])).numpy()
    np.testing.assert_array_equal(_bits(got), _DATA["special_" + name])


@pytest.mark.parametrize("i,rows,cols", [(0, 256, 64), (1, 256, 10), (2, 40, 3)])
def test_broadcast_add_gradient_sums_as_tensorflow(i, rows, cols):
    rng = np.random.default_rng(7000 + i)
    g = rng.standard_normal((rows, cols)).astype(np.float16)
    x = tf.constant(rng.standard_normal((rows, cols)).astype(np.float16))
    b = tf.constant(np.zeros(cols, np.float16))
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = x + b
    got = tape.gradient(y, b, output_gradients=tf.constant(g))
    np.testing.assert_array_equal(_bits(got.numpy()), _DATA[f"biasgrad{i}"])


def test_order_matters_for_these_cases():
    """The fixture is a real check: a float32 accumulation rounded once (NumPy's float16
    sum) misses TF's answer on many of the recorded cases."""
    misses = 0
    for case in CASES:
        name, op, dtype, shape, axis = case[:5]
        if dtype != "float16" or op != "sum":
            continue
        x = C.make_input(case)
        once = np.add.reduce(x.astype(np.float32), axis=None if axis is None else tuple(axis))
        with np.errstate(over="ignore"):
            once = once.astype(np.float16)
        misses += not np.array_equal(_bits(once), _DATA[name])
    assert misses > 100


def test_simplify_as_reduction_helper():
    # [2, 1, 3, 1, 5] over axes 1 and 4 is a [6, 5] matrix summed over its columns.
    assert half_reduce.simplify((2, 1, 3, 1, 5), {1, 4}) == ([6, 5], False)
    assert half_reduce.simplify((1, 1), {0}) == ([], True)
    assert half_reduce.simplify((4, 5, 6), {0, 2}) == ([4, 5, 6], True)


def test_traced_function_sums_the_same():
    x = C.make_input(CASES[-40])  # a float16 random case
    name, op, _, _, axis = CASES[-40][:5]
    fn = tf.reduce_sum if op == "sum" else tf.reduce_mean
    f = tf.function(lambda t: fn(t, axis=axis))
    np.testing.assert_array_equal(_bits(f(tf.constant(x)).numpy()), _DATA[name])
