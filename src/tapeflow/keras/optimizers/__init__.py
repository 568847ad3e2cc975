"""Keras 3 optimizers (``tf.keras.optimizers``)."""
from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Adam", "Optimizer", "SGD", "get"]


def get(identifier):
    """An optimizer from a name ('adam', 'sgd') or an instance.

    Raises:
        ValueError: for an unknown identifier.
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in ("adam", "sgd"):
        return {"adam": Adam, "sgd": SGD}[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
