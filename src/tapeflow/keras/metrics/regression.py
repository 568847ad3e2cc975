"""Regression, probabilistic and hinge metrics: running means of the loss functions, RMSE,
cosine similarity, log-cosh error and R2 (Keras 3's ``regression_metrics.py``, ...)."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .. import losses as _l
from ..backend import epsilon
from .base import Mean, MeanMetricWrapper, Metric, _same_rank, _tensor

__all__ = ["MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
           "MeanSquaredLogarithmicError", "RootMeanSquaredError", "CosineSimilarity",
           "LogCoshError", "R2Score", "Hinge", "SquaredHinge", "CategoricalHinge",
           "KLDivergence", "Poisson", "BinaryCrossentropy", "CategoricalCrossentropy",
           "SparseCategoricalCrossentropy", "cosine_similarity", "PearsonCorrelation",
           "ConcordanceCorrelation", "pearson_correlation", "concordance_correlation"]


def _wrapper(cls_name, fn, default_name, params=(), doc="", config_keys=None):
    """A MeanMetricWrapper subclass with Keras's constructor ``(name, dtype, **params)``."""
    shown = [p for p, _ in params] if config_keys is None else config_keys

    def __init__(self, name=default_name, dtype=None, **kwargs):
        values = dict(params)
        for key in list(kwargs):
            if key in values:
                values[key] = kwargs.pop(key)
        if kwargs:
            raise TypeError(f"{cls_name}.__init__() got unexpected keyword arguments "
                            f"{sorted(kwargs)}")
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **values)
        for key, value in values.items():
            setattr(self, key, value)

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype}
        config.update({k: self._fn_kwargs[k] for k in shown})
        return config

    return type(cls_name, (MeanMetricWrapper,), {
        "__init__": __init__, "__module__": __name__, "get_config": get_config,
        "_direction": "up" if fn in (cosine_similarity, pearson_correlation,
                                     concordance_correlation) else "down",
        "__doc__": doc or f"The running mean of ``{fn.__name__}`` "
                          f"(``tf.keras.metrics.{cls_name}``)."})


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine of the angle between ``y_true`` and ``y_pred`` along ``axis`` (1 for
    parallel vectors; the loss of the same name is its negative)."""
    return _m.negative(_l.cosine_similarity(y_true, y_pred, axis))


def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson's correlation of ``y_true`` and ``y_pred`` along ``axis`` (population
    standard deviations), as ``keras.metrics.pearson_correlation``."""
    y_pred = _tensor(y_pred, None)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    t = _m.subtract(y_true, _r.reduce_mean(y_true, axis, keepdims=True))
    p = _m.subtract(y_pred, _r.reduce_mean(y_pred, axis, keepdims=True))
    t = _m.divide(t, _r.reduce_std(t, axis, keepdims=True))
    p = _m.divide(p, _r.reduce_std(p, axis, keepdims=True))
    return _r.reduce_mean(_m.multiply(t, p), axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation along ``axis``, computed as Keras 3.15 computes it
    (its covariance term centres ``y_true`` on the mean of ``y_pred``)."""
    y_pred = _tensor(y_pred, None)
    y_true = _tensor(y_true, y_pred.dtype)
    y_true, y_pred = _same_rank(y_true, y_pred)
    t_mean = _r.reduce_mean(y_true, axis, keepdims=True)
    p_mean = _r.reduce_mean(y_pred, axis, keepdims=True)
    t_var = _r.reduce_variance(_m.subtract(y_true, t_mean), axis, keepdims=True)
    p_var = _r.reduce_variance(_m.subtract(y_pred, p_mean), axis, keepdims=True)
    covar = _m.multiply(_m.subtract(y_true, p_mean), _m.subtract(y_pred, p_mean))
    norm = _m.add(_m.add(t_var, p_var), _m.square(_m.subtract(t_mean, p_mean)))
    return _r.reduce_mean(_m.divide(_m.multiply(covar, 2.0), _m.add(norm, epsilon())), axis)


MeanSquaredError = _wrapper("MeanSquaredError", _l.mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", _l.mean_absolute_error,
                             "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError",
                                       _l.mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError",
                                       _l.mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")
CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity",
                            [("axis", -1)], config_keys=[])
PearsonCorrelation = _wrapper("PearsonCorrelation", pearson_correlation, "pearson_correlation",
                              [("axis", -1)])
ConcordanceCorrelation = _wrapper("ConcordanceCorrelation", concordance_correlation,
                                  "concordance_correlation", [("axis", -1)])
LogCoshError = _wrapper("LogCoshError", _l.log_cosh, "logcosh")
Hinge = _wrapper("Hinge", _l.hinge, "hinge")
SquaredHinge = _wrapper("SquaredHinge", _l.squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper("CategoricalHinge", _l.categorical_hinge, "categorical_hinge")
KLDivergence = _wrapper("KLDivergence", _l.kl_divergence, "kl_divergence")
Poisson = _wrapper("Poisson", _l.poisson, "poisson")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", _l.binary_crossentropy,
                              "binary_crossentropy",
                              [("from_logits", False), ("label_smoothing", 0)])
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", _l.categorical_crossentropy,
                                   "categorical_crossentropy",
                                   [("from_logits", False), ("label_smoothing", 0),
                                    ("axis", -1)])
SparseCategoricalCrossentropy = _wrapper(
    "SparseCategoricalCrossentropy", _l.sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy",
    [("from_logits", False), ("ignore_class", None), ("axis", -1)])


class RootMeanSquaredError(Mean):
    """The square root of the running mean of squared errors
    (``tf.keras.metrics.RootMeanSquaredError``)."""

    _direction = "down"

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _tensor(y_true, self._dtype)
        y_pred = _tensor(y_pred, self._dtype)
        y_true, y_pred = _same_rank(y_true, y_pred)
        super().update_state(_m.square(_m.subtract(y_pred, y_true)),
                             sample_weight=sample_weight)

    def result(self):
        return _m.sqrt(_m.divide_no_nan(self.total, self.count))


class R2Score(Metric):
    """The coefficient of determination per output, aggregated (``tf.keras.metrics.R2Score``).

    Args:
        class_aggregation: 'uniform_average' (default), 'variance_weighted_average' or None
            (one score per output).
        num_regressors: for the adjusted R2 (0: plain R2).
        name, dtype: as for ``Metric``.

    Raises:
        ValueError: for an unknown aggregation, ``num_regressors < 0``, or inputs that are
            not ``[batch, outputs]``.
    """

    _direction = "up"

    def __init__(self, class_aggregation="uniform_average", num_regressors=0,
                 name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError("Invalid value for argument `class_aggregation`. Expected one of "
                             f"{valid}. Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable((), name="num_samples")
        self._built = False

    def _build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim). "
                             f"Received input shapes: y_pred.shape={y_pred_shape} and "
                             f"y_true.shape={y_true_shape}.")
        n = (y_pred_shape[-1],)
        self.squared_sum = self.add_variable(n, name="squared_sum")
        self.sum = self.add_variable(n, name="sum")
        self.total_mse = self.add_variable(n, name="residual")
        self.count = self.add_variable(n, name="count")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _tensor(y_true, self._dtype)
        y_pred = _tensor(y_pred, self._dtype)
        y_true, y_pred = _same_rank(y_true, y_pred)
        if not self._built:
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        w = _tensor(1.0 if sample_weight is None else sample_weight, self._dtype)
        if w.ndim == 1:
            w = _a.expand_dims(w, 1)
        w = _a.broadcast_to(w, _a.shape(y_true))
        weighted = _m.multiply(y_true, w)
        self.sum.assign_add(_r.reduce_sum(weighted, 0))
        self.squared_sum.assign_add(_r.reduce_sum(_m.multiply(y_true, weighted), 0))
        self.total_mse.assign_add(_r.reduce_sum(
            _m.multiply(_m.square(_m.subtract(y_true, y_pred)), w), 0))
        self.count.assign_add(_r.reduce_sum(w, 0))
        self.num_samples.assign_add(_a.cast(_a.size(y_true), self._dtype))

    def result(self):
        mean = _m.divide(self.sum, self.count)
        total = _m.subtract(self.squared_sum, _m.multiply(self.sum, mean))
        raw = _m.subtract(1.0, _m.divide(self.total_mse, total))
        raw = _a.where(_m.is_inf(raw), _a.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            score = _r.reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = _m.divide(_r.reduce_sum(_m.multiply(total, raw)), _r.reduce_sum(total))
        else:
            score = raw
        if self.num_regressors:
            n, p = self.num_samples, float(self.num_regressors)
            adjusted = _m.subtract(1.0, _m.divide(
                _m.multiply(_m.subtract(1.0, score), _m.subtract(n, 1.0)),
                _m.subtract(_m.subtract(n, p), 1.0)))
            # Keras warns and keeps the plain score when there are too few samples.
            score = _a.where(_m.greater(_m.subtract(n, 1.0), p), adjusted, score)
        return score

    def reset_state(self):
        for v in self.variables:
            v.assign(_a.zeros_like(v))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype,
                "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
