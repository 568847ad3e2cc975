"""Streaming metrics (``tf.keras.metrics``), Keras 3's set.

State lives in non-trainable variables changed only by ``Variable.assign*`` with values
computed by ops; ``result()`` computes from the variables with ops (see ``base.py``).
"""
import re

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


def _snake_case(name):
    # Keras's to_snake_case (so "IoU" is "io_u", as there)
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", re.sub(r"\W+", "", name))
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


# The names keras.metrics.get knows (Keras 3's ALL_OBJECTS_DICT): the metric classes by class
# name and by its snake case, and the short aliases.
_GETTABLE = ("Metric", "Mean", "Sum", "MeanMetricWrapper", "MeanSquaredError",
             "RootMeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
             "MeanSquaredLogarithmicError", "CosineSimilarity", "LogCoshError", "R2Score", "AUC",
             "FalseNegatives", "FalsePositives", "Precision", "PrecisionAtRecall", "Recall",
             "RecallAtPrecision", "SensitivityAtSpecificity", "SpecificityAtSensitivity",
             "TrueNegatives", "TruePositives", "ConcordanceCorrelation", "PearsonCorrelation",
             "Hinge", "SquaredHinge", "CategoricalHinge", "KLDivergence", "Poisson",
             "BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
             "Accuracy", "BinaryAccuracy", "CategoricalAccuracy", "SparseCategoricalAccuracy",
             "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "F1Score",
             "FBetaScore", "IoU", "BinaryIoU", "MeanIoU", "OneHotIoU", "OneHotMeanIoU")
_BY_NAME = {name: _CLASSES[name] for name in _GETTABLE if name in _CLASSES}
_BY_NAME.update({_snake_case(name): cls for name, cls in list(_BY_NAME.items())})
_BY_NAME.update({"bce": BinaryCrossentropy, "BCE": BinaryCrossentropy,
                 "mse": MeanSquaredError, "MSE": MeanSquaredError,
                 "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
                 "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
                 "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError})


def get(identifier):
    """A metric as ``keras.metrics.get`` (Keras 3) returns it: for a string, a new instance
    of the metric class it names (``"MeanAbsoluteError"``, ``"mean_absolute_error"``,
    ``"mae"``); for a config dict, the metric it describes; a metric instance or a callable
    as it is; None for None.

    Raises:
        ValueError: for a name Keras 3 does not know (function-only names such as
            ``"logcosh"`` included), or any other identifier.
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = _BY_NAME.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj() if isinstance(obj, type) else obj
    raise ValueError(f"Could not interpret metric identifier: {identifier}")
