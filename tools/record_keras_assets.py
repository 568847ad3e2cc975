"""Record Keras 3 ``.keras`` files whose lookup layers carry ``assets/`` (vocabularies) for
tapeflow's tests (tests/fixtures/keras/assets/).

Run with TensorFlow's interpreter (one command does everything):

    /work/tfvenv/bin/python tools/record_keras_assets.py

1. Keras 3 builds and adapts the models of ``make_cases``, writes ``<name>.keras`` and
   records in ``keras_assets.json``: each file's member names, its asset files' text, its
   weights file's datasets (path, shape, dtype), the model's outputs on fixed inputs, and
   Keras's error texts for bad ``set_vocabulary`` calls.
2. It runs this script in tapeflow mode (``python tools/record_keras_assets.py
   tapeflow DIR`` with tapeflow's interpreter, ``$TAPEFLOW_PYTHON`` or ``python``, and
   ``PYTHONPATH=src``): tapeflow builds the same models, writes ``DIR/<name>.keras`` and
   its outputs (``DIR/tapeflow_outputs.json``).
3. Keras 3 loads each tapeflow file with ``keras.saving.load_model`` and records in
   ``keras_loads_tapeflow.json`` whether it loaded, Keras's outputs next to tapeflow's, and
   whether the member names and asset bytes equal those of Keras's own file.

``make_cases(keras)`` takes ``keras`` or ``tapeflow.keras``, so the tests build exactly
these models.
"""
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, os.pardir)
OUT = os.path.join(ROOT, "tests", "fixtures", "keras", "assets")

WORDS = np.array(["a", "b", "b", "c", "c", "c", "d", "d", "d", "d"])
DOCS = np.array([["a", "b"], ["b", "c"], ["c", "c"], ["d", "a"]])
INTS = np.array([3, 5, 5, 7, 9, 9, 9, 0, 0])
TEXTS = np.array(["The cat sat on the mat.", "The dog ate my homework!", "A cat, a dog.",
                  "my cat"])
QUERY = np.array(["the cat ate", "a bird sat on my dog", "zebra"])


def make_cases(keras):
    """``{name: (model, inputs)}``: small models whose lookup layers were adapted (or given
    a vocabulary), and their fixed inputs."""
    layers = keras.layers
    cases = {}

    sl = layers.StringLookup()
    sl.adapt(WORDS)
    cases["string_lookup_int"] = (
        keras.Sequential([keras.Input((3,), dtype="string"), sl]),
        np.array([["a", "c", "z"], ["d", "b", "a"]]))

    sl = layers.StringLookup(output_mode="tf_idf", mask_token="")
    sl.adapt(DOCS)
    cases["string_lookup_tf_idf"] = (
        keras.Sequential([keras.Input((3,), dtype="string"), sl]),
        np.array([["a", "c", "c"], ["z", "", "b"]]))

    il = layers.IntegerLookup(output_mode="multi_hot", num_oov_indices=2, mask_token=0)
    il.adapt(INTS)
    cases["integer_lookup_multi_hot"] = (
        keras.Sequential([keras.Input((4,), dtype="int64"), il]),
        np.array([[3, 4, 9, 0], [5, 5, 6, 7]], np.int64))

    il = layers.IntegerLookup(invert=True, mask_token=0)
    il.adapt(INTS)
    cases["integer_lookup_invert"] = (
        keras.Sequential([keras.Input((3,), dtype="int64"), il]),
        np.array([[0, 1, 2], [3, 4, 9]], np.int64))

    tv = layers.TextVectorization(output_sequence_length=6, ngrams=2)
    tv.adapt(TEXTS)
    cases["text_vectorization_int"] = (
        keras.Sequential([keras.Input((), dtype="string"), tv]), QUERY)

    tv = layers.TextVectorization(output_mode="multi_hot", max_tokens=6)
    tv.adapt(TEXTS)
    cases["text_vectorization_multi_hot"] = (
        keras.Sequential([keras.Input((), dtype="string"), tv]), QUERY)

    tv = layers.TextVectorization(output_mode="tf_idf")
    tv.adapt(TEXTS)
    cases["text_vectorization_tf_idf"] = (
        keras.Sequential([keras.Input((), dtype="string"), tv]), QUERY)

    sl = layers.StringLookup()
    sl.set_vocabulary(["p", "q", "r"])  # set after construction: an asset, not config
    given = layers.StringLookup(vocabulary=["x", "y"])  # given: config, no asset
    inp = keras.Input((2,), dtype="string")
    cases["string_lookup_set_and_given"] = (
        keras.Model(inp, [sl(inp), given(inp)]), np.array([["q", "x"], ["y", "r"]]))

    given = layers.StringLookup(vocabulary=["[UNK]", "a", "b"], idf_weights=[0.5, 1.0, 2.0],
                                output_mode="tf_idf")  # led by [UNK]: its weight as given
    cases["string_lookup_given_tf_idf"] = (
        keras.Sequential([keras.Input((2,), dtype="string"), given]),
        np.array([["a", "z"], ["b", "b"]]))

    # nested: a functional model holding a Sequential that holds a TextVectorization
    tv = layers.TextVectorization(output_mode="tf_idf", max_tokens=8)
    tv.adapt(TEXTS)
    inner = keras.Sequential([keras.Input((), dtype="string"), tv, layers.Dense(3)])
    il = layers.IntegerLookup()
    il.adapt(INTS)
    text_in = keras.Input((), dtype="string")
    int_in = keras.Input((2,), dtype="int64")
    cases["nested"] = (keras.Model([text_in, int_in], [inner(text_in), il(int_in)]),
                       [QUERY, np.array([[3, 5], [9, 4], [0, 7]], np.int64)])

    norm = layers.Normalization()
    norm.adapt(np.array([[0.0, 1.0, 2.0], [2.0, 3.0, 8.0], [4.0, 2.0, 5.0]], np.float32))
    disc = layers.Discretization(num_bins=4)
    disc.adapt(np.array([-1.5, -0.5, 0.0, 0.3, 0.9, 1.2, 1.5], np.float32))
    cases["normalization_discretization"] = (
        keras.Sequential([keras.Input((3,)), norm, disc]),
        np.array([[1.0, 2.0, 3.0], [4.0, 0.0, 9.0]], np.float32))
    return cases


def set_vocabulary_errors(keras):
    """``[[call, class, text]]`` for bad ``set_vocabulary`` calls."""
    out = []
    calls = {
        "tf_idf idf of another length":
            lambda: keras.layers.StringLookup(output_mode="tf_idf").set_vocabulary(
                ["a", "b"], idf_weights=[1.0]),
        "tf_idf without idf":
            lambda: keras.layers.StringLookup(output_mode="tf_idf").set_vocabulary(["a"]),
        "idf outside tf_idf":
            lambda: keras.layers.StringLookup().set_vocabulary(["a"], idf_weights=[1.0]),
        "constructor idf outside tf_idf":
            lambda: keras.layers.StringLookup(vocabulary=["a"], idf_weights=[1.0]),
        "repeated term":
            lambda: keras.layers.StringLookup().set_vocabulary(["a", "b", "a"]),
    }
    for name, call in calls.items():
        try:
            call()
            out.append([name, None, None])
        except Exception as e:  # noqa: BLE001 - recording what Keras raises
            out.append([name, type(e).__name__, str(e)])
    return out


def outputs(model, x):
    """``[{dtype, shape, value}]`` of the model's output(s) on ``x``."""
    y = model(x)
    ys = y if isinstance(y, (list, tuple)) else [y]
    out = []
    for t in ys:
        a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
        value = a.reshape(-1).tolist()
        if a.dtype == object:
            value = [v.decode() if isinstance(v, bytes) else v for v in value]
        out.append({"dtype": str(a.dtype), "shape": list(a.shape), "value": value})
    return out


def describe(path):
    """Member names, asset texts and weights datasets of a ``.keras`` file."""
    import h5py
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assets = {n: z.read(n).decode("utf-8") for n in names if n.startswith("assets/")}
        datasets = []
        with h5py.File(io.BytesIO(z.read("model.weights.h5")), "r") as f:
            f.visititems(lambda n, o: datasets.append([n, list(o.shape), str(o.dtype)])
                         if isinstance(o, h5py.Dataset) else None)
    return {"names": names, "assets": assets, "datasets": sorted(datasets)}


def record_tapeflow(out_dir):
    import tapeflow as tf
    result = {}
    for name, (model, x) in make_cases(tf.keras).items():
        model.save(os.path.join(out_dir, f"{name}.keras"))
        result[name] = outputs(model, x)
    with open(os.path.join(out_dir, "tapeflow_outputs.json"), "w") as f:
        json.dump(result, f)


def _close(a, b):
    if a["shape"] != b["shape"]:
        return False
    if isinstance(a["value"][0] if a["value"] else 0, str):
        return a["value"] == b["value"]
    return bool(np.allclose(a["value"], b["value"], rtol=1e-5, atol=1e-6))


def record_keras():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    keras.utils.set_random_seed(0)
    os.makedirs(OUT, exist_ok=True)
    cases = make_cases(keras)
    record = {"keras_version": keras.__version__, "cases": {},
              "set_vocabulary_errors": set_vocabulary_errors(keras)}
    for name, (model, x) in cases.items():
        path = os.path.join(OUT, f"{name}.keras")
        model.save(path)
        record["cases"][name] = dict(describe(path), outputs=outputs(model, x))
        again = keras.saving.load_model(path)  # Keras reads its own file back
        assert all(_close(a, b) for a, b in zip(outputs(again, x), outputs(model, x))), name
    with open(os.path.join(OUT, "keras_assets.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)

    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
        subprocess.run([os.environ.get("TAPEFLOW_PYTHON", "python"), __file__, "tapeflow",
                        tmp], check=True, env=env)
        with open(os.path.join(tmp, "tapeflow_outputs.json")) as f:
            theirs = json.load(f)
        for name, (_, x) in cases.items():
            path = os.path.join(tmp, f"{name}.keras")
            mine = describe(path)
            entry = {"same_names": sorted(mine["names"]) == sorted(
                         record["cases"][name]["names"]),
                     "same_assets": mine["assets"] == record["cases"][name]["assets"],
                     "same_datasets": mine["datasets"] == record["cases"][name]["datasets"]}
            try:
                model = keras.saving.load_model(path)
                got = outputs(model, x)
                entry.update(loaded=True, keras_outputs=got, tapeflow_outputs=theirs[name],
                             outputs_match=all(_close(a, b)
                                               for a, b in zip(got, theirs[name])))
            except Exception as e:  # noqa: BLE001 - recording a failed load
                entry.update(loaded=False, error=f"{type(e).__name__}: {e}")
            report[name] = entry
    with open(os.path.join(OUT, "keras_loads_tapeflow.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    for name, entry in report.items():
        print(name, {k: v for k, v in entry.items() if not k.endswith("_outputs")})


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "tapeflow":
        record_tapeflow(sys.argv[2])
    else:
        record_keras()
