"""Layers' seed-generator state as Keras 3.15 lists it (``variables``,
``non_trainable_variables``; not ``weights``), ``.keras`` files with such layers both ways,
``keras.initializers.STFT`` and GroupQueryAttention's class, against
``tools/record_keras_seed_state.py``'s fixtures."""
import io
import json
import os
import zipfile

import numpy as np
import pytest

import tapeflow as tf

HERE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras", "kaug2")
with open(os.path.join(HERE, "seed_state.json")) as _f:
    FIXTURE = json.load(_f)
X = np.asarray(FIXTURE["input"], np.float32)


def describe(variables):
    return [{"path": v.path, "dtype": v.dtype.name, "trainable": bool(v.trainable),
             "value": np.asarray(v).tolist() if v.dtype.is_integer else None}
            for v in variables]


def state(layer):
    return {"variables": describe(layer.variables),
            "non_trainable_variables": describe(layer.non_trainable_variables),
            "trainable_variables": describe(layer.trainable_variables),
            "weights": [v.path for v in layer.weights],
            "non_trainable_weights": [v.path for v in layer.non_trainable_weights]}


def test_fixture_is_keras_3_15():
    assert FIXTURE["keras_version"].startswith("3.15")


@pytest.mark.parametrize("rec", FIXTURE["layers"], ids=lambda r: r["cls"])
def test_seed_generator_state_is_a_variable_not_a_weight(rec):
    tf.keras.backend.clear_session()
    layer = getattr(tf.keras.layers, rec["cls"])(**rec["kwargs"])
    assert state(layer) == rec["before"]
    layer(X, training=True)
    layer(X, training=True)
    assert state(layer) == rec["after"]


def test_a_model_lists_its_layers_seed_states_in_keras_order():
    rec = FIXTURE["model"]["state"]
    tf.keras.backend.clear_session()
    model = sequential()
    model(X, training=True)
    got = state(model)
    # tapeflow's Dense kernel under GlorotUniform(seed=1) is Keras's: compare all but the
    # float values, which describe() leaves out
    assert got == rec


def sequential():
    layers = tf.keras.layers
    return tf.keras.Sequential([
        tf.keras.Input((4, 5, 3)), layers.RandomFlip(seed=3), layers.RandomRotation(0.1, seed=4),
        layers.Dropout(0.3, seed=5), layers.Flatten(),
        layers.Dense(2, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1))])


def layout(path):
    import h5py
    with zipfile.ZipFile(path) as z:
        f = h5py.File(io.BytesIO(z.read("model.weights.h5")), "r")
        out = []
        f.visititems(lambda name, obj: out.append(
            [name, "group" if isinstance(obj, h5py.Group) else list(obj.shape),
             {k: str(v) for k, v in obj.attrs.items()}]))
    return out


def test_a_keras_written_model_with_seeded_layers_loads_and_predicts_as_keras():
    pytest.importorskip("h5py")
    model = tf.keras.models.load_model(os.path.join(HERE, "flip_model.keras"))
    assert [type(layer).__name__ for layer in model.layers] == [
        "RandomFlip", "RandomRotation", "Dropout", "Flatten", "Dense"]
    assert [layer.seed for layer in model.layers[:3]] == [3, 4, 5]
    np.testing.assert_allclose(model(X, training=False).numpy(), FIXTURE["model"]["output"],
                               rtol=1e-5, atol=1e-6)
    # seed states are not stored in .keras files (Keras writes no variables for them)
    assert [v.dtype.name for v in model.non_trainable_variables] == ["int64"] * 3


def test_tapeflow_writes_keras_weights_layout_for_seeded_layers(tmp_path):
    pytest.importorskip("h5py")
    tf.keras.backend.clear_session()
    model = sequential()
    model(X, training=True)
    path = str(tmp_path / "m.keras")
    model.save(path)
    assert layout(path) == FIXTURE["model"]["layout"]
    again = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(again(X, training=False).numpy(),
                                  model(X, training=False).numpy())


@pytest.mark.parametrize("rec", FIXTURE["stft"]["cases"], ids=lambda r: str(r["kwargs"]))
def test_stft_initializer_gives_keras_kernels(rec):
    pytest.importorskip("scipy")
    init = tf.keras.initializers.STFT(**rec["kwargs"])
    kernel = init(tuple(rec["shape"]))
    # Keras's kernel is (frame_length, 1, bins) whatever the input channels: the same here
    assert kernel.dtype == tf.float32 and kernel.shape == np.shape(rec["kernel"])
    np.testing.assert_allclose(kernel.numpy(), rec["kernel"], rtol=1e-5, atol=1e-6)
    assert init.get_config() == rec["config"]
    assert tf.keras.initializers.serialize(init) == rec["serialized"]
    again = tf.keras.initializers.deserialize(rec["serialized"])
    np.testing.assert_array_equal(again(tuple(rec["shape"])).numpy(), kernel.numpy())


@pytest.mark.parametrize("index", range(len(FIXTURE["stft"]["errors"])))
def test_stft_initializer_refuses_what_keras_refuses(index):
    pytest.importorskip("scipy")
    kwargs = [{"side": "left"}, {"scaling": "max"}, {"window": "no-such-window"}][index]
    kind, message = FIXTURE["stft"]["errors"][index]
    with pytest.raises(ValueError) as info:
        tf.keras.initializers.STFT(**kwargs)
    assert (type(info.value).__name__, str(info.value)) == (kind, message)


def test_stft_initializer_names():
    for name, same in FIXTURE["stft"]["names"].items():
        assert (getattr(tf.keras.initializers, name) is tf.keras.initializers.STFT) == same
    assert isinstance(tf.keras.initializers.get("STFTInitializer"),
                      tf.keras.initializers.STFT)


def test_stft_spectrogram_builds_with_the_stft_initializer():
    pytest.importorskip("scipy")
    layer = tf.keras.layers.STFTSpectrogram(mode="real", frame_length=16, fft_length=16)
    layer(np.zeros((1, 32, 1), np.float32))
    expected = tf.keras.initializers.STFT("real", "hann", "density", False)((16, 1, 9))
    np.testing.assert_array_equal(layer.weights[0].numpy(), expected.numpy())


def test_group_query_attention_is_its_own_layer_as_in_keras():
    cls = tf.keras.layers.GroupQueryAttention
    assert issubclass(cls, tf.keras.layers.MultiHeadAttention) == \
        FIXTURE["gqa"]["is_multi_head_attention"]
    assert [b.__name__ for b in cls.__bases__] == FIXTURE["gqa"]["bases"]
    layer = cls(head_dim=2, num_query_heads=2, num_key_value_heads=1)
    q = tf.keras.Input((3, 4))
    v = tf.keras.Input((5, 4))
    model = tf.keras.Model([q, v], layer(q, v))
    out = model([np.ones((1, 3, 4), np.float32), np.ones((1, 5, 4), np.float32)])
    assert tuple(out.shape) == (1, 3, 4)
