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
               regularizers,
               utils,
)
from .layers import Input, InputSpec
from .models import Model, Sequential

__all__ = ["activations", "backend", "callbacks", "constraints", "datasets", "initializers",
           "layers", "losses", "metrics", "models", "optimizers", "regularizers", "utils", "Input",
           "InputSpec", "Model", "Sequential"]
