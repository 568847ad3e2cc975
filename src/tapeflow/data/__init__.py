"""``tf.data``: input pipelines (``Dataset``) over NumPy arrays."""
from . import dataset_autograph  # noqa: F401 - registers datasets' loops with AutoGraph
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset, DatasetSpec, Options, TensorSpec
from .options import AutoShardPolicy
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
    AutoShardPolicy = AutoShardPolicy

    @staticmethod
    def cardinality(dataset):
        """``dataset.cardinality()``: an int64 scalar, -1 infinite, -2 unknown
        (``tf.data.experimental.cardinality``)."""
        return dataset.cardinality()

    @staticmethod
    def assert_cardinality(expected_cardinality):
        """A function for ``Dataset.apply`` giving the dataset the cardinality
        ``expected_cardinality`` (``tf.data.experimental.assert_cardinality``); iterating it
        raises ``tf.errors.FailedPreconditionError`` as soon as the elements disagree
        (TF's texts: "... expected to contain 3 elements but contained at least 4
        elements.", "... but contained only 5 elements.").

        >>> import tapeflow as tf
        >>> ds = tf.data.Dataset.range(10).filter(lambda x: x % 2 == 0)
        >>> int(ds.apply(tf.data.experimental.assert_cardinality(5)).cardinality())
        5
        """
        return lambda dataset: _assert_cardinality(dataset, expected_cardinality)

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


def _assert_cardinality(dataset, expected):
    from .._core import errors
    expected = int(getattr(expected, "numpy", lambda: expected)())
    parent = dataset._make_iter
    want = ("an infinite number of" if expected == INFINITE else str(expected))

    def fail(text):
        return errors.FailedPreconditionError(
            None, None, f"Input dataset was expected to contain {want} elements but "
            f"contained {text} elements. [Op:IteratorGetNext] name: ")

    def it():
        count = 0
        for element in parent():
            count += 1
            if expected != INFINITE and count > expected:
                raise fail(f"at least {count}")
            yield element
        if count != expected:
            raise fail(f"only {count}")

    ds = Dataset(it, expected, dataset._spec_fn)
    ds._spec_inferred = dataset._spec_inferred
    ds._kind, ds._rngs = "_AssertCardinalityDataset", dataset._rngs
    return ds


__all__ = ["AUTOTUNE", "Dataset", "DatasetSpec", "INFINITE_CARDINALITY", "Options",
           "TensorSpec", "TFRecordDataset", "TextLineDataset", "UNKNOWN_CARDINALITY",
           "experimental"]
