"""Keras 3 layers (``tf.keras.layers``)."""
from .activation import Activation, ReLU, Softmax
from .conv import AveragePooling2D, Conv2D, MaxPooling2D
from .dense import Dense
from .dropout import Dropout
from .embedding import Embedding
from .flatten import Flatten
from .input_layer import Input, InputLayer
from .layer import Layer
from .normalization import BatchNormalization, LayerNormalization
from .reshape import Reshape
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell

__all__ = ["Activation", "AveragePooling2D", "AvgPool2D", "BatchNormalization", "Conv2D",
           "Convolution2D", "Dense", "Dropout", "Embedding", "Flatten", "GRU", "GRUCell",
           "Input", "InputLayer", "LSTM", "LSTMCell", "Layer", "LayerNormalization",
           "MaxPool2D", "MaxPooling2D", "RNN", "ReLU", "Reshape", "SimpleRNN", "SimpleRNNCell",
           "Softmax"]

MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
Convolution2D = Conv2D
