"""The snippets of TensorFlow's guides "Better performance with tf.function" and "Introduction
to graphs and tf.function": concrete functions called by position, name and with their Python
values left out, their printed signatures and graph nodes, TF's binding errors, a leaked graph
tensor, the failing op whose output is unused (raised eagerly, pruned in a function). Left out:
tf.autograph.to_code (tapeflow's converted source is its own)."""
import numpy as np
import tensorflow as tf


def a_regular_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


a_function_that_uses_a_graph = tf.function(a_regular_function)
x1 = tf.constant([[1.0, 2.0]])
y1 = tf.constant([[2.0], [3.0]])
b1 = tf.constant(4.0)
orig_value = a_regular_function(x1, y1, b1).numpy()
tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
assert orig_value == tf_function_value
print(orig_value, tf_function_value)


def inner_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


@tf.function
def outer_function(x):
    y = tf.constant([[2.0], [3.0]])
    b = tf.constant(4.0)
    return inner_function(x, y, b)


print(outer_function(tf.constant([[1.0, 2.0]])).numpy())


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


tf_simple_relu = tf.function(simple_relu)
print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())

print(tf_simple_relu(tf.constant(1)))
try:
    tf_simple_relu(tf.constant(1.0))
except TypeError as e:
    print("TypeError:", type(e).__name__)
print(tf_simple_relu.pretty_printed_concrete_signatures())


@tf.function
def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)


y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32, seed=1)
y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32, seed=2)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
tf.config.run_functions_eagerly(True)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
tf.config.run_functions_eagerly(False)
print(tf.config.functions_run_eagerly())


def unused_return_eager(x):
    tf.gather(x, [1])
    return x


try:
    print(unused_return_eager(tf.constant([0.0])))
except tf.errors.InvalidArgumentError as e:
    print(f"{type(e).__name__}: {e}")




x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)


def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


power_as_graph = tf.function(power)
print(power_as_graph(x, 100).shape)


@tf.function
def a_function_with_python_side_effect(x):
    print("Tracing!")
    return x * x + tf.constant(2)


print(a_function_with_python_side_effect(tf.constant(2)))
print(a_function_with_python_side_effect(tf.constant(3)))
print(a_function_with_python_side_effect(2))
print(a_function_with_python_side_effect(3))


@tf.function
def double(a):
    print("Tracing with", a)
    return a + a


print(double(tf.constant(1)))
print()
print(double(tf.constant(1.1)))
print()
print(double(tf.constant("a")))
print()
print(double(tf.constant("b")))
print(double.pretty_printed_concrete_signatures())
print("Obtaining concrete trace")
double_strings = double.get_concrete_function(tf.constant("a"))
print("Executing traced function")
print(double_strings(tf.constant("a")))
print(double_strings(a=tf.constant("b")))
print(double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string)))
print(double_strings)
print(double_strings.structured_input_signature)
print(double_strings.structured_outputs)
try:
    double_strings(tf.constant(1))
except (TypeError, tf.errors.InvalidArgumentError) as e:
    print("Caught expected exception", type(e).__name__)


@tf.function
def pow(a, b):
    return a ** b


square = pow.get_concrete_function(a=tf.TensorSpec([], tf.float32), b=2)
print(square)
assert square(tf.constant(10.0)) == 100
try:
    square(tf.constant(10.0), b=3)
except TypeError as e:
    print("TypeError:", e)

graph = double_strings.graph
for node in graph.as_graph_def().node:
    print(f"{node.input} -> {node.name}")


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    print("Tracing with", x)
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])))
try:
    next_collatz(tf.constant([[1, 2], [3, 4]]))
except TypeError as e:
    print(type(e).__name__, e)
try:
    next_collatz(tf.constant([1.0, 2.0]))
except TypeError as e:
    print(type(e).__name__, e)


@tf.function(reduce_retracing=True)
def g(x):
    print("Tracing with", x)
    return x


print(g(tf.constant([1, 2, 3])))
print(g(tf.constant([1, 2, 3, 4, 5])))


def train_one_step():
    pass


@tf.function
def train(num_steps):
    print("Tracing with num_steps = ", num_steps)
    tf.print("Executing with num_steps = ", num_steps)
    for _ in tf.range(num_steps):
        train_one_step()


print("Retracing occurs for different Python arguments.")
train(num_steps=10)
train(num_steps=20)
print()
print("Traces are reused for Tensor arguments.")
train(num_steps=tf.constant(10))
train(num_steps=tf.constant(20))


@tf.function
def f(x):
    print("Traced with", x)
    tf.print("Executed with", x)


f(1)
f(1)
f(2)

external_list = []


@tf.function
def side_effect(x):
    print("Python side effect")
    external_list.append(x)


side_effect(1)
side_effect(1)
side_effect(1)
assert len(external_list) == 1


class Model(tf.Module):
    def __init__(self):
        self.v = tf.Variable(0)
        self.counter = 0

    @tf.function
    def __call__(self):
        if self.counter == 0:
            self.counter += 1
            self.v.assign_add(1)
        return self.v


m = Model()
for _ in range(3):
    print(m().numpy())


@tf.function
def buggy_consume_next(iterator):
    tf.print("Value:", next(iterator))


iterator = iter([1, 2, 3])
buggy_consume_next(iterator)
buggy_consume_next(iterator)
buggy_consume_next(iterator)


@tf.function
def good_consume_next(iterator):
    tf.print("Value:", next(iterator))


ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
iterator = iter(ds)
good_consume_next(iterator)
good_consume_next(iterator)
good_consume_next(iterator)

x = tf.constant([2, 3, 4])


@tf.function
def fizzbuzz(n):
    for i in tf.range(1, n + 1):
        print("Tracing for loop")
        if i % 15 == 0:
            print("Tracing fizzbuzz branch")
            tf.print("fizzbuzz")
        elif i % 3 == 0:
            print("Tracing fizz branch")
            tf.print("fizz")
        elif i % 5 == 0:
            print("Tracing buzz branch")
            tf.print("buzz")
        else:
            print("Tracing default branch")
            tf.print(i)


fizzbuzz(tf.constant(5))
fizzbuzz(tf.constant(20))

batch_size = 2
seq_len = 3
feature_size = 4


def rnn_step(inp, state):
    return inp + state


@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]
    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = rnn_step(input_data[i], state)
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])


print(dynamic_rnn(rnn_step, tf.ones([batch_size, seq_len, feature_size]),
                  tf.zeros([batch_size, feature_size])))


@tf.function
def f2(x):
    v = tf.Variable(1.0)
    return v


try:
    f2(1.0)
except ValueError as e:
    print("Caught expected exception!", type(e).__name__)


class Count(tf.Module):
    def __init__(self):
        self.count = None

    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)


c = Count()
print(c())
print(c())


@tf.function
def leaky_function(a):
    global x
    x = a + 1
    return a + 2


correct_a = leaky_function(tf.constant(1))
print(correct_a.numpy())
try:
    x.numpy()
except AttributeError as expected:
    print(expected)


@tf.function
def recursive_fn(n):
    if n > 0:
        return recursive_fn(n - 1)
    else:
        return 1


print(recursive_fn(5))


@tf.function
def evens_sum(n):
    s = 0
    for i in range(n):
        if i % 2 == 0:
            s += i
    return s


print(evens_sum(10))
print(np.array(evens_sum(tf.constant(10))))
x = tf.constant([1.0, 2.0, 3.0])
print(tf.function(lambda t: tf.reduce_sum(t * t))(x))

# the guide's unused failing op (intro_to_graphs)
def unused_return_eager(x):
    # Get index 1 will fail when `len(x) == 1`
    tf.gather(x, [1])  # unused
    return x


try:
    print(unused_return_eager(tf.constant([0.0])))
except tf.errors.InvalidArgumentError as e:
    # All operations are run during eager execution so an error is raised.
    print(f"{type(e).__name__}: {e}")


# ---- cell 22
@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])  # unused
    return x


# Only needed operations are run during graph execution. The error is not raised.
print(unused_return_graph(tf.constant([0.0])))

