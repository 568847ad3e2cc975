"""Segmentation and classification scores kept as counts: IoU and its variants, F-beta."""
from ..._core import dtypes as _dt
from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import indexing_ops as _ix
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from ..backend import epsilon
from .base import Metric, _tensor

__all__ = ["IoU", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU", "FBetaScore", "F1Score"]



class _IoUBase(Metric):
    _direction = "up"

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        # Keras 3 counts in int64 by default (float weights are truncated, as it warns).
        super().__init__(name=name, dtype=dtype or "int64")
        self.num_classes, self.ignore_class = num_classes, ignore_class
        self.sparse_y_true, self.sparse_y_pred, self.axis = sparse_y_true, sparse_y_pred, axis
        self.total_cm = self.add_variable((num_classes, num_classes), name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.sparse_y_true:
            y_true = _m.argmax(y_true, self.axis)
        if not self.sparse_y_pred:
            y_pred = _m.argmax(y_pred, self.axis)
        dt = self._dtype
        y_true = _a.reshape(_tensor(y_true, dt), [-1])
        y_pred = _a.reshape(_tensor(y_pred, dt), [-1])
        w = _tensor(1 if sample_weight is None else sample_weight, dt)
        w = _a.broadcast_to(_a.reshape(w, [-1]) if w.ndim > 1 else w, _a.shape(y_true))
        n, zero = _tensor(self.num_classes, dt), _tensor(0, dt)
        valid = _m.logical_and(
            _m.logical_and(_m.greater_equal(y_true, zero), _m.less(y_true, n)),
            _m.logical_and(_m.greater_equal(y_pred, zero), _m.less(y_pred, n)))
        if self.ignore_class is not None:
            valid = _m.logical_and(valid, _m.not_equal(y_true, _tensor(self.ignore_class, dt)))
        zeros = _a.zeros_like(y_true)
        y_true = _a.cast(_a.where(valid, y_true, zeros), _dt.int32)
        y_pred = _a.cast(_a.where(valid, y_pred, zeros), _dt.int32)
        w = _a.where(valid, w, zeros)
        true_hot = _m.multiply(_cr.one_hot(y_true, self.num_classes, dtype=dt),
                               _a.expand_dims(w, 1))
        pred_hot = _cr.one_hot(y_pred, self.num_classes, dtype=dt)
        self.total_cm.assign_add(_m.matmul(true_hot, pred_hot, transpose_a=True))

    def _iou(self, target_class_ids):
        cm = _a.cast(self.total_cm, _dt.float32)
        rows, cols = _r.reduce_sum(cm, 0), _r.reduce_sum(cm, 1)
        tp = _ix.gather_nd(cm, [[i, i] for i in range(self.num_classes)])
        denominator = _m.subtract(_m.add(rows, cols), tp)
        ids = list(target_class_ids)
        tp, denominator = _ix.gather(tp, ids), _ix.gather(denominator, ids)
        valid = _m.greater(denominator, 1e-9)
        iou = _m.divide(tp, _m.add(denominator, epsilon()))
        iou = _a.where(valid, iou, _a.zeros_like(iou))
        count = _r.reduce_sum(_a.cast(valid, _dt.float32))
        return _m.divide(_r.reduce_sum(iou), _m.add(count, epsilon()))

    def result(self):
        return self._iou(self.target_class_ids)

    def reset_state(self):
        self.total_cm.assign(_a.zeros_like(self.total_cm))

    def get_config(self) -> dict:
        return {"num_classes": self.num_classes, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis, **super().get_config()}


class IoU(_IoUBase):
    """Intersection over union for ``target_class_ids``, from a running confusion matrix
    (``tf.keras.metrics.IoU``): ``TP / (TP + FP + FN)`` averaged over the classes seen.

    Args:
        num_classes: the number of classes.
        target_class_ids: the classes to average over.
        ignore_class: a label left out of the counts.
        sparse_y_true, sparse_y_pred: whether labels / predictions are class ids (else
            scores, reduced by argmax over ``axis``).
        name, dtype: as for ``Metric``.
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name, dtype, ignore_class, sparse_y_true, sparse_y_pred,
                         axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which "
                             f"is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def get_config(self) -> dict:
        return {**super().get_config(), "target_class_ids": self.target_class_ids}


class MeanIoU(_IoUBase):
    """IoU averaged over every class (``tf.keras.metrics.MeanIoU``).

    >>> import tapeflow as tf
    >>> m = tf.keras.metrics.MeanIoU(num_classes=2)
    >>> round(float(m([0, 0, 1, 1], [0, 1, 0, 1])), 4)
    0.3333
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name, dtype, ignore_class, sparse_y_true, sparse_y_pred,
                         axis)
        self.target_class_ids = list(range(num_classes))


class BinaryIoU(IoU):
    """IoU of 0/1 labels against ``y_pred >= threshold`` (``tf.keras.metrics.BinaryIoU``)."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _a.cast(_m.greater_equal(_tensor(y_pred, _dt.float32), float(self.threshold)),
                         self._dtype)
        super().update_state(y_true, y_pred, sample_weight)

    def get_config(self) -> dict:
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype}


class OneHotIoU(IoU):
    """IoU of one-hot labels and score vectors (``tf.keras.metrics.OneHotIoU``)."""

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name, dtype, ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)


class OneHotMeanIoU(MeanIoU):
    """Mean IoU of one-hot labels and score vectors (``tf.keras.metrics.OneHotMeanIoU``)."""

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name, dtype, ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)


class FBetaScore(Metric):
    """The F-beta score of multi-label (or one-hot) predictions (``tf.keras.metrics.FBetaScore``).

    Args:
        average: None (one score per class), 'micro', 'macro' or 'weighted'.
        beta: the weight of recall (a float > 0).
        threshold: predictions above it count as positive (default: each row's maximum).
        name, dtype: as for ``Metric``.

    Raises:
        ValueError: for an invalid argument or inputs that are not ``[batch, classes]``.
    """

    _direction = "up"

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score",
                 dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, "
                             f"'micro', 'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError("Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. "
                             f"Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError("Invalid `threshold` argument value. It should be a Python "
                                 f"float. Received: threshold={threshold} of type "
                                 f"'{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError("Invalid `threshold` argument value. It should verify 0 < "
                                 f"threshold <= 1. Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError(f"{type(self).__name__.replace('F1Score', 'FBetaScore')} expects "
                             "2D inputs with shape (batch_size, output_dim). Received input "
                             f"shapes: y_pred.shape={y_pred_shape} and "
                             f"y_true.shape={y_true_shape}.")
        shape = () if self.average == "micro" else (y_pred_shape[-1],)
        for name in ("true_positives", "false_positives", "false_negatives",
                     "intermediate_weights"):
            setattr(self, name, self.add_variable(shape, name=name))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _tensor(y_true, self._dtype)
        y_pred = _tensor(y_pred, self._dtype)
        if not self._built:
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        if self.threshold is None:
            top = _r.reduce_max(y_pred, -1, keepdims=True)
            y_pred = _m.logical_and(_m.greater_equal(y_pred, top),
                                    _m.greater(_m.abs(y_pred), 1e-9))
        else:
            y_pred = _m.greater(y_pred, self.threshold)
        y_pred = _a.cast(y_pred, self._dtype)
        w = None if sample_weight is None else _a.expand_dims(
            _tensor(sample_weight, self._dtype), 1)

        def weighted_sum(value):
            if w is not None:
                value = _m.multiply(value, w)
            return _r.reduce_sum(value, self.axis)

        not_true, not_pred = _m.subtract(1.0, y_true), _m.subtract(1.0, y_pred)
        self.true_positives.assign_add(weighted_sum(_m.multiply(y_pred, y_true)))
        self.false_positives.assign_add(weighted_sum(_m.multiply(y_pred, not_true)))
        self.false_negatives.assign_add(weighted_sum(_m.multiply(not_pred, y_true)))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        tp = self.true_positives
        precision = _m.divide(tp, _m.add(_m.add(tp, self.false_positives), epsilon()))
        recall = _m.divide(tp, _m.add(_m.add(tp, self.false_negatives), epsilon()))
        b2 = self.beta ** 2
        mean = _m.divide(_m.multiply(precision, recall),
                         _m.add(_m.add(_m.multiply(precision, b2), recall), epsilon()))
        score = _m.multiply(mean, 1.0 + b2)
        if self.average == "weighted":
            weights = _m.divide(self.intermediate_weights,
                                _m.add(_r.reduce_sum(self.intermediate_weights), epsilon()))
            score = _r.reduce_sum(_m.multiply(score, weights))
        elif self.average is not None:
            score = _r.reduce_mean(score)
        return score

    def reset_state(self):
        for v in self.variables:
            v.assign(_a.zeros_like(v))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "average": self.average,
                "beta": self.beta, "threshold": self.threshold}


class F1Score(FBetaScore):
    """The F1 score (``tf.keras.metrics.F1Score``): :class:`FBetaScore` with ``beta=1``."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["beta"]
        return config
