"""Record Keras 3.15 / TensorFlow 2.21 outputs of the categorical and text preprocessing
layers (CategoryEncoding, StringLookup, IntegerLookup, Discretization, TextVectorization,
Hashing, HashedCrossing) and of tf.strings.to_hash_bucket_fast/_strong.

Run with the TensorFlow venv from the repository root:
    /work/tfvenv/bin/python tools/record_keras_preprocessing.py
Writes tests/fixtures/keras/layers/preprocessing.json: per case the layer class, its
constructor arguments, optional adapt data (a list, an array, a tensor or a batched
Dataset), the inputs of one or more calls, and for each call the output (dtype, shape,
values) or the error (class and text); also the vocabulary and get_config after adapt.
Also writes tests/fixtures/keras/layers/string_hash.json (hash buckets of many strings).
"""
import json
import os
import re

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras", "layers",
                   "preprocessing.json")
RNG = np.random.default_rng(20261127)


def value(v, dtype):
    """A fixture input: nested lists plus the dtype name."""
    return {"value": np.asarray(v).tolist() if dtype != "string" else v, "dtype": dtype}


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
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    return re.sub(r"\{\{function_node [^}]*\}\} ", "", text)


def plain(x):
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


def run(case):
    cls = getattr(keras.layers, case["layer"])
    out = dict(case)
    try:
        layer = cls(**case["kwargs"])
    except Exception as e:  # noqa: BLE001 - recorded
        out["init_error"] = [type(e).__name__, clean(str(e))]
        return out
    if "adapt" in case:
        layer.adapt(adapt_data(case["adapt"]))
    if hasattr(layer, "get_vocabulary"):
        out["vocabulary"] = plain(layer.get_vocabulary())
        out["vocabulary_size"] = layer.vocabulary_size()
    if case["layer"] == "Discretization":
        bounds = layer.bin_boundaries
        out["bin_boundaries"] = None if bounds is None else plain(list(bounds))
    config = layer.get_config()
    config.pop("name", None)
    if isinstance(config.get("dtype"), dict):
        config["dtype"] = config["dtype"]["config"]["name"]
    out["config"] = plain(config)
    results = []
    for spec in case["calls"]:
        try:
            y = layer(make(spec))
            results.append({"dtype": y.dtype.name, "shape": list(y.shape),
                            "value": [v.decode() if isinstance(v, bytes) else v
                                      for v in np.asarray(y).reshape(-1).tolist()]})
        except Exception as e:  # noqa: BLE001 - recorded
            results.append({"error": [type(e).__name__, clean(str(e))]})
    out["results"] = results
    return out


S, INT, F = "string", "int64", "float32"
TEXT = ["The Brain is wider than the Sky", "For put them side by side",
        "The one the other will contain", "With ease and You beside"]
VOC = ["a", "b", "c"]
CASES = []


def case(layer, kwargs, calls, adapt=None, name=None):
    c = {"name": name or f"{layer}-{len(CASES)}", "layer": layer, "kwargs": kwargs,
         "calls": calls}
    if adapt is not None:
        c["adapt"] = adapt
    CASES.append(c)


def cases():
    ints2 = value([[0, 1], [0, 0], [1, 2], [3, 1]], INT)
    for mode in ("one_hot", "multi_hot", "count"):
        case("CategoryEncoding", {"num_tokens": 4, "output_mode": mode},
             [value([3, 2, 0, 1], INT), ints2, value([[0], [2]], INT), value(2, INT),
              value([[[0, 1], [2, 3]]], "int32"), value([0, 5], INT), value([0, -1], INT)])
    case("CategoryEncoding", {"num_tokens": 4, "output_mode": "foo"}, [])
    case("CategoryEncoding", {"output_mode": "count"}, [])
    strs2 = value([["a", "", "z"], ["c", "b", "a"]], S)
    strs1 = value(["a", "", "z", "q"], S)
    for kw in [{}, {"mask_token": ""}, {"num_oov_indices": 0}, {"num_oov_indices": 5},
               {"num_oov_indices": 3, "mask_token": "", "output_mode": "count"},
               {"output_mode": "one_hot"},
               {"output_mode": "multi_hot"}, {"output_mode": "count"},
               {"output_mode": "multi_hot", "mask_token": ""},
               {"output_mode": "count", "pad_to_max_tokens": True, "max_tokens": 7},
               {"output_mode": "tf_idf", "idf_weights": [0.5, 1.0, 2.0]}]:
        case("StringLookup", dict(kw, vocabulary=VOC),
             [strs2, strs1, value(["c"], S), value(["x", "yy", "zzz", "hello", "a b"], S)])
    for kw in [{"invert": True}, {"invert": True, "mask_token": ""}]:
        case("StringLookup", dict(kw, vocabulary=VOC),
             [value([[0, 1, 3], [2, 9, 0]], INT), value([0, 1, 4], INT)])
    case("StringLookup", {"vocabulary": ["a", "a", "b"]}, [])
    case("StringLookup", {"output_mode": "foo"}, [])
    case("StringLookup", {"output_mode": "tf_idf", "vocabulary": VOC}, [])
    case("StringLookup", {}, [strs1])   # before adapt
    words = ["x", "y", "y", "z", "z", "z", "[M]", "[UNK]", "[UNK]", "[UNK]", "w", "v", "u"]
    case("StringLookup", {"max_tokens": 4, "mask_token": "[M]"}, [value(words, S)],
         adapt={"kind": "list", "data": words})
    case("StringLookup", {}, [value(["b", "a", "q"], S)],
         adapt={"kind": "dataset", "data": ["b", "a", "b", "c", "a", "d", "e", "c", "c"],
                "batch": 4})
    docs = [["a", "b", "a"], ["c", "a", "d"], ["c", "e", "f"]]
    case("StringLookup", {"output_mode": "tf_idf"}, [value([["a", "z", "c", "c"]], S)],
         adapt={"kind": "tensor", "data": docs})
    case("StringLookup", {"output_mode": "multi_hot", "num_oov_indices": 0},
         [value([["a", "f"], ["b", "b"]], S), value([["q", "a", "r"]], S)],
         adapt={"kind": "array", "data": docs})
    for kw in [{}, {"mask_token": 0}, {"num_oov_indices": 3}, {"output_mode": "multi_hot"},
               {"output_mode": "count"}, {"invert": True}, {"oov_token": -7, "invert": True}]:
        calls = [value([0, 1, 2, 3, 9], INT)] if kw.get("invert") else [
            value([5, 7, 8, 9, 10, 11, -3, 0], INT), value([[5, 9], [7, 7]], INT),
            value([5.0, 7.0], F), value([5, 7], "int32")]
        case("IntegerLookup", dict(kw, vocabulary=[5, 7]), calls)
    case("IntegerLookup", {}, [value([[12, 1138, 42], [42, 1000, 36]], INT)],
         adapt={"kind": "tensor", "data": [12, 36, 1138, 42, 42, 42, 12], "dtype": INT})
    ints = RNG.integers(0, 30, 200).tolist()
    case("IntegerLookup", {"max_tokens": 12, "output_mode": "count"},
         [value([ints[:10], ints[10:20]], INT)],
         adapt={"kind": "dataset", "data": ints, "batch": 32, "dtype": INT})
    case("IntegerLookup", {"output_mode": "tf_idf", "pad_to_max_tokens": True, "max_tokens": 9},
         [value([[1, 2, 2, 40]], INT)],
         adapt={"kind": "array", "data": [[1, 2, 3], [2, 2, 4], [5, 1, 1]], "dtype": INT})
    case("IntegerLookup", {}, [value([1], INT)])   # before adapt
    # Discretization
    x2 = value([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]], F)
    for mode in ("int", "one_hot", "multi_hot", "count"):
        case("Discretization", {"bin_boundaries": [0.0, 1.0, 2.0], "output_mode": mode},
             [x2, value([0.5, 1.0, -3.0], F), value([0, 1, 2], INT), value([1.0, 2.0], "float64")])
    case("Discretization", {"num_bins": 3}, [value([0.5], F)])
    case("Discretization", {"num_bins": 3, "bin_boundaries": [1.0]}, [])
    case("Discretization", {}, [])
    probe = value(np.linspace(-3, 60, 29).astype("float32"), F)
    case("Discretization", {"num_bins": 4, "epsilon": 0.01}, [probe],
         adapt={"kind": "array", "data": np.arange(20).tolist(), "dtype": F})
    normal = RNG.standard_normal(1000).astype("float32")
    for bins, eps in ((5, 0.01), (10, 0.001), (3, 0.1), (7, 0.05)):
        case("Discretization", {"num_bins": bins, "epsilon": eps},
             [value(np.linspace(-3, 3, 25).astype("float32"), F)],
             adapt={"kind": "array", "data": normal.tolist(), "dtype": F})
    case("Discretization", {"num_bins": 6, "epsilon": 0.01}, [probe],
         adapt={"kind": "dataset", "data": (RNG.random(500) * 50).astype("float32").tolist(),
                "batch": 64, "dtype": F})
    case("Discretization", {"num_bins": 4}, [value([0, 1, 2, 3, 4, 5], F)],
         adapt={"kind": "list", "data": [[1.0, 1.0, 1.0, 2.0], [2.0, 3.0, 5.0, 5.0]]})
    case("Discretization", {"num_bins": 5, "epsilon": 0.02}, [probe],
         adapt={"kind": "dataset", "data": RNG.integers(0, 40, 333).astype("float32").tolist(),
                "batch": 50, "dtype": F})
    # TextVectorization
    q = value(["The brain contains the sky", "side BY side, with: EASE!"], S)
    for kw in [{}, {"max_tokens": 16, "output_mode": "multi_hot"},
               {"max_tokens": 16, "output_mode": "tf_idf"}, {"output_mode": "count"},
               {"output_sequence_length": 6, "ngrams": 2},
               {"output_sequence_length": 3, "max_tokens": 8},
               {"ngrams": (2, 3)}, {"standardize": "lower"}, {"standardize": None},
               {"standardize": "strip_punctuation", "split": "character", "max_tokens": 12},
               {"split": None}, {"output_mode": "multi_hot", "pad_to_max_tokens": True,
                                 "max_tokens": 40}]:
        case("TextVectorization", kw, [q, value([["The one"], ["Sky sky"]], S),
                                       value("the sky is wider", S)],
             adapt={"kind": "list", "data": TEXT})
    case("TextVectorization", {"output_sequence_length": 5}, [q],
         adapt={"kind": "dataset", "data": TEXT * 3, "batch": 5})
    case("TextVectorization", {"output_mode": "tf_idf"}, [q],
         adapt={"kind": "tensor", "data": TEXT})
    case("TextVectorization", {"vocabulary": ["the", "sky", "brain"]}, [q])
    case("TextVectorization", {"vocabulary": ["the", "sky"], "output_mode": "tf_idf",
                               "idf_weights": [0.5, 2.0]}, [q])
    case("TextVectorization", {}, [q])   # before adapt
    case("TextVectorization", {"output_mode": "foo"}, [])
    case("TextVectorization", {"standardize": "foo"}, [])
    case("TextVectorization", {"output_mode": "count", "output_sequence_length": 3}, [])
    # Hashing / HashedCrossing
    words = value([["a"], ["b"], ["hello"], [""], ["ξεῖν᾽"], ["a" * 70]], S)
    nums = value([[1], [2], [3], [1000], [-5], [0]], INT)
    for kw in [{"num_bins": 64, "salt": 1337}, {"num_bins": 8}, {"num_bins": 3},
               {"num_bins": 5, "mask_value": ""}, {"num_bins": 5, "mask_value": 1000},
               {"num_bins": 16, "salt": [7, -3]}, {"num_bins": 4, "output_mode": "one_hot"},
               {"num_bins": 4, "output_mode": "multi_hot"},
               {"num_bins": 4, "output_mode": "count"}]:
        case("Hashing", kw, [words, nums, value([1.7, -2.5, 3.0], F),
                             value([5, 6, 7], "int32")])
    case("Hashing", {"num_bins": 0}, [])
    case("Hashing", {"num_bins": 3, "salt": "x"}, [])
    case("Hashing", {"num_bins": 3, "output_mode": "tf_idf"}, [])
    cross = {"list": [value(["a", "b", "hello", ""], S), value([1, 2, -7, 123456789012], INT)]}
    cross2 = {"list": [value([["a"], ["q"]], S), value([["x"], ["y"]], S)]}
    for kw in [{"num_bins": 5}, {"num_bins": 1000}, {"num_bins": 4, "output_mode": "one_hot"}]:
        case("HashedCrossing", kw, [cross, cross2])
    case("HashedCrossing", {"num_bins": 3, "output_mode": "count"}, [])


def string_hashes():
    """to_hash_bucket_fast / _strong of strings of every length up to 200 and beyond."""
    strs = [bytes(RNG.integers(0, 256, n, dtype=np.uint8))
            for n in list(range(0, 200)) + [255, 256, 257, 300, 511, 1000]]
    strs += [b"hello", "ξεῖν᾽".encode(), b"1000", b"-5"]
    t = tf.constant(strs)
    big = 2 ** 63 - 1
    data = {"strings": [b.hex() for b in strs],
            "fast": tf.strings.to_hash_bucket_fast(t, big).numpy().tolist(),
            "fast_1000003": tf.strings.to_hash_bucket_fast(t, 1000003).numpy().tolist(),
            "strong_1337": tf.strings.to_hash_bucket_strong(t, big, [1337, 1337]).numpy().tolist(),
            "strong_m3_7": tf.strings.to_hash_bucket_strong(t, big, [-3, 7]).numpy().tolist()}
    path = os.path.join(os.path.dirname(OUT), "string_hash.json")
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.relpath(path), os.path.getsize(path), "bytes")


if __name__ == "__main__":
    string_hashes()
    keras.utils.set_random_seed(1)
    cases()
    data = [run(c) for c in CASES]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"), ensure_ascii=False)
        f.write("\n")
    print("wrote", os.path.relpath(OUT), os.path.getsize(OUT), "bytes,", len(data), "cases")
