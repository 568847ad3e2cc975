"""tf.data's map traces its function once, when map is called, on the element spec: a print
inside it runs then and shows symbolic tensors (args_0, args_1, ...), the output spec keeps
the input's unknown dimensions, and each element replays the graph (a tf.py_function runs
per element, never while tracing). Variables and random draws are untouched by the trace."""
import numpy as np
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices((np.arange(6, dtype=np.float32).reshape(3, 2),
                                         np.arange(3)))


def f(x, y):
    print("tracing f:", x, y)
    return x * 2, y + 1


m = ds.map(f)
print("map created")
print(m.element_spec)
for a, b in m:
    print(a.numpy(), b.numpy())
b = ds.batch(2).map(lambda x, y: (tf.reduce_sum(x, axis=1), y))
print(b.element_spec)
print([tuple(v.tolist() for v in e) for e in b.as_numpy_iterator()])
d = tf.data.Dataset.range(3).map(lambda i: {"a": i, "b": tf.cast(i, tf.float32) * 0.5})
print(d.element_spec)


def g(i):
    print("tracing g:", i.shape)
    return tf.fill([i], i)


e = tf.data.Dataset.range(4).map(g)
print(e.element_spec)
print([x.tolist() for x in e.as_numpy_iterator()])

calls = []


def note(x):
    calls.append(int(x))
    return x * 10


p = tf.data.Dataset.range(3).map(lambda x: tf.py_function(note, [x], tf.int64))
print("calls after map:", calls)
print(list(p.as_numpy_iterator()), "calls:", calls)
print(list(p.as_numpy_iterator()), "calls:", calls)

n = tf.data.Dataset.from_tensor_slices(["1", "2.5", "4"]).map(tf.strings.to_number).batch(2)
print(n.element_spec, [v.tolist() for v in n.as_numpy_iterator()])


def normalize(image, label):
    print("normalize sees", image.shape, image.dtype.name)
    return tf.cast(image, tf.float32) / 255.0, label


images = np.arange(5 * 4 * 4, dtype=np.uint8).reshape(5, 4, 4)
pipe = tf.data.Dataset.from_tensor_slices((images, np.arange(5))).batch(2).map(normalize)
print(pipe.element_spec)
print([x.shape for x, _ in pipe])
