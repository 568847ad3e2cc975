"""``tf.data.Options``: settings attached with ``Dataset.with_options``."""

import enum

__all__ = ["Options", "AutoShardPolicy"]


class AutoShardPolicy(enum.IntEnum):
    """How a multi-worker strategy splits a dataset between workers
    (``tf.data.experimental.AutoShardPolicy``): ``OFF`` (-1), ``AUTO`` (0: by file, else by
    data), ``FILE`` (1), ``DATA`` (2), ``HINT`` (3). Set it as
    ``options.experimental_distribute.auto_shard_policy``.

    >>> import tapeflow as tf
    >>> tf.data.experimental.AutoShardPolicy.DATA
    <AutoShardPolicy.DATA: 2>
    """

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class _OptionGroup:
    """A group of ``tf.data.Options`` settings (``threading``, ``experimental_optimization``
    ...): attributes set freely, unset ones read as None."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return None


class Options:
    """``tf.data.Options``: settings attached with ``Dataset.with_options``. tapeflow keeps
    them (``Dataset.options()`` returns them) but its pipelines do not depend on them.

    Raises:
        AttributeError: on setting a property TensorFlow's Options does not have.
    """

    _PROPERTIES = ("autotune", "dataset_name", "deterministic", "experimental_deterministic",
                   "experimental_distribute", "experimental_external_state_policy",
                   "experimental_optimization", "experimental_slack",
                   "experimental_symbolic_checkpoint", "experimental_warm_start",
                   "framework_type", "threading")
    _GROUPS = ("autotune", "experimental_distribute", "experimental_optimization",
               "threading")

    def __init__(self):
        for prop in self._PROPERTIES:
            object.__setattr__(self, prop, _OptionGroup() if prop in self._GROUPS else None)
        self.experimental_distribute.auto_shard_policy = AutoShardPolicy.AUTO

    def __setattr__(self, name, value):
        if name not in self._PROPERTIES:
            raise AttributeError(f"Cannot set the property {name} on Options.")
        object.__setattr__(self, name, value)
