"""Keras 3 optimizers (``tf.keras.optimizers``)."""
from . import schedules
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Adam", "AdamW", "Optimizer", "RMSprop", "SGD", "get", "schedules"]


def get(identifier):
    """An optimizer from a name ('adam', 'sgd', 'rmsprop') or an instance.

    Raises:
        ValueError: for an unknown identifier.
    """
    if isinstance(identifier, Optimizer):
        return identifier
    by_name = {"adam": Adam, "adamw": AdamW, "sgd": SGD, "rmsprop": RMSprop}
    if isinstance(identifier, str) and identifier.lower() in by_name:
        return by_name[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
