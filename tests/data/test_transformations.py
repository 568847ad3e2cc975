"""tf.data.Dataset transformations (padded_batch, flat_map, interleave, window, scan,
take_while, unique, group_by_window, counter, choose/sample_from_datasets,
bucket_by_sequence_length, rebatch) against TensorFlow 2.21's results recorded by
tools/record_data_transformations.py into tests/fixtures/data/transformations.json (the cases
of tests/data/transformations_cases.py)."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.data import transformations_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "data", "transformations.json")) as f:
    FIXTURES = json.load(f)
CASES = FIXTURES["cases"]

# TensorFlow's own failure is an artifact of its tracing (an AttributeError deep in its
# wrapper); tapeflow raises a TypeError saying the function must return a Dataset.
OTHER_ERROR = {"fm_err": "TypeError"}
# element_spec TensorFlow gets by tracing the function on symbolic input; tapeflow would
# need an element, and the dataset has none.
NO_SPEC = {"fm_empty"}
# not implemented (none now)
SKIP = set()
FILES = transformations_cases.FILES  # the list_files cases' directory


def decode(node):
    if "dict" in node:
        return {k: decode(v) for k, v in node["dict"].items()}
    if "tuple" in node:
        return tuple(decode(v) for v in node["tuple"])
    return node


def encode(value):
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(encode(v) for v in value)
    if value is None or isinstance(value, bool):
        return {"python": value}
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind == "S":
        data = np.vectorize(lambda b: b.decode(), otypes=[object])(arr).tolist()
        return {"dtype": "string", "shape": list(arr.shape), "value": data}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "value": arr.tolist()}


def test_the_fixture_records_every_case_as_written():
    """A case edited or added after recording fails here: rerun the recorder."""
    assert {name: case["source"] for name, case in CASES.items()} == \
        transformations_cases.CASES
    assert {name: case["source"] for name, case in FIXTURES["function_cases"].items()} == \
        transformations_cases.FUNCTION_CASES


def build(name):
    source = transformations_cases.CASES[name]
    if "FILES" in source:
        transformations_cases.make_files()
    return eval(source, {"tf": tf, "np": np, "FILES": FILES})  # noqa: S307 - case table


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tensorflow(name):
    if name in SKIP:
        pytest.skip("not implemented")
    case = CASES[name]
    if "error" in case:
        cls, text = case["error"]
        cls = OTHER_ERROR.get(name, cls)
        with pytest.raises(Exception) as info:   # noqa: PT011 - class checked below
            ds = build(name)
            list(ds)    # tapeflow checks some functions' results when it runs them
        assert type(info.value).__name__ == cls
        if name not in OTHER_ERROR:
            assert str(info.value).split("\n")[0] == text.replace(
                text[:text.index("}}") + 3] if text.startswith("{{") else "", "")
        return
    ds = build(name)
    if isinstance(ds, list):
        got = [encode(tf.nest.map_structure(
            lambda t: t.numpy() if hasattr(t, "numpy") else t, e)) for e in ds]
        assert got == [decode(e) for e in case["elements"]]
        return
    if name.startswith("uniq_"):
        ds = ds.unique()
    assert int(ds.cardinality()) == case["cardinality"]
    if name not in NO_SPEC:
        assert repr(ds.element_spec) == case["element_spec"]
        assert repr(ds) == case["repr"]
    if "iter_error" in case:
        with pytest.raises(Exception):  # noqa: B017, PT011
            list(ds.as_numpy_iterator())
    if "elements" in case:
        got = [encode(e) for e in ds.as_numpy_iterator()]
        want = [decode(e) for e in case["elements"]]
        if case.get("unordered"):
            key = json.dumps
            assert sorted(map(key, got)) == sorted(map(key, want))
        else:
            assert got == want


total = transformations_cases.make_total(tf)


@pytest.mark.parametrize("name", sorted(FIXTURES["function_cases"]))
def test_for_over_the_dataset_in_a_function(name):
    case = FIXTURES["function_cases"][name]
    ds = eval(transformations_cases.FUNCTION_CASES[name], {"tf": tf, "np": np})  # noqa: S307
    assert [[int(t) for t in total(ds)] for _ in range(2)] == case["calls"]
