"""Programs using ``tf.graph_util.import_graph_def``: ``tools/record_import_graph_def.py``
runs each under TensorFlow 2.21, ``tests/function/test_import_graph_def.py`` under tapeflow.
Each case is source run with ``tf``, ``np``, ``graph_def`` (the GraphDef of ``f`` below,
built with the same library) and ``saved_graph_def`` (the graph of the TF-written SavedModel
``tests/fixtures/saved_model/keras_mlp``) bound; it fills the dict ``out``."""

MAKE_GRAPH_DEF = '''
@tf.function
def f(x, y):
    return tf.nn.relu(tf.matmul(x, y) + 1.0)
graph_def = f.get_concrete_function(tf.TensorSpec([1, 2]), tf.TensorSpec([2, 1])).graph \\
    .as_graph_def()
'''

CASES = {
    "source_nodes": '''
out["nodes"] = [[n.name, n.op, list(n.input)] for n in graph_def.node]
''',
    "as_data_no_prefix": '''
with tf.Graph().as_default() as g:
    out["result"] = repr(tf.graph_util.import_graph_def(graph_def, name=""))
    out["ops"] = [[op.name, op.type] for op in g.get_operations()]
    t = g.get_tensor_by_name("Identity:0")
    out["tensor"] = [str(t), t.name, t.dtype.name, str(t.shape)]
out["nodes"] = [[n.name, n.op, list(n.input)] for n in g.as_graph_def().node]
''',
    "input_map_and_returns": '''
with tf.Graph().as_default() as g:
    a = tf.constant([[1.0, 2.0]])
    r = tf.graph_util.import_graph_def(graph_def, input_map={"x:0": a},
                                       return_elements=["Identity:0", "MatMul"])
    out["returns"] = [repr(x) for x in r]
    out["str"] = str(r[0])
    out["ops"] = [[op.name, op.type, [i.name for i in op.inputs]]
                  for op in g.get_operations()]
    r2 = tf.graph_util.import_graph_def(graph_def, return_elements=["Identity:0"])
    out["second"] = [repr(x) for x in r2]
    with tf.name_scope("outer"):
        r3 = tf.graph_util.import_graph_def(graph_def, return_elements=["add:0"],
                                            name="net")
    out["scoped"] = [repr(x) for x in r3]
out["nodes"] = [[n.name, n.op, list(n.input)] for n in g.as_graph_def().node]
''',
    "errors": '''
def err(fn):
    try:
        fn()
    except Exception as e:
        return [type(e).__name__, str(e).splitlines()[0]]
    return None
with tf.Graph().as_default():
    out["no_tensor"] = err(lambda: tf.graph_util.import_graph_def(
        graph_def, return_elements=["nope:0"]))
    out["no_output"] = err(lambda: tf.graph_util.import_graph_def(
        graph_def, return_elements=["MatMul:1"]))
    out["no_node"] = err(lambda: tf.graph_util.import_graph_def(
        graph_def, return_elements=["nope"]))
    out["no_input"] = err(lambda: tf.graph_util.import_graph_def(
        graph_def, input_map={"zz:0": tf.constant(1.0)}))
    out["not_graph_def"] = err(lambda: tf.graph_util.import_graph_def("nope"))
out["eager_input_map"] = err(lambda: tf.graph_util.import_graph_def(
    graph_def, input_map={"x:0": tf.constant([[1.0, 2.0]])}, return_elements=["Identity:0"]))
''',
    "in_function": '''
@tf.function
def run(x, y):
    res, = tf.graph_util.import_graph_def(graph_def, input_map={"x:0": x, "y:0": y},
                                          return_elements=["Identity:0"])
    return res
out["values"] = [run(tf.constant([[1.0, -2.0]]), tf.constant([[3.0], [4.0]])).numpy().tolist(),
                 run(tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0]])).numpy().tolist()]
x = tf.Variable([[1.0, 2.0]])
with tf.GradientTape() as tape:
    y = run(x * 1.0, tf.constant([[3.0], [4.0]]))
out["grad"] = tape.gradient(y, x).numpy().tolist()
@tf.function
def partial(x):
    res, = tf.graph_util.import_graph_def(graph_def, input_map={"MatMul:0": x},
                                          return_elements=["Relu:0"])
    return res
out["mapped_inner"] = partial(tf.constant([[-3.0]])).numpy().tolist()
''',
    "saved_model_graph": '''
with tf.Graph().as_default() as g:
    tf.graph_util.import_graph_def(saved_graph_def, name="sm")
    ops = g.get_operations()
out["n_ops"] = len(ops)
out["ops"] = [[op.name, op.type] for op in ops]
out["n_functions"] = len(g.as_graph_def().library.function)
''',
}


def run_case(name, tf, np, saved_graph_def):
    env = {"tf": tf, "np": np, "saved_graph_def": saved_graph_def}
    exec(MAKE_GRAPH_DEF, env)
    out = {}
    env["out"] = out
    exec(CASES[name], env)
    return out
