"""Keras 3 activations and layers against values recorded from Keras 3.15 / TF 2.21
(tools/record_keras_layers.py): outputs and gradients given the same weights,
output shapes, configs, masks, and the same layers inside Sequential and Functional models."""
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.function import function as tf_function  # tf.function, whatever imported first

HERE = pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "layers"


def load(name):
    with open(HERE / name) as f:
        return json.load(f)


ACT = load("activations.json")
LAYERS = load("layers.json")["cases"]
MHA = load("multi_head_attention.json")
MASKING = load("masking.json")
# TensorFlow's gradient of ImageProjectiveTransformV3 resamples the upstream gradient with
# the inverse transform, which is not the derivative where several output pixels read one
# input pixel (reflected borders, zooming in); tapeflow's is the exact adjoint.
EXACT_ADJOINT = {"RandomRotation", "RandomZoom", "RandomTranslation"}


def close(actual, expected, tol=2e-5):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64),
                               rtol=tol, atol=tol)


def plain(value):
    """JSON-like data; a dtype policy as its name, as the recorder stores Keras's."""
    if isinstance(value, dict):
        if value.get("class_name") == "DTypePolicy":
            return value["config"]["name"]
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def same_config(ours, keras):
    """Same keys; same values, initializers compared by class name."""
    assert sorted(ours) == sorted(keras)
    for key, expected in keras.items():
        got = plain(ours[key])
        if isinstance(expected, dict) and "class_name" in expected:
            assert got["class_name"] == expected["class_name"], key
        elif key != "name":
            assert got == expected, key


# -- activations -------------------------------------------------------------------------

def test_every_keras_activation_name_resolves():
    for name in ACT["names"]:
        assert callable(tf.keras.activations.get(name)), name
    assert tf.keras.activations.get(None) is tf.keras.activations.linear
    with pytest.raises(ValueError, match="Could not interpret activation function identifier"):
        tf.keras.activations.get("no_such_activation")


@pytest.mark.parametrize("case", ACT["cases"], ids=lambda c: f"{c['name']}{c['kwargs']}")
def test_activation_values_and_gradients_match_keras(case):
    fn = tf.keras.activations.get(case["name"])
    assert fn.__name__ == case["fn_name"]
    assert getattr(tf.keras.activations, case["name"]) is fn
    x = tf.constant(np.asarray(ACT["x"], np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x, **case["kwargs"])
        ct = np.asarray(case["ct"], np.float32)[:, :y.shape[1]]
        loss = tf.reduce_sum(y * ct)
    close(y, case["y"])
    close(tape.gradient(loss, x), case["grad"])


def test_glu_refuses_an_odd_axis():
    with pytest.raises(ValueError, match="axis size must be divisible by 2"):
        tf.keras.activations.glu(tf.ones((2, 3)))


# -- layers ------------------------------------------------------------------------------

def run_layer(layer, case):
    x = tf.constant(np.asarray(case["x"], case["x_dtype"]))
    layer(x)
    if case["weights"]:
        layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=case["training"])
        loss = tf.reduce_sum(y * np.asarray(case["ct"], np.float32))
    return x, y, tape.gradient(loss, [x] + layer.trainable_weights)


@pytest.mark.filterwarnings("ignore:You passed `rms_scaling=True`")
@pytest.mark.parametrize("case", LAYERS, ids=lambda c: c["label"])
def test_layer_matches_keras_given_the_same_weights(case):
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    x, y, grads = run_layer(layer, case)
    close(y, case["y"])
    if case["label"] in EXACT_ADJOINT:
        # y = A x with A linear, so <A^T ct, x> = <ct, y>.
        close(np.sum(grads[0].numpy() * x.numpy()), np.sum(y.numpy() * np.asarray(case["ct"])),
              1e-4)
        grads, case = grads[1:], dict(case, grads=case["grads"][1:], x_dtype="none")
    for i, (got, expected) in enumerate(zip(grads, case["grads"], strict=True)):
        if i or case["x_dtype"] == "float32":  # no gradient for integer ids
            close(tf.convert_to_tensor(got), expected)
    assert [w.path for w in layer.weights] == [
        p.replace(p.split("/")[0], layer.name, 1) for p in case["weight_names"]]
    x_shape = np.asarray(case["x"]).shape
    assert list(layer.compute_output_shape((None,) + x_shape[1:])) == case["output_shape"]
    same_config(layer.get_config(), case["config"])


@pytest.mark.filterwarnings("ignore:You passed `rms_scaling=True`")
# Keras's RandomCrop declares the cropped shape to the functional API but returns the full
# images when not training, so a model's symbolic and real shapes differ there.
@pytest.mark.parametrize("case", [c for c in LAYERS if c["cls"] not in ("Embedding",
                                                                         "RandomCrop")],
                         ids=lambda c: c["label"])
def test_layer_gives_the_same_values_in_sequential_and_functional(case):
    x = np.asarray(case["x"], case["x_dtype"])
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    model = tf.keras.Sequential([tf.keras.Input(x.shape[1:]), layer])
    if case["weights"]:
        layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    close(model(x, training=case["training"]), case["y"])
    inp = tf.keras.Input(x.shape[1:])
    out = layer(inp)
    assert out.shape == tuple(case["output_shape"])
    functional = tf.keras.Model(inp, out)
    close(functional(x, training=case["training"]), case["y"])


def test_random_augmentation_layers_pass_through_with_training_false():
    x = np.random.default_rng(0).uniform(0, 1, (2, 5, 4, 3)).astype(np.float32)
    for layer in (tf.keras.layers.RandomFlip(), tf.keras.layers.RandomRotation(0.3),
                  tf.keras.layers.RandomZoom(0.3), tf.keras.layers.RandomTranslation(0.2, 0.2),
                  tf.keras.layers.RandomContrast(0.5), tf.keras.layers.SpatialDropout2D(0.5),
                  tf.keras.layers.Dropout(0.5), tf.keras.layers.RandomCrop(2, 2),
                  tf.keras.layers.RandomBrightness(0.3)):
        close(layer(x, training=False), x, 0)


def test_random_flip_flips_whole_images_and_redraws_each_call():
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4, 1)
    layer = tf.keras.layers.RandomFlip("horizontal", seed=3)
    seen = set()
    for _ in range(12):
        y = layer(x, training=True).numpy()
        for i in range(2):
            flipped = np.array_equal(y[i], x[i, :, ::-1])
            assert flipped or np.array_equal(y[i], x[i])
            seen.add(flipped)
    assert seen == {True, False}


def test_random_contrast_scales_deviation_by_one_factor_per_image():
    x = np.random.default_rng(1).uniform(50, 200, (3, 4, 4, 2)).astype(np.float32)
    y = tf.keras.layers.RandomContrast(0.4)(x, training=True).numpy()
    mean = x.mean(axis=(1, 2), keepdims=True)
    factor = (y - mean) / (x - mean)
    for i in range(3):
        assert np.allclose(factor[i], factor[i, 0, 0, 0], atol=1e-3)
        assert 0.6 - 1e-6 <= factor[i, 0, 0, 0] <= 1.4 + 1e-6


def test_spatial_dropout_drops_whole_channels():
    x = np.ones((4, 6, 5, 8), np.float32)
    y = tf.keras.layers.SpatialDropout2D(0.5, seed=1)(x, training=True).numpy()
    per_channel = y.reshape(4, 30, 8)
    assert np.all(per_channel == per_channel[:, :1, :])
    assert set(np.unique(y)) <= {0.0, 2.0} and 0 < (y == 0).mean() < 1
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=4"):
        tf.keras.layers.SpatialDropout1D(0.5)(x, training=True)


def test_layers_check_input_rank_with_keras_messages():
    with pytest.raises(ValueError, match=r"of layer 'up' is incompatible with the layer: "
                                         r"expected ndim=4, found ndim=3"):
        tf.keras.layers.UpSampling2D(name="up")(tf.ones((1, 2, 3)))
    with pytest.raises(ValueError, match="expected min_ndim=4, found ndim=3"):
        tf.keras.layers.Conv2DTranspose(2, 3)(tf.ones((1, 2, 3)))
    conv = tf.keras.layers.Conv2DTranspose(2, 3)
    conv(tf.ones((1, 4, 4, 3)))
    with pytest.raises(ValueError, match=r"expected axis -1 of input shape to have value 3"):
        conv(tf.ones((1, 4, 4, 5)))
    with pytest.raises(ValueError, match="cannot be None or negative value"):
        tf.keras.layers.LeakyReLU(negative_slope=-1)
    with pytest.raises(ValueError, match="must be strictly less than `strides`"):
        tf.keras.layers.Conv2DTranspose(2, 3, strides=2, output_padding=2)
    with pytest.raises(ValueError, match="total size of the tensor must be unchanged"):
        tf.keras.layers.Reshape((5, -1))(tf.ones((2, 3, 4)))
    with pytest.raises(ValueError, match=r"Number of groups \(3\) must be a multiple"):
        tf.keras.layers.GroupNormalization(groups=3)(tf.ones((2, 4)))
    with pytest.raises(ValueError, match="`input_dim` must be a positive integer"):
        tf.keras.layers.Embedding(0, 3)


def test_leaky_relu_layer_defaults_to_keras3_slope():
    assert tf.keras.layers.LeakyReLU().negative_slope == 0.3
    with pytest.warns(UserWarning, match="`alpha` is deprecated"):
        assert tf.keras.layers.LeakyReLU(alpha=0.1).negative_slope == 0.1


def test_dropout_mask_comes_from_its_seed_generator():
    # As Keras 3: the layer owns SeedGenerator(seed) and draws keras.random.dropout from
    # it (TensorFlow's masks: tests/keras/test_random_tf.py), so a fresh generator with the
    # same seed gives the same masks, call after call.
    x = tf.ones((3, 7))
    layer = tf.keras.layers.Dropout(0.4, seed=2)
    gen = tf.keras.random.SeedGenerator(2)
    for _ in range(2):
        a = layer(x, training=True).numpy()
        b = tf.keras.random.dropout(x, 0.4, seed=gen).numpy()
        close(a, b, 0)
    assert sorted(set(a.ravel().tolist())) == [0.0, np.float32(1 / 0.6)]


# -- MultiHeadAttention ------------------------------------------------------------------

@pytest.mark.parametrize("case", MHA["cases"], ids=lambda c: str(c["kwargs"]))
def test_multi_head_attention_matches_keras(case):
    q, v, k = (tf.constant(np.asarray(MHA[n], np.float32)) for n in ("query", "value", "key"))
    layer = tf.keras.layers.MultiHeadAttention(**case["kwargs"])
    call = {"key": k} if case["use_key"] else {}
    if case["use_mask"]:
        call["attention_mask"] = tf.constant(np.asarray(MHA["mask"], bool))
    layer(q, v, **call)
    assert [w.path for w in layer.weights] == [
        p.replace(p.split("/")[0], layer.name, 1) for p in case["weight_names"]]
    layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    sources = [q, v] + ([k] if case["use_key"] else [])
    with tf.GradientTape() as tape:
        tape.watch(sources)
        y, scores = layer(q, v, return_attention_scores=True, **call)
        loss = tf.reduce_sum(y * np.asarray(case["ct"], np.float32))
    grads = tape.gradient(loss, [q, v] + layer.trainable_weights)
    close(y, case["y"])
    close(scores, case["scores"])
    for got, expected in zip(grads, case["grads"], strict=True):
        close(got, expected)
    same_config(layer.get_config(), case["config"])


def test_multi_head_attention_in_a_functional_model():
    case = MHA["cases"][0]
    qi, vi = tf.keras.Input((3, 4)), tf.keras.Input((5, 6))
    layer = tf.keras.layers.MultiHeadAttention(**case["kwargs"])
    out = layer(qi, vi)
    assert out.shape == (None, 3, 4)
    model = tf.keras.Model([qi, vi], out)
    layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    q, v = (np.asarray(MHA[n], np.float32) for n in ("query", "value"))
    close(model([q, v]), case["y"])


# -- masks ---------------------------------------------------------------------------------

def masked_layers(label):
    layers = {"gap": lambda: [tf.keras.layers.GlobalAveragePooling1D()],
              "lstm": lambda: [tf.keras.layers.LSTM(3)],
              "gru_seq": lambda: [tf.keras.layers.GRU(2, return_sequences=True),
                                  tf.keras.layers.GlobalAveragePooling1D()],
              "simplernn": lambda: [tf.keras.layers.SimpleRNN(2)],
              "bidirectional": lambda: [tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2))],
              "dense_between": lambda: [tf.keras.layers.Dense(3), tf.keras.layers.GRU(2)],
              "backwards_seq": lambda: [tf.keras.layers.SimpleRNN(2, return_sequences=True,
                                                                  go_backwards=True)]}
    return layers[label]()


@pytest.mark.parametrize("case", MASKING["cases"], ids=lambda c: c["label"])
def test_embedding_mask_zero_reaches_rnns_and_pooling_as_in_keras(case):
    ids = np.asarray(MASKING["ids"], np.int32)
    emb = tf.keras.layers.Embedding(7, 4, mask_zero=True)
    layers = masked_layers(case["label"])
    model = tf.keras.Sequential([tf.keras.Input((5,), dtype="int32"), emb, *layers])
    model.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    close(emb.compute_mask(tf.constant(ids)), case["mask"], 0)
    close(model(ids), case["y"])
    inp = tf.keras.Input((5,), dtype="int32")
    h = emb(inp)
    for layer in layers:
        h = layer(h)
    close(tf.keras.Model(inp, h)(ids), case["functional_y"])


def test_mask_changes_the_result_and_the_gradient_skips_padding():
    ids = np.asarray([[3, 1, 0, 0]], np.int32)
    emb = tf.keras.layers.Embedding(5, 2, mask_zero=True)
    pool = tf.keras.layers.GlobalAveragePooling1D()
    with tf.GradientTape() as tape:
        y = pool(emb(ids))
    table = emb.embeddings.numpy()
    close(y, table[[3, 1]].mean(axis=0, keepdims=True))
    grad = tf.convert_to_tensor(tape.gradient(y, emb.embeddings)).numpy()
    close(grad[0], [0.0, 0.0], 0)
    close(grad[3], [0.5, 0.5])


def test_masking_layer_skips_padded_steps_in_an_lstm():
    case = MASKING["masking_layer"]
    model = tf.keras.Sequential([tf.keras.Input((5, 2)), tf.keras.layers.Masking(),
                                 tf.keras.layers.LSTM(3)])
    model.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    close(model(np.asarray(case["x"], np.float32)), case["y"])


def test_merge_layers_combine_masks():
    ids = tf.constant([[1, 0, 2]])
    a = tf.keras.layers.Embedding(3, 2, mask_zero=True)(ids)
    b = tf.keras.layers.Embedding(3, 2, mask_zero=True)(tf.constant([[1, 2, 0]]))
    added = tf.keras.layers.Add()([a, b])
    pool = tf.keras.layers.GlobalAveragePooling1D()
    close(pool(added), added.numpy()[:, :1].mean(axis=1))
    joined = tf.keras.layers.Concatenate(axis=1)([a, b])
    close(pool(joined), np.concatenate([a.numpy()[:, [0, 2]], b.numpy()[:, :2]], 1).mean(1))


def test_normalization_adapt_matches_keras():
    case = load("normalization_adapt.json")
    layer = tf.keras.layers.Normalization()
    layer.adapt(np.asarray(case["data"], np.float32))
    close(layer.mean, case["mean"])
    close(layer.variance, case["variance"])
    close(layer(np.asarray(case["x"], np.float32)), case["y"])


@pytest.mark.parametrize("make", [
    lambda: tf.keras.layers.Dropout(0.5), lambda: tf.keras.layers.SpatialDropout2D(0.5),
    lambda: tf.keras.layers.RandomFlip(), lambda: tf.keras.layers.RandomRotation(0.3),
    lambda: tf.keras.layers.RandomZoom(0.3), lambda: tf.keras.layers.RandomTranslation(0.2, 0.2),
    lambda: tf.keras.layers.RandomContrast(0.5), lambda: tf.keras.layers.RandomCrop(2, 2),
    lambda: tf.keras.layers.RandomBrightness(0.3)],
    ids=["Dropout", "SpatialDropout2D", "RandomFlip", "RandomRotation", "RandomZoom",
         "RandomTranslation", "RandomContrast", "RandomCrop", "RandomBrightness"])
def test_random_layers_draw_afresh_on_every_call_of_a_tf_function(make):
    layer = make()
    step = tf_function(lambda t: layer(t, training=True))
    x = tf.constant(np.random.default_rng(0).uniform(1, 2, (4, 5, 4, 2)).astype(np.float32))
    outs = [step(x).numpy() for _ in range(4)]
    assert any(not np.allclose(outs[0], o) for o in outs[1:])
    if hasattr(step, "experimental_get_tracing_count"):
        assert step.experimental_get_tracing_count() == 1


def keras_message(text):
    """The message Keras raised, without the frame it adds around errors from ``call``."""
    if "\x1b[1m" in text:
        return text.split("\x1b[1m", 1)[1].split("\x1b[0m", 1)[0]
    return text


# Keras raises an IndexError from its own indexing here (Conv1DTranspose on a 4-D input);
# tapeflow raises a ValueError naming the argument.
STRICTER = {"Conv1DTranspose(2, 3, name='ct1')"}


@pytest.mark.parametrize("case", load("errors.json")["cases"], ids=lambda c: c["make"])
def test_bad_arguments_and_inputs_raise_keras_classes_and_messages(case):
    def attempt():
        layer = eval("tf.keras.layers." + case["make"])
        if case["x"] is not None:
            layer(eval(case["x"]))

    if case["make"] in STRICTER:
        with pytest.raises(ValueError):
            attempt()
        return
    if case["error"] is None:   # Keras accepts it (RandomFlip('diagonal')): so does tapeflow
        attempt()
        return
    error = getattr(__builtins__, case["error"], None) if not isinstance(__builtins__, dict) \
        else __builtins__[case["error"]]
    with pytest.raises(error) as info:
        attempt()
    # both frame errors raised inside call() alike (tests/test_errors.py checks the frame)
    assert keras_message(str(info.value)) == keras_message(case["message"])


def test_causal_attention_only_looks_back_and_softmax_mask_zeroes():
    x = tf.constant(np.random.default_rng(2).standard_normal((2, 4, 6)).astype(np.float32))
    mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    _, scores = mha(x, x, use_causal_mask=True, return_attention_scores=True)
    s = scores.numpy()
    assert np.all(np.triu(np.ones((4, 4)), 1)[None, None] * s == 0)
    close(s.sum(-1), np.ones((2, 2, 4)))
    probs = tf.keras.layers.Softmax()(tf.constant([[1.0, 2.0, 3.0]]),
                                      mask=tf.constant([[True, False, True]])).numpy()
    close(probs, [[np.exp(1) / (np.exp(1) + np.exp(3)), 0.0, np.exp(3) / (np.exp(1) + np.exp(3))]])


@pytest.mark.parametrize("case", load("dtypes.json")["cases"],
                         ids=lambda c: f"{c['make']}-{c['dtype']}")
def test_input_dtypes_give_keras_output_dtypes_and_values(case):
    x = np.asarray(case["x"], case["dtype"])
    y = eval("tf.keras.layers." + case["make"])(x, training=False)
    assert y.dtype.name == case["y_dtype"]
    if case["make"].startswith("GroupNormalization"):
        # Keras computes the moments of integer inputs in integers (all zeros here);
        # tapeflow normalises them in float32.
        close(y, x / 255.0 * 2 - 1, 1e-5)
    else:
        close(y, case["y"], 1e-5)


def test_random_crop_takes_one_window_per_call_and_brightness_one_offset_per_image():
    x = np.arange(2 * 6 * 7, dtype=np.float32).reshape(2, 6, 7, 1)
    starts = set()
    for _ in range(20):
        y = tf.keras.layers.RandomCrop(3, 4)(x, training=True).numpy()
        top, left = divmod(int(y[0, 0, 0, 0]), 7)
        np.testing.assert_array_equal(y, x[:, top:top + 3, left:left + 4])
        starts.add((top, left))
    assert len(starts) > 3 and all(t <= 3 and c <= 3 for t, c in starts)
    x = np.full((3, 2, 2, 1), 100.0, np.float32)
    y = tf.keras.layers.RandomBrightness((-0.2, 0.1), value_range=(0, 1))(x, training=True)
    assert np.all(y.numpy() == 1.0)  # 100 + at most 0.1 is clipped to the range's top
    y = tf.keras.layers.RandomBrightness((-0.2, 0.1))(x, training=True).numpy() - 100.0
    assert np.all(y == y[:, :1, :1]) and np.all((-51.0 <= y) & (y <= 25.5))


def test_embedding_takes_initial_weights():
    table = np.arange(6, dtype=np.float32).reshape(3, 2)
    emb = tf.keras.layers.Embedding(3, 2, weights=[table])
    close(emb(tf.constant([2, 0])), table[[2, 0]], 0)
    with pytest.raises(ValueError, match="shape"):
        tf.keras.layers.Embedding(3, 3, weights=table)


@pytest.mark.filterwarnings("ignore:You passed `rms_scaling=True`")
@pytest.mark.parametrize("case", LAYERS, ids=lambda c: c["label"])
def test_layer_config_round_trips_through_keras_serialization(case):
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    x = np.asarray(case["x"], case["x_dtype"])
    layer(x)
    if case["weights"]:
        layer.set_weights([np.asarray(w, np.float32) for w in case["weights"]])
    config = tf.keras.saving.serialize_keras_object(layer)
    copy = tf.keras.saving.deserialize_keras_object(json.loads(json.dumps(config)))
    assert type(copy) is type(layer) and plain(copy.get_config()) == plain(layer.get_config())
    copy(x)
    copy.set_weights(layer.get_weights())
    close(copy(x, training=False), layer(x, training=False), 0)


def test_multi_head_attention_config_round_trips():
    layer = tf.keras.layers.MultiHeadAttention(**MHA["cases"][1]["kwargs"])
    q, v = (np.asarray(MHA[n], np.float32) for n in ("query", "value"))
    layer(q, v)
    copy = tf.keras.saving.deserialize_keras_object(
        tf.keras.saving.serialize_keras_object(layer))
    copy(q, v)
    copy.set_weights(layer.get_weights())
    close(copy(q, v), layer(q, v), 0)


@pytest.mark.parametrize("make", [
    lambda: tf.keras.layers.RandomFlip("horizontal", seed=1),
    lambda: tf.keras.layers.RandomRotation(0.1, seed=1),
    lambda: tf.keras.layers.RandomZoom(0.1, seed=1),
    lambda: tf.keras.layers.RandomTranslation(0.1, 0.1, seed=1),
    lambda: tf.keras.layers.RandomContrast(0.2, seed=1),
    lambda: tf.keras.layers.RandomBrightness(0.1, seed=1),
], ids=["flip", "rotation", "zoom", "translation", "contrast", "brightness"])
def test_augmentation_layers_trace_with_an_unknown_batch(make):
    """Inside a trace with a None batch (a compiled fit step, a Dataset.map) the layers draw
    one value per image of the batch actually given (they crashed on ``shape[0]`` None)."""
    layer = make()
    f = tf.function(lambda x: layer(x, training=True),
                    input_signature=[tf.TensorSpec([None, 6, 6, 3], tf.float32)])
    images = np.random.default_rng(0).random((5, 6, 6, 3)).astype(np.float32)
    for n in (4, 5):
        out = f(images[:n]).numpy()
        assert out.shape == (n, 6, 6, 3)
        assert np.isfinite(out).all()
    flip = tf.keras.layers.RandomFlip("horizontal", seed=3)
    g = tf.function(lambda x: flip(x, training=True),
                    input_signature=[tf.TensorSpec([None, 6, 6, 3], tf.float32)])
    out = g(images).numpy()
    for img, got in zip(images, out):   # each image is itself or its mirror
        assert np.array_equal(got, img) or np.array_equal(got, img[:, ::-1])


def test_conv_transpose_first_under_an_unknown_batch_matches_eager():
    """Conv2DTranspose given the relaxed argument itself: its output shape takes the batch
    size at run time (a variant per size), values as eager."""
    layer = tf.keras.layers.Conv2DTranspose(2, 3, strides=2, padding="same")
    f = tf.function(lambda x: layer(x),
                    input_signature=[tf.TensorSpec([None, 4, 4, 3], tf.float32)])
    rng = np.random.default_rng(1)
    for n in (3, 5):
        x = rng.random((n, 4, 4, 3)).astype(np.float32)
        np.testing.assert_allclose(f(x).numpy(), layer(x).numpy(), rtol=1e-6, atol=1e-6)
