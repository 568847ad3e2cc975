"""Keras 3's image augmentation layers (Equalization, RandomPosterization, ..., MixUp,
CutMix, ...) against Keras 3.15 / TF 2.21 (``tools/record_keras_augmentation.py``, cases in
``augmentation_cases.py``): the same seed gives the same images call after call (each layer
draws from its own ``keras.random.SeedGenerator``), a single image, ``training=False``, dict
inputs with labels and bounding boxes, and the configs."""
import numpy as np
import pytest

import tapeflow as tf

from . import augmentation_cases as cases
from .test_layers import load, plain, same_config

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
    # float32 values recorded with 9 digits: exact once read back as float32
    exact = actual.dtype.kind != "f" or (tol == 0 and actual.dtype == np.float32)
    expected = np.asarray(expected, dtype=actual.dtype if exact else None)
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
    if "call_error" in rec:
        with pytest.raises(Exception) as info:
            layer(copy(x), training=True)
        assert type(info.value).__name__ == rec["call_error"][0]
        return
    y1 = numpy(layer(copy(x), training=True))
    if "dtype" in rec:
        assert y1.dtype.name == rec["dtype"]
    check(y1, rec["y1"], tol)
    check(numpy(layer(copy(x), training=True)), rec["y2"], tol)
    if "single" in rec:
        check(numpy(layer(one(x), training=True)), rec["single"], tol)
    y0 = numpy(layer(copy(x), training=False))
    if "inference_dtype" in rec:
        assert y0.dtype.name == rec["inference_dtype"]
    if rec["inference_identity"]:
        check(y0, numpy(x), 0)
    else:
        check(y0, rec["y0"], tol)
    same_config(layer.get_config(), rec["config"])


@pytest.mark.parametrize("case", [c for c in cases.CASES if not c["data"]],
                         ids=lambda c: c["label"])
def test_layer_round_trips_through_its_config(case):
    rec = RECORDED[case["label"]]
    tf.keras.utils.set_random_seed(cases.SEED)   # a default seed is in the config
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
    assert tuple(again(x, training=True).shape) == tuple(layer.compute_output_shape(x.shape))


def _words(message):
    """A message with any ``{...}`` set shown as its sorted items (a set's order varies)."""
    head, brace, rest = message.partition("{")
    if not brace:
        return message
    items, _, tail = rest.partition("}")
    return head + str(sorted(i.strip() for i in items.split(","))) + tail


# Keras 3.15's Equalization refers to a message it does not define (AttributeError);
# tapeflow raises the ValueError the other colour layers raise for a bad value_range.
BETTER = {("Equalization", "{'value_range': 255}"):
          ("ValueError", "The `value_range` argument should be a list of two numbers. "
                         "Received: value_range=255")}


@pytest.mark.parametrize("index", range(len(cases.ERRORS)),
                         ids=lambda i: f"{cases.ERRORS[i][0]}{cases.ERRORS[i][1]}")
def test_refused_arguments_raise_keras_errors(index):
    cls, kwargs = cases.ERRORS[index]
    expected = FIXTURE["errors"][index]
    expected = BETTER.get((cls, str(kwargs)), expected)
    if expected is None:
        getattr(tf.keras.layers, cls)(**kwargs)
        return
    with pytest.raises(Exception) as info:
        getattr(tf.keras.layers, cls)(**kwargs)
    assert type(info.value).__name__ == expected[0]
    assert _words(str(info.value)) == _words(expected[1])


def test_keras_equalization_value_range_error_is_its_own_bug():
    assert FIXTURE["errors"][[c for c, _ in cases.ERRORS].index("Equalization")][0] == \
        "AttributeError"


@pytest.mark.parametrize("case", [c for c in cases.CASES if not c["data"]],
                         ids=lambda c: c["label"])
def test_a_tf_function_draws_the_eager_numbers(case):
    # The generator's state is a variable assigned on each call, so a traced layer advances
    # as the eager one. AugMix picks its chains with Python's random while tracing: the
    # traced program keeps the first call's choices (as Keras's on TensorFlow).
    rec = RECORDED[case["label"]]
    tf.keras.utils.set_random_seed(cases.SEED)
    layer = getattr(tf.keras.layers, case["cls"])(**case["kwargs"])
    step = tf.function(lambda t: layer(t, training=True))
    x = tf.constant(INPUTS[case["x"]])
    check(step(x).numpy(), rec["y1"], case["tol"])
    second = step(x).numpy()
    if case["cls"] != "AugMix":
        check(second, rec["y2"], case["tol"])


@pytest.mark.parametrize("name, kwargs", [
    ("RandomHue", {"factor": 0.4, "seed": 1}), ("CutMix", {"seed": 2}),
    ("RandomPerspective", {"seed": 3}), ("RandAugment", {"seed": 4}),
    ("ContrastLimitedAdaptiveHistogramEqualization", {"tile_grid_size": (2, 2)}),
])
def test_layers_map_a_dataset_with_an_unknown_batch_and_save_in_a_model(name, kwargs, tmp_path):
    x = INPUTS["rgb"]
    layer = getattr(tf.keras.layers, name)(**kwargs)
    ds = tf.data.Dataset.from_tensor_slices(x).batch(2).map(lambda t: layer(t, training=True))
    assert [tuple(b.shape) for b in ds] == [(2, 6, 7, 3), (1, 6, 7, 3)]
    model = tf.keras.Sequential([tf.keras.Input((6, 7, 3)), layer])
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert type(loaded.layers[0]) is type(layer)
    same_config(loaded.layers[0].get_config(), plain(layer.get_config()))
    expected = model(x, training=False).numpy()
    np.testing.assert_array_equal(loaded(x, training=False).numpy(), expected)


def test_random_flip_with_an_unknown_mode_draws_and_never_flips():
    # Keras 3.15 keeps any mode: RandomFlip("diagonal") draws its flips (its seed state
    # advances as a "horizontal" one's: [3, 1] after one batch from seed 3, as recorded
    # under Keras) and returns the images unflipped.
    x = np.arange(24, dtype="float32").reshape(2, 3, 4, 1)
    diagonal = tf.keras.layers.RandomFlip("diagonal", seed=3)
    horizontal = tf.keras.layers.RandomFlip("horizontal", seed=3)
    y = diagonal(x, training=True)
    horizontal(x, training=True)
    np.testing.assert_array_equal(y.numpy(), x)
    assert y.dtype == tf.float32
    assert [v.numpy().tolist() for v in diagonal.variables] == [[3, 1]]
    assert [v.numpy().tolist() for v in horizontal.variables] == [[3, 1]]
    assert diagonal.get_config()["mode"] == "diagonal"
    again = tf.keras.layers.RandomFlip.from_config(diagonal.get_config())
    np.testing.assert_array_equal(again(x, training=True).numpy(), x)
