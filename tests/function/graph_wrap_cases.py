"""Programs of ``tf.compat.v1.wrap_function``: recorded from TF 2.21 by
``tools/record_graph_wrap.py``, checked by ``tests/function/test_graph_wrap.py``. Each case is
source (names are TF's, ``tf``) that sets ``results``: a list of values to compare
(tensors, structures of tensors, lists of names)."""

CASES = {
    "variable_inside": '''
def f(x):
    v = tf.Variable(2.0, name="v")
    y = x * v
    return tf.add(y, 1.0)
wf = tf.compat.v1.wrap_function(f, [tf.TensorSpec([], tf.float32)])
first = wf(tf.constant(3.0))
names = [v.name for v in wf.variables] + [v.name for v in wf.trainable_variables]
wf.variables[0].assign(5.0)
second = wf(3.0)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = wf(x)
grad = tape.gradient(y, x)
sig = [(s.name, s.dtype.name, list(s.shape)) for s in wf.structured_input_signature[0]]
results = [first, names, second, grad, sig, [t.name for t in wf.inputs],
           [t.dtype.name for t in wf.inputs]]
''',
    "prune": '''
def f(x):
    v = tf.Variable([1.0, -1.0], name="w")
    m = x * v
    return tf.nn.relu(m) + 1.0
wf = tf.compat.v1.wrap_function(f, [tf.TensorSpec([2], tf.float32)])
mul = wf.graph.get_tensor_by_name("mul:0")
p1 = wf.prune(feeds=wf.inputs[0], fetches=mul)
p2 = wf.prune(feeds=[wf.inputs[0]], fetches=[mul, wf.outputs[0]])
p3 = wf.prune(feeds=[mul], fetches={"out": wf.outputs[0]})
results = [wf(tf.constant([3.0, 4.0])), p1(tf.constant([3.0, 4.0])),
           p2(tf.constant([3.0, 4.0])), p3(tf.constant([-2.0, 5.0]))]
''',
    "structured": '''
def g(a, b):
    return {"s": a + b, "d": a - b}
wg = tf.compat.v1.wrap_function(g, [tf.TensorSpec([2], tf.int32, name="aa"),
                                    tf.TensorSpec([2], tf.int32)])
def h():
    return tf.constant(4) * 2
results = [wg(tf.constant([1, 2]), tf.constant([3, 4])), [t.name for t in wg.inputs],
           tf.compat.v1.wrap_function(h, [])(), wg.variables]
''',
}


def run_case(name, tf):
    """Run case ``name`` with module ``tf``: its ``results``."""
    ns = {"tf": tf}
    exec(CASES[name], ns)  # noqa: S102 - the case's own source
    return ns["results"]
