"""Keras 3's image augmentation layers (Equalization, RandomPosterization, ..., MixUp,
CutMix, ...) against Keras 3.15 / TF 2.21 (``tools/record_keras_augmentation.py``, cases in
``augmentation_cases.py``): the same seed gives the same images call after call (each layer
draws from its own ``keras.random.SeedGenerator``), a single image, ``training=False``, dict
inputs with labels and bounding boxes, and the configs."""
import numpy as np
import pytest

import tapeflow as tf

from . import augmentation_cases as cases
from .test_layers import load, same_config

FIXTURE = load("augmentation.json")
RECORDED = {c["label"]: c for c in FIXTURE["cases"]}
INPUTS, DATA = cases.images(), cases.data()


def check(actual, expected, tol):
    if isinstance(expected, dict):
        assert sorted(actual) == sorted(expected)
        for k in expected:
            check(actual[k], expected[k], tol)
        return
    actual = np.asarray(actual)
    expected = np.asarray(expected, dtype=actual.dtype if actual.dtype.kind != "f" else None)
    assert actual.shape == expected.shape
    if tol == 0 or actual.dtype.kind != "f":
        np.testing.assert_array_equal(actual, expected)
    else:
        np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64),
                                   rtol=tol, atol=tol)


def copy(x):
    if isinstance(x, dict):
        return {k: copy(v) for k, v in x.items()}
    return np.array(x)


def one(x):
    if isinstance(x, dict):
        return {k: one(v) for k, v in x.items()}
    return np.asarray(x)[0]


def numpy(x):
    if isinstance(x, dict):
        return {k: numpy(v) for k, v in x.items()}
    return np.asarray(x)


def test_fixture_is_keras_3_15():
    assert FIXTURE["keras_version"].startswith("3.15")
    assert [c["label"] for c in cases.CASES] == list(RECORDED)


@pytest.mark.parametrize("case", cases.CASES, ids=lambda c: c["label"])
def test_layer_draws_keras_numbers(case):
    rec = RECORDED[case["label"]]
    tf.keras.utils.set_random_seed(cases.SEED)
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    x = DATA[case["data"]] if case["data"] else INPUTS[case["x"]]
    tol = case["tol"]
    check(numpy(layer(copy(x), training=True)), rec["y1"], tol)
    check(numpy(layer(copy(x), training=True)), rec["y2"], tol)
    if "single" in rec:
        check(numpy(layer(one(x), training=True)), rec["single"], tol)
    y0 = numpy(layer(copy(x), training=False))
    if rec["inference_identity"]:
        check(y0, numpy(x), 0)
    else:
        check(y0, rec["y0"], tol)
    same_config(layer.get_config(), rec["config"])


@pytest.mark.parametrize("case", [c for c in cases.CASES if not c["data"]],
                         ids=lambda c: c["label"])
def test_layer_round_trips_through_its_config(case):
    rec = RECORDED[case["label"]]
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    if "from_config_error" in rec:   # Keras's RandomShear keeps (-f, f), then refuses -f
        kind, message = rec["from_config_error"]
        with pytest.raises(TypeError) as info:
            type(layer).from_config(layer.get_config())
        assert kind == "TypeError"
        assert str(info.value).split("Exception encountered: ")[1] == \
            message.split("Exception encountered: ")[1]
        return
    again = type(layer).from_config(layer.get_config())
    same_config(again.get_config(), rec["config"])
    x = INPUTS[case["x"]]
    assert tuple(again(x, training=True).shape) == x.shape
