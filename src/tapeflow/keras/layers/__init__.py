"""Keras 3 layers (``tf.keras.layers``)."""
from .activation import Activation, ReLU, Softmax
from .conv import AveragePooling2D, Conv2D, MaxPooling2D
from .dense import Dense
from .dropout import Dropout
from .flatten import Flatten
from .input_layer import Input, InputLayer
from .layer import Layer

__all__ = ["Activation", "AveragePooling2D", "AvgPool2D", "Conv2D", "Convolution2D", "Dense",
           "Dropout", "Flatten", "Input", "InputLayer", "Layer", "MaxPool2D", "MaxPooling2D",
           "ReLU", "Softmax"]

MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
Convolution2D = Conv2D
