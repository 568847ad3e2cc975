"""Programs that build a ``tf.Graph`` (``with tf.Graph().as_default():``) or read one
(``ConcreteFunction.graph``): ``tools/record_graph.py`` runs each under TensorFlow 2.21,
``tests/function/test_graph.py`` under tapeflow. Each case is source run with ``tf`` bound;
it fills the dict ``out`` with what a program can see (printed forms, names, node lists,
exception classes and messages)."""

CASES = {
    "ops_and_scopes": '''
g = tf.Graph()
out["eager_before"] = tf.executing_eagerly()
with g.as_default() as gg:
    out["as_default_returns_graph"] = gg is g
    out["eager_inside"] = tf.executing_eagerly()
    c = tf.constant(3.0)
    d = tf.constant([1.0, 2.0], name="dd")
    e = c * d + 1.0
    out["str"] = [str(c), str(d), str(e)]
    out["repr"] = repr(e)
    out["names"] = [c.name, d.name, e.name]
    out["graph_is_g"] = [c.graph is g, e.graph is g]
    out["op"] = [e.op.name, e.op.type, repr(e.op)]
    with g.name_scope("blk"):
        h = tf.reduce_sum(e)
        k = tf.math.sqrt(h)
    out["scoped"] = [h.name, k.name, str(k)]
    out["by_name"] = g.get_tensor_by_name("blk/Sqrt:0") is k
out["eager_after"] = tf.executing_eagerly()
out["str_after"] = str(e)
out["operations"] = [[op.name, op.type] for op in g.get_operations()]
out["nodes"] = [[n.name, n.op, list(n.input)] for n in g.as_graph_def().node]
out["op_by_name"] = g.get_operation_by_name("blk/Sum").type
out["op_inputs"] = [t.name for t in g.get_operation_by_name("add").inputs]
''',
    "matmul_reshape_mean": '''
g = tf.Graph()
with g.as_default():
    a = tf.constant([1.0, 2.0])
    b = tf.constant([[1.0], [2.0]], name="b")
    m = tf.matmul(tf.reshape(a, [1, 2]), b)
    s = tf.reduce_mean(m)
    t = tf.nn.relu(s - 10.0)
    out["str"] = [str(m), str(s), str(t)]
out["nodes"] = [[n.name, n.op, list(n.input)] for n in g.as_graph_def().node]
out["n_nodes"] = len(g.as_graph_def().node)
''',
    "tf_name_scope_and_reentry": '''
g = tf.Graph()
with g.as_default():
    x = tf.constant(2.0)
    with tf.name_scope("outer"):
        with tf.name_scope("inner"):
            y = x * x
        z = tf.exp(y)
with g.as_default():
    w = tf.constant(1.0) + z
    out["later"] = [w.name, str(w)]
out["nodes"] = [[n.name, n.op, list(n.input)] for n in g.as_graph_def().node]
out["names"] = [y.name, z.name]
''',
    "func_graph": '''
@tf.function
def f(x):
    return x * 2.0 + 1.0
cf = f.get_concrete_function(tf.TensorSpec([], tf.float32))
out["isinstance"] = isinstance(cf.graph, tf.Graph)
out["func_graph_ops"] = [[op.name, op.type] for op in cf.graph.get_operations()]
out["func_graph_tensor"] = cf.graph.get_tensor_by_name("mul:0").name
out["empty"] = [len(tf.Graph().get_operations()), len(tf.Graph().as_graph_def().node)]
''',
    "errors": '''
def err(fn):
    try:
        fn()
    except Exception as e:
        return [type(e).__name__, str(e).splitlines()[0]]
    return None
c = tf.constant(1.0)
out["eager_name"] = err(lambda: c.name)
out["eager_op"] = err(lambda: c.op)
out["eager_graph"] = err(lambda: c.graph)
g = tf.Graph()
with g.as_default():
    a = tf.constant([1.0, 2.0]) * 3.0
    out["numpy_inside"] = err(lambda: a.numpy())
out["numpy_after"] = err(lambda: a.numpy())
out["used_eagerly"] = err(lambda: tf.add(a, 1.0))[0]
out["no_op"] = err(lambda: g.get_tensor_by_name("nope:0"))
out["not_tensor_name"] = err(lambda: g.get_tensor_by_name("mul"))
out["no_output"] = err(lambda: g.get_tensor_by_name("mul:3"))
out["op_not_in_graph"] = err(lambda: g.get_operation_by_name("nope"))
out["op_tensor_name"] = err(lambda: g.get_operation_by_name("mul:0"))
''',
}


def run_case(name, tf):
    """Run case ``name`` with ``tf`` bound: its ``out`` dict."""
    out = {}
    exec(CASES[name], {"tf": tf, "out": out})
    return out
