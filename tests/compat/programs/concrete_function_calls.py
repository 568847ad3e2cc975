"""Calling concrete functions as TensorFlow binds them: by position or name, Python-value
parameters left out, the flat signature of the tensor parameters as a fallback, values
converted to the parameter's dtype, another shape run as is; TF's errors for what binds to
neither and for a tensor of another dtype; printed signatures of nested outputs and of an
input_signature (traced when listed)."""
import re

import tensorflow as tf


def show(fn, *args, **kwargs):
    try:
        print(fn(*args, **kwargs))
    except (TypeError, tf.errors.InvalidArgumentError) as e:
        # TensorFlow numbers its function definitions process-wide: __inference_f_7
        print(type(e).__name__, "|", re.sub(r"(__inference_\w+?)_\d+", r"\1_N", str(e)))


@tf.function
def double(a):
    return a + a


c = double.get_concrete_function(tf.constant("a"))
show(c, tf.constant(1))
show(c, tf.constant(["a", "b"]))
show(c, "x")
show(c)
show(c, tf.constant("a"), tf.constant("b"))
show(c, b=tf.constant("a"))
show(c, a=tf.constant("q"))


@tf.function
def pow(a, b):
    return a ** b


square = pow.get_concrete_function(a=tf.TensorSpec([], tf.float32), b=2)
show(square, tf.constant(3.0))
show(square, tf.constant(3.0), 2)
show(square, a=tf.constant(3.0), b=2)
show(square, tf.constant(10.0), 3)
print(square.structured_input_signature)


@tf.function
def f(x, y):
    return x + tf.cast(y, x.dtype)


c = f.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float64))
show(c, tf.constant([1, 2]), tf.constant([1.0, 2.0], tf.float64))
show(c, tf.constant([1.0, 2.0]), tf.constant([1, 2]))
show(c, [1.0, 2.0], [3.0, 4.0])
show(c, tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 2.0, 3.0], tf.float64))
show(c, tf.constant([1.0, 2.0]), y=tf.constant([1.0, 2.0], tf.float64), z=1)
show(c, y=tf.constant([1.0, 2.0], tf.float64), x=tf.constant([1.0, 2.0]))


@tf.function
def k(x, *, z):
    return x * z


c2 = k.get_concrete_function(tf.TensorSpec([], tf.float32), z=tf.TensorSpec([], tf.float32))
print(c2.structured_input_signature)
show(c2, tf.constant(2.0), z=tf.constant(3.0))
show(c2, tf.constant(2.0), tf.constant(3.0))
print(c2.pretty_printed_signature())


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="xx")])
def h(x):
    print("Tracing h")
    return x


print(h.pretty_printed_concrete_signatures())
print(h.get_concrete_function().structured_input_signature)


@tf.function
def kw(x, y=3, *, z=4):
    return x


kw(tf.constant(1.0))
kw(tf.constant(1.0), z=tf.constant(2.0))
print(kw.pretty_printed_concrete_signatures())


@tf.function
def two(x):
    return x, {"a": x + x, "b": [x, None]}


print(two(tf.constant([1.0])))
print(two.pretty_printed_concrete_signatures())
graph = two.get_concrete_function(tf.constant([1.0])).graph
print([op.type for op in graph.get_operations()])
for node in graph.as_graph_def().node:
    print(node.op, node.name, list(node.input))
