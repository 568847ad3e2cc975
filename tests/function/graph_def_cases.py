"""Functions whose ``ConcreteFunction.graph`` TensorFlow 2.21 shows (TF's guides
intro_to_graphs and function, plus a layer, a variable update and a loop): the recorder
``tools/record_graph_def.py`` runs each under TensorFlow, ``tests/function/test_graph_def.py``
under tapeflow. Each case is source defining ``f`` (a ``tf.function``) and ``args`` (the
arguments of ``f.get_concrete_function``); names are TF's (``tf``)."""

CASES = {
    # intro_to_graphs: a tensor `if` becomes StatelessIf named `cond`
    "simple_relu": '''
def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0
f = tf.function(simple_relu)
args = (tf.constant(1),)
''',
    # intro_to_graphs: matmul and add
    "regular_function": '''
def a_regular_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x
f = tf.function(a_regular_function)
args = (tf.constant([[1.0, 2.0]]), tf.constant([[2.0], [3.0]]), tf.constant(4.0))
''',
    # function guide: double_strings
    "double_strings": '''
@tf.function
def f(a):
    return a + a
args = (tf.constant("a"),)
''',
    "python_literals": '''
@tf.function
def f(x):
    return x * 2.0 + 1.0, x - 3.0
args = (tf.constant([1.0, 2.0]),)
''',
    "dict_output": '''
@tf.function
def f(x):
    return {"a": x + x, "b": [x, None]}
args = (tf.constant([1.0]),)
''',
    "input_signature": '''
@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="inp")])
def f(x):
    return tf.reduce_sum(tf.square(x), axis=1)
args = ()
''',
    "variable_dense": '''
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
b = tf.Variable([0.5, -0.5], name="b")
@tf.function
def f(x):
    return tf.nn.relu(tf.matmul(x, w) + b)
args = (tf.constant([[1.0, -2.0]]),)
''',
    "assign_add": '''
v = tf.Variable(1.0)
@tf.function
def f(x):
    v.assign_add(x)
    return v.read_value()
args = (tf.constant(2.0),)
''',
    "unary_chain": '''
@tf.function
def f(x):
    y = tf.exp(x) + tf.math.log(x) * tf.sqrt(x)
    return tf.nn.sigmoid(y) - tf.tanh(y), tf.reduce_mean(y)
args = (tf.constant([1.0, 2.0]),)
''',
    "reshape_transpose": '''
@tf.function
def f(x):
    y = tf.reshape(x, [3, 2])
    return tf.transpose(y), tf.cast(y, tf.int32), tf.concat([x, x], 0)
args = (tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),)
''',
    "cond_call": '''
@tf.function
def f(x):
    return tf.cond(x > 0.0, lambda: x * 2.0, lambda: -x)
args = (tf.constant(1.5),)
''',
    "while_loop": '''
@tf.function
def f(n):
    return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (0, 0))
args = (tf.constant(4),)
''',
}


def run_case(name, tf, directory):
    """Run case ``name`` with module ``tf`` from a file in ``directory`` (AutoGraph reads
    the source): ``(f, args)``."""
    import os
    import runpy
    path = os.path.join(directory, f"graph_def_case_{name}.py")
    with open(path, "w") as fh:
        fh.write(CASES[name])
    ns = runpy.run_path(path, init_globals={"tf": tf})
    return ns["f"], ns["args"]
