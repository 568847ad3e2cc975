"""Keras's guide "Working with preprocessing layers": adapt() on Normalization,
TextVectorization, StringLookup, IntegerLookup, CategoryEncoding, Hashing, Discretization."""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

data = np.array([[0.1, 0.2, 0.3], [0.8, 0.9, 1.0], [1.5, 1.6, 1.7]])
layer = layers.Normalization()
layer.adapt(data)
normalized_data = layer(data)
print("Features mean: %.2f" % (normalized_data.numpy().mean()))
print("Features std: %.2f" % (normalized_data.numpy().std()))

data = ["ξεῖν᾽, ἦ τοι μὲν ἐγὼν ὀνείρατ᾽ ἀμηχανόμυθοι,",
        "γίγνοντ᾽, οὐδέ τι πάντα τελείεται ἀνθρώποισι.",
        "δοιαὶ γάρ τε πύλαι ἀμενηνῶν εἰσὶν ὀνείρων:",
        "αἱ μὲν γὰρ κεράεσσι τετεύχαται, αἱ δ᾽ ἐλέφαντι:",
        "τῶν οἳ μέν κ᾽ ἔλθωσι διὰ πριστοῦ ἐλέφαντος,",
        "οἵ ῥ᾽ ἐλεφαίρονται, ἔπε᾽ ἀκράαντα φέροντες:",
        "οἱ δὲ διὰ ξεστῶν κεράων ἔλθωσι θύραζε,",
        "οἵ ῥ᾽ ἔτυμα κραίνουσι, βροτῶν ὅτε κέν τις ἴδηται."]
layer = layers.TextVectorization()
layer.adapt(data)
vectorized_text = layer(data)
print(vectorized_text)

vocab = ["a", "b", "c", "d"]
data = tf.constant([["a", "c", "d"], ["d", "z", "b"]])
layer = layers.StringLookup(vocabulary=vocab)
vectorized_data = layer(data)
print(vectorized_data)
print(layer.get_vocabulary())

data = tf.constant([[1, 2, 3], [4, 5, 6]])
layer = layers.IntegerLookup()
layer.adapt(tf.constant([12, 36, 1138, 42, 42, 42, 12]))
print(layer.get_vocabulary())
print(layer(tf.constant([[12, 1138, 42], [42, 1000, 36]])))

layer = layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")
print(layer(tf.constant([3, 2, 0, 1])))
layer = layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
print(layer(tf.constant([[0, 1], [0, 0], [1, 2], [3, 1]])))
layer = layers.CategoryEncoding(num_tokens=4, output_mode="count")
print(layer(tf.constant([[0, 1], [0, 0], [1, 2], [3, 1]])))

layer = layers.Hashing(num_bins=64, salt=1337)
print(layer(tf.constant([["a"], ["b"], ["hello"]])))
layer = layers.Hashing(num_bins=8)
print(layer(tf.constant([[1], [2], [3], [1000]])))

layer = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
print(layer(tf.constant([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])))
layer = layers.Discretization(num_bins=4, epsilon=0.01)
layer.adapt(np.arange(20, dtype="float32"))
print(layer(tf.constant([0.0, 4.0, 9.5, 19.0])))

inputs = keras.Input(shape=(None,), dtype="int64")
x = layers.Embedding(20, 4)(inputs)
print(x.shape)
text = ["The Brain is wider than the Sky", "For put them side by side",
        "The one the other will contain", "With ease and You beside"]
vec = layers.TextVectorization(max_tokens=16, output_mode="multi_hot")
vec.adapt(text)
print(vec.get_vocabulary())
print(vec(["The brain contains the sky"]))
vec = layers.TextVectorization(max_tokens=16, output_mode="tf_idf")
vec.adapt(text)
print(np.round(vec(["The brain contains the sky"]).numpy(), 4))
vec = layers.TextVectorization(output_mode="int", output_sequence_length=6, ngrams=2)
vec.adapt(text)
print(vec(["The brain is wider"]))
