"""Keras 3's training pieces (``tf.keras``): layers, models, losses, optimizers, metrics."""
from . import activations, backend, initializers, layers, losses, metrics, models, optimizers
from .layers import Input
from .models import Model, Sequential

__all__ = ["activations", "backend", "initializers", "layers", "losses", "metrics", "models",
           "optimizers", "Input", "Model", "Sequential"]
