"""Keras 3 layers (``tf.keras.layers``)."""
from .activation import Activation, ReLU, Softmax
from .conv import (AveragePooling1D, AveragePooling2D, Conv1D, Conv2D, MaxPooling1D,
                   MaxPooling2D)
from .dense import Dense
from .dropout import Dropout
from .embedding import Embedding
from .flatten import Flatten
from .input_layer import Input, InputLayer
from .layer import Layer
from .merging import (Add, Average, Concatenate, Maximum, Minimum, Multiply,
                      Subtract)
from .normalization import BatchNormalization, LayerNormalization
from .pooling import (GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalMaxPooling1D,
                      GlobalMaxPooling2D)
from .reshape import Reshape
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell

__all__ = ["Activation", "Add", "Average", "AveragePooling1D", "AveragePooling2D", "Conv1D",
           "MaxPooling1D", "AvgPool2D", "BatchNormalization",
           "Concatenate", "Conv2D", "Convolution2D", "Dense", "Dropout", "Embedding", "Flatten",
           "GRU", "GRUCell", "GlobalAveragePooling1D", "GlobalAveragePooling2D",
           "GlobalMaxPooling1D", "GlobalMaxPooling2D", "Input", "InputLayer", "LSTM", "LSTMCell",
           "Layer", "LayerNormalization", "MaxPool2D", "MaxPooling2D", "Maximum", "Minimum",
           "Multiply", "RNN", "ReLU", "Reshape", "SimpleRNN", "SimpleRNNCell", "Softmax",
           "Subtract"]

MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
Convolution2D = Conv2D
