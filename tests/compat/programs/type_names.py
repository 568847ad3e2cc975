"""The type names and reprs TensorFlow programs print for tensors and variables."""
import tensorflow as tf

x = tf.constant([1.0, 2.0])
v = tf.Variable([1.0, 2.0])
print(type(x).__name__, type(v).__name__)
print(type(v.assign([3.0, 4.0])).__name__)
print(type(x + 1.0).__name__, type(v + 1.0).__name__, type(v.read_value()).__name__)
print(isinstance(x, tf.Tensor), isinstance(v, tf.Variable), tf.is_tensor(v))
print(repr(v))
print(repr(tf.Variable(3, name="counter")))
