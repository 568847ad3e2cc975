"""``.keras`` files' ``assets/``: the vocabularies of adapted StringLookup, IntegerLookup
and TextVectorization layers (``assets/<layer path>/vocabulary.txt``) and their tf_idf
weights (``vars/idf_weights``), read and written as Keras 3.15 does.

Fixtures (tests/fixtures/keras/assets/) come from tools/record_keras_assets.py:
files and outputs written by Keras 3.15 (``keras_assets.json``), and what Keras 3.15 read
from tapeflow's files of the same models (``keras_loads_tapeflow.json``).
"""
import functools
import importlib.util
import json
import os
import zipfile

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("h5py")

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, os.pardir, "fixtures", "keras", "assets")
TOOL = os.path.join(HERE, os.pardir, os.pardir, "tools", "record_keras_assets.py")


def _tool():
    spec = importlib.util.spec_from_file_location("record_keras_assets_fixtures", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = _tool()
with open(os.path.join(FIXTURES, "keras_assets.json")) as _f:
    RECORD = json.load(_f)
with open(os.path.join(FIXTURES, "keras_loads_tapeflow.json")) as _f:
    KERAS_READ = json.load(_f)
NAMES = sorted(RECORD["cases"])


@functools.lru_cache(maxsize=None)
def inputs(name):
    return tool.make_cases(tf.keras)[name][1]


def fresh(name):
    """The fixture model ``name`` built and adapted by tapeflow, and its inputs."""
    return tool.make_cases(tf.keras)[name]


def assert_outputs(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g["dtype"], g["shape"]) == (w["dtype"], w["shape"])
        if w["dtype"].startswith("float"):
            np.testing.assert_allclose(g["value"], w["value"], rtol=1e-5, atol=1e-6)
        else:
            assert g["value"] == w["value"]


def lookup_configs(config):
    """``[(class, vocabulary, idf_weights, vocabulary_size)]`` of the lookup layers in a
    saved model config, in the order they appear."""
    out = []

    def visit(node):
        if isinstance(node, dict):
            if node.get("class_name") in ("StringLookup", "IntegerLookup",
                                          "TextVectorization"):
                c = node["config"]
                out.append((node["class_name"], c.get("vocabulary"), c.get("idf_weights"),
                            c.get("vocabulary_size")))
            for v in node.values():
                visit(v)
        elif isinstance(node, list):
            for v in node:
                visit(v)

    visit(config)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_keras_file_loads_with_its_vocabularies_and_gives_keras_outputs(name):
    from tapeflow.keras.saving.weights_h5 import walk
    model = tf.keras.models.load_model(os.path.join(FIXTURES, f"{name}.keras"))
    assert_outputs(tool.outputs(model, inputs(name)), RECORD["cases"][name]["outputs"])
    # each asset landed in the layer at its path
    assets = RECORD["cases"][name]["assets"]
    seen = set()
    for path, obj in walk(model):
        key = f"assets/{path}/vocabulary.txt"
        if key in assets:
            seen.add(key)
            vocab = obj.get_vocabulary() if hasattr(obj, "get_vocabulary") else None
            assert "\n".join(str(t) for t in vocab) == assets[key]
    assert seen == set(assets)


@pytest.mark.parametrize("name", NAMES)
def test_tapeflow_file_has_keras_members_assets_datasets_and_config(name, tmp_path):
    model, _ = fresh(name)
    path = str(tmp_path / f"{name}.keras")
    model.save(path)
    got, want = tool.describe(path), RECORD["cases"][name]
    assert got["names"][:3] == ["metadata.json", "config.json", "model.weights.h5"]
    assert sorted(got["names"]) == sorted(want["names"])
    assert got["assets"] == want["assets"]  # byte for byte
    assert got["datasets"] == want["datasets"]  # paths (idf_weights keys), shapes, dtypes
    with zipfile.ZipFile(path) as z:
        mine = lookup_configs(json.loads(z.read("config.json")))
    with zipfile.ZipFile(os.path.join(FIXTURES, f"{name}.keras")) as z:
        keras = lookup_configs(json.loads(z.read("config.json")))
    assert mine == keras


@pytest.mark.parametrize("name", NAMES)
def test_keras_read_tapeflow_files_and_gave_tapeflow_outputs(name):
    """Recorded: Keras 3.15's ``load_model`` of tapeflow's file of this model."""
    entry = KERAS_READ[name]
    assert entry["loaded"], entry.get("error")
    assert entry["same_names"] and entry["same_assets"] and entry["same_datasets"]
    assert_outputs(entry["keras_outputs"], entry["tapeflow_outputs"])


@pytest.mark.parametrize("name", NAMES)
def test_tapeflow_round_trip_keeps_vocabularies_and_outputs(name, tmp_path):
    model, x = fresh(name)
    path = str(tmp_path / "a.keras")
    model.save(path)
    again = tf.keras.models.load_model(path)
    assert_outputs(tool.outputs(again, x), tool.outputs(model, x))
    again.save(str(tmp_path / "b.keras"))  # a loaded vocabulary is saved as an asset again
    first, second = tool.describe(path), tool.describe(str(tmp_path / "b.keras"))
    assert first["assets"] == second["assets"] and first["datasets"] == second["datasets"]


@pytest.mark.parametrize("call,cls,text", RECORD["set_vocabulary_errors"],
                         ids=[e[0] for e in RECORD["set_vocabulary_errors"]])
def test_set_vocabulary_errors_are_keras(call, cls, text):
    got = {c: (k, t) for c, k, t in tool.set_vocabulary_errors(tf.keras)}
    assert got[call] == (cls, text)


def test_set_vocabulary_with_special_tokens_keeps_their_idf_weights():
    """A tf_idf vocabulary led by the OOV token takes its idf weight as given (the weights
    a ``.keras`` file holds); without it the OOV weight is the mean."""
    led = tf.keras.layers.StringLookup(output_mode="tf_idf")
    led.set_vocabulary(["[UNK]", "a", "b"], idf_weights=[0.25, 1.0, 2.0])
    bare = tf.keras.layers.StringLookup(output_mode="tf_idf")
    bare.set_vocabulary(["a", "b"], idf_weights=[1.0, 2.0])
    x = tf.constant([["a", "z"]])
    np.testing.assert_allclose(led(x).numpy(), [[0.25, 1.0, 0.0]])
    np.testing.assert_allclose(bare(x).numpy(), [[1.5, 1.0, 0.0]])
    assert led.get_vocabulary() == bare.get_vocabulary() == ["[UNK]", "a", "b"]
    assert led.get_config()["vocabulary"] is None  # set later: not config (as Keras)


def _copy_with(src, dst, drop=(), extra=()):
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, "w") as b:
        for info in a.infolist():
            if info.filename not in drop:
                b.writestr(info, a.read(info))
        for name, data in extra:
            b.writestr(name, data)


def test_an_asset_path_leaving_the_assets_folder_is_refused(tmp_path):
    bad = str(tmp_path / "sub" / "bad.keras")
    os.makedirs(os.path.dirname(bad))
    _copy_with(os.path.join(FIXTURES, "string_lookup_int.keras"), bad,
               extra=[("assets/../../escaped.txt", b"x")])
    with pytest.raises(ValueError, match="escapes the asset directory"):
        tf.keras.models.load_model(bad)
    assert not os.path.exists(tmp_path / "escaped.txt")


def test_a_missing_vocabulary_names_the_layer_that_failed(tmp_path):
    """More than three members, so Keras reads assets, but none for this layer: the
    layer is listed as not loaded (Keras fails there too)."""
    bad = str(tmp_path / "bad.keras")
    _copy_with(os.path.join(FIXTURES, "string_lookup_int.keras"), bad,
               drop=("assets/layers/string_lookup/vocabulary.txt",),
               extra=[("assets/other/vocabulary.txt", b"[UNK]\na")])
    with pytest.raises(ValueError, match="A total of 1 objects could not be loaded") as info:
        tf.keras.models.load_model(bad)
    assert "vocabulary.txt" in str(info.value)


def test_a_file_without_assets_loads_the_layer_without_its_vocabulary(tmp_path):
    """Three members only: Keras reads no assets, the lookup keeps its special tokens."""
    bare = str(tmp_path / "bare.keras")
    _copy_with(os.path.join(FIXTURES, "string_lookup_int.keras"), bare,
               drop=("assets/layers/string_lookup/vocabulary.txt",))
    model = tf.keras.models.load_model(bare)
    assert model.layers[0].get_vocabulary() == ["[UNK]"]


def test_a_failing_asset_writer_keeps_the_previous_file(tmp_path, monkeypatch):
    model, x = fresh("string_lookup_int")
    path = str(tmp_path / "m.keras")
    model.save(path)
    before = open(path, "rb").read()

    def broken(self, dir_path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tf.keras.layers.StringLookup, "save_assets", broken)
    with pytest.raises(OSError, match="No space left"):
        model.save(path)
    assert sorted(os.listdir(tmp_path)) == ["m.keras"]
    assert open(path, "rb").read() == before


def test_an_unadapted_lookup_builds_a_model_in_int_mode_only():
    """A model is built before the vocabulary exists (as ``load_model`` does before the
    assets load): int mode keeps the input's shape; multi_hot, whose size is unknown
    without a ``vocabulary_size``, still needs the vocabulary."""
    inp = tf.keras.Input((2,), dtype="string")
    lookup = tf.keras.layers.StringLookup()
    model = tf.keras.Model(inp, lookup(inp))
    assert model.output_shape == (None, 2)
    lookup.adapt(np.array(["a", "b", "b"]))
    assert model(np.array([["a", "z"]])).numpy().tolist() == [[2, 0]]
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
        tf.keras.layers.StringLookup(output_mode="multi_hot")(inp)
    sized = tf.keras.layers.StringLookup.from_config(
        dict(tf.keras.layers.StringLookup(output_mode="multi_hot").get_config(),
             vocabulary_size=4))
    assert sized(inp).shape == (None, 4)


def test_an_asset_that_unpacks_far_beyond_its_stored_size_is_refused(tmp_path, monkeypatch):
    from tapeflow.keras.saving import saving_lib
    monkeypatch.setattr(saving_lib, "_ASSET_BOMB_FLOOR", 1 << 12)
    bomb = str(tmp_path / "bomb.keras")
    with zipfile.ZipFile(os.path.join(FIXTURES, "string_lookup_int.keras")) as a, \
            zipfile.ZipFile(bomb, "w") as b:
        for info in a.infolist():
            b.writestr(info, a.read(info))
        b.writestr("assets/other/big.txt", b"\0" * (1 << 20), zipfile.ZIP_DEFLATED)
    with pytest.raises(ValueError, match="potential decompression bomb"):
        tf.keras.models.load_model(bomb)
