"""``tf.keras.datasets``: the small standard datasets, read from Keras's cache files in
``~/.keras/datasets`` (``$KERAS_HOME``), downloaded there once when online."""
from . import (
    boston_housing,
    california_housing,
    cifar10,
    cifar100,
    fashion_mnist,
    imdb,
    mnist,
    reuters,
)

__all__ = ["boston_housing", "california_housing", "cifar10", "cifar100", "fashion_mnist",
           "imdb", "mnist", "reuters"]
