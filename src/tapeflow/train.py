"""``tf.train``: checkpoints (re-exports of ``tapeflow.checkpoint``) and the
``tf.train.Example`` protobuf messages (``tapeflow._example``, loaded on first use)."""
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

_EXAMPLE_NAMES = ("BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features",
                  "FloatList", "Int64List", "SequenceExample")

_CLUSTER_NAMES = ("ClusterSpec",)  # tapeflow.distribute.cluster_resolver, on first use

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointOptions", "checkpoints_iterator",
           "get_checkpoint_state", "latest_checkpoint", "list_variables", "load_checkpoint",
           "load_variable", *_CLUSTER_NAMES, *_EXAMPLE_NAMES]


def __getattr__(name):
    if name == "ClusterSpec":
        from .distribute.cluster_resolver import ClusterSpec
        globals()[name] = ClusterSpec
        return ClusterSpec
    if name in _EXAMPLE_NAMES:
        from . import _example
        value = getattr(_example, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tapeflow.train' has no attribute {name!r}")
