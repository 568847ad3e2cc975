"""``tf.train``: checkpoints (re-exports of ``tapeflow.checkpoint``)."""
from .checkpoint import (
    Checkpoint,
    CheckpointManager,
    CheckpointOptions,
    checkpoints_iterator,
    get_checkpoint_state,
    latest_checkpoint,
    list_variables,
    load_checkpoint,
    load_variable,
)

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointOptions", "checkpoints_iterator",
           "get_checkpoint_state", "latest_checkpoint", "list_variables", "load_checkpoint",
           "load_variable"]
