"""The channel-scale folding pass (function/passes.py, ``fold_channel_scales``): an inference
batch normalization's per-channel multiply after a convolution is computed on the filter
instead (``conv(x, k) * s`` as ``conv(x, k * s)``), with the value of ``s`` at each call, so
a changed variable is seen; the result stays within float32 rounding of the traced order,
and nothing is folded where the multiply's result or the convolution's is read elsewhere.
The pass is on with ``TAPEFLOW_FOLD_SCALES=1`` only (``passes.FOLD_SCALES``); these tests turn
it on, and turn off ``TAPEFLOW_VALIDATE_FUNCTIONS``' eager comparison, whose 1e-5 tolerance
the pass's rounding can exceed where a convolution's terms cancel (they compare themselves,
within float32 rounding)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.function import concrete_function, passes
from tapeflow.function.ir import Op
from tapeflow.function.passes import optimized


@pytest.fixture(autouse=True)
def _folding():
    saved = passes.FOLD_SCALES[0], concrete_function._VALIDATE[0]
    passes.FOLD_SCALES[0], concrete_function._VALIDATE[0] = True, False
    yield
    passes.FOLD_SCALES[0], concrete_function._VALIDATE[0] = saved


def test_the_pass_is_off_unless_asked_for():
    passes.FOLD_SCALES[0] = False
    net, _ = _bn_net(False, np.float32)
    x = tf.constant(np.ones((1, 12, 12, 6), np.float32))
    concrete = tf.function(net).get_concrete_function(x)
    after = _names(optimized(concrete.program).steps)
    assert after.index("Conv2D") < after.index("Rsqrt")


def _names(steps):
    return [s.prim.name for s in steps if type(s) is Op]


def _bn_net(depthwise, dtype):
    rng = np.random.default_rng(7 + depthwise)
    c, o = 6, (6 if depthwise else 10)
    k = tf.Variable(rng.standard_normal((3, 3, c, 1 if depthwise else o)).astype(dtype))
    gamma = tf.Variable(rng.uniform(0.5, 2, o).astype(dtype))
    var = tf.Variable(rng.uniform(0.5, 2, o).astype(dtype))
    mean = tf.Variable(rng.standard_normal(o).astype(dtype))
    beta = tf.Variable(rng.standard_normal(o).astype(dtype))

    def net(x):
        if depthwise:
            y = tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "SAME")
        else:
            y = tf.nn.conv2d(x, k, 1, "SAME")
        s = tf.math.rsqrt(var + 1e-3) * gamma
        return tf.nn.relu6(y * s + (beta - mean * s))
    return net, (k, gamma, var, mean, beta)


@pytest.mark.parametrize("depthwise", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_scale_goes_into_the_filter_and_values_match_eager(depthwise, dtype):
    net, (k, gamma, *_) = _bn_net(depthwise, dtype)
    x = tf.constant(np.random.default_rng(1).standard_normal((2, 12, 12, 6)).astype(dtype))
    f = tf.function(net)
    concrete = f.get_concrete_function(x)
    before, after = _names(concrete.program.steps), _names(optimized(concrete.program).steps)
    conv = "DepthwiseConv2dNative" if depthwise else "Conv2D"
    assert before.count("Mul") == 3 and after.count("Mul") == 3 and after.count(conv) == 1
    # the scaled filter is computed before the convolution, which now comes after the scale
    assert after.index(conv) > after.index("Rsqrt") and before.index(conv) < before.index(
        "Rsqrt")
    tol = 1e-5 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(f(x).numpy(), net(x).numpy(), rtol=tol, atol=tol)
    # the scale is read at each call: a changed gamma is seen
    gamma.assign(gamma * -3)
    np.testing.assert_allclose(f(x).numpy(), net(x).numpy(), rtol=tol, atol=tol)
    # and gradients (from the traced program) still match eager execution
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(f(x) ** 2)
    g = tape.gradient(loss, k)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(net(x) ** 2)
    np.testing.assert_allclose(g.numpy(), tape.gradient(loss, k).numpy(), rtol=tol * 10,
                               atol=tol * 10)


def test_no_fold_when_the_convolution_result_is_read_twice_or_the_scale_is_not_per_channel():
    rng = np.random.default_rng(3)
    k = tf.constant(rng.standard_normal((3, 3, 4, 8)).astype(np.float32))
    s = tf.constant(rng.standard_normal(8).astype(np.float32))
    s2 = tf.constant(rng.standard_normal((12, 1, 8)).astype(np.float32))
    x = tf.constant(rng.standard_normal((1, 12, 12, 4)).astype(np.float32))

    def twice(x):
        y = tf.nn.conv2d(x, k, 1, "SAME")
        return y * s + y

    def spatial(x):
        return tf.nn.conv2d(x, k, 1, "SAME") * s2

    def small_image(x):            # the filter is larger than the image: not worth it
        return tf.nn.conv2d(x[:, :2, :2], k, 1, "SAME") * s

    for fn in (twice, spatial, small_image):
        concrete = tf.function(fn).get_concrete_function(x)
        after = optimized(concrete.program).steps
        conv = [i for i, st in enumerate(after) if type(st) is Op and st.prim.name == "Conv2D"]
        mul = [i for i, st in enumerate(after) if type(st) is Op and st.prim.name == "Mul"]
        assert conv and mul and conv[0] < mul[0], fn.__name__
        np.testing.assert_allclose(tf.function(fn)(x).numpy(), fn(x).numpy(), rtol=1e-6)
