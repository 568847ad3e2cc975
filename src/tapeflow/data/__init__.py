"""``tf.data``: input pipelines (``Dataset``) over NumPy arrays."""
from . import dataset_autograph  # noqa: F401 - registers datasets' loops with AutoGraph
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset, DatasetSpec, Options, TensorSpec
from .readers import Counter, CsvDataset, TextLineDataset, make_csv_dataset
from .tfrecord import TFRecordDataset

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


class experimental:  # noqa: N801 - TensorFlow's namespace name
    """``tf.data.experimental``: the constants programs use, and the deprecated functional
    forms of ``Dataset`` methods (``ds.apply(tf.data.experimental.ignore_errors())``)."""

    AUTOTUNE = AUTOTUNE
    CsvDataset = staticmethod(CsvDataset)
    make_csv_dataset = staticmethod(make_csv_dataset)
    Counter = Counter
    INFINITE_CARDINALITY = INFINITE
    UNKNOWN_CARDINALITY = UNKNOWN

    @staticmethod
    def ignore_errors(log_warning=False):
        """``Dataset.ignore_errors`` as a function for ``Dataset.apply``."""
        return lambda dataset: dataset.ignore_errors(log_warning)

    @staticmethod
    def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
        """``Dataset.rejection_resample`` as a function for ``Dataset.apply``."""
        return lambda dataset: dataset.rejection_resample(class_func, target_dist,
                                                          initial_dist, seed)

    @staticmethod
    def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
        """``Dataset.snapshot`` as a function for ``Dataset.apply``."""
        return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)

    @staticmethod
    def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=None):
        """``Dataset.ragged_batch`` as a function for ``Dataset.apply``."""
        from .._core import dtypes
        splits = dtypes.int64 if row_splits_dtype is None else row_splits_dtype
        return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, splits)

    @staticmethod
    def dense_to_sparse_batch(batch_size, row_shape):
        """``Dataset.sparse_batch`` as a function for ``Dataset.apply``."""
        return lambda dataset: dataset.sparse_batch(batch_size, row_shape)

    @staticmethod
    def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
        """``dataset.save(...)``."""
        return dataset.save(path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None):
        """``tf.data.Dataset.load(...)``."""
        return Dataset.load(path, element_spec, compression, reader_func)


__all__ = ["AUTOTUNE", "Dataset", "DatasetSpec", "INFINITE_CARDINALITY", "Options",
           "TensorSpec", "TFRecordDataset", "TextLineDataset", "UNKNOWN_CARDINALITY",
           "experimental"]
