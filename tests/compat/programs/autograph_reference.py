"""The control-flow part of TensorFlow's AutoGraph reference (tensorflow/python/autograph/
g3doc/reference/control_flow.md and limitations.md): its examples, each inside a
tf.function, with what they print (Python prints while tracing, tf.print while running) and
the errors TensorFlow raises for the programs it refuses (the first line of the message). The
reference's compound symbols (``a.b = -a.b`` in a tensor ``if``) are in
autograph_compound_symbols.py."""
import numpy as np
import tensorflow as tf


def show_error(fn, *args):
    try:
        print("result:", fn(*args))
    except Exception as e:  # noqa: BLE001 - the class and message are the point
        lines = [ln.strip() for ln in str(e).split("\n") if ln.strip()]
        msg = [ln for ln in lines if ln.startswith(type(e).__name__ + ":")]
        print(type(e).__name__, "|", (msg[0] if msg else lines[0])[:160])


@tf.function
def all_paths():
    print("before if")
    if tf.constant(True):
        print("true branch")
    else:
        print("false branch")
    print("after if")
    print("before if")
    if True:
        print("true branch")
    else:
        print("false branch")
    print("after if")


all_paths()


@tf.function
def becomes_tensor():
    i = 0
    if tf.greater(i, 0):
        i = 1
    return i


print(becomes_tensor())


@tf.function
def for_over_tensor():
    for i in tf.constant(((1, 2), (3, 4))):
        tf.print("iteration:", i)
        print("traced:", i.shape)


for_over_tensor()


@tf.function
def for_over_range():
    s = tf.constant(0)
    for i in tf.range(3):
        s += i
    return s


print(for_over_range())


@tf.function
def for_over_dataset():
    s = tf.constant(0, tf.int64)
    for i in tf.data.Dataset.range(3):
        s += i
    return s


print(for_over_dataset())


@tf.function
def unrolled():
    lst = [tf.constant(1), tf.constant(2), tf.constant(3)]
    n = 0
    for i in lst:
        n += i
        print("unrolled step")
    for i in tf.stack(lst):
        n += i
        print("loop body traced")
    return n


print(unrolled())


@tf.function
def while_break(i):
    while i < 10:
        if i > 3:
            break
        i += 1
    return i


print(while_break(tf.constant(0)), while_break(tf.constant(7)))


@tf.function
def for_continue(n):
    s = 0
    for i in tf.range(n):
        if i % 3 == 0:
            continue
        s += i
    return s


print(for_continue(tf.constant(10)))


@tf.function
def while_return(i):
    while i < 10:
        if i > 3:
            return 1
        i += 1
    return 0


show_error(while_return, tf.constant(0))


@tf.function
def if_return(i):
    if i > 3:
        return 1
    i += 1
    return i


print(if_return(tf.constant(5)), if_return(tf.constant(1)))


@tf.function
def buggy_while_py_true_tf_break(x):
    while True:
        if tf.equal(x, 0):
            break
        x -= 1
    return x


show_error(buggy_while_py_true_tf_break, tf.constant(5))


@tf.function
def type_changes():
    i = 0
    while i < 10:
        i = tf.constant(1)
    return i


show_error(type_changes)


@tf.function
def undefined_return():
    if tf.random.uniform(()) > 0.5:
        return 1


show_error(undefined_return)


@tf.function
def one_branch(x):
    if x > 0:
        y = x
    return y


show_error(one_branch, tf.constant(1))


@tf.function
def branch_dtypes(x):
    if x > 0:
        y = tf.constant(1.0)
    else:
        y = tf.constant(1)
    return y


show_error(branch_dtypes, tf.constant(1))


@tf.function
def list_in_loop(n):
    lst = []
    for i in tf.range(n):
        lst.append(i)
    return lst


show_error(list_in_loop, tf.constant(3))


@tf.function
def loop_dtype(n):
    x = tf.constant(0)
    for _ in tf.range(n):
        x = tf.cast(x, tf.float32)
    return x


show_error(loop_dtype, tf.constant(3))


@tf.function
def loop_shape(n):
    x = tf.constant([0])
    for i in tf.range(n):
        x = tf.concat([x, [i]], 0)
    return x


show_error(loop_shape, tf.constant(3))


@tf.function
def python_values(x):
    n = np.float32(2.0)
    if n > 1:
        x = x * n
    return x


print(python_values(tf.constant(3.0)))
