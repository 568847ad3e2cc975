"""Confusion-matrix metrics (Keras 3's ``confusion_metrics.py``): counts at thresholds,
precision, recall, AUC and the "X at Y" metrics, accumulated with ops and ``assign_add``."""
from ..._core import dtypes as _dt
from ..._core.tensor import convert_to_tensor
from ...ops import array_ops as _a
from ...ops import creation_ops as _cr
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from ...ops import sort_ops as _so
from ..backend import epsilon
from .base import Metric, _same_rank, _tensor

__all__ = ["TruePositives", "FalsePositives", "TrueNegatives", "FalseNegatives", "Precision",
           "Recall", "AUC", "PrecisionAtRecall", "RecallAtPrecision",
           "SensitivityAtSpecificity", "SpecificityAtSensitivity"]

NEG_INF = -1e10
_KINDS = ("true_positives", "false_positives", "true_negatives", "false_negatives")


def _filter_top_k(x, k):
    """``x`` with every entry outside the top ``k`` of its last axis set to -1e10."""
    _, idx = _so.top_k(x, k)
    mask = _r.reduce_sum(_cr.one_hot(idx, x.shape[-1], dtype=x.dtype), -2)
    return _m.add(_m.multiply(x, mask), _m.multiply(_m.subtract(1.0, mask), NEG_INF))


def update_confusion_matrix(variables, y_true, y_pred, thresholds, top_k=None, class_id=None,
                            sample_weight=None, multi_label=False, label_weights=None):
    """Add the weighted counts of ``y_pred > threshold`` against boolean ``y_true`` to the
    variables named by ``variables`` (a dict from ``'true_positives'``... to Variables):
    one count per threshold, or with ``multi_label`` per threshold and label (last axis)."""
    dt = next(iter(variables.values())).dtype
    y_true = _tensor(y_true, dt)
    y_pred = _tensor(y_pred, dt)
    y_pred, y_true = _same_rank(y_pred, y_true)
    if sample_weight is not None:
        sample_weight = _a.expand_dims(_tensor(sample_weight, dt), -1)
        if sample_weight.ndim == y_true.ndim + 1 and sample_weight.shape[-1] == 1:
            sample_weight = _a.squeeze(sample_weight, -1)
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        if y_pred.ndim == 1:
            raise ValueError("When class_id is provided, y_pred must be a 2D array with shape "
                             f"(num_samples, num_classes), found shape: {y_pred.shape}")
        y_true = y_true[..., class_id:class_id + 1]
        y_pred = y_pred[..., class_id:class_id + 1]
    if multi_label:
        preds = _a.expand_dims(y_pred, 0)
        labels = _a.cast(_a.expand_dims(y_true, 0), _dt.bool)
        th = _a.reshape(convert_to_tensor(list(thresholds), dtype=dt), [-1, 1, 1])
    else:
        preds = _a.reshape(y_pred, [1, -1])
        labels = _a.cast(_a.reshape(y_true, [1, -1]), _dt.bool)
        th = _a.reshape(convert_to_tensor(list(thresholds), dtype=dt), [-1, 1])
    pred_pos = _m.greater(preds, th)
    label_pos = _a.broadcast_to(labels, _a.shape(pred_pos))
    weights = None
    if sample_weight is not None:
        weights = _a.broadcast_to(sample_weight, _a.shape(y_pred))
    if label_weights is not None and not multi_label:
        lw = _a.broadcast_to(_a.expand_dims(_tensor(label_weights, dt), 0), _a.shape(y_pred))
        weights = lw if weights is None else _m.multiply(weights, lw)
    if weights is not None:
        weights = _a.expand_dims(weights, 0) if multi_label else _a.reshape(weights, [1, -1])
    cases = {"true_positives": (label_pos, pred_pos),
             "false_positives": (_m.logical_not(label_pos), pred_pos),
             "true_negatives": (_m.logical_not(label_pos), _m.logical_not(pred_pos)),
             "false_negatives": (label_pos, _m.logical_not(pred_pos))}
    for kind, var in variables.items():
        a, b = cases[kind]
        hits = _a.cast(_m.logical_and(a, b), dt)
        if weights is not None:
            hits = _m.multiply(hits, weights)
        var.assign_add(_a.reshape(_r.reduce_sum(hits, 1), var.shape))


def _thresholds(thresholds, default):
    if thresholds is None:
        return [default]
    return list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds]


class _Counts(Metric):
    """One confusion-matrix count at each threshold."""

    _kind = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = _thresholds(thresholds, 0.5)
        self.accumulator = self.add_variable((len(self.thresholds),), name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix({self._kind: self.accumulator}, y_true, y_pred,
                                self.thresholds, sample_weight=sample_weight)

    def result(self):
        if len(self.thresholds) == 1:
            return self.accumulator[0]
        return _a.identity(self.accumulator)

    def get_config(self) -> dict:
        return {"thresholds": self.init_thresholds, **super().get_config()}


def _counts(cls_name, kind, name):
    def __init__(self, thresholds=None, name=None, dtype=None):
        _Counts.__init__(self, thresholds, name, dtype)
    doc = (f"The weighted number of {kind.replace('_', ' ')} at each threshold "
           f"(``tf.keras.metrics.{cls_name}``).")
    return type(cls_name, (_Counts,), {"_kind": kind, "__init__": __init__, "__doc__": doc,
                                        "_direction": "up" if kind.startswith("true") else "down",
                                        "__module__": __name__})


TruePositives = _counts("TruePositives", "true_positives", "true_positives")
FalsePositives = _counts("FalsePositives", "false_positives", "false_positives")
TrueNegatives = _counts("TrueNegatives", "true_negatives", "true_negatives")
FalseNegatives = _counts("FalseNegatives", "false_negatives", "false_negatives")


class _PrecisionRecall(Metric):
    _other = None
    _direction = "up"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds, self.top_k, self.class_id = thresholds, top_k, class_id
        self.thresholds = _thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        n = (len(self.thresholds),)
        self.true_positives = self.add_variable(n, name="true_positives")
        setattr(self, self._other, self.add_variable(n, name=self._other))

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix(
            {"true_positives": self.true_positives,
             self._other: getattr(self, self._other)}, y_true, y_pred, self.thresholds,
            self.top_k, self.class_id, sample_weight)

    def result(self):
        tp = self.true_positives
        value = _m.divide_no_nan(tp, _m.add(tp, getattr(self, self._other)))
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self) -> dict:
        return {"thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id, **super().get_config()}


class Precision(_PrecisionRecall):
    """``true_positives / (true_positives + false_positives)`` of ``y_pred > thresholds``
    (``tf.keras.metrics.Precision``; 0 when nothing is predicted positive).

    Args:
        thresholds: a float or list of floats in ``[0, 1]`` (default 0.5).
        top_k: count only the ``top_k`` highest predictions per sample.
        class_id: the class (last-axis index) to measure.
        name, dtype: as for ``Metric``.

    >>> import tapeflow as tf
    >>> m = tf.keras.metrics.Precision()
    >>> float(m([0, 1, 1, 1], [1, 0, 1, 1]))
    0.6666666865348816
    """

    _other = "false_positives"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)


class Recall(_PrecisionRecall):
    """``true_positives / (true_positives + false_negatives)`` (``tf.keras.metrics.Recall``);
    arguments as :class:`Precision`."""

    _other = "false_negatives"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)


class _AllCounts(Metric):
    """The four counts at each of ``thresholds``."""

    _direction = "up"

    def _make_counts(self, n):
        for kind in _KINDS:
            setattr(self, kind, self.add_variable((n,), name=kind))

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix({k: getattr(self, k) for k in _KINDS}, y_true, y_pred,
                                self._thresholds, class_id=getattr(self, "class_id", None),
                                sample_weight=sample_weight)


class AUC(_AllCounts):
    """The area under the ROC or precision-recall curve, from counts at ``num_thresholds``
    thresholds (``tf.keras.metrics.AUC``); with ``multi_label`` one curve per label (last
    axis), their areas averaged (weighted by ``label_weights``).

    Args:
        num_thresholds: how many thresholds in ``[0, 1]`` (default 200).
        curve: 'ROC' or 'PR'.
        summation_method: 'interpolation' (trapezoids; Davis & Goadrich 2006 for PR),
            'minoring' or 'majoring'.
        thresholds: explicit thresholds instead of ``num_thresholds``.
        from_logits: apply a sigmoid to the predictions first.
        name, dtype: as for ``Metric``.

    Raises:
        ValueError: for ``num_thresholds <= 1`` or an unknown curve or method.
        ValueError: for ``num_labels`` without ``multi_label``, or multi-label predictions
            that are not ``[batch, labels]``.
    """

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        if curve.upper() not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUCCurve value: "{curve}". Expected values are '
                             "[\"PR\", \"ROC\", \"PRGAIN\"]")
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid AUCSummationMethod value: "{summation_method}". '
                             'Expected values are ["interpolation", "majoring", "minoring"]')
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            inner = sorted(thresholds)
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self._thresholds = [0.0 - epsilon()] + inner + [1.0 + epsilon()]  # read when made
        self.curve, self.summation_method = curve.upper(), summation_method
        super().__init__(name=name, dtype=dtype)
        self.multi_label, self.num_labels = multi_label, num_labels
        self.label_weights = None if label_weights is None else _tensor(label_weights,
                                                                        self._dtype)
        self._from_logits = from_logits
        self._built = False
        if multi_label and num_labels:
            self._build((None, num_labels))
        elif not multi_label and num_labels:
            raise ValueError("`num_labels` is needed only when `multi_label` is True.")

    def _build(self, shape):
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError("`y_pred` must have rank 2 when `multi_label=True`. Found "
                                 f"rank {len(shape)}. Full shape received for `y_pred`: "
                                 f"{shape}")
            self._num_labels = shape[1]
            for kind in _KINDS:
                setattr(self, kind, self.add_variable((self.num_thresholds, shape[1]),
                                                      name=kind))
        else:
            self._make_counts(self.num_thresholds)
        self._built = True

    @property
    def thresholds(self) -> list:
        return list(self._thresholds)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _tensor(y_pred, self._dtype)
        if not self._built:
            self._build(tuple(y_pred.shape))
        if self._from_logits:
            y_pred = _m.sigmoid(y_pred)
        update_confusion_matrix({k: getattr(self, k) for k in _KINDS}, y_true, y_pred,
                                self._thresholds, sample_weight=sample_weight,
                                multi_label=self.multi_label,
                                label_weights=None if self.multi_label else self.label_weights)

    def _average(self, by_label):
        if not self.multi_label:
            return by_label
        if self.label_weights is None:
            return _r.reduce_mean(by_label)
        return _m.divide_no_nan(_r.reduce_sum(_m.multiply(by_label, self.label_weights)),
                                _r.reduce_sum(self.label_weights))

    def result(self):
        if not self._built:
            return _tensor(0.0, self._dtype)
        return self._result()

    def _interpolate_pr_auc(self):
        n = self.num_thresholds
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        dtp = _m.subtract(tp[:n - 1], tp[1:])
        p = _m.add(tp, fp)
        dp = _m.subtract(p[:n - 1], p[1:])
        slope = _m.divide_no_nan(dtp, _m.maximum(dp, 0.0))
        intercept = _m.subtract(tp[1:], _m.multiply(slope, p[1:]))
        ratio = _a.where(_m.logical_and(_m.greater(p[:n - 1], 0.0), _m.greater(p[1:], 0.0)),
                         _m.divide_no_nan(p[:n - 1], _m.maximum(p[1:], 0.0)),
                         _a.ones_like(p[1:]))
        increment = _m.divide_no_nan(
            _m.multiply(slope, _m.add(dtp, _m.multiply(intercept, _m.log(ratio)))),
            _m.maximum(_m.add(tp[1:], fn[1:]), 0.0))
        return self._average(_r.reduce_sum(increment, 0))

    def _result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc()
        tp, fp = self.true_positives, self.false_positives
        tn, fn = self.true_negatives, self.false_negatives
        recall = _m.divide_no_nan(tp, _m.add(tp, fn))
        if self.curve == "ROC":
            x, y = _m.divide_no_nan(fp, _m.add(fp, tn)), recall
        else:
            x, y = recall, _m.divide_no_nan(tp, _m.add(tp, fp))
        n = self.num_thresholds
        if self.summation_method == "interpolation":
            heights = _m.divide(_m.add(y[:n - 1], y[1:]), 2.0)
        elif self.summation_method == "minoring":
            heights = _m.minimum(y[:n - 1], y[1:])
        else:
            heights = _m.maximum(y[:n - 1], y[1:])
        return self._average(_r.reduce_sum(_m.multiply(_m.subtract(x[:n - 1], x[1:]), heights),
                                           0))

    def get_config(self) -> dict:
        label_weights = None if self.label_weights is None else self.label_weights.numpy(
        ).tolist()
        config = {"num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": self.multi_label,
                  "num_labels": self.num_labels, "label_weights": label_weights,
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self._thresholds[1:-1]
        return {**super().get_config(), **config}


class _AtBase(_AllCounts):
    """The best of one rate subject to another rate's constraint ``>= value``."""

    _value_name = "value"

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds}")
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._value_name}` must be in the range [0, 1]. "
                             f"Received: {self._value_name}={value}")
        self.value, self.class_id, self.num_thresholds = value, class_id, num_thresholds
        if num_thresholds == 1:
            self._thresholds = [0.5]
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._thresholds = [0.0] + inner + [1.0]
        self.thresholds = self._thresholds
        self._make_counts(len(self._thresholds))

    def _rates(self):
        tp, fp = self.true_positives, self.false_positives
        tn, fn = self.true_negatives, self.false_negatives
        return {"sensitivity": _m.divide_no_nan(tp, _m.add(tp, fn)),
                "specificity": _m.divide_no_nan(tn, _m.add(tn, fp)),
                "precision": _m.divide_no_nan(tp, _m.add(tp, fp))}

    def result(self):
        rates = self._rates()
        constrained, dependent = rates[self._constrained], rates[self._dependent]
        feasible = _m.greater_equal(constrained, float(self.value))
        best = _a.where(feasible, dependent, _a.zeros_like(dependent))
        return _m.maximum(_r.reduce_max(best), 0.0)

    def get_config(self) -> dict:
        return {"num_thresholds": self.num_thresholds, "class_id": self.class_id,
                self._value_name: self.value, **super().get_config()}


def _at(cls_name, value_name, constrained, dependent, default_name, doc):
    def __init__(self, *args, num_thresholds=200, class_id=None, name=None, dtype=None,
                 **kwargs):
        self._value_name = value_name
        value = args[0] if args else kwargs.pop(value_name)
        if kwargs:
            raise TypeError(f"Unexpected keyword arguments: {sorted(kwargs)}")
        _AtBase.__init__(self, value, num_thresholds, class_id, name, dtype)
    return type(cls_name, (_AtBase,), {"__init__": __init__, "_constrained": constrained,
                                        "_dependent": dependent, "__doc__": doc,
                                        "__module__": __name__})


SensitivityAtSpecificity = _at(
    "SensitivityAtSpecificity", "specificity", "specificity", "sensitivity",
    "sensitivity_at_specificity",
    "The best sensitivity where specificity >= ``specificity`` "
    "(``tf.keras.metrics.SensitivityAtSpecificity``).")
SpecificityAtSensitivity = _at(
    "SpecificityAtSensitivity", "sensitivity", "sensitivity", "specificity",
    "specificity_at_sensitivity",
    "The best specificity where sensitivity >= ``sensitivity``.")
PrecisionAtRecall = _at("PrecisionAtRecall", "recall", "sensitivity", "precision",
                        "precision_at_recall",
                        "The best precision where recall >= ``recall``.")
RecallAtPrecision = _at("RecallAtPrecision", "precision", "precision", "sensitivity",
                        "recall_at_precision",
                        "The best recall where precision >= ``precision``.")
