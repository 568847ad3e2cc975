"""``tf.keras.datasets``: the small standard datasets, downloaded once into ``~/.keras``."""
from . import mnist

__all__ = ["mnist"]
