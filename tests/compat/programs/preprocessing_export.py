"""TextVectorization as the first layer of an exported Sequential model (the text
classification tutorial's export_model) fed a string tensor; TextVectorization one_hot
gives a RaggedTensor of token vectors."""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

keras.utils.set_random_seed(0)
vec = layers.TextVectorization(max_tokens=10, output_sequence_length=4)
vec.adapt(["good movie", "bad movie", "great film good", "bad bad plot"])
core = keras.Sequential([layers.Embedding(10, 2), layers.GlobalAveragePooling1D(), layers.Dense(1)])
export = keras.Sequential([vec, core, layers.Activation("sigmoid")])
export.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
ex = tf.constant(["good film", "bad plot", "meh"])
print(export.predict(ex, verbose=0).shape)
print(export(ex).shape)
tv = layers.TextVectorization(vocabulary=["a", "b"], output_mode="one_hot")
try:
    print(tv(tf.constant(["a b", "b"])))
except Exception as e:
    print(type(e).__name__, str(e)[:200])
print(tv(tf.constant(["a", "b c"])))
