"""``tf.data``: input pipelines (``Dataset``) over NumPy arrays."""
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset, DatasetSpec, Options, TensorSpec

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


class experimental:  # noqa: N801 - TensorFlow's namespace name
    """``tf.data.experimental``: the constants programs use."""

    AUTOTUNE = AUTOTUNE
    INFINITE_CARDINALITY = INFINITE
    UNKNOWN_CARDINALITY = UNKNOWN


__all__ = ["AUTOTUNE", "Dataset", "DatasetSpec", "INFINITE_CARDINALITY", "Options",
           "TensorSpec", "UNKNOWN_CARDINALITY", "experimental"]
