"""keras.utils data utilities (image/text/audio_dataset_from_directory,
timeseries_dataset_from_array, split_dataset, smart_resize) against what Keras 3.15 on TF 2.21
gave on the same generated files (tools/record_keras_data.py dirs)."""
import contextlib
import io
import json
import os
import pathlib

import numpy as np
import pytest

import tapeflow as tf

from . import _data_files

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "data" / "dirs.json"
RECORDED = json.loads(FIXTURE.read_text())
pytest.importorskip("PIL")

# JPEG decoding: TF's default (dct_method "", libjpeg's fast integer IDCT) and tapeflow's
# (Pillow: the accurate IDCT, = TF's dct_method="INTEGER_ACCURATE") differ by up to 5 levels in
# some pixels; PNG/BMP/GIF files decode exactly. The cases reading JPEG files allow 6.
ATOL = {"img_default": 6.0, "img_both_categorical_nearest": 6.0, "img_binary_crop": 6.0,
        "img_pad_gray_bicubic": 6.0, "img_label_list_training": 6.0,
        "img_validation_channels_first": 6.0, "img_crop_channels_first": 6.0}


@pytest.fixture(autouse=True)
def no_global_seed():
    """Keras was recorded without a global seed: Dataset.shuffle(seed=s) then draws from
    TF's default graph seed and s; a global seed left by an earlier test would change that."""
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("dirs"))
    _data_files.write_dirs(path)
    return path


def check(got, want, atol, where):
    if "dict" in want:
        assert sorted(got) == sorted(want["dict"]), where
        for k in want["dict"]:
            check(got[k], want["dict"][k], atol, f"{where}[{k}]")
        return
    if "tuple" in want:
        assert isinstance(got, tuple) and len(got) == len(want["tuple"]), where
        for i, (g, w) in enumerate(zip(got, want["tuple"])):
            check(g, w, atol, f"{where}[{i}]")
        return
    assert isinstance(got, tf.Tensor), where
    value = got.numpy()
    if got.dtype == tf.string:   # TF gives bytes (a scalar) or an object array of bytes
        assert want["dtype"] in ("object", "string"), where
        value = np.array(value, dtype=object)
        assert list(value.shape) == want["shape"], where
        assert [v.decode("utf-8") for v in value.ravel()] == want["values"], where
        return
    assert list(value.shape) == want["shape"], where
    assert str(value.dtype) == want["dtype"], where
    np.testing.assert_allclose(value.ravel(), np.asarray(want["values"], dtype=value.dtype),
                               atol=atol, rtol=1e-6, err_msg=where)


@pytest.mark.parametrize("name", sorted(_data_files.DIR_CASES))
def test_matches_keras(root, name):
    kind, call = _data_files.DIR_CASES[name]
    want = RECORDED["cases"][name]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = call(tf.keras, root)
    assert out.getvalue() == want["print"]
    if kind == "array":
        assert isinstance(result, np.ndarray)
        a = want["array"]
        assert (list(result.shape), str(result.dtype)) == (a["shape"], a["dtype"])
        np.testing.assert_allclose(result.ravel(), a["values"], rtol=1e-6, atol=1e-4)
        return
    sets = list(result) if kind == "pair" else [result]
    assert len(sets) == len(want["datasets"])
    for d, (ds, w) in enumerate(zip(sets, want["datasets"])):
        assert isinstance(ds, tf.data.Dataset)
        assert getattr(ds, "class_names", None) == w["class_names"]
        if "file_paths" in w:
            assert [os.path.relpath(p, root) for p in ds.file_paths] == w["file_paths"]
        for e, epoch in enumerate(w["epochs"]):
            got = list(ds)
            assert len(got) == len(epoch), (name, d, e)
            for i, (g, x) in enumerate(zip(got, epoch)):
                check(g, x, ATOL.get(name, 1e-5), f"{name} set {d} epoch {e} element {i}")


@pytest.mark.parametrize("name", sorted(_data_files.DIR_ERRORS))
def test_errors_match_keras(root, name):
    want = RECORDED["errors"][name]
    call = _data_files.DIR_ERRORS[name]
    if want["error"] is None:
        with contextlib.redirect_stdout(io.StringIO()):
            call(tf.keras, root)
        return
    with pytest.raises(Exception) as err:
        with contextlib.redirect_stdout(io.StringIO()):
            call(tf.keras, root)
    assert type(err.value).__name__ == want["error"]
    assert str(err.value).replace(root, "<root>") == want["message"]


def test_jpeg_tolerance_is_only_for_jpeg(root):
    """The PNG-only folder matches exactly; the tolerance above is for JPEG decoding alone."""
    assert all(not name.endswith((".jpg", ".jpeg")) for name in os.listdir(f"{root}/gray"))
    assert "img_unlabelled_gray_area" not in ATOL and "img_unlabelled_rgba" not in ATOL


def test_ragged_audio(root):
    with contextlib.redirect_stdout(io.StringIO()):
        ds = tf.keras.utils.audio_dataset_from_directory(f"{root}/wav", ragged=True,
                                                         batch_size=5, shuffle=False)
        dense = tf.keras.utils.audio_dataset_from_directory(f"{root}/wav", batch_size=5,
                                                            shuffle=False)
    (rag, labels), = list(ds)
    (pad, labels2), = list(dense)
    assert isinstance(rag, tf.RaggedTensor)
    lengths = rag.row_lengths().numpy().tolist()
    # clip a<i> has 40 + 13 i samples; classes sorted: hi (a1, a3) then lo (a0, a2, a4)
    assert lengths == [53, 79, 40, 66, 92]
    for i, n in enumerate(lengths):
        np.testing.assert_array_equal(rag[i].numpy(), pad[i, :n].numpy())
        assert not pad[i, n:].numpy().any()
    np.testing.assert_array_equal(labels.numpy(), labels2.numpy())


def test_sampling_rate_needs_tensorflow_io(root):
    with pytest.raises(ImportError, match="tensorflow_io"):
        tf.keras.utils.audio_dataset_from_directory(f"{root}/wav", sampling_rate=4000)
    with pytest.raises(ValueError, match="should have an integer value"):
        tf.keras.utils.audio_dataset_from_directory(f"{root}/wav", sampling_rate=4000.0)


def test_fit_on_an_image_directory(root):
    """A model trains on the dataset as Keras programs do (shapes flow into fit)."""
    with contextlib.redirect_stdout(io.StringIO()):
        train, val = tf.keras.utils.image_dataset_from_directory(
            f"{root}/img", image_size=(8, 8), batch_size=4, seed=1, validation_split=0.2,
            subset="both")
    model = tf.keras.Sequential([tf.keras.Input((8, 8, 3)), tf.keras.layers.Rescaling(1 / 255),
                                 tf.keras.layers.Flatten(), tf.keras.layers.Dense(3)])
    model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(train, validation_data=val, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and np.isfinite(history.history["val_loss"]).all()


PYDATA = json.loads((FIXTURE.parent / "pydataset.json").read_text())


@pytest.mark.parametrize("name,kwargs,weights", [("plain", {}, False),
                                                 ("threads", {"workers": 3}, True)])
def test_fit_evaluate_predict_on_a_py_dataset(name, kwargs, weights):
    """Two epochs of SGD on a PyDataset (with sample weights, fetched by 3 threads in the
    second case) land on Keras's weights; evaluate and predict agree too."""
    want = PYDATA[name]
    data = _data_files.make_py_dataset_class(tf.keras)(weights=weights, **kwargs)
    model = _data_files.make_fixed_model(tf.keras)
    history = model.fit(data, epochs=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], want["loss"], rtol=1e-5)
    for got, w in zip(model.get_weights(), want["weights"]):
        np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.evaluate(data, verbose=0), want["evaluate"], rtol=1e-5)
    np.testing.assert_allclose(model.predict(data, verbose=0), want["predict"], rtol=1e-5,
                               atol=1e-6)
    # Keras calls on_epoch_end once more before fit's and evaluate's first epoch
    calls = [e for e in data.log if isinstance(e, str)]
    assert calls == want["epoch_calls"] == ["end", "begin", "end", "begin", "end",
                                            "end", "begin", "end", "begin", "end"]
    # ... and reads batches 0 and 1 first to learn their spec, in fit, evaluate and predict
    served = [e for e in data.log if not isinstance(e, str)]
    assert served == [0, 1] + list(range(5)) * 2 + [0, 1] + list(range(5)) + [0, 1] + \
        list(range(5))


def test_py_dataset_shuffle_visits_every_batch_once_per_epoch():
    import random
    data = _data_files.make_py_dataset_class(tf.keras)()
    model = _data_files.make_fixed_model(tf.keras)
    random.seed(0)
    model.fit(data, epochs=3, verbose=0)        # shuffle=True: random.shuffle of indices
    served = [e for e in data.log if not isinstance(e, str)][2:]   # after the spec probe
    epochs = [served[5 * k:5 * k + 5] for k in range(3)]
    assert all(sorted(e) == list(range(5)) for e in epochs)
    random.seed(0)
    orders = []
    for _ in range(3):
        order = list(range(5))
        random.shuffle(order)
        orders.append(order)
    assert epochs == orders


def test_py_dataset_contract():
    class NoSuper(tf.keras.utils.PyDataset):
        def __init__(self):
            pass

        def __len__(self):
            return 2

        def __getitem__(self, i):
            return np.ones((2, 3), "float32") * i

    d = NoSuper()
    with pytest.warns(UserWarning, match=r"should call `super\(\).__init__\(\*\*kwargs\)`"):
        assert d.workers == 1
    assert [b.sum() for b in d] == [0.0, 6.0]
    assert tf.keras.utils.Sequence is tf.keras.utils.PyDataset

    class Endless(tf.keras.utils.PyDataset):
        pass
    with pytest.raises(NotImplementedError, match="num_batches"):
        _ = Endless().num_batches
    with pytest.raises(NotImplementedError):
        Endless()[0]

    class Bad(tf.keras.utils.PyDataset):
        def __len__(self):
            return 1

        def __getitem__(self, i):
            return 3

    model = _data_files.make_fixed_model(tf.keras)
    with pytest.raises(ValueError, match="must return a tuple or a dict"):
        model.fit(Bad(), verbose=0)
    with pytest.raises(ValueError, match="`y` should not be passed"):
        model.fit(Bad(), np.zeros(3), verbose=0)


def test_normalize():
    x = np.array([[3.0, 4.0], [0.0, 0.0], [1.0, -1.0]])
    got = tf.keras.utils.normalize(x)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, [[0.6, 0.8], [0, 0], [2 ** -0.5, -(2 ** -0.5)]])
    np.testing.assert_allclose(tf.keras.utils.normalize(x, order=1),
                               [[3 / 7, 4 / 7], [0, 0], [0.5, -0.5]])
    # Keras 3.15 turns axis=0 into -1 when expanding the norms ("axis = axis or -1"):
    # a non-square array fails to broadcast, a square one divides by the transposed norms.
    # Values printed by Keras 3.15 (tfenv) on these inputs:
    with pytest.raises(ValueError, match="could not be broadcast"):
        tf.keras.utils.normalize(x, axis=0)
    np.testing.assert_allclose(tf.keras.utils.normalize(np.array([[3.0, 4], [6, 8]]), axis=0),
                               [[0.4472136, 0.59628479], [0.67082039, 0.89442719]])
    t = tf.keras.utils.normalize(tf.constant(x, tf.float32))
    assert isinstance(t, tf.Tensor)
    np.testing.assert_allclose(t.numpy(), got, rtol=1e-6)


FEATURES = json.loads((FIXTURE.parent / "feature_space.json").read_text())


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_feature_space_matches_keras(name):
    """Adapt on a batched dataset of the table, then encode a batch (with unseen values) and
    one row, as Keras 3.15 did."""
    want = FEATURES[name]
    spaces = _data_files.make_feature_spaces(tf.keras)
    spaces["custom"] = _data_files.make_custom_feature_space(tf.keras)
    fs = spaces[name]
    table, query = _data_files.feature_table(), _data_files.feature_query()
    query = {k: query[k] for k in fs.features}
    fs.adapt(tf.data.Dataset.from_tensor_slices({k: table[k] for k in fs.features}).batch(5))
    symbolic = fs.get_encoded_features()
    shapes = ({k: list(v.shape) for k, v in symbolic.items()} if isinstance(symbolic, dict)
              else list(symbolic.shape))
    assert shapes == want["symbolic_shapes"]
    check(fs(query), want["batch"], 1e-5, f"{name} batch")
    check(fs({k: v[1] for k, v in query.items()}), want["single"], 1e-5, f"{name} single")


def test_feature_space_model_and_errors():
    """A Functional model on get_inputs()/get_encoded_features() trains on the dataset mapped
    through the space (the keras.io structured-data recipe)."""
    FS = tf.keras.utils.FeatureSpace
    table = _data_files.feature_table()
    fs = _data_files.make_feature_spaces(tf.keras)["by_name"]
    with pytest.raises(ValueError, match=r"You need to call `.adapt\(dataset\)`"):
        fs.get_encoded_features()
    fs.adapt(table)                                   # a dict of arrays works too
    x = tf.keras.layers.Dense(1)(fs.get_encoded_features())
    model = tf.keras.Model(fs.get_inputs(), x)
    ds = tf.data.Dataset.from_tensor_slices((table, table["score"])).batch(8)
    encoded = ds.map(lambda f, y: (fs(f), y))
    head = tf.keras.Sequential([tf.keras.Input((37,)), tf.keras.layers.Dense(1)])
    head.compile("sgd", "mse")
    assert np.isfinite(head.fit(encoded, epochs=1, verbose=0).history["loss"][0])
    out = model({k: tf.constant(v[:4, None]) for k, v in table.items()})
    assert out.shape == (4, 1)
    with pytest.raises(ValueError, match="cannot be None or empty"):
        FS({})
    with pytest.raises(ValueError, match="Invalid feature type: nope"):
        FS({"a": "nope"})
    with pytest.raises(ValueError, match="Received unknown features"):
        FS({"a": "float"}, crosses=[("a", "b")])
    with pytest.raises(ValueError, match="Expected one of {'dict', 'concat'}"):
        FS({"a": "float"}, output_mode="list")
    with pytest.raises(ValueError, match="can only be called with a dict"):
        FS({"a": "float"})([1.0])
    with pytest.raises(ValueError, match="has not been encoded"):
        FS({"a": FS.integer_hashed(3, output_mode="int")}).get_encoded_features()


DOTS = json.loads((FIXTURE.parent / "model_to_dot.json").read_text())


@pytest.mark.parametrize("name", sorted(_data_files.PLOT_CASES))
def test_model_to_dot_matches_keras(name):
    pytest.importorskip("pydot")
    model_name, kwargs = _data_files.PLOT_CASES[name]
    model = _data_files.make_plot_models(tf.keras)[model_name]
    dot = tf.keras.utils.model_to_dot(model, **kwargs)
    assert _data_files.normalize_dot(dot.to_string()) == DOTS[name]


def test_plot_model_without_pydot_or_graphviz(monkeypatch, tmp_path):
    from tapeflow.keras.utils import model_visualization as mv
    model = _data_files.make_plot_models(tf.keras)["seq"]
    monkeypatch.setattr(mv, "_pydot", lambda: None)
    with pytest.raises(ImportError, match=r"You must install pydot .*tapeflow\[plot\]"):
        tf.keras.utils.model_to_dot(model)
    with pytest.raises(ImportError, match=r"You must install pydot \(`pip install pydot`\) for "
                                          r"`plot_model` to work"):
        tf.keras.utils.plot_model(model, to_file=str(tmp_path / "m.png"))
    unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="This model has not yet been built"):
        tf.keras.utils.plot_model(unbuilt)


def test_plot_model_writes_the_file(tmp_path):
    pydot = pytest.importorskip("pydot")
    from tapeflow.keras.utils import model_visualization as mv
    model = _data_files.make_plot_models(tf.keras)["two_towers"]
    if not mv._has_graphviz(pydot):
        with pytest.raises(ImportError, match="You must install graphviz"):
            tf.keras.utils.plot_model(model, to_file=str(tmp_path / "m.png"))
        return
    tf.keras.utils.plot_model(model, to_file=str(tmp_path / "m.dot"), show_shapes=True)
    text = (tmp_path / "m.dot").read_text()
    assert "two_towers" not in text and "left" in text and "->" in text


def test_fit_on_an_image_data_generator_flow_matches_keras():
    """The flow's seeded augmentation, its reshuffle in on_epoch_end and Keras's extra reads
    (spec probe, reset) line up with Keras: same losses, weights and predictions."""
    pytest.importorskip("scipy")
    want = PYDATA["flow_fit"]
    got = _data_files.flow_fit(tf.keras, tf.keras.preprocessing)
    np.testing.assert_allclose(got["loss"], want["loss"], rtol=1e-5)
    for g, w in zip(got["weights"], want["weights"]):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(got["predict"], want["predict"], rtol=1e-4, atol=1e-5)


def test_feature_space_inference_model_recipe(capfd):
    """keras.io's FeatureSpace recipe: a training model from the encoded features, an
    inference model from the dict inputs, fed one sample of shape (1,) per feature (Keras
    expands it to the Input's (1, 1)); adapting maps the dataset once per feature and, as
    in TensorFlow, that prints no retracing warning."""
    fs = _data_files.make_feature_spaces(tf.keras)["by_name"]
    table = _data_files.feature_table()
    fs.adapt(tf.data.Dataset.from_tensor_slices(table).batch(6))
    assert "retracing" not in capfd.readouterr().err
    encoded = fs.get_encoded_features()
    x = tf.keras.layers.Dense(4, activation="relu")(encoded)
    out = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    training = tf.keras.Model(inputs=encoded, outputs=out)
    inference = tf.keras.Model(inputs=fs.get_inputs(), outputs=out)
    sample = {k: tf.convert_to_tensor([v[3]]) for k, v in table.items()}
    via_dict = inference.predict(sample, verbose=0)
    via_encoded = training.predict(fs(sample), verbose=0)
    assert via_dict.shape == (1, 1)
    np.testing.assert_allclose(via_dict, via_encoded, rtol=1e-6)
