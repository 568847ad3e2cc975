"""Reading checkpoints by key: ``tf.train.load_checkpoint``, ``list_variables``,
``load_variable``."""
import os

from .._core import dtypes as _dt
from .._core.errors import InternalError, NotFoundError
from . import bundle, state

__all__ = ["CheckpointReader", "load_checkpoint", "list_variables", "load_variable"]


class _OtherDType:
    """A TensorFlow dtype tapeflow has no tensors of (``variant``, ``resource``), as a
    checkpoint's dtype map names it."""

    _NAMES = {20: "resource", 21: "variant"}

    def __init__(self, number):
        self.name = self._NAMES.get(number, f"dtype_enum_{number}")

    def __eq__(self, other):
        return isinstance(other, _OtherDType) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"tf.{self.name}"


def _prefix(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = state.latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {path}")
        return latest
    return path


class CheckpointReader:
    """Reads tensors by key from a checkpoint (``tf.train.load_checkpoint``'s result).

    Args:
        prefix: the checkpoint's path prefix (``.../ckpt-3``).

    Raises:
        tf.errors.NotFoundError: if there is no checkpoint at ``prefix``.
        tf.errors.DataLossError: if a file is damaged.
    """

    def __init__(self, prefix):
        self._bundle = bundle.BundleReader(prefix)

    def has_tensor(self, name) -> bool:
        return name in self._bundle.entries

    def get_tensor(self, name):
        """The value at key ``name``: a NumPy array (a NumPy scalar for a scalar; bytes
        for a scalar string).

        Raises:
            tf.errors.NotFoundError: for an unknown key.
            tf.errors.DataLossError: if the tensor's bytes fail their checksum.
        """
        if name not in self._bundle.entries:
            raise NotFoundError(None, None, f"Key {name} not found in checkpoint")
        number = self._bundle.entries[name].dtype
        if number not in bundle.DTYPES:
            raise InternalError(None, None, f"Tensorflow type {number} not convertible to "
                                "numpy dtype.")
        value = self._bundle.read(name)
        return value[()] if value.ndim == 0 else value

    def get_variable_to_shape_map(self) -> dict:
        """``{key: shape as a list}``."""
        return {k: list(e.shape) for k, e in self._bundle.entries.items()}

    def get_variable_to_dtype_map(self) -> dict:
        """``{key: tf.DType}`` (TensorFlow's ``variant``, an iterator state it wrote, shows
        as a stand-in named ``variant``)."""
        return {k: _dt.as_dtype(self._bundle.dtype_name(k))
                if self._bundle.entries[k].dtype in bundle.DTYPES
                else _OtherDType(self._bundle.entries[k].dtype)
                for k in self._bundle.entries}


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    """A reader for a checkpoint file or a directory's latest checkpoint
    (``tf.train.load_checkpoint``).

    Raises:
        ValueError: if a directory holds no checkpoint.
        tf.errors.NotFoundError: if the file does not exist.

    >>> import tapeflow as tf, tempfile, os
    >>> path = tf.train.Checkpoint(step=tf.Variable(7, dtype=tf.int64)).write(
    ...     os.path.join(tempfile.mkdtemp(), "c"))
    >>> reader = tf.train.load_checkpoint(path)
    >>> reader.get_tensor("step/.ATTRIBUTES/VARIABLE_VALUE")
    np.int64(7)
    >>> reader.get_variable_to_dtype_map()["step/.ATTRIBUTES/VARIABLE_VALUE"]
    tf.int64
    """
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file) -> list:
    """``[(key, shape list)]`` sorted by key (``tf.train.list_variables``).

    >>> import tapeflow as tf, tempfile, os
    >>> path = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0])).write(
    ...     os.path.join(tempfile.mkdtemp(), "c"))
    >>> tf.train.list_variables(path)
    [('_CHECKPOINTABLE_OBJECT_GRAPH', []), ('w/.ATTRIBUTES/VARIABLE_VALUE', [2])]
    """
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted(reader.get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    """The value at key ``name`` (a trailing ``:0`` is dropped) (``tf.train.load_variable``)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
