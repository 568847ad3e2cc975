"""The SavedModel cells of TensorFlow's guides "Introduction to modules, layers, and models"
and "TensorFlow basics": a module traced on Python lists and one on int32 tensors saved with
tf.saved_model.save, the directory listed, loaded back with tf.saved_model.load and called.
(The advanced_autodiff guide's custom-gradient save cell is in advanced_autodiff.py.)"""
import os
import tempfile

import tensorflow as tf

tf.random.set_seed(7)


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(
            tf.random.normal([in_features, out_features]), name='w')
        self.b = tf.Variable(tf.zeros([out_features]), name='b')

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class MySequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    @tf.function
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


my_model = MySequentialModule(name="the_model")
first = my_model([[2.0, 2.0, 2.0]])
second = my_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])
print(first.shape, second.shape)

root = tempfile.mkdtemp()
path = os.path.join(root, "the_saved_model")
tf.saved_model.save(my_model, path)
print(sorted(os.listdir(path)))
print(sorted(os.listdir(os.path.join(path, "variables"))))

new_model = tf.saved_model.load(path)
print(isinstance(new_model, MySequentialModule))
again = new_model([[2.0, 2.0, 2.0]])
print(again.shape, bool(tf.reduce_all(again == first)))
again = new_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])
print(again.shape, bool(tf.reduce_all(again == second)))


# TensorFlow basics
class MyModule(tf.Module):
    def __init__(self, value):
        self.weight = tf.Variable(value)

    @tf.function
    def multiply(self, x):
        return x * self.weight


mod = MyModule(3)
print(mod.multiply(tf.constant([1, 2, 3])))
save_path = os.path.join(root, "saved")
tf.saved_model.save(mod, save_path)
reloaded = tf.saved_model.load(save_path)
print(reloaded.multiply(tf.constant([1, 2, 3])))
print(reloaded.weight)
print(list(reloaded.signatures.keys()))


# a module with an input signature: serving_default
class Scaled(tf.Module):
    def __init__(self):
        self.scale = tf.Variable([[1.0, -1.0], [0.5, 2.0]], name="scale")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return {"y": tf.matmul(x, self.scale)}


scaled_path = os.path.join(root, "scaled")
tf.saved_model.save(Scaled(), scaled_path)
loaded = tf.saved_model.load(scaled_path)
sig = loaded.signatures["serving_default"]
print(list(loaded.signatures.keys()))
print(sig.structured_input_signature)
print(sig.structured_outputs)
print(sig(x=tf.constant([[1.0, 2.0]])))
print(loaded(tf.constant([[1.0, 2.0], [3.0, 4.0]])))
