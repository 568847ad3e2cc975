"""``tf.train``: checkpoints (re-exports of ``tapeflow.checkpoint``)."""
from .checkpoint import (
    Checkpoint,
    CheckpointManager,
    CheckpointOptions,
    get_checkpoint_state,
    latest_checkpoint,
    list_variables,
    load_checkpoint,
    load_variable,
)

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointOptions", "get_checkpoint_state",
           "latest_checkpoint", "list_variables", "load_checkpoint", "load_variable"]
