"""TensorFlow 2.21's guide "function" (site/en/guide/function.ipynb): its code cells in
order as one program; a cell's last expression, which the notebook displays, is
printed (its repr). Left out: timing cells (timeit)."""

import contextlib
import traceback

import tensorflow as tf

tf.random.set_seed(7)   # the guide's random inputs, the same in both


def _show(value):
    if value is not None:
        print(repr(value))


# (cell 0 left out)

# ---- cell 1

# ---- cell 2


# Some helper code to demonstrate the kinds of errors you might encounter.
@contextlib.contextmanager
def assert_raises(error_class):
    try:
        yield
    except error_class:
        print("Caught expected exception \n  {}:".format(error_class))
        traceback.print_exc(limit=2)
    except Exception as e:
        raise e
    else:
        raise Exception("Expected {} to be raised but no error was raised!".format(error_class))


# ---- cell 3
@tf.function  # The decorator converts `add` into a `PolymorphicFunction`.
def add(a, b):
    return a + b


_show(add(tf.ones([2, 2]), tf.ones([2, 2])))  #  [[2., 2.], [2., 2.]]

# ---- cell 4
v = tf.Variable(1.0)
with tf.GradientTape() as tape:
    result = add(v, 1.0)
_show(tape.gradient(result, v))


# ---- cell 5
@tf.function
def dense_layer(x, w, b):
    return add(tf.matmul(x, w), b)


_show(dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2])))

# (cell 6 left out)


# ---- cell 7
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

# ---- cell 8
# This doesn't print 'Tracing with ...'
print(double(tf.constant("b")))

# ---- cell 9
print(double.pretty_printed_concrete_signatures())


# ---- cell 10
@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    print("Tracing with", x)
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])))
# You specified a 1-D tensor in the input signature, so this should fail.
with assert_raises(TypeError):
    next_collatz(tf.constant([[1, 2], [3, 4]]))

# You specified an int32 dtype in the input signature, so this should fail.
with assert_raises(TypeError):
    next_collatz(tf.constant([1.0, 2.0]))


# ---- cell 11
@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def g(x):
    print("Tracing with", x)
    return x


# No retrace!
print(g(tf.constant([1, 2, 3])))
print(g(tf.constant([1, 2, 3, 4, 5])))


# ---- cell 12
@tf.function(reduce_retracing=True)
def g(x):
    print("Tracing with", x)
    return x


# Traces once.
print(g(tf.constant([1, 2, 3])))

# Traces again, but more generalized this time.
print(g(tf.constant([1, 2, 3, 4, 5])))

# No more tracing!
print(g(tf.constant([1, 2, 3, 4, 5, 6, 7])))
print(g(tf.constant([1, 2, 3, 4, 5, 6, 7, 8, 9])))


# ---- cell 13
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
_show(train(num_steps=tf.constant(20)))


# ---- cell 14
def f():
    print("Tracing!")
    tf.print("Executing")


tf.function(f)()
_show(tf.function(f)())


# ---- cell 15
@tf.function
def get_mixed_flavor(fruit_a, fruit_b):
    return fruit_a.flavor + fruit_b.flavor


class Fruit:
    flavor = tf.constant([0, 0])


class Apple(Fruit):
    flavor = tf.constant([1, 2])


class Mango(Fruit):
    flavor = tf.constant([3, 4])


# As described in the above rules, a generic TraceType for `Apple` and `Mango`
# is generated (and a corresponding ConcreteFunction is traced) but it fails to
# match the second function call since the first pair of Apple() and Mango()
# have gone out out of scope by then and deleted.
get_mixed_flavor(Apple(), Mango())  # Traces a new concrete function
get_mixed_flavor(Apple(), Mango())  # Traces a new concrete function again

# However, each subclass of the `Fruit` class has a fixed flavor, and you
# can reuse an existing traced concrete function if it was the same
# subclass. Avoiding such unnecessary tracing of concrete functions
# can have significant performance benefits.


class FruitTraceType(tf.types.experimental.TraceType):
    def __init__(self, fruit):
        self.fruit_type = type(fruit)
        self.fruit_value = fruit

    def is_subtype_of(self, other):
        # True if self subtypes `other` and `other`'s type matches FruitTraceType.
        return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

    def most_specific_common_supertype(self, others):
        # `self` is the specific common supertype if all input types match it.
        return self if all(self == other for other in others) else None

    def placeholder_value(self, placeholder_context=None):
        # Use the fruit itself instead of the type for correct tracing.
        return self.fruit_value

    def __eq__(self, other):
        return type(other) is FruitTraceType and self.fruit_type == other.fruit_type

    def __hash__(self):
        return hash(self.fruit_type)


class FruitWithTraceType:
    def __tf_tracing_type__(self, context):
        return FruitTraceType(self)


class AppleWithTraceType(FruitWithTraceType):
    flavor = tf.constant([1, 2])


class MangoWithTraceType(FruitWithTraceType):
    flavor = tf.constant([3, 4])


# Now if you try calling it again:
get_mixed_flavor(AppleWithTraceType(), MangoWithTraceType())  # Traces a new concrete function
_show(
    get_mixed_flavor(AppleWithTraceType(), MangoWithTraceType())
)  # Re-uses the traced concrete function

# ---- cell 16
print("Obtaining concrete trace")
double_strings = double.get_concrete_function(tf.constant("a"))
print("Executing traced function")
print(double_strings(tf.constant("a")))
print(double_strings(a=tf.constant("b")))

# ---- cell 17
# You can also call get_concrete_function on an InputSpec
double_strings_from_inputspec = double.get_concrete_function(
    tf.TensorSpec(shape=[], dtype=tf.string)
)
print(double_strings_from_inputspec(tf.constant("c")))

# ---- cell 18
print(double_strings)

# ---- cell 19
print(double_strings.function_type)

# ---- cell 20
with assert_raises(tf.errors.InvalidArgumentError):
    double_strings(tf.constant(1))


# ---- cell 21
@tf.function
def pow(a, b):
    return a**b


square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
print(square)

# ---- cell 22
assert square(tf.constant(10.0)) == 100

with assert_raises(TypeError):
    square(tf.constant(10.0), b=3)

# ---- cell 23
graph = double_strings.graph
for node in graph.as_graph_def().node:
    print(f"{node.input} -> {node.name}")

# ---- cell 24
atomic_fn = double_strings.inference_fn
_show(atomic_fn(tf.constant("a")))

# ---- cell 25
# A simple loop


@tf.function
def f(x):
    while tf.reduce_sum(x) > 1:
        tf.print(x)
        x = tf.tanh(x)
    return x


_show(f(tf.random.uniform([5])))

# ---- cell 26
# print(tf.autograph.to_code(f.python_function))   (tapeflow's converted source is its own)


# ---- cell 27
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
_show(fizzbuzz(tf.constant(20)))


# ---- cell 28
def measure_graph_size(f, *args):
    g = f.get_concrete_function(*args).graph
    print(
        "{}({}) contains {} nodes in its graph".format(
            f.__name__, ", ".join(map(str, args)), len(g.as_graph_def().node)
        )
    )


@tf.function
def train(dataset):
    loss = tf.constant(0)
    for x, y in dataset:
        loss += tf.abs(y - x)  # Some dummy computation.
    return loss


small_data = [(1, 1)] * 3
big_data = [(1, 1)] * 10
measure_graph_size(train, small_data)
measure_graph_size(train, big_data)

measure_graph_size(train, tf.data.Dataset.from_generator(lambda: small_data, (tf.int32, tf.int32)))
_show(
    measure_graph_size(
        train, tf.data.Dataset.from_generator(lambda: big_data, (tf.int32, tf.int32))
    )
)

# ---- cell 29
batch_size = 2
seq_len = 3
feature_size = 4


def rnn_step(inp, state):
    return inp + state


@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
    # [batch, time, features] -> [time, batch, features]
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]

    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = rnn_step(input_data[i], state)
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])


_show(
    dynamic_rnn(
        rnn_step,
        tf.random.uniform([batch_size, seq_len, feature_size]),
        tf.zeros([batch_size, feature_size]),
    )
)


# ---- cell 30
@tf.function
def f(x):
    print("Traced with", x)
    tf.print("Executed with", x)


f(1)
f(1)
_show(f(2))


# ---- cell 31
@tf.py_function(Tout=tf.float32)
def py_plus(x, y):
    print("Executing eagerly.")
    return x + y


@tf.function
def tf_wrapper(x, y):
    print("Tracing.")
    return py_plus(x, y)


# ---- cell 32
_show(tf_wrapper(tf.constant(1.0), tf.constant(2.0)).numpy())

# ---- cell 33
_show(tf_wrapper(tf.constant(1.0), tf.constant(2.0)).numpy())

# ---- cell 34
external_list = []


@tf.function
def side_effect(x):
    print("Python side effect")
    external_list.append(x)


side_effect(1)
side_effect(1)
side_effect(1)
# The list append only happened once!
assert len(external_list) == 1


# ---- cell 35
class Model(tf.Module):
    def __init__(self):
        self.v = tf.Variable(0)
        self.counter = 0

    @tf.function
    def __call__(self):
        if self.counter == 0:
            # A python side-effect
            self.counter += 1
            self.v.assign_add(1)

        return self.v


m = Model()
for _n in range(3):
    print(m().numpy())  # prints 1, 2, 3


# ---- cell 36
class Model(tf.Module):
    def __init__(self):
        self.v = tf.Variable(0)
        self.counter = 0

    @tf.function
    def __call__(self):
        if self.counter == 0:
            # Lifts ops out of function-building graphs
            with tf.init_scope():
                self.counter += 1
                self.v.assign_add(1)

        return self.v


m = Model()
for _n in range(3):
    print(m().numpy())  # prints 1, 1, 1


# ---- cell 37
@tf.function
def buggy_consume_next(iterator):
    tf.print("Value:", next(iterator))


iterator = iter([1, 2, 3])
buggy_consume_next(iterator)
# This reuses the first value from the iterator, rather than consuming the next value.
buggy_consume_next(iterator)
_show(buggy_consume_next(iterator))


# ---- cell 38
@tf.function
def good_consume_next(iterator):
    # This is ok, iterator is a tf.data.Iterator
    tf.print("Value:", next(iterator))


ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
iterator = iter(ds)
good_consume_next(iterator)
good_consume_next(iterator)
_show(good_consume_next(iterator))

# ---- cell 39
x = None


@tf.function
def leaky_function(a):
    global x
    x = a + 1  # Bad - leaks local tensor
    return a + 2


correct_a = leaky_function(tf.constant(1))

print(correct_a.numpy())  # Good - value obtained from function's returns
try:
    x.numpy()  # Bad - tensor leaked from inside the function, cannot be used here
except AttributeError as expected:
    print(expected)


# ---- cell 40
@tf.function
def leaky_function(a):
    global x
    x = a + 1  # Bad - leaks local tensor
    return x  # Good - uses local tensor


correct_a = leaky_function(tf.constant(1))

print(correct_a.numpy())  # Good - value obtained from function's returns
try:
    x.numpy()  # Bad - tensor leaked from inside the function, cannot be used here
except AttributeError as expected:
    print(expected)


@tf.function
def captures_leaked_tensor(b):
    b += x  # Bad - `x` is leaked from `leaky_function`
    return b


with assert_raises(TypeError):
    captures_leaked_tensor(tf.constant(2))


# ---- cell 41
class MyClass:
    def __init__(self):
        self.field = None


external_list = []
external_object = MyClass()


def leaky_function():
    a = tf.constant(1)
    external_list.append(a)  # Bad - leaks tensor
    external_object.field = a  # Bad - leaks tensor


# ---- cell 42
@tf.function
def recursive_fn(n):
    if n > 0:
        return recursive_fn(n - 1)
    else:
        return 1


with assert_raises(Exception):
    recursive_fn(tf.constant(5))  # Bad - maximum recursion error.


# ---- cell 43
@tf.function
def recursive_fn(n):
    if n > 0:
        print("tracing")
        return recursive_fn(n - 1)
    else:
        return 1


_show(recursive_fn(5))  # Warning - multiple tracings


# ---- cell 44
@tf.function
def buggy_add():
    return 1 + foo


@tf.function
def recommended_add(foo):
    return 1 + foo


foo = 1
print("Buggy:", buggy_add())
print("Correct:", recommended_add(foo))

# ---- cell 45
print("Updating the value of `foo` to 100!")
foo = 100
print("Buggy:", buggy_add())  # Did not change!
print("Correct:", recommended_add(foo))


# ---- cell 46
@tf.function
def variable_add():
    return 1 + foo


foo = tf.Variable(1)
print("Variable:", variable_add())

# ---- cell 47
print("Updating the value of `foo` to 100!")
foo.assign(100)
print("Variable:", variable_add())


# ---- cell 48
class SimpleModel(tf.Module):
    def __init__(self):
        # These values are *not* tf.Variables.
        self.bias = 0.0
        self.weight = 2.0


@tf.function
def evaluate(model, x):
    return model.weight * x + model.bias


simple_model = SimpleModel()
x = tf.constant(10.0)
print(evaluate(simple_model, x))

# ---- cell 49
print("Adding bias!")
simple_model.bias += 5.0
print(evaluate(simple_model, x))  # Didn't change :(


# ---- cell 50
def evaluate(model, x):
    return model.weight * x + model.bias


new_model = SimpleModel()
evaluate_no_bias = tf.function(evaluate).get_concrete_function(new_model, x)
# Don't pass in `new_model`. `tf.function` already captured its state during tracing.
print(evaluate_no_bias(x))

# ---- cell 51
print("Adding bias!")
new_model.bias += 5.0
# Create new `tf.function` and `ConcreteFunction` since you modified `new_model`.
evaluate_with_bias = tf.function(evaluate).get_concrete_function(new_model, x)
print(evaluate_with_bias(x))  # Don't pass in `new_model`.


# ---- cell 52
class BetterModel:
    def __init__(self):
        self.bias = tf.Variable(0.0)
        self.weight = tf.Variable(2.0)


@tf.function
def evaluate(model, x):
    return model.weight * x + model.bias


better_model = BetterModel()
print(evaluate(better_model, x))

# ---- cell 53
print("Adding bias!")
better_model.bias.assign_add(5.0)  # Note: instead of better_model.bias += 5
print(evaluate(better_model, x))  # This works!


# ---- cell 54
@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v


with assert_raises(ValueError):
    f(1.0)


# ---- cell 55
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

# ---- cell 56
opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)


@tf.function
def train_step(w, x, y, optimizer):
    with tf.GradientTape() as tape:
        L = tf.reduce_sum(tf.square(w * x - y))
    gradients = tape.gradient(L, [w])
    optimizer.apply_gradients(zip(gradients, [w]))


w = tf.Variable(2.0)
x = tf.constant([-1.0])
y = tf.constant([2.0])

train_step(w, x, y, opt1)
print("Calling `train_step` with different optimizer...")
with assert_raises(ValueError):
    train_step(w, x, y, opt2)


# ---- cell 57
class TrainStep(tf.Module):
    def __init__(self, optimizer):
        self.optimizer = optimizer

    @tf.function
    def __call__(self, w, x, y):
        with tf.GradientTape() as tape:
            L = tf.reduce_sum(tf.square(w * x - y))
        gradients = tape.gradient(L, [w])
        self.optimizer.apply_gradients(zip(gradients, [w]))


opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)

train_o1 = TrainStep(opt1)
train_o2 = TrainStep(opt2)

train_o1(w, x, y)
_show(train_o2(w, x, y))

# ---- cell 58
opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)


# Not a tf.function.
def train_step(w, x, y, optimizer):
    with tf.GradientTape() as tape:
        L = tf.reduce_sum(tf.square(w * x - y))
    gradients = tape.gradient(L, [w])
    optimizer.apply_gradients(zip(gradients, [w]))


w = tf.Variable(2.0)
x = tf.constant([-1.0])
y = tf.constant([2.0])

# Make a new tf.function and ConcreteFunction for each optimizer.
train_step_1 = tf.function(train_step)
train_step_2 = tf.function(train_step)
for i in range(10):
    if i % 2 == 0:
        train_step_1(w, x, y, opt1)
    else:
        train_step_2(w, x, y, opt2)
