"""Programs using ``tf.variable_creator_scope``: ``tools/record_variable_creator.py`` runs
each under TensorFlow 2.21, ``tests/core/test_variable_creator.py`` under tapeflow. Each case
is source run with ``tf`` (and ``keras``) bound; it fills the dict ``out``."""


def _describe(kwargs):
    """A creator's kwargs as text: values by repr, tensors/callables by kind."""
    out = {}
    for k, v in sorted(kwargs.items()):
        if callable(v):
            out[k] = "<callable>"
        elif hasattr(v, "numpy"):
            out[k] = f"<tensor {v.numpy().tolist()!r}>"
        elif hasattr(v, "name") and hasattr(v, "value") and k in ("aggregation",
                                                                   "synchronization"):
            out[k] = v.name
        else:
            out[k] = repr(v)
    return out


CASES = {
    "kwargs_seen": '''
seen = []
def logger(next_creator, **kwargs):
    seen.append(describe(kwargs))
    return next_creator(**kwargs)
with tf.variable_creator_scope(logger):
    v = tf.Variable(1.0, name="v")
    w = tf.Variable([1, 2], trainable=False, dtype=tf.int64)
out["seen"] = seen
out["made"] = [v.name, float(v.numpy()), w.name, w.numpy().tolist(), w.trainable,
               w.dtype.name]
''',
    "chain_order": '''
order = []
def outer(next_creator, **kwargs):
    order.append("outer")
    return next_creator(**kwargs)
def double(next_creator, **kwargs):
    order.append("double")
    kwargs["initial_value"] = kwargs["initial_value"] * 2
    kwargs["name"] = "renamed"
    return next_creator(**kwargs)
with tf.variable_creator_scope(outer):
    with tf.variable_creator_scope(double):
        u = tf.Variable(3.0, name="u")
    after_inner = tf.Variable(1.0)
out["order"] = order
out["value"] = float(u.numpy())
out["name"] = u.name
out["type"] = type(u).__name__
outside = tf.Variable(2.0)
out["outside_name"] = outside.name
''',
    "creator_replaces": '''
def fake(next_creator, **kwargs):
    return "not a variable"
with tf.variable_creator_scope(fake):
    out["replaced"] = tf.Variable(1.0)
def shared_factory():
    cache = {}
    def share(next_creator, **kwargs):
        if kwargs["name"] in cache:
            return cache[kwargs["name"]]
        v = cache[kwargs["name"]] = next_creator(**kwargs)
        return v
    return share
with tf.variable_creator_scope(shared_factory()):
    a = tf.Variable(1.0, name="s")
    b = tf.Variable(5.0, name="s")
out["shared"] = [a is b, float(b.numpy())]
''',
    "keras_weights": '''
seen = []
def logger(next_creator, **kwargs):
    seen.append(describe(kwargs))
    return next_creator(**kwargs)
with tf.variable_creator_scope(logger):
    d = keras.layers.Dense(2)
    d.build((None, 3))
out["seen"] = [{k: s[k] for k in ("name", "dtype", "trainable", "initial_value")}
               for s in seen]
out["kernel_shape"] = list(d.kernel.shape)
''',
    "in_function": '''
seen = []
def logger(next_creator, **kwargs):
    seen.append(kwargs["name"])
    return next_creator(**kwargs)
holder = []
@tf.function
def f(x):
    with tf.variable_creator_scope(logger):
        if not holder:
            holder.append(tf.Variable(x, name="inside"))
    return holder[0] * 2.0
out["result"] = float(f(tf.constant(3.0)).numpy())
out["seen"] = seen
''',
}


def run_case(name, tf, keras=None):
    out = {}
    exec(CASES[name], {"tf": tf, "keras": keras, "out": out, "describe": _describe})
    return out
