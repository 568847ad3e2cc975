"""Record Keras 3.15 / TensorFlow 2.21's image augmentation layers for tapeflow's tests.

Run from the repository root with the TensorFlow venv:
    /work/tfenv/bin/python tools/record_keras_augmentation.py
Writes tests/fixtures/keras/layers/augmentation.json: for each case of
tests/keras/augmentation_cases.py, the outputs of two training calls, a call on one image,
an inference call (or the note that it was the identity), and the layer's config.
"""
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402, F401

from tests.keras import augmentation_cases as cases  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras", "layers",
                   "augmentation.json")


def lists(x):
    """Nested lists; floats with float32's 9 significant digits (exact round trip)."""
    if isinstance(x, dict):
        return {k: lists(v) for k, v in x.items()}
    a = np.asarray(x)
    if a.dtype.kind != "f":
        return a.tolist()
    return np.vectorize(lambda v: float(f"{v:.9g}"), otypes=[object])(
        a.astype(np.float32)).tolist() if a.size else a.tolist()


def plain(value):
    if isinstance(value, dict):
        if value.get("class_name") == "DTypePolicy":
            return value["config"]["name"]
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def copy(x):
    if isinstance(x, dict):
        return {k: copy(v) for k, v in x.items()}
    return np.array(x)


def same(a, b):
    if isinstance(a, dict):
        return all(same(a[k], b[k]) for k in a)
    return np.array_equal(np.asarray(a), np.asarray(b))


def one(x):
    if isinstance(x, dict):
        return {k: one(v) for k, v in x.items()}
    return np.asarray(x)[0]


def record(c, inputs, data):
    keras.utils.set_random_seed(cases.SEED)
    layer = getattr(keras.layers, c["cls"])(**c["kwargs"])
    x = data[c["data"]] if c["data"] else inputs[c["x"]]
    out = {"label": c["label"]}
    try:
        y1 = layer(copy(x), training=True)
    except Exception as e:  # noqa: BLE001 - Keras's refusal is the record
        out["call_error"] = [type(e).__name__, str(e)]
        out["config"] = plain(layer.get_config())
        return out
    out["y1"] = lists(y1)
    if not isinstance(y1, dict):
        out["dtype"] = np.asarray(y1).dtype.name
    out["y2"] = lists(layer(copy(x), training=True))
    try:
        out["single"] = lists(layer(one(x), training=True))
    except Exception as e:  # noqa: BLE001 - recorded as Keras's failure
        out["single_error"] = [type(e).__name__, str(e)[:200]]
    y0 = layer(copy(x), training=False)
    out["inference_identity"] = bool(same(y0, x))
    if not isinstance(y0, dict):
        out["inference_dtype"] = np.asarray(y0).dtype.name
    if not out["inference_identity"]:
        out["y0"] = lists(y0)
    out["config"] = plain(layer.get_config())
    try:
        type(layer).from_config(layer.get_config())
    except Exception as e:  # noqa: BLE001 - Keras's own config may not round trip
        out["from_config_error"] = [type(e).__name__, str(e)]
    return out


def main():
    inputs, data = cases.images(), cases.data()
    errors = []
    for cls, kwargs in cases.ERRORS:
        try:
            getattr(keras.layers, cls)(**kwargs)
            errors.append(None)
        except Exception as e:  # noqa: BLE001 - Keras's error is the record
            errors.append([type(e).__name__, str(e)])
    result = {"keras_version": keras.__version__, "tf_version": tf.__version__,
              "cases": [record(c, inputs, data) for c in cases.CASES], "errors": errors}
    with open(OUT, "w") as f:
        json.dump(result, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.relpath(OUT), os.path.getsize(OUT), "bytes")


if __name__ == "__main__":
    main()
