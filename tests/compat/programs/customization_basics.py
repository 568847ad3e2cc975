"""TensorFlow's tutorials "Customization basics: tensors and operations" and "Custom
layers": ops on tensors and NumPy values, shapes and dtypes, NumPy interoperability, device
placement on a CPU-only machine, a dataset from tensors and from a text file, layers with
variables, a composed ResNet-style block and its summary."""
import os
import tempfile
import time

import numpy as np
import tensorflow as tf

print(tf.math.add(1, 2))
print(tf.math.add([1, 2], [3, 4]))
print(tf.math.square(5))
print(tf.math.reduce_sum([1, 2, 3]))
print(tf.math.square(2) + tf.math.square(3))
x = tf.linalg.matmul([[1]], [[2, 3]])
print(x)
print(x.shape)
print(x.dtype)

ndarray = np.ones([3, 3])
tensor = tf.math.multiply(ndarray, 42)
print(tensor)
print(np.add(tensor, 1))
print(tensor.numpy())

x = tf.random.uniform([3, 3])
print("Is there a GPU available: ", bool(tf.config.list_physical_devices("GPU")))
print("Is the Tensor on GPU #0:  ", x.device.endswith("GPU:0"))
print(x.device)
print(tf.config.list_physical_devices("CPU"))


def time_matmul(x):
    start = time.time()
    for _ in range(10):
        tf.linalg.matmul(x, x)
    return time.time() - start


with tf.device("CPU:0"):
    x = tf.random.uniform([100, 100])
    assert x.device.endswith("CPU:0")
    print(time_matmul(x) >= 0)

ds_tensors = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6])
_, filename = tempfile.mkstemp()
with open(filename, "w") as f:
    f.write("Line 1\nLine 2\nLine 3\n  ")
ds_file = tf.data.TextLineDataset(filename)
ds_tensors = ds_tensors.map(tf.math.square).shuffle(2, seed=1).batch(2)
ds_file = ds_file.batch(2)
print("Elements of ds_tensors:")
print(sorted(v for x in ds_tensors for v in x.numpy().tolist()))   # (shuffle orders differ)
print("\nElements in ds_file:")
for x in ds_file:
    print(x)
os.remove(filename)

layer = tf.keras.layers.Dense(10, kernel_initializer="ones")
layer = tf.keras.layers.Dense(10, input_shape=(None, 5), kernel_initializer="ones")
print(layer(tf.zeros([10, 5])).shape)
print([v.name for v in layer.variables], [v.shape for v in layer.variables])
print(layer.kernel.shape, layer.bias.numpy())


class MyDenseLayer(tf.keras.layers.Layer):
    def __init__(self, num_outputs):
        super().__init__()
        self.num_outputs = num_outputs

    def build(self, input_shape):
        try:
            self.add_weight("kernel", shape=[2])     # the tutorial's call, refused by Keras 3
        except ValueError as e:
            print("ValueError:", e)
        self.kernel = self.add_weight(name="kernel", shape=[int(input_shape[-1]), self.num_outputs],
                                      initializer="ones")

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel)


layer = MyDenseLayer(10)
_ = layer(tf.zeros([10, 5]))
print([var.name for var in layer.trainable_variables])


class ResnetIdentityBlock(tf.keras.Model):
    def __init__(self, kernel_size, filters):
        super().__init__(name="")
        filters1, filters2, filters3 = filters
        init = tf.keras.initializers.Constant(0.1)
        self.conv2a = tf.keras.layers.Conv2D(filters1, (1, 1), kernel_initializer=init)
        self.bn2a = tf.keras.layers.BatchNormalization()
        self.conv2b = tf.keras.layers.Conv2D(filters2, kernel_size, padding="same",
                                             kernel_initializer=init)
        self.bn2b = tf.keras.layers.BatchNormalization()
        self.conv2c = tf.keras.layers.Conv2D(filters3, (1, 1), kernel_initializer=init)
        self.bn2c = tf.keras.layers.BatchNormalization()

    def call(self, input_tensor, training=False):
        x = self.conv2a(input_tensor)
        x = self.bn2a(x, training=training)
        x = tf.nn.relu(x)
        x = self.conv2b(x)
        x = self.bn2b(x, training=training)
        x = tf.nn.relu(x)
        x = self.conv2c(x)
        x = self.bn2c(x, training=training)
        x += input_tensor
        return tf.nn.relu(x)


block = ResnetIdentityBlock(1, [1, 2, 3])
_ = block(tf.zeros([1, 2, 3, 3]))
print([x.name for x in block.trainable_variables])
print(len(block.variables))
block.summary()

my_seq = tf.keras.Sequential([
    tf.keras.Input((2, 3, 3)),
    tf.keras.layers.Conv2D(1, (1, 1), kernel_initializer="ones"),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Conv2D(2, 1, padding="same", kernel_initializer="ones"),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Conv2D(3, (1, 1), kernel_initializer="ones"),
    tf.keras.layers.BatchNormalization()])
print(my_seq(tf.zeros([1, 2, 3, 3])).shape)
my_seq.summary()
