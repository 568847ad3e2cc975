"""Saving and restoring object graphs in TensorFlow's checkpoint format.

One module per concept, bottom up:

- ``tapeflow/_crc32c.py`` (shared with TFRecord and event files): the checksum of every
  block and tensor (NumPy; ``google-crc32c`` if present);
- ``_proto``: the protobuf messages, hand-encoded; ``sstable``: the ``.index`` table;
- ``bundle``: the tensor bundle (``.index`` + ``.data-00000-of-00001``);
- ``atomic``: temporary, fsync, rename, fsync the directory -- nothing half-written;
- ``tracking``: the named children of modules, Keras objects, lists and dicts, and
  deferred restoration; ``module``: ``tf.Module``;
- ``graph``: the object graph as saved; ``checkpoint``: ``tf.train.Checkpoint``;
  ``options``: ``tf.train.CheckpointOptions``;
- ``state``: the ``checkpoint`` state file; ``manager``: ``tf.train.CheckpointManager``;
- ``reader``: ``load_checkpoint``, ``list_variables``, ``load_variable``.
"""
from .checkpoint import Checkpoint, CheckpointLoadStatus
from .manager import CheckpointManager
from .module import Module
from .options import CheckpointOptions
from .reader import CheckpointReader, list_variables, load_checkpoint, load_variable
from .state import (
    CheckpointState,
    checkpoints_iterator,
    get_checkpoint_state,
    latest_checkpoint,
)

__all__ = ["Checkpoint", "CheckpointLoadStatus", "CheckpointManager", "Module", "CheckpointOptions",
           "CheckpointReader", "list_variables", "load_checkpoint", "load_variable",
           "CheckpointState", "get_checkpoint_state", "latest_checkpoint", "checkpoints_iterator"]
