"""ConvLSTM1D/2D/3D, Conv3DTranspose (and ``tf.nn.conv3d_transpose``), the adaptive poolings
and GroupQueryAttention against Keras 3.15 / TF 2.21 values recorded by
``tools/record_keras_kconv.py``: outputs and gradients given the same weights (dropout masks
drawn from the same seeds), weight names and order, output shapes, configs, and the layers
through ``from_config`` and a ``.keras`` file."""
import numpy as np
import pytest

import tapeflow as tf

from .test_layers import close, load, same_config

DATA = load("kconv.json")
LAYER_CASES = (DATA["conv_lstm"] + DATA["conv3d_transpose"] + DATA["adaptive_pooling"]
               + DATA["gqa"] + DATA["spectrogram"])


def _array(spec):
    return np.asarray(spec["array"], spec["dtype"])


def _kwargs(kwargs):
    return {k: (tf.constant(_array(v)) if isinstance(v, dict) and "array" in v else v)
            for k, v in (kwargs or {}).items()}


def _nested_lists(shape):
    if isinstance(shape, (list, tuple)):
        return [_nested_lists(s) for s in shape]
    return shape


def replay(case):
    """The recorder's calls, in its order: build call, weights, (states), taped call."""
    tf.keras.utils.set_random_seed(case["seed"])
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    inputs = [tf.constant(_array(i)) for i in case["inputs"]]
    call_kwargs = _kwargs(case["call_kwargs"])
    build_kwargs = call_kwargs if case["build_kwargs"] is None else _kwargs(
        case["build_kwargs"])
    layer(*inputs, **build_kwargs)
    if case["keep_weights"]:  # the layer's own initial weights (STFT kernels) are Keras's
        for got, expected in zip(layer.get_weights(), case["weights"], strict=True):
            close(got, expected, 1e-5)
    layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    if case["kwargs"].get("stateful"):
        layer.reset_state()
        for i in range(case["pre_calls"]):
            out = layer(*inputs, **call_kwargs)
            if i == 0:
                close(out, case["first"])
    floats = [t for t in inputs if t.dtype.is_floating]
    with tf.GradientTape() as tape:
        tape.watch(floats)
        y = layer(*inputs, training=case["training"], **call_kwargs)
        ys = list(y) if isinstance(y, (list, tuple)) else [y]
        loss = tf.add_n([tf.reduce_sum(o * np.asarray(c, np.float32))
                         for o, c in zip(ys, case["cts"], strict=True)])
    grads = tape.gradient(loss, floats + layer.trainable_weights)
    return layer, inputs, ys, grads


@pytest.mark.parametrize("case", LAYER_CASES, ids=lambda c: c["label"])
def test_layer_matches_keras_given_the_same_weights(case):
    layer, inputs, ys, grads = replay(case)
    assert len(ys) == len(case["ys"])
    for got, expected in zip(ys, case["ys"], strict=True):
        close(got, expected)
    for got, expected in zip(grads, case["grads"], strict=True):
        if expected is None:
            assert got is None
        else:
            close(tf.convert_to_tensor(got), expected, 5e-5)

    def ours(paths):
        return [p.replace(p.split("/")[0], layer.name, 1) for p in paths]
    assert [w.path for w in layer.weights] == ours(case["weight_names"])
    assert [w.path for w in layer.trainable_weights] == ours(case["trainable"])
    shapes = [(None,) + tuple(np.shape(i["array"])[1:]) for i in case["inputs"]]
    assert _nested_lists(layer.compute_output_shape(*shapes)) == case["output_shape"]
    same_config(layer.get_config(), case["config"])


ROUND_TRIP = [c for c in LAYER_CASES
              if not c["call_kwargs"] and not c["kwargs"].get("stateful")]


@pytest.mark.parametrize("case", ROUND_TRIP, ids=lambda c: c["label"])
def test_layer_round_trips_through_config_and_a_keras_file(case, tmp_path):
    arrays = [_array(i) for i in case["inputs"]]
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    copy = type(layer).from_config(layer.get_config())
    copy(*arrays)
    same_config(copy.get_config(), case["config"])
    ins = [tf.keras.Input(a.shape[1:]) for a in arrays]
    model = tf.keras.Model(ins, layer(*ins))
    layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    out = model(arrays)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if case["training"]:
        return  # dropout while training: the replay test checks the values
    for got, expected in zip(outs, case["ys"], strict=True):
        close(got, expected)
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert type(loaded.layers[-1]) is type(layer)
    out = loaded(arrays)
    for got, expected in zip(list(out) if isinstance(out, (list, tuple)) else [out],
                             case["ys"], strict=True):
        close(got, expected)


def test_keras_aliases_and_names():
    assert tf.keras.layers.Convolution3DTranspose is tf.keras.layers.Conv3DTranspose
    assert tf.keras.layers.GroupQueryAttention.__name__ == "GroupedQueryAttention"
    config = tf.keras.layers.serialize(tf.keras.layers.GroupQueryAttention(2, 2, 1))
    assert (config["module"], config["class_name"]) == ("keras.layers", "GroupQueryAttention")


@pytest.mark.parametrize("case", DATA["layer_errors"], ids=lambda c: c["cls"])
def test_channels_first_fails_as_on_tensorflows_cpu(case):
    # TensorFlow's CPU Conv2D has no NCHW kernel, so Keras's channels_first fails there
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    with pytest.raises(getattr(tf.errors, case["class"]), match=case["message"]):
        layer(tf.ones(case["shape"]))


# -- ConvLSTM details ----------------------------------------------------------------------

def test_conv_lstm_refuses_strides_with_dilation_and_unknown_spatial_sizes():
    with pytest.raises(ValueError, match="`strides > 1` is not compatible with"):
        tf.keras.layers.ConvLSTM2D(2, 3, strides=2, dilation_rate=2)
    layer = tf.keras.layers.ConvLSTM1D(2, 2)
    with pytest.raises(ValueError, match="expected ndim=4"):
        layer(tf.ones((2, 3, 4)))


def test_conv_lstm_stateful_needs_a_static_batch_and_keeps_the_states():
    layer = tf.keras.layers.ConvLSTM1D(2, 2, stateful=True, padding="same")
    x = tf.constant(np.random.default_rng(0).standard_normal((3, 2, 5, 1)), tf.float32)
    first = layer(x).numpy()
    second = layer(x).numpy()
    assert not np.allclose(first, second)
    assert [tuple(v.shape) for v in layer.states] == [(3, 5, 2), (3, 5, 2)]
    layer.reset_state()
    np.testing.assert_allclose(layer(x).numpy(), first, rtol=1e-6)
    with pytest.raises(ValueError, match="Expected batch size: 3"):
        layer(tf.ones((2, 2, 5, 1)))


def test_conv_lstm_initial_state_is_used():
    layer = tf.keras.layers.ConvLSTM1D(2, 2, padding="same", return_state=True)
    x = tf.ones((1, 3, 4, 1))
    _, h, c = layer(x)
    # starting from the final states of the first half continues the sequence
    _, h1, c1 = layer(x[:, :2])
    _, h2, c2 = layer(x[:, 2:], initial_state=[h1, c1])
    np.testing.assert_allclose(h2.numpy(), h.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c2.numpy(), c.numpy(), rtol=1e-5, atol=1e-6)


# -- tf.nn.conv3d_transpose --------------------------------------------------------------

@pytest.mark.parametrize("case", DATA["conv3d_transpose_ops"],
                         ids=lambda c: f"{c['output_shape']}{c['strides']}{c['padding']}")
def test_conv3d_transpose_matches_tensorflow(case):
    x = tf.constant(np.asarray(case["x"], np.float32))
    w = tf.constant(np.asarray(case["w"], np.float32))
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        kw = {"dilations": case["dilations"]} if case["dilations"] else {}
        y = tf.nn.conv3d_transpose(x, w, case["output_shape"], case["strides"],
                                   case["padding"], **kw)
        loss = tf.reduce_sum(y * np.asarray(case["ct"], np.float32))
    assert y.shape == tuple(case["output_shape"])
    close(y, case["y"])
    for got, expected in zip(tape.gradient(loss, [x, w]), case["grads"], strict=True):
        close(got, expected, 1e-4)


@pytest.mark.parametrize("case", DATA["conv3d_transpose_errors"],
                         ids=lambda c: c["message"][-40:])
def test_conv3d_transpose_errors_are_tensorflows(case):
    with pytest.raises(getattr(tf.errors, case["class"])) as info:
        tf.nn.conv3d_transpose(tf.ones(case["x"]), tf.ones(case["w"]), case["output_shape"],
                               case["strides"], "VALID", dilations=case["dilations"])
    # TF's text after its "{{function_node ...}}" prefix
    assert case["message"].split("}} ", 1)[1].split(" [Op:")[0] in str(info.value)


def _fd(f, base, idx, eps=1e-6):
    hi, lo = base.copy(), base.copy()
    hi[idx] += eps
    lo[idx] -= eps
    return (f(hi) - f(lo)) / (2 * eps)


def test_conv3d_transpose_gradients_equal_finite_differences_in_float64():
    rng = np.random.default_rng(3)
    x0 = rng.standard_normal((1, 2, 3, 3, 2))
    w0 = rng.standard_normal((3, 2, 2, 3, 2))
    ct = rng.standard_normal((1, 4, 6, 3, 3))
    out, st = [1, 4, 6, 3, 3], [1, 2, 2, 1, 1]

    def value(xv, wv):
        y = tf.nn.conv3d_transpose(tf.constant(xv), tf.constant(wv), out, st, "SAME")
        return float(np.sum(y.numpy() ** 2 * ct))

    x, w = tf.constant(x0), tf.constant(w0)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, w])
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.conv3d_transpose(x, w, out, st, "SAME")
            loss = tf.reduce_sum(tf.square(y) * ct)
        gx, gw = tape.gradient(loss, [x, w])
        total = tf.reduce_sum(gw)
    assert gx.dtype == tf.float64
    for idx in [(0, 0, 0, 0, 0), (0, 1, 2, 1, 1), (0, 0, 1, 1, 0)]:
        np.testing.assert_allclose(gx.numpy()[idx], _fd(lambda v: value(v, w0), x0, idx),
                                   rtol=1e-6, atol=1e-8)
    for idx in [(0, 0, 0, 0, 0), (2, 1, 1, 2, 1), (1, 0, 1, 1, 0)]:
        np.testing.assert_allclose(gw.numpy()[idx], _fd(lambda v: value(x0, v), w0, idx),
                                   rtol=1e-6, atol=1e-8)
    # second order: d(sum dL/dw)/dx against finite differences of the first-order gradient
    second = outer.gradient(total, x).numpy()

    def sum_gw(xv):
        xt = tf.constant(xv)
        with tf.GradientTape() as t:
            t.watch(w)
            loss = tf.reduce_sum(tf.square(tf.nn.conv3d_transpose(xt, w, out, st, "SAME")) * ct)
        return float(np.sum(t.gradient(loss, w).numpy()))
    for idx in [(0, 0, 0, 0, 0), (0, 1, 1, 1, 1)]:
        np.testing.assert_allclose(second[idx], _fd(sum_gw, x0, idx), rtol=1e-5, atol=1e-7)


def test_conv3d_transpose_is_the_adjoint_of_conv3d():
    rng = np.random.default_rng(4)
    z = tf.constant(rng.standard_normal((2, 5, 6, 4, 3)))
    w = tf.constant(rng.standard_normal((3, 2, 3, 3, 2)))
    y = tf.nn.conv3d(z, w, [1, 2, 3, 1, 1], "SAME")
    g = tf.constant(rng.standard_normal(tuple(y.shape)))
    t = tf.nn.conv3d_transpose(g, w, list(z.shape), [1, 2, 3, 1, 1], "SAME")
    np.testing.assert_allclose(np.sum(y.numpy() * g.numpy()), np.sum(z.numpy() * t.numpy()),
                               rtol=1e-10)


# -- adaptive pooling --------------------------------------------------------------------

def test_adaptive_pooling_refuses_bad_output_sizes():
    with pytest.raises(TypeError, match="`output_size` must be an integer or"):
        tf.keras.layers.AdaptiveAveragePooling2D((2, 2, 2))
    with pytest.raises(ValueError, match="Invalid data_format"):
        tf.keras.layers.AdaptiveMaxPooling1D(2, data_format="nchw")


# -- GroupQueryAttention ----------------------------------------------------------------

def test_group_query_attention_refuses_bad_heads_and_windows():
    with pytest.raises(ValueError, match="`num_query_heads` must be divisible by"):
        tf.keras.layers.GroupQueryAttention(2, 3, 2)
    with pytest.raises(ValueError, match="`sliding_window` must be `None` or a positive"):
        tf.keras.layers.GroupQueryAttention(2, 2, 1, sliding_window=0)


# -- spectrograms ------------------------------------------------------------------------

def test_stft_spectrogram_refuses_bad_arguments_as_keras():
    with pytest.raises(ValueError, match="`frame_step` should be a positive integer not"):
        tf.keras.layers.STFTSpectrogram(frame_length=8, frame_step=9)
    with pytest.raises(ValueError, match="Output mode is invalid"):
        tf.keras.layers.STFTSpectrogram(mode="power")
    with pytest.raises(ValueError, match="Scaling is invalid"):
        tf.keras.layers.STFTSpectrogram(scaling="energy")
    with pytest.raises(ValueError, match="window"):  # scipy's text (it varies by version)
        tf.keras.layers.STFTSpectrogram(window="no-such-window")
    with pytest.raises(TypeError, match="Invalid input type"):
        tf.keras.layers.STFTSpectrogram(frame_length=4)(tf.ones((1, 8, 1), tf.int32))


def test_mel_spectrogram_of_a_tone_peaks_in_its_band_and_refuses_short_ffts():
    rate, n = 8000, 4000
    tone = np.sin(2 * np.pi * 1000 * np.arange(n) / rate).astype(np.float32)
    layer = tf.keras.layers.MelSpectrogram(fft_length=256, sequence_stride=128,
                                           sampling_rate=rate, num_mel_bins=20,
                                           power_to_db=False)
    out = layer(tone[None]).numpy()[0]
    assert out.shape == (20, (n + 128 + 1) // 128)
    # the band whose centre is nearest 1 kHz on the mel scale holds the most energy
    centres = 700 * np.expm1(np.linspace(1127 * np.log1p(20 / 700),
                                         1127 * np.log1p(4000 / 700), 22)[1:-1] / 1127)
    assert np.argmax(out[:, 10]) == np.argmin(np.abs(centres - 1000))
    with pytest.raises(ValueError, match="`fft_length` must be greater than or equal to"):
        tf.keras.layers.MelSpectrogram(fft_length=64, sequence_length=128)
