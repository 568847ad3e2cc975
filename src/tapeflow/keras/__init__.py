"""Keras 3's training pieces (``tf.keras``): layers, models, losses, optimizers, metrics."""
from . import (
               activations,
               backend,
               callbacks,
               constraints,
               datasets,
               initializers,
               layers,
               losses,
               metrics,
               models,
               optimizers,
               random,
               regularizers,
               saving,
               utils,
)
from ._variable import KerasVariable as Variable
from .layers import Input
from .models import Model, Sequential

__all__ = ["activations", "backend", "callbacks", "constraints", "datasets", "initializers",
           "layers", "losses", "metrics", "models", "optimizers", "random", "regularizers",
           "saving", "utils", "Input", "Model", "Sequential", "Variable"]
