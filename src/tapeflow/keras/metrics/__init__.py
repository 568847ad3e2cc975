"""Streaming metrics (``tf.keras.metrics``), Keras 3's set.

State lives in non-trainable variables changed only by ``Variable.assign*`` with values
computed by ops; ``result()`` computes from the variables with ops (see ``base.py``).
"""
from ..losses import (
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    categorical_hinge,
    hinge,
    huber,
    kl_divergence,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    poisson,
    sparse_categorical_crossentropy,
    squared_hinge,
)
from .accuracy import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy,
    TopKCategoricalAccuracy,
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
    sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)
from .base import Mean, MeanMetricWrapper, Metric, Sum
from .confusion import (
    AUC,
    FalseNegatives,
    FalsePositives,
    Precision,
    PrecisionAtRecall,
    Recall,
    RecallAtPrecision,
    SensitivityAtSpecificity,
    SpecificityAtSensitivity,
    TrueNegatives,
    TruePositives,
)
from .iou_f_score import BinaryIoU, F1Score, FBetaScore, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from .regression import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    CategoricalHinge,
    ConcordanceCorrelation,
    CosineSimilarity,
    Hinge,
    KLDivergence,
    LogCoshError,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    PearsonCorrelation,
    Poisson,
    R2Score,
    RootMeanSquaredError,
    SparseCategoricalCrossentropy,
    SquaredHinge,
    concordance_correlation,
    pearson_correlation,
)

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

__all__ = [
    "AUC", "Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "BinaryIoU",
    "CategoricalAccuracy", "CategoricalCrossentropy", "CategoricalHinge", "CosineSimilarity",
    "F1Score", "FBetaScore", "FalseNegatives", "FalsePositives", "Hinge", "IoU", "KLDivergence",
    "LogCoshError", "Mean", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanIoU",
    "MeanMetricWrapper", "MeanSquaredError", "MeanSquaredLogarithmicError", "Metric",
    "OneHotIoU", "OneHotMeanIoU", "Poisson", "Precision", "PrecisionAtRecall", "R2Score",
    "Recall", "RecallAtPrecision", "RootMeanSquaredError", "SensitivityAtSpecificity",
    "SparseCategoricalAccuracy", "SparseCategoricalCrossentropy",
    "SparseTopKCategoricalAccuracy", "SpecificityAtSensitivity", "SquaredHinge", "Sum",
    "TopKCategoricalAccuracy", "TrueNegatives", "TruePositives", "accuracy", "binary_accuracy",
    "binary_crossentropy", "binary_focal_crossentropy", "categorical_accuracy",
    "categorical_crossentropy", "categorical_focal_crossentropy", "categorical_hinge", "hinge",
    "huber", "kl_divergence", "log_cosh", "mean_absolute_error",
    "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error",
    "poisson", "sparse_categorical_accuracy", "sparse_categorical_crossentropy",
    "sparse_top_k_categorical_accuracy", "squared_hinge", "top_k_categorical_accuracy",
    "mse", "MSE", "mae", "MAE", "mape", "MAPE", "msle", "MSLE", "kld", "KLD",
    "kullback_leibler_divergence", "logcosh", "get", "serialize", "deserialize",
    "PearsonCorrelation", "ConcordanceCorrelation", "pearson_correlation",
    "concordance_correlation"]

_CLASSES = {name: obj for name, obj in globals().items()
            if isinstance(obj, type) and issubclass(obj, Metric)}
_FUNCTIONS = {"accuracy": accuracy, "binary_accuracy": binary_accuracy,
              "categorical_accuracy": categorical_accuracy,
              "sparse_categorical_accuracy": sparse_categorical_accuracy,
              "top_k_categorical_accuracy": top_k_categorical_accuracy,
              "sparse_top_k_categorical_accuracy": sparse_top_k_categorical_accuracy,
              "mse": mse, "MSE": mse, "mae": mae, "MAE": mae, "mape": mape, "MAPE": mape,
              "msle": msle, "MSLE": msle, "kld": kld, "KLD": kld, "logcosh": logcosh}


def serialize(metric) -> dict:
    """A metric as Keras 3 serializes it (module, class name, config)."""
    return {"module": "keras.metrics", "class_name": type(metric).__name__,
            "config": metric.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """A metric from :func:`serialize`'s dict."""
    classes = dict(_CLASSES, **(custom_objects or {}))
    cls = classes.get(config["class_name"])
    if cls is None:
        raise ValueError(f"Could not interpret metric identifier: {config}")
    return cls.from_config(dict(config["config"]))


def get(identifier):
    """A metric from a class name (an instance), a function name or alias (the function), a
    config dict, an instance or a callable, as ``keras.metrics.get``.

    Raises:
        ValueError: for an unknown identifier.
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier in _CLASSES:
            return _CLASSES[identifier]()
        fn = _FUNCTIONS.get(identifier) or globals().get(identifier)
        if callable(fn) and identifier in __all__:
            return fn
        raise ValueError(f"Could not interpret metric identifier: {identifier}")
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric identifier: {identifier}")
