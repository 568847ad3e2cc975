"""Errors and files: ``ignore_errors``, ``save``, ``load``, ``snapshot`` (the formats
live in ``data/saving.py``)."""
from ..structure import UNKNOWN

# The Dataset class: data/dataset.py sets it when it loads (it imports this module, so
# this module cannot import it).
Dataset = None


def ignore_errors(input_dataset, log_warning=False, name=None) -> "Dataset":
    from ..._core import errors
    parent = input_dataset._make_iter

    def it():
        source = parent()
        while True:
            try:
                element = next(source)
            except StopIteration:
                return
            except errors.CancelledError:
                raise
            except errors.OpError as e:
                if log_warning:
                    _log_warning("ignore_errors_dataset_op.cc:125",
                                 f"Error raised with error message {e.message}")
                continue
            yield element
    ds = Dataset(it, UNKNOWN, input_dataset._spec_fn)   # TensorFlow's, even for an infinite input
    ds._spec_inferred = input_dataset._spec_inferred
    ds._kind, ds._rngs = "_IgnoreErrorsDataset", input_dataset._rngs
    return ds


def save(input_dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    from .. import saving
    saving.save(input_dataset, path, compression, shard_func, checkpoint_args)


def load(path, element_spec=None, compression=None, reader_func=None,
         wait=False) -> "Dataset":
    from .. import saving
    return saving.load(path, element_spec, compression, reader_func)


def snapshot(input_dataset, path, compression="AUTO", reader_func=None, shard_func=None,
             name=None) -> "Dataset":
    from .. import saving
    path = saving._check_path(path)
    ds = Dataset(lambda: saving.snapshot_iter(input_dataset, path, compression, reader_func,
                                              shard_func),
                 input_dataset._cardinality, input_dataset._spec_fn)
    ds._spec_inferred = input_dataset._spec_inferred
    ds._kind, ds._rngs = "_MapDataset", input_dataset._rngs
    return ds


def _log_warning(where, text):
    """A TensorFlow C++ ``LOG(WARNING)`` line on stderr (absl's form)."""
    import os
    import sys
    import time
    now = time.time()
    stamp = time.strftime("%m%d %H:%M:%S", time.localtime(now))
    print(f"W{stamp}.{int(now % 1 * 1e6):06d} {os.getpid():>7} {where}] {text}",
          file=sys.stderr)
