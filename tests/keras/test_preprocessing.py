"""CategoryEncoding, StringLookup, IntegerLookup, Discretization, TextVectorization, Hashing
and HashedCrossing against Keras 3.15 / TF 2.21 (tests/fixtures/keras/layers/
preprocessing.json, recorded by tools/record_keras_preprocessing.py): outputs (dtype,
shape, values), vocabularies, learned bin boundaries, get_config and errors; then the
layers inside tf.function, tf.data.Dataset.map and a compiled model.fit fed strings."""
import json
import pathlib
import re

import numpy as np
import pytest

import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers

FIXTURES = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "layers"
                       / "preprocessing.json").read_text())


def make(spec):
    if "list" in spec:
        return [make(s) for s in spec["list"]]
    if spec["dtype"] == "string":
        return tf.constant(spec["value"])
    return tf.constant(np.asarray(spec["value"], spec["dtype"]))


def adapt_data(spec):
    kind, data = spec["kind"], spec["data"]
    if kind == "list":
        return data
    if kind == "array":
        return np.asarray(data, spec.get("dtype"))
    if kind == "tensor":
        return tf.constant(np.asarray(data, spec.get("dtype")))
    return tf.data.Dataset.from_tensor_slices(np.asarray(data, spec.get("dtype"))).batch(
        spec["batch"])


def clean(text):
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def plain(x):
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


def build(case):
    layer = getattr(layers, case["layer"])(**case["kwargs"])
    if "adapt" in case:
        layer.adapt(adapt_data(case["adapt"]))
    return layer


@pytest.mark.parametrize("case", FIXTURES, ids=[c["name"] for c in FIXTURES])
def test_against_keras(case):
    if "init_error" in case:
        cls, text = case["init_error"]
        with pytest.raises(Exception) as info:
            build(case)
        assert (type(info.value).__name__, str(info.value)) == (cls, text)
        return
    layer = build(case)
    if "vocabulary" in case:
        vocab = layer.get_vocabulary()
        assert plain(vocab) == case["vocabulary"]
        # special tokens are plain Python values, the others NumPy scalars (as Keras)
        assert [type(v).__module__ == "numpy" for v in vocab] == [
            i >= len(vocab) - len(layer.get_vocabulary(include_special_tokens=False))
            for i in range(len(vocab))]
        assert layer.vocabulary_size() == case["vocabulary_size"]
    if case.get("bin_boundaries") is not None:
        np.testing.assert_allclose(layer.bin_boundaries, case["bin_boundaries"], rtol=1e-6)
    elif "bin_boundaries" in case:
        assert layer.bin_boundaries is None
    config = layer.get_config()
    config.pop("name", None)
    if isinstance(config.get("dtype"), dict):
        config["dtype"] = config["dtype"]["config"]["name"]
    assert plain(config) == case["config"]
    for spec, want in zip(case["calls"], case["results"]):
        if "error" in want:
            with pytest.raises(Exception) as info:
                layer(make(spec))
            cls, text = want["error"]
            assert type(info.value).__name__ == cls
            assert clean(str(info.value)).split("\n\nArguments received")[0] == \
                text.split("\n\nArguments received")[0]
            continue
        y = layer(make(spec))
        assert (y.dtype.name, list(y.shape)) == (want["dtype"], want["shape"])
        got = np.asarray(y).reshape(-1).tolist()
        if y.dtype.name == "string":
            assert [v.decode() for v in got] == want["value"]
        elif y.dtype.is_floating:
            np.testing.assert_allclose(got, want["value"], rtol=2e-6, atol=1e-7)
        else:
            assert got == want["value"]


@pytest.mark.parametrize("case", [c for c in FIXTURES if "init_error" not in c
                                  and c["calls"] and "error" not in c["results"][0]],
                         ids=lambda c: c["name"])
def test_from_config_and_tf_function(case):
    """The config rebuilds a layer given a vocabulary that computes the same;
    the layer gives the same values inside a tf.function, traced once per input shape."""
    layer = build(case)
    if "adapt" not in case:  # an adapted vocabulary is not in the config (as Keras)
        again = type(layer).from_config(layer.get_config())
        assert again.get_config() == layer.get_config()
        y = again(make(case["calls"][0]))
        assert np.asarray(y).reshape(-1).tolist() == np.asarray(
            layer(make(case["calls"][0]))).reshape(-1).tolist()
    f = tf.function(lambda x: layer(x))
    for spec, want in zip(case["calls"], case["results"]):
        if "error" in want:
            continue
        for _ in range(2):
            got = np.asarray(f(make(spec))).reshape(-1).tolist()
            if want["dtype"] == "string":
                got = [v.decode() for v in got]
            np.testing.assert_allclose(got, want["value"], rtol=2e-6) \
                if want["dtype"].startswith("float") else None
            if not want["dtype"].startswith("float"):
                assert got == want["value"]


def _case(name_prefix, **match):
    for c in FIXTURES:
        if c["layer"] == name_prefix and all(c["kwargs"].get(k) == v for k, v in match.items()):
            return c
    raise LookupError(match)


def test_dataset_map_text_vectorization():
    case = _case("TextVectorization", output_sequence_length=6, ngrams=2)
    layer = build(case)
    spec, want = case["calls"][0], case["results"][0]
    ds = tf.data.Dataset.from_tensor_slices(spec["value"]).batch(1).map(layer)
    rows = np.concatenate([np.asarray(b) for b in ds])
    assert rows.reshape(-1).tolist() == want["value"]


def test_dataset_map_lookups():
    case = _case("StringLookup", output_mode="count", pad_to_max_tokens=True)
    layer = build(case)
    spec, want = case["calls"][0], case["results"][0]
    ds = tf.data.Dataset.from_tensor_slices(spec["value"]).map(lambda x: (layer(x), 1))
    rows = np.stack([np.asarray(x) for x, _ in ds])
    assert rows.reshape(-1).tolist() == want["value"]


def test_model_fit_fed_strings():
    """A compiled model whose first layer is TextVectorization trains on a Dataset of
    strings; its predictions match the layers applied by hand. NumPy string arrays are
    refused with Keras's error, as under TensorFlow."""
    text_case = _case("TextVectorization", output_sequence_length=3, max_tokens=8)
    vec = build(text_case)
    inp = keras.Input(shape=(1,), dtype="string")
    ids = vec(inp)
    assert tuple(ids.shape) == (None, 3) and ids.dtype == "int64"
    emb = layers.Embedding(8, 2)
    dense = layers.Dense(1)
    out = dense(layers.GlobalAveragePooling1D()(emb(ids)))
    model = keras.Model(inp, out)
    model.compile(optimizer="sgd", loss="mse")
    x = [["The Brain"], ["side by side"], ["zzz the sky"], ["one"]]
    y = np.array([[0.0], [1.0], [1.0], [0.0]], "float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
    hist = model.fit(ds, epochs=3, verbose=0)
    assert len(hist.history["loss"]) == 3 and np.isfinite(hist.history["loss"]).all()
    pred = model.predict(tf.data.Dataset.from_tensor_slices(x).batch(3), verbose=0)
    ids = np.asarray(vec(tf.constant(x)))
    want = np.asarray(emb.embeddings)[ids].mean(axis=1) @ np.asarray(dense.kernel) \
        + np.asarray(dense.bias)
    np.testing.assert_allclose(pred, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="^Invalid dtype: str384$"):  # <U12, as TF names it
        model.fit(np.array(x), y, verbose=0)


def test_lookup_layers_in_a_functional_model():
    """Keras's symbolic dtypes (float32 outside int mode) and a two-input model trained
    on a Dataset of dicts."""
    s_in = keras.Input(shape=(1,), dtype="string", name="thal")
    i_in = keras.Input(shape=(1,), dtype="int64", name="age")
    sl = layers.StringLookup(output_mode="one_hot")
    sl.adapt(tf.constant(["fixed", "normal", "reversible", "normal"]))
    il = layers.IntegerLookup(output_mode="multi_hot", max_tokens=6)
    il.adapt(tf.constant([1, 2, 2, 3, 4, 5, 5, 5]))
    a, b = sl(s_in), il(i_in)
    assert (tuple(a.shape), a.dtype, tuple(b.shape), b.dtype) == (
        (None, 4), "float32", (None, 6), "float32")
    cast = layers.Lambda(lambda t: tf.cast(t, "float32"))
    out = layers.Dense(1, activation="sigmoid")(layers.Concatenate()([cast(a), cast(b)]))
    model = keras.Model([s_in, i_in], out)
    model.compile("adam", "binary_crossentropy")
    xs = {"thal": [["fixed"], ["normal"], ["zzz"], ["reversible"]],
          "age": [[1], [5], [9], [2]]}
    ds = tf.data.Dataset.from_tensor_slices((xs, [[1.0], [0.0], [1.0], [0.0]])).batch(2)
    assert len(model.fit(ds, epochs=2, verbose=0).history["loss"]) == 2
    got = np.asarray(sl(tf.constant(xs["thal"])))
    assert got.tolist() == [[0, 0, 0, 1], [0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]]


def test_discretization_from_config_keeps_boundaries():
    case = _case("Discretization", num_bins=4, epsilon=0.01)
    layer = build(case)
    again = layers.Discretization.from_config(layer.get_config())
    want = case["results"][0]
    assert np.asarray(again(make(case["calls"][0]))).reshape(-1).tolist() == want["value"]


def test_dataset_of_single_strings_mapped():
    """Unbatched string elements (scalars) through TextVectorization inside map: each row
    as the batched call gives it (output_sequence_length fixes the width)."""
    case = _case("TextVectorization", output_sequence_length=3, max_tokens=8)
    layer = build(case)
    spec, want = case["calls"][0], case["results"][0]
    ds = tf.data.Dataset.from_tensor_slices(np.array(spec["value"])).map(layer)
    assert ds.element_spec.dtype == tf.int64
    rows = [np.asarray(r) for r in ds]
    assert [r.shape for r in rows] == [(3,)] * len(spec["value"])
    assert np.concatenate(rows).tolist() == want["value"]


def test_string_hash_buckets_match_tensorflow():
    """tf.strings.to_hash_bucket_fast (FarmHash Fingerprint64) and _strong (SipHash-2-4)
    on strings of every length 0..199 and longer ones (the long-input loop), with the
    largest bucket count so that the whole 63 bits are compared."""
    data = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "layers"
                       / "string_hash.json").read_text())
    strings = tf.constant(np.array([bytes.fromhex(h) for h in data["strings"]], object))
    big = 2 ** 63 - 1
    assert tf.strings.to_hash_bucket_fast(strings, big).numpy().tolist() == data["fast"]
    assert tf.strings.to_hash_bucket_fast(strings, 1000003).numpy().tolist() == \
        data["fast_1000003"]
    assert tf.strings.to_hash_bucket_strong(strings, big, [1337, 1337]).numpy().tolist() == \
        data["strong_1337"]
    assert tf.strings.to_hash_bucket_strong(strings, big, [-3, 7]).numpy().tolist() == \
        data["strong_m3_7"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be at least minimum 1"):
        tf.strings.to_hash_bucket_fast(strings, 0)


def test_adapt_steps_reads_the_first_batches():
    """adapt(dataset, steps=n) learns from the first n batches only: the same vocabulary
    as adapting on those batches' elements."""
    words = ["b", "a", "b", "c", "a", "d", "e", "c", "c"]
    ds = tf.data.Dataset.from_tensor_slices(words).batch(4)
    part = layers.StringLookup()
    part.adapt(ds, steps=1)
    whole = layers.StringLookup()
    whole.adapt(tf.constant(words[:4]))
    assert part.get_vocabulary() == whole.get_vocabulary() == ["[UNK]", "b", "c", "a"]
