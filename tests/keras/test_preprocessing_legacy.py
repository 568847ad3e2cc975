"""tf.keras.preprocessing (image: ImageDataGenerator, flows, random transforms; sequence;
text) against what TF 2.21's tf.keras.preprocessing (Keras 3.15's legacy module) gave on the
same inputs with the same global seeds (tools/record_keras_data.py legacy)."""
import contextlib
import io
import json
import pathlib
import warnings

import numpy as np
import pytest

import tapeflow as tf

from . import _data_files

pytest.importorskip("scipy")
pytest.importorskip("PIL")
RECORDED = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "data" /
                       "legacy_preprocessing.json").read_text())
# Cases reading the JPEG files decode through Pillow in both Keras's load_img and
# tapeflow's: they match exactly, like everything here.


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("legacy"))
    _data_files.write_dirs(path)
    return path


def check(got, want, where):
    if "seq" in want:
        assert isinstance(got, tuple if want["seq"] == "tuple" else list), where
        assert len(got) == len(want["items"]), where
        for i, (g, w) in enumerate(zip(got, want["items"])):
            check(g, w, f"{where}[{i}]")
        return
    if "scalar" in want:
        assert got == pytest.approx(want["scalar"]), where
        return
    if "plain" in want:
        assert got == want["plain"], where
        return
    got = np.asarray(got)
    assert list(got.shape) == want["shape"], where
    assert str(got.dtype) == want["dtype"], where
    np.testing.assert_allclose(got.ravel(), np.asarray(want["values"], dtype=got.dtype),
                               rtol=1e-5, atol=1e-4, err_msg=where)


@pytest.mark.parametrize("name", sorted(_data_files.LEGACY_CASES))
def test_matches_tf_keras_preprocessing(root, name):
    want = RECORDED[name]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = _data_files.LEGACY_CASES[name](tf.keras.preprocessing, root)
    assert printed.getvalue() == want["print"]
    check(result, want["result"], name)


def test_namespace_is_tf_2_21s():
    """The names TF 2.21 lists under tf.keras.preprocessing and its three modules."""
    p = tf.keras.preprocessing
    assert {"image", "image_dataset_from_directory", "sequence", "text",
            "text_dataset_from_directory", "timeseries_dataset_from_array"} <= set(dir(p))
    assert {"DirectoryIterator", "ImageDataGenerator", "Iterator", "NumpyArrayIterator",
            "apply_affine_transform", "apply_brightness_shift", "apply_channel_shift",
            "array_to_img", "img_to_array", "load_img", "random_brightness",
            "random_channel_shift", "random_rotation", "random_shear", "random_shift",
            "random_zoom", "save_img", "smart_resize"} <= set(dir(p.image))
    assert {"TimeseriesGenerator", "make_sampling_table", "pad_sequences",
            "skipgrams"} <= set(dir(p.sequence))
    assert {"Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence",
            "tokenizer_from_json"} <= set(dir(p.text))


def test_fit_on_a_flow():
    """Model.fit takes an ImageDataGenerator flow (a PyDataset) as Keras does."""
    gen = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255,
                                                          horizontal_flip=True)
    x = np.random.default_rng(0).uniform(0, 255, (10, 6, 6, 3)).astype("float32")
    y = np.arange(10) % 2
    model = tf.keras.Sequential([tf.keras.Input((6, 6, 3)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(2)])
    model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(gen.flow(x, y, batch_size=4, seed=1), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_errors():
    image = tf.keras.preprocessing.image
    with pytest.raises(ValueError, match="`zoom_range` should be a float"):
        image.ImageDataGenerator(zoom_range=(1, 2, 3))
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        image.ImageDataGenerator(validation_split=1.5)
    with pytest.raises(ValueError, match="should have rank 4"):
        image.ImageDataGenerator().flow(np.zeros((2, 3, 3)))
    with pytest.raises(ValueError, match="Input arrays must be multi-channel 2D images"):
        image.apply_affine_transform(np.zeros((3, 3)), theta=3)
    with pytest.raises(ValueError, match="different number of classes"):
        image.ImageDataGenerator(validation_split=0.5).flow(
            np.zeros((4, 2, 2, 3)), np.array([0, 0, 1, 1]), subset="training")
    with pytest.raises(ValueError, match="Data and targets have to be of same length"):
        tf.keras.preprocessing.sequence.TimeseriesGenerator(np.zeros(5), np.zeros(4), 2)
    with pytest.raises(ValueError, match="Unknown vectorization mode"):
        tok = tf.keras.preprocessing.text.Tokenizer()
        tok.fit_on_texts(["a b"])
        tok.texts_to_matrix(["a"], mode="idf")
    with pytest.raises(TypeError, match="Unrecognized keyword arguments"):
        tf.keras.preprocessing.text.Tokenizer(lowercase=True)
    hashed = tf.keras.preprocessing.text.one_hot("a b c a", 5)
    assert len(hashed) == 4 and hashed[0] == hashed[3] and all(1 <= h < 5 for h in hashed)
