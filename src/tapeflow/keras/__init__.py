"""Keras 3's training pieces (``tf.keras``): layers, models, losses, optimizers, metrics."""
import sys as _sys

from . import (
               activations,
               backend,
               callbacks,
               config,
               constraints,
               datasets,
               initializers,
               layers,
               losses,
               metrics,
               mixed_precision,
               models,
               optimizers,
               random,
               regularizers,
               saving,
               utils,
)
from ._variable import KerasVariable as Variable
from .layers import Input, InputSpec
from .mixed_precision import DTypePolicy
from .models import Model, Sequential
from .saving import checkpoint_layout as _checkpoint_layout
from .saving import serialization as _serialization

# tf.train.Checkpoint sees layers and optimizers as Keras 3 lays them out
_checkpoint_layout.register()
# the namespaces where the names a config gives ("Dense", "Adam", "relu") are found
_serialization.register_namespaces({
    "keras.layers": layers, "keras.optimizers.schedules": optimizers.schedules,
    "keras.optimizers": optimizers, "keras.initializers": initializers,
    "keras.regularizers": regularizers, "keras.constraints": constraints,
    "keras.losses": losses, "keras.metrics": metrics, "keras.activations": activations,
    "keras": _sys.modules[__name__], "keras.models": models})



def __getattr__(name):
    # keras.ops (Keras 3's op namespace) and keras.export load on first use
    if name in ("ops", "export", "preprocessing", "applications"):
        import importlib

        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__version__ = "3.15.1"


def version() -> str:
    """The Keras version whose behaviour tapeflow follows: ``'3.15.1'`` (``tf.keras.version``)."""
    return __version__


__all__ = ["DTypePolicy", "activations", "backend", "callbacks", "config", "constraints",
           "datasets", "initializers", "layers", "losses", "metrics", "mixed_precision", "models",
           "ops", "optimizers", "preprocessing", "random", "regularizers", "saving", "utils",
           "Input", "InputSpec", "Model", "Sequential", "Variable", "version"]
__all__ += ["export", "applications"]
