"""conv2d / max_pool2d / avg_pool2d and the Conv2D and pooling layers against TensorFlow,
plus float64 finite differences for first and second derivatives."""
import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import f32, load

FIX = load("conv.json")
CASES = FIX["cases"]


def close(got, want):
    np.testing.assert_allclose(got.numpy(), f32(want), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['padding']}-s{c['strides']}" for c in CASES])
def test_conv_and_pooling_match_tensorflow(case):
    x, f = tf.constant(f32(FIX["x"])), tf.constant(f32(FIX["filters"]))
    s, p = case["strides"], case["padding"]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, f])
        conv = tf.nn.conv2d(x, f, s, p)
        conv_loss = tf.reduce_sum(conv * tf.sin(conv))
        mx = tf.nn.max_pool2d(x, 3, s, p)
        mx_loss = tf.reduce_sum(mx * mx)
        av = tf.nn.avg_pool2d(x, 3, s, p)
        av_loss = tf.reduce_sum(av * av)
    close(conv, case["conv"])
    gx, gf = tape.gradient(conv_loss, [x, f])
    close(gx, case["conv_grad_input"])
    close(gf, case["conv_grad_filters"])
    close(mx, case["max_pool"])
    close(tape.gradient(mx_loss, x), case["max_pool_grad"])
    close(av, case["avg_pool"])
    close(tape.gradient(av_loss, x), case["avg_pool_grad"])


def test_conv2d_layer_matches_tensorflow():
    tf.keras.backend.clear_session()
    layer = tf.keras.layers.Conv2D(4, (3, 2), strides=2, padding="same", activation="relu")
    layer.build((None, 7, 6, 3))
    layer.kernel.assign(f32(FIX["filters"]))
    layer.bias.assign(f32(FIX["layer_bias"]))
    close(layer(f32(FIX["x"])), FIX["layer_output"])
    assert layer.name == FIX["layer_name"]
    assert tf.keras.layers.MaxPooling2D().name == FIX["pool_name"]


def _numeric_grad(fn, x, eps=1e-6):
    out = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += eps
        down[idx] -= eps
        out[idx] = (fn(up) - fn(down)) / (2 * eps)
    return out


@pytest.mark.parametrize("padding,strides", [("SAME", 2), ("VALID", 1)])
def test_conv2d_first_and_second_derivatives_match_finite_differences(padding, strides):
    rng = np.random.default_rng(1)
    x0 = rng.standard_normal((1, 5, 4, 2))
    f0 = rng.standard_normal((2, 3, 2, 3))
    w = rng.standard_normal(tf.nn.conv2d(x0, f0, strides, padding).shape)

    def loss(x, f):
        y = tf.nn.conv2d(x, f, strides, padding)
        return tf.reduce_sum(tf.tanh(y) * w)

    def grad_x(x, f):
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            value = loss(x, f)
        return tape.gradient(value, x)

    gx = grad_x(x0, f0).numpy()
    np.testing.assert_allclose(gx, _numeric_grad(lambda x: float(loss(x, f0)), x0),
                               rtol=1e-6, atol=1e-8)
    # Second order: d/dx of sum(grad_x * v) through the patch transpose's own rule.
    v = rng.standard_normal(x0.shape)
    xt = tf.constant(x0)
    with tf.GradientTape() as outer:
        outer.watch(xt)
        with tf.GradientTape() as inner:
            inner.watch(xt)
            value = loss(xt, f0)
        directional = tf.reduce_sum(inner.gradient(value, xt) * v)
    hv = outer.gradient(directional, xt).numpy()
    numeric = _numeric_grad(lambda x: float(tf.reduce_sum(grad_x(x, f0) * v)), x0)
    np.testing.assert_allclose(hv, numeric, rtol=1e-5, atol=1e-7)


def test_conv2d_refuses_mismatched_channels():
    with pytest.raises(tf.errors.InvalidArgumentError, match="filter depth: 3 vs 2"):
        tf.nn.conv2d(tf.ones((1, 4, 4, 3)), tf.ones((2, 2, 2, 1)), 1, "VALID")


def test_small_cnn_trains_in_a_custom_loop():
    tf.keras.utils.set_random_seed(0)  # the layers draw their initial weights from Keras's seed
    rng = np.random.default_rng(0)
    x = rng.random((32, 6, 6, 1)).astype(np.float32)
    y = (x[:, :3].mean((1, 2, 3)) > x[:, 3:].mean((1, 2, 3))).astype(np.int64)
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
        tf.keras.layers.MaxPooling2D(), tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(2)])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = tf.keras.optimizers.Adam(0.02)
    losses = []
    for _ in range(40):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables, strict=True))
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]


C1 = load("conv1d.json")


@pytest.mark.parametrize("index", range(len(C1["cases"])),
                         ids=[c["padding"] for c in C1["cases"]])
def test_conv1d_matches_tensorflow(index):
    case = C1["cases"][index]
    tf.keras.backend.clear_session()
    for _ in range(index):  # the recording made this many Conv1D layers before
        tf.keras.layers.Conv1D(1, 1)
    layer = tf.keras.layers.Conv1D(4, 3, strides=case["strides"], padding=case["padding"])
    layer.build((None, 7, 3))
    layer.kernel.assign(f32(C1["kernel"]))
    close(layer(f32(C1["x"])), case["output"])
    assert layer.name == case["name"]
    assert [v.path for v in layer.weights] == case["paths"]


def test_pooling1d_matches_tensorflow():
    x = f32(C1["x"])
    close(tf.keras.layers.MaxPooling1D()(x), C1["max_pool"])
    close(tf.keras.layers.AveragePooling1D(3, 2, padding="same")(x), C1["avg_pool_same"])
