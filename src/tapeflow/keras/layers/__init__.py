"""Keras 3 layers (``tf.keras.layers``)."""
from .activation import Activation, ReLU, Softmax
from .dense import Dense
from .dropout import Dropout
from .flatten import Flatten
from .input_layer import Input, InputLayer
from .layer import Layer

__all__ = ["Activation", "Dense", "Dropout", "Flatten", "Input", "InputLayer", "Layer",
           "ReLU", "Softmax"]
