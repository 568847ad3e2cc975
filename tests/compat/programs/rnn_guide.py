"""Keras's guide "Working with RNNs": LSTM/GRU/SimpleRNN models and their summaries,
return_sequences/return_state, initial states from another layer, RNN cells, Bidirectional.
(Left out: the guide's custom cell with nested inputs, which Keras 3 itself refuses; stateful
layers are in stateful_rnn.py.)"""
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers

model = keras.Sequential()
model.add(keras.Input(shape=(None,), dtype="int32"))
model.add(layers.Embedding(input_dim=1000, output_dim=64))
model.add(layers.LSTM(128))
model.add(layers.Dense(10))
model.summary()

model = keras.Sequential()
model.add(keras.Input(shape=(None,), dtype="int32"))
model.add(layers.Embedding(input_dim=1000, output_dim=64))
model.add(layers.GRU(256, return_sequences=True))
model.add(layers.SimpleRNN(128))
model.add(layers.Dense(10))
model.summary()

encoder_vocab = 1000
decoder_vocab = 2000
encoder_input = layers.Input(shape=(None,))
encoder_embedded = layers.Embedding(input_dim=encoder_vocab, output_dim=64)(encoder_input)
output, state_h, state_c = layers.LSTM(64, return_state=True, name="encoder")(encoder_embedded)
encoder_state = [state_h, state_c]
decoder_input = layers.Input(shape=(None,))
decoder_embedded = layers.Embedding(input_dim=decoder_vocab, output_dim=64)(decoder_input)
decoder_output = layers.LSTM(64, name="decoder")(decoder_embedded, initial_state=encoder_state)
output = layers.Dense(10)(decoder_output)
model = keras.Model([encoder_input, decoder_input], output)
model.summary()

model = keras.Sequential()
model.add(keras.Input(shape=(5, 10)))
model.add(layers.Bidirectional(layers.LSTM(64, return_sequences=True)))
model.add(layers.Bidirectional(layers.LSTM(32)))
model.add(layers.Dense(10))
model.summary()

batch_size = 64
input_dim = 28
units = 64
output_size = 10


def build_model():
    lstm_layer = keras.layers.RNN(keras.layers.LSTMCell(units))
    return keras.models.Sequential([keras.Input(shape=(None, input_dim)), lstm_layer,
                                    keras.layers.BatchNormalization(),
                                    keras.layers.Dense(output_size)])


model = build_model()
model.summary()
x = np.ones((4, 7, input_dim), np.float32)
print(model(x).shape)
