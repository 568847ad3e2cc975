"""keras.applications against Keras 3.15: each model's layers (names, classes, output
shapes) and parameter count, some summaries, and outputs with fixed seeded weights
(``tools/record_keras_applications.py``, cases in ``applications_cases.py``)."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.keras import applications_cases as cases

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras", "applications")
STRUCTURE = json.load(open(os.path.join(FIXTURES, "structure.json")))
OUTPUTS = json.load(open(os.path.join(FIXTURES, "outputs.json")))
PREPROCESS = json.load(open(os.path.join(FIXTURES, "preprocess.json")))

# modules whose builders are not written yet
NOT_YET = set()

_built = {}


@pytest.fixture(scope="module", autouse=True)
def zeros_for_random_initializers():
    """Initial values play no part here (structure tests, or weights set from the seed), and
    drawing 10^8 initial values from TF's Philox streams in NumPy takes minutes: random
    initializers give zeros in this module."""
    def zeros(shape, *args, dtype=None, **kwargs):
        return tf.zeros(shape, dtype or "float32")
    with pytest.MonkeyPatch.context() as mp:
        for name in ("uniform", "normal", "truncated_normal"):
            mp.setattr(tf.keras.random, name, zeros)
        yield


def build(key):
    """The model of case ``key``; kept for the next test when another test uses it."""
    if key in _built:
        return _built[key]
    _, module, fn, kwargs, output = next(c for c in cases.CASES if c[0] == key)
    if module in NOT_YET:
        pytest.xfail(f"keras.applications.{module} is not built yet")
    tf.keras.backend.clear_session()
    model = getattr(tf.keras.applications, fn)(**kwargs)
    if output or key in cases.SUMMARIES:
        _built[key] = model
    return model


def _rows(model):
    return [[layer.name, type(layer).__name__, list(layer.output.shape)]
            for layer in model.layers]


# Building a model of 10^8 parameters takes minutes in NumPy (tapeflow's depthwise
# convolution goes through a dense kernel): those run when TAPEFLOW_BIG_APPLICATIONS=1.
BIG = {key for key, entry in STRUCTURE.items() if entry["params"] > 65_000_000}
_big = pytest.mark.skipif(not os.environ.get("TAPEFLOW_BIG_APPLICATIONS"),
                          reason="over 65M parameters: set TAPEFLOW_BIG_APPLICATIONS=1")


@pytest.mark.parametrize("key", [pytest.param(c[0], marks=_big) if c[0] in BIG else c[0]
                                 for c in cases.CASES])
def test_layers_and_parameter_count_match_keras(key):
    model = build(key)
    want = STRUCTURE[key]
    got = _rows(model)
    assert [r[:2] for r in got] == [r[:2] for r in want["layers"]]
    assert got == [[n, c, [d for d in s]] for n, c, s in want["layers"]]
    assert model.count_params() == want["params"]
    assert len(model.weights) == want["n_weights"]
    assert sum(int(np.prod(w.shape)) for w in model.trainable_weights) == want["trainable"]
    assert model.name == want["model_name"]


@pytest.mark.parametrize("key", [c[0] for c in cases.CASES if c[4]])
def test_output_with_seeded_weights_matches_keras(key):
    model = build(key)
    module, kwargs = next((c[1], c[3]) for c in cases.CASES if c[0] == key)
    cases.set_weights(model)
    x = cases.model_input(module, kwargs["input_shape"])
    y = np.asarray(model(x, training=False)).ravel()
    want = np.asarray(OUTPUTS[key], np.float32)
    assert y.shape == want.shape
    np.testing.assert_allclose(y, want, rtol=2e-3, atol=2e-4 * np.abs(want).max())


@pytest.mark.parametrize("key", cases.SUMMARIES)
def test_summary_text_matches_keras(key, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    model = build(key)
    lines = []
    model.summary(print_fn=lines.append)
    assert lines == STRUCTURE[key]["summary"]


_PRE_MODULES = [k for k in PREPROCESS if k != "input" and not k.startswith("imagenet_utils")]


@pytest.mark.parametrize("module", _PRE_MODULES)
def test_preprocess_input_matches_keras(module):
    if module in NOT_YET or not hasattr(tf.keras.applications, module):
        pytest.xfail(f"keras.applications.{module} is not built yet")
    x = np.asarray(PREPROCESS["input"], np.float32).reshape(2, 3, 3)
    fn = getattr(tf.keras.applications, module).preprocess_input
    want = np.asarray(PREPROCESS[module], np.float32)
    np.testing.assert_allclose(np.asarray(fn(x.copy())).ravel(), want, rtol=1e-6, atol=1e-6)
    # a tensor goes the tensor way and gives the same numbers
    got = fn(tf.constant(x))
    assert isinstance(got, tf.Tensor)
    np.testing.assert_allclose(got.numpy().ravel(), want, rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("mode", ["caffe", "tf", "torch"])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_imagenet_utils_preprocess_input_modes(mode, data_format):
    pre = tf.keras.applications.imagenet_utils.preprocess_input
    x = np.asarray(PREPROCESS["input"], np.float32).reshape(2, 3, 3)
    if data_format == "channels_first":
        x = x.transpose(2, 0, 1).copy()
    key = f"imagenet_utils_{mode}" + ("_cf" if data_format == "channels_first" else "")
    want = np.asarray(PREPROCESS[key], np.float32)
    np.testing.assert_allclose(pre(x.copy(), data_format=data_format, mode=mode).ravel(),
                               want, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(
        pre(tf.constant(x), data_format=data_format, mode=mode).numpy().ravel(), want,
        rtol=1e-6, atol=1e-5)


def test_preprocess_input_refuses_unknown_mode_and_format():
    pre = tf.keras.applications.imagenet_utils.preprocess_input
    with pytest.raises(ValueError, match="Expected mode to be one of"):
        pre(np.zeros((1, 2, 2, 3), np.float32), mode="bgr")
    with pytest.raises(ValueError, match="Expected data_format"):
        pre(np.zeros((1, 2, 2, 3), np.float32), data_format="nhwc")


def test_integer_images_become_float32():
    out = tf.keras.applications.mobilenet.preprocess_input(np.full((1, 1, 1, 3), 255, np.uint8))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, np.ones((1, 1, 1, 3), np.float32))


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    """An empty Keras cache folder (``$KERAS_HOME``) with no network."""
    import urllib.error
    import urllib.request

    def offline(*args, **kwargs):
        raise urllib.error.URLError("no network in the test")
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(urllib.request, "urlopen", offline)
    monkeypatch.setattr(tf.keras.applications.imagenet_utils, "CLASS_INDEX", None)
    (tmp_path / "models").mkdir()
    return tmp_path / "models"


def test_decode_predictions_reads_the_cached_class_index(keras_home, monkeypatch):
    import hashlib
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    path = keras_home / "imagenet_class_index.json"
    path.write_text(json.dumps(index))
    monkeypatch.setattr(tf.keras.applications.imagenet_utils, "_CLASS_INDEX_HASH",
                        hashlib.md5(path.read_bytes()).hexdigest())
    preds = np.zeros((2, 1000), np.float32)
    preds[0, [3, 999, 10]] = [0.5, 0.3, 0.2]
    preds[1, 7] = 1.0
    top = tf.keras.applications.resnet50.decode_predictions if "resnet50" not in NOT_YET \
        else tf.keras.applications.mobilenet.decode_predictions
    out = top(preds, top=3)
    assert [r[:2] for r in out[0]] == [("n00000003", "class_3"), ("n00000999", "class_999"),
                                        ("n00000010", "class_10")]
    assert [float(r[2]) for r in out[0]] == pytest.approx([0.5, 0.3, 0.2])
    assert out[1][0] == ("n00000007", "class_7", pytest.approx(1.0))
    assert len(out[1]) == 3


def test_decode_predictions_offline_without_the_index_names_file_and_url(keras_home):
    with pytest.raises(Exception, match="imagenet_class_index.json") as err:
        tf.keras.applications.mobilenet.decode_predictions(np.zeros((1, 1000)))
    assert "https://storage.googleapis.com/download.tensorflow.org/data/" in str(err.value)
    with pytest.raises(ValueError, match=r"shape \(samples, 1000\)"):
        tf.keras.applications.mobilenet.decode_predictions(np.zeros((1, 10)))


def _write_keras2_h5(model, path):
    """``model``'s weights in Keras 2's HDF5 layout, the layout of Keras's published
    ImageNet files: ``layer_names`` at the root, ``weight_names`` per layer group."""
    import h5py
    with h5py.File(path, "w") as f:
        f.attrs["layer_names"] = [layer.name.encode() for layer in model.layers]
        f.attrs["backend"] = b"tensorflow"
        f.attrs["keras_version"] = b"2.2.4"
        for layer in model.layers:
            g = f.create_group(layer.name)
            variables = layer.trainable_weights + layer.non_trainable_weights
            names = [f"{layer.name}/{cases.short_name(v)}:0".encode() for v in variables]
            g.attrs["weight_names"] = names
            for name, v in zip(names, variables):
                g.create_dataset(name.decode(), data=np.asarray(v.numpy()))


def test_imagenet_weights_load_from_keras_cache(keras_home):
    pytest.importorskip("h5py")
    key = "MobileNet_a025_notop"
    kwargs = next(c[3] for c in cases.CASES if c[0] == key)
    tf.keras.backend.clear_session()
    source = tf.keras.applications.MobileNet(**kwargs)
    cases.set_weights(source)
    # input 32x32 is not a published size: Keras falls back to the 224 file, and so here
    _write_keras2_h5(source, keras_home / "mobilenet_2_5_224_tf_no_top.h5")
    tf.keras.backend.clear_session()
    with pytest.warns(UserWarning, match="Weights for input shape"):
        model = tf.keras.applications.MobileNet(**dict(kwargs, weights="imagenet"))
    x = cases.model_input("mobilenet", kwargs["input_shape"])
    y = np.asarray(model(x, training=False)).ravel()
    np.testing.assert_allclose(y, OUTPUTS[key], rtol=2e-3, atol=1e-4)
    # and the same file given by path
    tf.keras.backend.clear_session()
    again = tf.keras.applications.MobileNet(
        **dict(kwargs, weights=str(keras_home / "mobilenet_2_5_224_tf_no_top.h5")))
    np.testing.assert_array_equal(np.asarray(again(x, training=False)).ravel(), y)


def test_imagenet_weights_offline_and_absent_name_file_and_url(keras_home):
    with pytest.raises(Exception, match="mobilenet_2_5_128_tf.h5") as err:
        tf.keras.applications.MobileNet(alpha=0.25, input_shape=(128, 128, 3))
    assert ("https://storage.googleapis.com/tensorflow/keras-applications/mobilenet/"
            "mobilenet_2_5_128_tf.h5") in str(err.value)
    assert str(keras_home) in str(err.value)


def test_imagenet_weights_refuse_other_classes_and_activations():
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        tf.keras.applications.MobileNet(weights="imagenet", classes=10)
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        tf.keras.applications.MobileNet(weights="no_such_file.h5")
    with pytest.raises(ValueError, match="Input size must be at least 32x32"):
        tf.keras.applications.MobileNet(weights=None, input_shape=(16, 16, 3))
    with pytest.raises(ValueError, match="Only `None` and `softmax`"):
        tf.keras.applications.MobileNet(weights="imagenet", classifier_activation="relu",
                                        input_shape=(128, 128, 3))


def test_input_tensor_builds_on_a_given_graph():
    inp = tf.keras.Input((32, 32, 3))
    x = tf.keras.layers.Rescaling(1 / 127.5, offset=-1, name="scale")(inp)
    model = tf.keras.applications.MobileNet(weights=None, input_tensor=x, alpha=0.25,
                                            include_top=False, pooling="avg")
    assert model.layers[1].name == "scale"
    assert model.inputs[0] is inp
    assert tuple(model.output.shape) == (None, 256)


@pytest.mark.parametrize("groups,filters", [(2, 6), (4, 8)])
def test_grouped_conv2d_matches_keras(groups, filters):
    rec = OUTPUTS["Conv2D_groups"]
    x = np.asarray(rec["x"], np.float32).reshape(2, 7, 7, 4)
    case = rec[f"{groups}_{filters}"]
    layer = tf.keras.layers.Conv2D(filters, 3, strides=2, padding="same", groups=groups)
    layer.build((None, 7, 7, 4))
    assert tuple(layer.kernel.shape) == (3, 3, 4 // groups, filters)
    layer.set_weights([np.asarray(case["kernel"], np.float32).reshape(layer.kernel.shape),
                       np.asarray(case["bias"], np.float32)])
    np.testing.assert_allclose(layer(x).numpy().ravel(), case["y"], rtol=1e-5, atol=1e-5)
    assert layer.get_config()["groups"] == groups
    with pytest.raises(ValueError, match="evenly divisible"):
        tf.keras.layers.Conv2D(5, 3, groups=2)
