"""Ops made with ``name=`` inside ``tf.Graph().as_default()``: recorded from TF 2.21 by
``tools/record_graph_names.py``, checked by ``tests/function/test_graph_names.py``. Each case
is source (names are TF's, ``tf``) that builds graph ``g`` and lists tensors in ``shown``."""

CASES = {
    "binary": '''
g = tf.Graph()
with g.as_default():
    a = tf.constant([1.0, 2.0], name="a")
    b = tf.constant([3.0, 4.0])
    s = tf.add(a, b, name="sum")
    s1 = tf.add(a, b, name="sum")
    m = tf.multiply(s, s1, name="sum")
    d = tf.subtract(m, a, name="diff")
    w = tf.add(a, b)
    w1 = a + b
shown = [s, s1, m, d, w, w1]
''',
    "scoped": '''
g = tf.Graph()
with g.as_default():
    a = tf.constant([[1.0, 2.0]], name="a")
    b = tf.constant([[3.0], [4.0]], name="b")
    with tf.name_scope("scope"):
        t = tf.matmul(a, b, name="mm")
        u = tf.reduce_sum(a, 1, name="total")
        v = tf.add(t, 1.0, name="sum")
        with tf.name_scope("inner"):
            x = tf.multiply(v, 2.0, name="sum")
    y = tf.add(t, 1.0, name="sum")
shown = [t, u, v, x, y]
''',
    "unary_and_shape": '''
g = tf.Graph()
with g.as_default():
    a = tf.constant([[1.0, -2.0], [3.0, 4.0]], name="a")
    r = tf.nn.relu(a, name="r")
    q = tf.square(r, name="sq")
    i = tf.identity(q, name="out")
    t = tf.transpose(i, name="tr")
    rs = tf.reshape(t, [4], name="flat")
    c = tf.cast(rs, tf.int32, name="ints")
    e = tf.exp(a, name="sq")
shown = [r, q, i, t, rs, c, e]
''',
}


def run_case(name, tf):
    """Run case ``name`` with module ``tf``: ``(graph, shown tensors)``."""
    ns = {"tf": tf}
    exec(CASES[name], ns)  # noqa: S102 - the case's own source
    return ns["g"], ns["shown"]
