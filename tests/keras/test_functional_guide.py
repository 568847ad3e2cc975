"""The Functional API guide's cases against Keras 3.15 / TensorFlow 2.21
(tests/fixtures/keras/train/functional_guide.json, recorded by
tools/record_keras_functional_guide.py from functional_guide_cases.py)."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.keras.functional_guide_cases import CASES, LABELS, LOGITS, WEIGHTS

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras", "train",
                       "functional_guide.json")
with open(FIXTURE) as _f:
    RECORDED = json.load(_f)


def _close(got, want, rtol=2e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=rtol, atol=atol)


def test_categorical_crossentropy_trains_by_tensorflows_gradient():
    got = CASES["xent"](tf)
    want = RECORDED["xent"]
    assert sorted(got) == sorted(want)
    for key in want:
        # the loss objects compute in float32 (their dtype policy) whatever the inputs
        exact = key.endswith("float64") and not key.startswith("Categorical")
        tol = {"rtol": 1e-12, "atol": 1e-12} if exact else {}
        for part in ("loss", "grad_logits", "grad_labels"):
            _close(got[key][part], want[key][part], **tol)


def test_multi_hot_gradient_is_softmax_minus_labels_not_the_derivative():
    """What the recorded numbers say, in closed form: per example the logits' gradient is
    ``softmax(z) - y`` (TensorFlow's kernel), where the derivative of the loss would be
    ``sum(y) * softmax(z) - y``; tf.nn keeps the derivative (docs/ops.md)."""
    y = np.asarray(LABELS["multi_hot"], np.float64)
    z = np.asarray(LOGITS, np.float64)
    soft = np.exp(z) / np.exp(z).sum(-1, keepdims=True)
    w = np.asarray(WEIGHTS)[:, None]
    want = RECORDED["xent"]["categorical_crossentropy/multi_hot/float64"]["grad_logits"]
    _close(want, w * (soft - y), rtol=1e-12, atol=1e-12)
    yv, zv = tf.Variable(y), tf.Variable(z)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(yv, zv) * WEIGHTS)
    _close(tape.gradient(loss, zv), w * (y.sum(-1, keepdims=True) * soft - y),
           rtol=1e-12, atol=1e-12)


def test_empty_class_axis():
    loss = tf.keras.losses.categorical_crossentropy(
        np.zeros((2, 0), "float32"), np.zeros((2, 0), "float32"), from_logits=True)
    np.testing.assert_array_equal(loss.numpy(), [0.0, 0.0])


@pytest.mark.parametrize("mode", ["compiled", "eager"])
def test_ticket_classifier_fit_matches_keras(mode):
    tf.keras.backend.clear_session()
    got = CASES[f"ticket/{mode}"](tf)
    want = RECORDED[f"ticket/{mode}"]
    assert list(got["history"]) == list(want["history"])
    for key, values in want["history"].items():
        _close(got["history"][key], values)
    assert len(got["weights"]) == len(want["weights"])
    for g, w in zip(got["weights"], want["weights"]):
        _close(g, w, rtol=1e-4, atol=2e-6)


def test_first_call_of_a_layer_without_build_runs_call_first_as_keras():
    """Keras's ``_maybe_build``: a layer with the default ``build()`` and an unbuilt sublayer
    (a subclassed Model too) runs ``call`` once before its first call; what that run does
    to variables, seed streams and losses does not stay."""
    tf.keras.backend.clear_session()
    got = CASES["build_by_run"](tf)
    want = RECORDED["build_by_run"]
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        if key.startswith("functional/"):
            # tapeflow builds a functional graph on a batch of one: (1, 4) for (None, 4)
            assert [line.replace("(1,", "(None,") for line in got[key]] == value, key
        elif isinstance(value, list):
            assert got[key] == value, key
        else:
            assert got[key]["lines"] == value["lines"], key
            for part in value:
                if part != "lines":
                    _close(got[key][part], value[part])


# Layers of other owners that keep the default build() where Keras's define one: their
# sublayers are built at construction (AugMix, RandAugment, RandomColorJitter), so no first
# run happens, except TextVectorization's (its lookup table), which runs call once more.
DEFAULT_BUILD_KNOWN = {"AugMix", "RandAugment", "RandomColorJitter", "TextVectorization"}


def test_layers_keep_the_default_build_where_keras_does():
    got = CASES["default_build"](tf)
    want = RECORDED["default_build"]
    differ = {name for name in got if name in want and got[name] != want[name]}
    assert differ == DEFAULT_BUILD_KNOWN
    assert want["Model"] and got["Model"] and not got["Sequential"]


def test_shaping_layers_are_built_by_their_first_call_as_in_keras():
    assert CASES["shaping_build_config"](tf) == RECORDED["shaping_build_config"]
