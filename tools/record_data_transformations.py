# ruff: noqa: E501 - the case table keeps one case a line
"""Record TensorFlow 2.21's results for the tf.data.Dataset transformations of
tests/data/test_transformations.py (padded_batch, flat_map, interleave, window, scan, take_while,
unique, group_by_window, counter, sample/choose_from_datasets, bucket_by_sequence_length ...).

The cases live in tests/data/transformations_cases.py. Run from the repository root with
the TensorFlow venv:
    /work/tfvenv/bin/python tools/record_data_transformations.py
Writes tests/fixtures/data/transformations.json: for each case its source (a Python expression
over ``tf`` and ``np`` giving a dataset, or a statement raising), and what TensorFlow gives:
the elements (nested lists of values with their dtypes), ``element_spec``, ``repr``,
``cardinality()``, or the exception class and message. The tests evaluate the same source
with tapeflow bound to ``tf``.
"""
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "tests", "fixtures", "data", "transformations.json")
sys.path.insert(0, ROOT)
from tests.data.transformations_cases import (  # noqa: E402
    CASES,
    FILES,
    FUNCTION_CASES,
    NO_ELEMENTS,
    UNORDERED,
    make_files,
    make_total,
)

total = make_total(tf)


def encode(value):
    """A nested element as JSON: tuples/dicts kept, leaves as {dtype, value}."""
    if isinstance(value, dict):
        return {"dict": {k: encode(v) for k, v in value.items()}}
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if value is None or isinstance(value, bool):
        return {"python": value}
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind == "S":
        data = np.vectorize(lambda b: b.decode(), otypes=[object])(arr).tolist()
        return {"dtype": "string", "shape": list(arr.shape), "value": data}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "value": arr.tolist()}


def record(source):
    out = {"source": source}
    try:
        result = eval(source, {"tf": tf, "np": np, "FILES": FILES})  # noqa: S307 - our own case table
    except Exception as e:  # noqa: BLE001 - recording TF's errors is the point
        out["error"] = [type(e).__name__, str(e).split("\n")[0]]
        return out
    if isinstance(result, list):
        out["elements"] = [encode(tf.nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t, e)) for e in result]
        return out
    out["repr"] = repr(result)
    out["element_spec"] = repr(result.element_spec)
    out["cardinality"] = int(result.cardinality())
    return out


def main():
    make_files()
    fixtures = {}
    for name, source in CASES.items():
        fixtures[name] = record(source)
        if "error" in fixtures[name] or name in NO_ELEMENTS or "elements" in fixtures[name]:
            continue
        ds = eval(source, {"tf": tf, "np": np, "FILES": FILES})  # noqa: S307
        if name.startswith("uniq_"):
            ds = ds.unique()
            fixtures[name].update(repr=repr(ds), element_spec=repr(ds.element_spec),
                                  cardinality=int(ds.cardinality()))
        try:
            fixtures[name]["elements"] = [encode(e) for e in ds.as_numpy_iterator()]
        except Exception as e:  # noqa: BLE001
            fixtures[name]["iter_error"] = [type(e).__name__, str(e).split("\n")[0]]
        if name in UNORDERED:
            fixtures[name]["unordered"] = True
    functions = {}
    for name, source in FUNCTION_CASES.items():
        ds = eval(source, {"tf": tf, "np": np})  # noqa: S307
        functions[name] = {"source": source, "calls": [
            [int(t) for t in total(ds)] for _ in range(2)]}
    fixtures = {"cases": fixtures, "function_cases": functions}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(fixtures, f, indent=1, sort_keys=True)
    print(f"wrote {OUT} ({len(fixtures['cases'])} cases)")


if __name__ == "__main__":
    main()
