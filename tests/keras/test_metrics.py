"""Keras metrics against results recorded from Keras 3 / TensorFlow 2.21."""
import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import f32, load

FIX = load("metrics.json")
M = tf.keras.metrics
probs, onehot = f32(FIX["probs"]), f32(FIX["onehot"])
labels = np.asarray(FIX["labels"], np.int64)


def test_mean_streams_scalars_lists_and_arrays():
    mean = M.Mean()
    got = [float(mean(v)) for v in (1.5, [2.0, 4.0], np.array([[1.0], [7.0]]))]
    np.testing.assert_allclose(got, FIX["mean_results"], rtol=1e-6)
    assert mean.result().dtype == tf.float32


def test_weighted_mean():
    mean = M.Mean()
    mean.update_state([1.0, 2.0, 3.0], sample_weight=[0.5, 1.0, 2.0])
    assert float(mean.result()) == pytest.approx(FIX["weighted_mean"], rel=1e-6)


def test_sparse_categorical_accuracy_accumulates_over_batches():
    acc = M.SparseCategoricalAccuracy()
    got = [float(acc(labels[:5], probs[:5])), float(acc(labels[5:], tf.constant(probs[5:])))]
    np.testing.assert_allclose(got, FIX["sparse_categorical_accuracy"], rtol=1e-6)
    column = M.SparseCategoricalAccuracy()
    column.update_state(labels[:, None], probs)
    assert float(column.result()) == pytest.approx(FIX["sparse_categorical_accuracy_column"])


def test_categorical_accuracy_accuracy_and_mse():
    ca, acc, mse = M.CategoricalAccuracy(), M.Accuracy(), M.MeanSquaredError()
    ca.update_state(onehot, probs)
    acc.update_state([1, 2, 3, 4], [1, 2, 0, 4])
    mse.update_state(onehot, probs)
    assert float(ca.result()) == pytest.approx(FIX["categorical_accuracy"])
    assert float(acc.result()) == pytest.approx(FIX["accuracy"])
    assert float(mse.result()) == pytest.approx(FIX["mean_squared_error"], rel=1e-5)


def test_reset_state_and_empty_result_is_zero():
    mean = M.Mean()
    mean(3.0)
    mean.reset_state()
    assert float(mean.result()) == FIX["after_reset"] == 0.0


def test_metric_names_follow_keras():
    got = [M.Mean().name, M.SparseCategoricalAccuracy().name, M.CategoricalAccuracy().name,
           M.Accuracy().name]
    assert got == FIX["names"]


def test_metric_update_inside_a_tape_records_nothing():
    x = tf.Variable(2.0)
    mean = M.Mean()
    with tf.GradientTape() as tape:
        y = x * 3.0
        mean(y)
    assert float(tape.gradient(y, x)) == 3.0
    assert all(not v.trainable for v in mean.variables)


def test_subclassed_metric_with_add_variable_and_initializer():
    class TruePositives(tf.keras.metrics.Metric):
        def __init__(self, name="ctp", **kwargs):
            super().__init__(name=name, **kwargs)
            self.count = self.add_variable(shape=(), name="count", initializer="ones")

        def update_state(self, y_true, y_pred, sample_weight=None):
            hits = tf.cast(tf.equal(tf.argmax(y_pred, 1), tf.cast(y_true, tf.int64)),
                           tf.float32)
            self.count.assign_add(tf.reduce_sum(hits))

        def result(self):
            return self.count

    metric = TruePositives()
    metric.update_state(np.array([0, 1]), np.array([[0.9, 0.1], [0.8, 0.2]], np.float32))
    assert float(metric.result().numpy()) == 2.0
    assert metric.count.path == "ctp/count"
    metric.reset_state()
    # Keras 3's Metric.reset_state assigns zeros, whatever the initializer was.
    assert float(metric.result().numpy()) == 0.0
