"""Keras 3 layers added in session 7 (depthwise/separable convolutions, Dot, EinsumDense,
RMSNormalization, Keras's aliases) against Keras 3.15 / TF 2.21 values recorded by
``tools/record_keras_layers.py extra``, and tapeflow's ``tf.keras.layers`` names against
Keras 3.15's, with the names still missing in an explicit table that may only shrink."""
import re

import numpy as np
import pytest

import tapeflow as tf

from .test_layers import close, load, plain, run_layer, same_config

EXTRA = load("layers_extra.json")
CASES = EXTRA["cases"]

_BACKEND = "wraps another framework's module (JAX/Flax/PyTorch): out of scope"
# Keras 3.15 names tapeflow's tf.keras.layers lacks, with the reason. A name that appears
# must leave this table (the test below is strict both ways).
MISSING = {
    "FlaxLayer": _BACKEND,
    "JaxLayer": _BACKEND,
    "TorchModuleWrapper": _BACKEND,
}


def test_keras_layer_names_are_present_or_listed_as_missing():
    ours = {n for n in dir(tf.keras.layers) if not n.startswith("_")}
    keras = set(EXTRA["names"])
    assert EXTRA["keras_version"].startswith("3.15")
    assert sorted(n for n in keras - ours if n not in MISSING) == []
    assert sorted(n for n in MISSING if n in ours) == []
    assert set(MISSING) <= keras


@pytest.mark.parametrize("alias, name", [
    ("AvgPool1D", "AveragePooling1D"), ("AvgPool2D", "AveragePooling2D"),
    ("MaxPool1D", "MaxPooling1D"), ("MaxPool2D", "MaxPooling2D"),
    ("GlobalAvgPool1D", "GlobalAveragePooling1D"),
    ("GlobalAvgPool2D", "GlobalAveragePooling2D"),
    ("GlobalMaxPool1D", "GlobalMaxPooling1D"), ("GlobalMaxPool2D", "GlobalMaxPooling2D"),
    ("Convolution1D", "Conv1D"), ("Convolution2D", "Conv2D"),
    ("Convolution1DTranspose", "Conv1DTranspose"),
    ("Convolution2DTranspose", "Conv2DTranspose"),
    ("SeparableConvolution1D", "SeparableConv1D"),
    ("SeparableConvolution2D", "SeparableConv2D"),
    ("Convolution3D", "Conv3D"), ("MaxPool3D", "MaxPooling3D"),
    ("AvgPool3D", "AveragePooling3D"), ("GlobalAvgPool3D", "GlobalAveragePooling3D"),
    ("GlobalMaxPool3D", "GlobalMaxPooling3D"),
])
def test_aliases_are_the_same_class_as_in_keras(alias, name):
    assert getattr(tf.keras.layers, alias) is getattr(tf.keras.layers, name)
    assert getattr(tf.keras.layers, alias).__name__ == name


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["label"])
def test_new_layer_matches_keras_given_the_same_weights(case):
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    x, y, grads = run_layer(layer, case)
    close(y, case["y"])
    for got, expected in zip(grads, case["grads"], strict=True):
        close(tf.convert_to_tensor(got), expected)
    assert [w.path for w in layer.weights] == [
        p.replace(p.split("/")[0], layer.name, 1) for p in case["weight_names"]]
    x_shape = np.asarray(case["x"]).shape
    assert list(layer.compute_output_shape((None,) + x_shape[1:])) == case["output_shape"]
    same_config(layer.get_config(), case["config"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["label"])
def test_new_layer_round_trips_through_config_and_a_keras_file(case, tmp_path):
    x = np.asarray(case["x"], np.float32)
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    copy = type(layer).from_config(layer.get_config())
    copy(x)
    same_config(copy.get_config(), case["config"])
    model = tf.keras.Sequential([tf.keras.Input(x.shape[1:]), layer])
    layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    close(model(x, training=case["training"]), case["y"])
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert type(loaded.layers[0]) is type(layer)
    close(loaded(x, training=case["training"]), case["y"])


@pytest.mark.parametrize("case", EXTRA["dots"], ids=lambda c: c["label"])
def test_dot_matches_keras(case):
    layer = tf.keras.layers.Dot(**case["kwargs"])
    a = tf.constant(np.asarray(case["x1"], np.float32))
    b = tf.constant(np.asarray(case["x2"], np.float32))
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = layer([a, b])
        loss = tf.reduce_sum(y * np.asarray(case["ct"], np.float32))
    close(y, case["y"])
    for got, expected in zip(tape.gradient(loss, [a, b]), case["grads"], strict=True):
        close(got, expected)
    shapes = [(None,) + tuple(a.shape[1:]), (None,) + tuple(b.shape[1:])]
    assert list(layer.compute_output_shape(shapes)) == case["output_shape"]
    config = case["config"]
    same_config(dict(layer.get_config(), axes=plain(layer.get_config()["axes"])), config)
    # the functional form and a functional model give the same values
    i1, i2 = tf.keras.Input(a.shape[1:]), tf.keras.Input(b.shape[1:])
    model = tf.keras.Model([i1, i2], tf.keras.layers.dot([i1, i2], **case["kwargs"]))
    close(model([a, b]), case["y"])


@pytest.mark.parametrize("case", EXTRA["attention"], ids=lambda c: c["label"])
def test_additive_attention_matches_keras(case):
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    xs = [tf.constant(np.asarray(x, np.float32)) for x in case["xs"]]
    layer(xs, **case["call_kwargs"])
    layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = layer(xs, **case["call_kwargs"])
        loss = tf.reduce_sum(y * np.asarray(case["ct"], np.float32))
    close(y, case["y"])
    grads = tape.gradient(loss, xs + layer.trainable_weights)
    for got, expected in zip(grads, case["grads"], strict=True):
        close(got, expected)
    assert [w.path for w in layer.weights] == [
        p.replace(p.split("/")[0], layer.name, 1) for p in case["weight_names"]]
    same_config(layer.get_config(), case["config"])
    copy = tf.keras.layers.AdditiveAttention.from_config(layer.get_config())
    assert copy.use_scale == layer.use_scale


@pytest.mark.parametrize("case", EXTRA["nn3d"], ids=lambda c: f"{c['fn']}{c['kwargs']}")
def test_nn_3d_convolution_and_pooling_match_tensorflow(case):
    x = tf.constant(np.asarray(EXTRA["nn3d_x"], np.float32))
    w = None if case["w"] is None else tf.constant(np.asarray(case["w"], np.float32))
    fn = getattr(tf.nn, case["fn"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        if w is not None:
            tape.watch(w)
        y = fn(x, w, **case["kwargs"]) if w is not None else fn(x, **case["kwargs"])
        loss = tf.reduce_sum(y * np.asarray(case["ct"], np.float32))
    close(y, case["y"])
    grads = tape.gradient(loss, [x] + ([] if w is None else [w]))
    for got, expected in zip(grads, case["grads"], strict=True):
        close(got, expected, 1e-4)


def test_conv3d_second_derivative_equals_finite_differences_in_float64():
    rng = np.random.default_rng(1)
    x = tf.constant(rng.standard_normal((1, 3, 3, 3, 2)))
    w = tf.constant(rng.standard_normal((2, 2, 2, 2, 1)))

    def grad_w(xv):
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = tf.reduce_sum(tf.square(tf.nn.conv3d(xv, w, [1] * 5, "SAME")))
        return tape.gradient(loss, w)

    with tf.GradientTape() as outer:
        outer.watch(x)
        gw = grad_w(x)
        total = tf.reduce_sum(gw)
    got = outer.gradient(total, x).numpy()
    eps, base = 1e-6, x.numpy()
    for idx in [(0, 0, 0, 0, 0), (0, 1, 2, 1, 1), (0, 2, 2, 2, 0)]:
        hi, lo = base.copy(), base.copy()
        hi[idx] += eps
        lo[idx] -= eps
        fd = (np.sum(grad_w(tf.constant(hi)).numpy()) - np.sum(grad_w(tf.constant(lo)).numpy()))
        np.testing.assert_allclose(got[idx], fd / (2 * eps), rtol=1e-5, atol=1e-7)


def test_dot_refuses_mismatched_axes_and_bad_arguments():
    with pytest.raises(ValueError, match="Incompatible input shapes: axis values 3"):
        tf.keras.layers.Dot(axes=1)([tf.ones((2, 3)), tf.ones((2, 4))])
    with pytest.raises(TypeError, match="Invalid type for argument `axes`"):
        tf.keras.layers.Dot(axes="1")
    with pytest.raises(ValueError, match="it should contain two elements"):
        tf.keras.layers.Dot(axes=(1, 1, 1))


def test_depthwise_and_separable_refuse_causal_padding_and_bad_multipliers():
    with pytest.raises(ValueError, match="must be a list/tuple or one of"):
        tf.keras.layers.DepthwiseConv1D(3, padding="causal")
    with pytest.raises(ValueError, match="must be a list/tuple or one of"):
        tf.keras.layers.SeparableConv1D(2, 3, padding="causal")
    with pytest.raises(ValueError, match="Invalid value for argument `depth_multiplier`"):
        tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=0)


def test_einsum_dense_refuses_unsupported_equations():
    with pytest.raises(ValueError, match="Invalid einsum equation 'ab,bc'"):
        tf.keras.layers.EinsumDense("ab,bc", 3)(tf.ones((2, 4)))
    with pytest.raises(ValueError, match="Weight dimension 'z' did not have a match"):
        tf.keras.layers.EinsumDense("ab,bz->a", ())(tf.ones((2, 4)))


def test_depthwise_conv2d_equals_finite_differences_in_float64():
    layer = tf.keras.layers.DepthwiseConv2D(2, depth_multiplier=2, dtype="float64")
    x = tf.constant(np.random.default_rng(0).standard_normal((1, 3, 3, 2)))
    layer(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.sin(layer(x)))
    got = tape.gradient(loss, x).numpy()
    eps, want = 1e-6, np.zeros_like(got)
    base = x.numpy()
    for idx in np.ndindex(base.shape):
        hi, lo = base.copy(), base.copy()
        hi[idx] += eps
        lo[idx] -= eps
        want[idx] = (np.sum(np.sin(layer(hi).numpy())) - np.sum(np.sin(layer(lo).numpy()))) / (
            2 * eps)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("case", EXTRA["spectral"], ids=lambda c: c["label"])
def test_spectral_normalization_matches_keras(case, tmp_path):
    inner = getattr(tf.keras.layers, case["inner"])(**case["inner_kwargs"])
    layer = tf.keras.layers.SpectralNormalization(inner,
                                                  power_iterations=case["power_iterations"])
    x = tf.constant(np.asarray(case["x"], case["x_dtype"]))
    layer(x)
    assert [w.path for w in layer.weights] == [
        p.replace(p.split("/")[0], layer.name, 1).replace(
            p.split("/")[1], inner.name, 1) if p.count("/") == 2 else
        p.replace(p.split("/")[0], layer.name, 1) for p in case["weight_names"]]
    layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    close(layer(x, training=True), case["y_train"])
    for got, expected in zip(layer.get_weights(), case["after"], strict=True):
        close(got, expected)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(tf.cast(y, tf.float32) * np.asarray(case["ct"], np.float32))
    close(y, case["y"])
    grads = tape.gradient(loss, [x] + layer.trainable_weights)
    for got, expected in zip(grads, case["grads"], strict=True):
        if expected is not None:  # TF records none through int ids (an Embedding's too)
            close(tf.convert_to_tensor(got), expected)
    config = layer.get_config()
    assert config["power_iterations"] == case["power_iterations"]
    assert config["layer"]["class_name"] == case["config"]["layer"]["class_name"]
    same_config(config["layer"]["config"], case["config"]["layer"]["config"])
    copy = tf.keras.layers.SpectralNormalization.from_config(config)
    assert type(copy.layer) is type(inner)
    model = tf.keras.Sequential([tf.keras.Input(x.shape[1:], dtype=x.dtype), layer])
    path = str(tmp_path / "s.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    for got, expected in zip(loaded.get_weights(), model.get_weights(), strict=True):
        close(got, expected, 0)
    close(loaded(x), case["y"])


def test_wrapper_refuses_a_non_layer_and_spectral_normalization_bad_iterations():
    with pytest.raises(ValueError, match="supplied to Wrapper isn't a supported layer"):
        tf.keras.layers.Wrapper("dense")
    with pytest.raises(ValueError, match="`power_iterations` should be greater than zero"):
        tf.keras.layers.SpectralNormalization(tf.keras.layers.Dense(2), power_iterations=0)
    with pytest.raises(ValueError, match="has no attribute 'kernel' nor 'embeddings'"):
        tf.keras.layers.SpectralNormalization(tf.keras.layers.ReLU())(tf.ones((2, 3)))


@pytest.mark.parametrize("case", EXTRA["reversible"], ids=lambda c: c["label"])
def test_reversible_embedding_matches_keras(case):
    layer = tf.keras.layers.ReversibleEmbedding(**case["kwargs"])
    ids = tf.constant(np.asarray(case["ids"], np.int32))
    layer(ids)
    assert [w.path for w in layer.weights] == [
        p.replace(p.split("/")[0], layer.name, 1) for p in case["weight_names"]]
    layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    h = tf.constant(np.asarray(case["h"], np.float32))
    with tf.GradientTape() as tape:
        tape.watch(h)
        fwd = layer(ids)
        rev = layer(h, reverse=True)
        loss = (tf.reduce_sum(fwd * np.asarray(case["ct_f"], np.float32))
                + tf.reduce_sum(rev * np.asarray(case["ct_r"], np.float32)))
    close(fwd, case["fwd"])
    close(rev, case["rev"])
    for got, expected in zip(tape.gradient(loss, [h] + layer.trainable_weights),
                             case["grads"], strict=True):
        close(tf.convert_to_tensor(got), expected)
    assert list(layer.compute_output_shape((None, 4, 3), reverse=True)) == case["rev_shape"]
    same_config(layer.get_config(), case["config"])
    copy = tf.keras.layers.ReversibleEmbedding.from_config(layer.get_config())
    assert copy.tie_weights == case["kwargs"].get("tie_weights", True)


@pytest.mark.parametrize("case", EXTRA["stacked"], ids=lambda c: c["label"])
def test_stacked_rnn_cells_match_keras(case, tmp_path):
    cells = tf.keras.layers.StackedRNNCells([tf.keras.layers.SimpleRNNCell(3),
                                             tf.keras.layers.LSTMCell(2)])
    rnn = tf.keras.layers.RNN(cells, return_sequences=case["return_sequences"])
    x = tf.constant(np.asarray(case["x"], np.float32))
    rnn(x)
    def base(path):  # the names without the counters a second layer gets
        return "/".join(re.sub(r"_\d+$", "", part) for part in path.split("/"))
    assert [base(w.path) for w in rnn.weights] == [base(p) for p in case["weight_names"]]
    rnn.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = rnn(x)
        loss = tf.reduce_sum(y * np.asarray(case["ct"], np.float32))
    close(y, case["y"])
    for got, expected in zip(tape.gradient(loss, [x] + rnn.trainable_weights),
                             case["grads"], strict=True):
        close(got, expected)
    # tapeflow's state_size is Keras's nested one flattened (tapeflow's RNN takes it flat)
    assert cells.state_size == list(tf.nest.flatten(case["state_size"]))
    config = cells.get_config()
    assert [c["class_name"] for c in config["cells"]] == [
        c["class_name"] for c in case["cells_config"]["cells"]]
    for ours, keras in zip(config["cells"], case["cells_config"]["cells"], strict=True):
        same_config(ours["config"], keras["config"])
    copy = tf.keras.layers.StackedRNNCells.from_config(config)
    assert [type(c) for c in copy.cells] == [type(c) for c in cells.cells]
    model = tf.keras.Sequential([tf.keras.Input(x.shape[1:]), rnn])
    path = str(tmp_path / "r.keras")
    model.save(path)
    close(tf.keras.models.load_model(path)(x), case["y"])


def test_stacked_rnn_cells_take_flat_or_nested_states():
    cells = tf.keras.layers.StackedRNNCells([tf.keras.layers.SimpleRNNCell(2),
                                             tf.keras.layers.LSTMCell(3)])
    x = tf.ones((1, 4))
    cells.build((1, 4))
    flat = [tf.zeros((1, 2)), tf.zeros((1, 3)), tf.zeros((1, 3))]
    out_flat, states_flat = cells(x, flat)
    out_nested, states_nested = cells(x, [[flat[0]], flat[1:]])
    close(out_flat, out_nested, 0)
    assert len(states_flat) == 3 and [len(s) for s in states_nested] == [1, 2]
    with pytest.raises(ValueError, match="All cells must have a `state_size` attribute"):
        tf.keras.layers.StackedRNNCells([tf.keras.layers.Dense(2)])


def test_pipeline_matches_keras_and_defaults_to_training():
    case = EXTRA["pipeline"]
    pipe = tf.keras.layers.Pipeline([tf.keras.layers.RandomInvert((1.0, 1.0)),
                                     tf.keras.layers.Rescaling(0.5, offset=1.0),
                                     tf.keras.layers.AutoContrast()])
    x = tf.constant(np.asarray(case["x"], np.float32))
    close(pipe(x), case["y_default"])
    close(pipe(x, training=True), case["y_training"])
    close(pipe(x, training=False), case["y_inference"])
    config = pipe.get_config()
    assert sorted(config) == sorted(case["config"])
    for ours, keras in zip(config["layers"], case["config"]["layers"], strict=True):
        assert ours["class_name"] == keras["class_name"]
        same_config(ours["config"], keras["config"])
    copy = tf.keras.layers.Pipeline.from_config(config)
    close(copy(x, training=False), case["y_inference"])
    with pytest.raises(ValueError, match="must contain a `layers` key"):
        tf.keras.layers.Pipeline.from_config({"name": "p"})
