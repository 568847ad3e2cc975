"""Accuracy metrics and their functions (Keras 3's ``accuracy_metrics.py``), with ops."""
from ..._core import dtypes as _dt
from ..._core.tensor import _TensorLike, convert_to_tensor
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from ...ops import sort_ops as _so
from .base import MeanMetricWrapper, _same_rank, _tensor

__all__ = ["accuracy", "binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
           "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy", "Accuracy",
           "BinaryAccuracy", "CategoricalAccuracy", "SparseCategoricalAccuracy",
           "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy"]


def _pred(y_pred):
    return y_pred if isinstance(y_pred, _TensorLike) else convert_to_tensor(y_pred)


def accuracy(y_true, y_pred):
    """1.0 where ``y_true == y_pred`` element-wise, else 0.0 (float32)."""
    y_pred = _pred(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    return _a.cast(_m.equal(y_true, y_pred), _dt.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1.0 where ``y_pred > threshold`` equals the 0/1 label, element-wise."""
    y_pred = _pred(y_pred)
    y_true = _pred(y_true)
    y_true, y_pred = _same_rank(y_true, y_pred)
    hit = _a.cast(_m.greater(y_pred, _tensor(threshold, y_pred.dtype)), y_true.dtype)
    return _a.cast(_m.equal(y_true, hit), _dt.float32)


def _argmax_matches(y_true, y_pred):
    if y_true.dtype in (_dt.int32, _dt.int64):
        y_pred = _m.argmax(y_pred, -1, output_type=y_true.dtype)
    else:
        y_pred = _m.argmax(y_pred, -1)
        if y_pred.dtype != y_true.dtype:
            y_pred = _a.cast(y_pred, y_true.dtype)
    return _a.cast(_m.equal(y_true, y_pred), _dt.float32)


def categorical_accuracy(y_true, y_pred):
    """1.0 where the argmaxes of one-hot labels and predictions agree, else 0.0."""
    y_pred = _pred(y_pred)
    y_true = _a.cast(_m.argmax(_pred(y_true), -1), y_pred.dtype)
    return _argmax_matches(y_true, y_pred)


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where ``argmax(y_pred, -1)`` equals the integer label, else 0.0 (float32)."""
    y_pred = _pred(y_pred)
    y_true = _pred(y_true)
    if not y_true.dtype.is_integer:
        y_true = _tensor(y_true, y_pred.dtype)
    # Integer labels are compared with the argmax cast to their dtype: the same matches as
    # Keras's comparison of both in the prediction's float dtype, with one cast fewer.
    if y_true.ndim == y_pred.ndim and y_true.shape[-1] == 1:
        y_true = _a.squeeze(y_true, -1)
    matches = _argmax_matches(y_true, y_pred)
    if matches.ndim > 1 and matches.shape[-1] == 1:
        matches = _a.squeeze(matches, -1)
    return matches


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    """1.0 where the integer label is among the ``k`` highest scores (or, with
    ``from_sorted_ids``, among the first ``k`` ids of ``y_pred``), else 0.0."""
    y_pred = _pred(y_pred)
    y_true = _tensor(y_true, y_pred.dtype if from_sorted_ids else _dt.int32)
    shape = _a.shape(y_true)
    reshape = y_true.ndim > 1
    if y_pred.ndim > 2:
        y_pred = _a.reshape(y_pred, [-1, y_pred.shape[-1]])
    if reshape:
        y_true = _a.reshape(y_true, [-1])
    if from_sorted_ids:
        matches = _r.reduce_any(_m.equal(_a.expand_dims(y_true, 1), y_pred[:, :k]), 1)
    else:
        matches = _so.in_top_k(y_true, y_pred, k)
    matches = _a.cast(matches, _dt.float32)
    return _a.reshape(matches, shape) if reshape else matches


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """As :func:`sparse_top_k_categorical_accuracy` with one-hot labels."""
    return sparse_top_k_categorical_accuracy(_m.argmax(_pred(y_true), -1), y_pred, k)


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels exactly (``tf.keras.metrics.Accuracy``)."""

    _direction = "up"

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """How often ``y_pred > threshold`` matches 0/1 labels (``tf.keras.metrics.BinaryAccuracy``).
    """

    _direction = "up"

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the argmaxes of one-hot labels and predictions agree."""

    _direction = "up"

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of the predictions equals the integer label
    (``tf.keras.metrics.SparseCategoricalAccuracy``).

    >>> import tapeflow as tf
    >>> m = tf.keras.metrics.SparseCategoricalAccuracy()
    >>> float(m([2, 1], [[0.1, 0.6, 0.3], [0.05, 0.95, 0.0]]))
    0.5
    """

    _direction = "up"

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label is among the top ``k`` predictions."""

    _direction = "up"

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the top ``k`` predictions."""

    _direction = "up"

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None,
                 from_sorted_ids=False):
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype, k=k,
                         from_sorted_ids=from_sorted_ids)

    def get_config(self) -> dict:
        config = super().get_config()
        if not config["from_sorted_ids"]:
            del config["from_sorted_ids"]
        return config
