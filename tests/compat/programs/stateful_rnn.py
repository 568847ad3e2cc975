"""Stateful RNN layers (Keras 3): the final states of one call start the next, live in
non-trainable variables outside the weights, reset to zeros; Keras's errors for another batch
size and for a dynamic batch size; a stateful model's predict carries state across calls."""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

rng = np.random.default_rng(0)
paragraph1 = rng.random((20, 10, 50)).astype(np.float32)
paragraph2 = rng.random((20, 10, 50)).astype(np.float32)
paragraph3 = rng.random((20, 10, 50)).astype(np.float32)
lstm_layer = layers.LSTM(64, stateful=True,
                         kernel_initializer=keras.initializers.Constant(0.003),
                         recurrent_initializer=keras.initializers.Constant(0.05))
output = lstm_layer(paragraph1)
print(np.round(float(tf.reduce_sum(output)), 3))
output = lstm_layer(paragraph2)
print(np.round(float(tf.reduce_sum(output)), 3), [v.name for v in lstm_layer.states],
      len(lstm_layer.weights))
output = lstm_layer(paragraph3)
lstm_layer.reset_states()
print(output.shape, [tuple(s.shape) for s in lstm_layer.states],
      float(tf.reduce_sum(lstm_layer.states[0])))
print(lstm_layer.get_config()["stateful"])
lstm_layer = layers.LSTM(64, stateful=True)
output = lstm_layer(paragraph1)
output = lstm_layer(paragraph2)
existing_state = lstm_layer.states
new_lstm_layer = layers.LSTM(64)
new_output = new_lstm_layer(paragraph3, initial_state=existing_state)
print(new_output.shape)
try:
    lstm_layer(paragraph1[:5])
except ValueError as e:
    print("ValueError:", e)
m = keras.Sequential([keras.Input((10, 50), batch_size=20),
                     layers.GRU(8, stateful=True,
                                kernel_initializer=keras.initializers.Constant(0.003),
                                recurrent_initializer=keras.initializers.Constant(0.05))])
a = m.predict(paragraph1, batch_size=20, verbose=0)
b = m.predict(paragraph1, batch_size=20, verbose=0)
print(np.round(a.sum(), 3), np.round(b.sum(), 3), len(m.weights), len(m.non_trainable_weights))
try:
    layers.SimpleRNN(3, stateful=True)(keras.Input((4, 2)))
except ValueError as e:
    print("ValueError:", e)
