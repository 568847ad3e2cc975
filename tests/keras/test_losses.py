"""Keras losses against values recorded from Keras 3 / TensorFlow 2.21."""
import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import f32, load

FIX = load("losses.json")
E = FIX["expected"]
L = tf.keras.losses
labels = np.asarray(FIX["labels"], np.int64)
probs, logits, onehot = f32(FIX["probs"]), f32(FIX["logits"]), f32(FIX["onehot"])
bin_true, bin_pred = f32(FIX["bin_true"]), f32(FIX["bin_pred"])
reg_true, reg_pred = f32(FIX["reg_true"]), f32(FIX["reg_pred"])
weights = f32(FIX["weights"])

CASES = {
    "scce_probs": lambda: L.SparseCategoricalCrossentropy()(labels, probs),
    "scce_probs_column_labels": lambda: L.SparseCategoricalCrossentropy()(labels[:, None],
                                                                          probs),
    "scce_logits": lambda: L.SparseCategoricalCrossentropy(from_logits=True)(labels, logits),
    "scce_sum": lambda: L.SparseCategoricalCrossentropy(reduction="sum")(labels, probs),
    "scce_none": lambda: L.SparseCategoricalCrossentropy(reduction=None)(labels, probs),
    "scce_weighted": lambda: L.SparseCategoricalCrossentropy()(labels, probs,
                                                               sample_weight=weights),
    "scce_fn": lambda: L.sparse_categorical_crossentropy(labels, probs),
    "cce_probs": lambda: L.CategoricalCrossentropy()(onehot, probs),
    "cce_unnormalised": lambda: L.CategoricalCrossentropy()(onehot, probs * 3.0),
    "cce_logits": lambda: L.CategoricalCrossentropy(from_logits=True)(onehot, logits),
    "bce_probs": lambda: L.BinaryCrossentropy()(bin_true, bin_pred),
    "bce_logits": lambda: L.BinaryCrossentropy(from_logits=True)(bin_true, reg_pred),
    "mse": lambda: L.MeanSquaredError()(reg_true, reg_pred),
    "mse_fn": lambda: L.mean_squared_error(reg_true, reg_pred),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_matches_tensorflow(name):
    got = CASES[name]()
    assert got.dtype == tf.float32
    # A clipped probability of 1 gives a loss of ~3.6e-7, so allow an absolute slack.
    np.testing.assert_allclose(got.numpy(), f32(E[name]), rtol=1e-5, atol=1e-6)


def test_fixture_covers_every_case():
    assert set(CASES) == set(E)


def test_clipping_keeps_zero_probability_finite():
    loss = L.SparseCategoricalCrossentropy(reduction=None)([1], [[1.0, 0.0]])
    assert float(loss[0]) == pytest.approx(-np.log(1e-7 / (1 - 1e-7 + 1e-7)), rel=1e-3)


def test_loss_is_differentiable_with_respect_to_logits():
    x = tf.constant(logits)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = L.SparseCategoricalCrossentropy(from_logits=True)(labels, x)
    softmax = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    want = (softmax - np.eye(4)[labels]) / len(labels)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), want, rtol=1e-4, atol=1e-7)


def test_rank_mismatch_is_a_value_error():
    with pytest.raises(ValueError, match="rank"):
        L.sparse_categorical_crossentropy(np.zeros((2,), np.int64), probs[:2, None])


def test_unknown_reduction_is_rejected():
    with pytest.raises(ValueError, match="reduction"):
        L.MeanSquaredError(reduction="avg")


def test_ignore_class_masks_entries_as_keras_does():
    # Values as TensorFlow 2.21 printed them for the same inputs.
    y = np.array([0, 2, 1, 2])
    p = np.array([[.7, .2, .1], [.1, .1, .8], [.3, .4, .3], [.2, .2, .6]], np.float32)
    scce = L.SparseCategoricalCrossentropy
    assert float(scce(ignore_class=2)(y, p)) == pytest.approx(0.636482834815979, rel=1e-6)
    assert float(scce(ignore_class=2, reduction="sum")(y, p)) == pytest.approx(
        1.272965669631958, rel=1e-6)
    np.testing.assert_allclose(L.sparse_categorical_crossentropy(y, p, ignore_class=2).numpy(),
                               [0.3566749691963196, 0.0, 0.9162907600402832, 0.0], rtol=1e-6)
    assert float(scce(ignore_class=2)(y, p, sample_weight=[1.0, 2.0, 3.0, 4.0])) == (
        pytest.approx(1.5527735948562622, rel=1e-6))


def test_categorical_losses_on_size_0_inputs_as_tf():
    # TF 2.21 + Keras 3.15.1 (run by hand): categorical_hinge raises InvalidArgumentError
    # eagerly on a size-0 input (Keras's ops.max asserts a non-empty tensor) and gives [] in
    # a tf.function; categorical_crossentropy with label smoothing over 0 classes gives zeros
    import numpy as np
    import pytest

    import tapeflow as tf
    from tapeflow import keras
    x = tf.zeros([0, 1, 3], tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="max of an empty tensor"):
        keras.losses.categorical_hinge(x, x)
    traced = tf.function(lambda a: keras.losses.categorical_hinge(a, a))(tf.zeros([0, 1, 3]))
    assert traced.shape == (0, 1)
    y = keras.losses.categorical_crossentropy(tf.zeros([2, 2, 0]), tf.zeros([2, 2, 0]),
                                              label_smoothing=0.1)
    np.testing.assert_array_equal(y.numpy(), np.zeros([2, 2], np.float32))
