"""Seeded random programs, run under TensorFlow 2.21 / Keras 3 by
``tools/record_random.py`` (fixtures in ``tests/fixtures/random/``) and under tapeflow by
``tests/ops/test_random_tf.py``, ``tests/keras/test_random_tf.py`` and
``tests/data/test_shuffle_tf.py``.

A program is Python run with ``tf``, ``keras`` and ``np`` in scope; it passes each value to
check to ``out``, and seeds what it uses first. A ``(source, tol)`` pair states a tolerance
(relative and absolute) where TensorFlow's arithmetic is not reproduced bit for bit: a QR
decomposition (LAPACK against Eigen), a training run's float32 sums.
"""
import json
import linecache
import os

import numpy as np

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "random")


def load(area):
    """The recorded fixture ``ops``, ``keras`` or ``data``."""
    with open(os.path.join(FIXTURES, f"{area}.json")) as f:
        return json.load(f)


def ops_programs():
    progs = {}
    for seed in (0, 1, 42, 2**31 + 6, 87654321):
        progs[f"eager_sequence_seed{seed}"] = f"""
tf.random.set_seed({seed})
for shape in ([3], [2, 5], [], [7], [4, 0]):
    out(tf.random.normal(shape))
out(tf.random.normal([6], mean=2.0, stddev=0.5))
out(tf.random.uniform([5]))
out(tf.random.uniform([2, 3], minval=-2.0, maxval=3.0))
out(tf.random.uniform([4], maxval=10.0))
out(tf.random.truncated_normal([9]))
out(tf.random.truncated_normal([2, 3], mean=1.0, stddev=3.0))
out(tf.random.shuffle(tf.range(11)))
out(tf.random.categorical(tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]), 7))
"""
    for dt in ("float16", "float32", "float64"):
        progs[f"dtypes_{dt}"] = f"""
tf.random.set_seed(11)
out(tf.random.normal([9], dtype=tf.{dt}))
out(tf.random.uniform([9], dtype=tf.{dt}))
out(tf.random.uniform([5], -1, 4, dtype=tf.{dt}))
out(tf.random.truncated_normal([9], dtype=tf.{dt}))
out(tf.random.normal([3], seed=4, dtype=tf.{dt}))
out(tf.random.normal([3], seed=4, dtype=tf.{dt}))
"""
    progs["int_uniform"] = """
tf.random.set_seed(5)
out(tf.random.uniform([10], 0, 10, dtype=tf.int32))
out(tf.random.uniform([10], -7, 3, dtype=tf.int32))
out(tf.random.uniform([6], -2**40, 2**40, dtype=tf.int64))
out(tf.random.uniform([2, 3], 3, 1000, dtype=tf.int64, seed=8))
out(tf.random.uniform([2, 3], 3, 1000, dtype=tf.int64, seed=8))
out(tf.random.uniform([4], 0, 2**31 - 1, dtype=tf.int32, seed=8))
"""
    progs["op_seeds_continue_their_kernel"] = """
tf.random.set_seed(3)
for _ in range(3):
    out(tf.random.normal([5], seed=1))
out(tf.random.uniform([5], seed=1))
out(tf.random.normal([5], seed=2))
out(tf.random.normal([5], seed=1))
out(tf.random.normal([5], seed=1, dtype=tf.float64))
out(tf.random.normal([2, 2], seed=1))
tf.random.set_seed(3)
out(tf.random.normal([5], seed=1))
out(tf.random.normal([5]))
"""
    progs["op_seed_without_global_seed"] = """
tf.random.set_seed(None)
out(tf.random.normal([4], seed=5))
out(tf.random.normal([4], seed=5))
out(tf.random.uniform([4], seed=2**33))
out(tf.random.shuffle(tf.range(6), seed=1))
"""
    progs["zero_seeds"] = """
tf.random.set_seed(0)
out(tf.random.normal([3], seed=0))
tf.random.set_seed(2**31 - 1)
out(tf.random.normal([3], seed=0))
out(tf.random.normal([3], seed=2**31 - 1))
"""
    progs["shuffles"] = """
tf.random.set_seed(17)
out(tf.random.shuffle(tf.range(2)))
out(tf.random.shuffle([5]))
out(tf.random.shuffle(tf.reshape(tf.range(24), [8, 3])))
out(tf.random.shuffle(tf.reshape(tf.range(24.0), [6, 2, 2]), seed=3))
out(tf.random.shuffle(tf.range(100), seed=3))
out(tf.random.shuffle(tf.constant([[1, 2, 3]])))
out(tf.random.shuffle(tf.range(40), seed=3))
"""
    progs["categorical"] = """
tf.random.set_seed(23)
logits = tf.math.log([[0.05, 0.15, 0.3, 0.5], [0.7, 0.1, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25]])
out(tf.random.categorical(logits, 10))
out(tf.random.categorical(logits, 3, dtype=tf.int32, seed=4))
out(tf.random.categorical(logits, 3, dtype=tf.int32, seed=4))
out(tf.random.categorical(tf.constant([[0.0, -np.inf, 1.0]]), 9))
out(tf.random.categorical(tf.constant([[1.0, 2.0]], tf.float64), 5, seed=1))
"""
    progs["function_calls_continue_their_kernels"] = """
tf.random.set_seed(5)
@tf.function
def f():
    return tf.random.normal([3]), tf.random.uniform([2], seed=3), tf.random.normal([2])
for _ in range(3):
    out(f())
out(tf.random.normal([3]))
@tf.function
def g(x):
    return (tf.random.normal(tf.shape(x))
            + tf.cast(tf.random.shuffle(tf.range(4))[0], tf.float32))
out(g(tf.ones(3)))
out(g(tf.ones(3)))
out(g(tf.ones(4)))
out(g(tf.ones(3)))
tf.random.set_seed(5)
out(g(tf.ones(3)))
out(g(tf.ones(4)))
out(f())
"""
    progs["function_first_call_traced_twice"] = """
tf.random.set_seed(5)
holder = []
@tf.function
def draw():
    if not holder:
        holder.append(tf.Variable(2.0))
    return tf.random.uniform((3,)) * holder[0]
for _ in range(3):
    out(draw())
out(tf.random.uniform([2]))
"""
    progs["function_op_seeds_and_dtypes"] = """
tf.random.set_seed(8)
@tf.function
def h():
    return (tf.random.truncated_normal([5], dtype=tf.float64),
            tf.random.uniform([3], 0, 50, dtype=tf.int64),
            tf.random.categorical([[0.0, 1.0, 2.0]], 4, seed=7),
            tf.random.normal([2], seed=7))
out(h())
out(h())
"""
    progs["stateless_and_generator_dtypes"] = """
for dt in (tf.float16, tf.float32, tf.float64):
    out(tf.random.stateless_uniform([7], seed=[1, 2], dtype=dt))
    out(tf.random.stateless_normal([7], seed=[3, 4], dtype=dt))
    out(tf.random.stateless_truncated_normal([7], seed=[5, 6], dtype=dt))
    g = tf.random.Generator.from_seed(9)
    out(g.uniform([5], dtype=dt))
    out(g.normal([5], dtype=dt))
    out(g.truncated_normal([5], dtype=dt))
    out(g.state)
"""
    progs["dropout_op"] = """
tf.random.set_seed(9)
out(tf.nn.dropout(tf.ones([4, 6]), 0.5))
out(tf.nn.dropout(tf.ones([4, 6]), 0.25, seed=3))
out(tf.nn.dropout(tf.ones([3, 4]), 0.5, noise_shape=[3, 1]))
"""
    progs["gamma"] = """
tf.random.set_seed(5)
out(tf.random.gamma([3], alpha=[0.5, 1.0, 3.0]))
out(tf.random.gamma([2, 2], alpha=2.0, beta=[1.0, 4.0]))
out(tf.random.gamma([4], 0.3, dtype=tf.float64, seed=3))
out(tf.random.gamma([4], 0.3, dtype=tf.float64, seed=3))
out(tf.random.gamma([5], 1e-3))
out(tf.random.gamma([3], 2.0, dtype=tf.float16))
out(tf.random.gamma([0], 2.0))
out(tf.random.gamma([40], [[0.05], [25.0]]))
out(tf.random.stateless_gamma([2, 3], seed=[4, 5], alpha=[1.5, 0.2, 9.0], beta=2.0))
out(tf.random.stateless_gamma([6], seed=[1, 2], alpha=1.0, dtype=tf.float64))
@tf.function
def f():
    return tf.random.gamma([3], 1.5)
out(f())
out(f())
"""
    progs["poisson"] = """
tf.random.set_seed(2)
out(tf.random.poisson([6], 3.0))
out(tf.random.poisson([6], tf.constant(3.0)))
out(tf.random.poisson([6], tf.constant(3.0, tf.float64)))
out(tf.random.poisson([4], [0.5, 12.0, 150.0], dtype=tf.int32))
out(tf.random.poisson([4], tf.constant([0.5, 12.0, 150.0], tf.float64), dtype=tf.int64))
out(tf.random.poisson([3], tf.constant([25.0, 1000.5], tf.float16), dtype=tf.float16))
out(tf.random.poisson([2], 3))
out(tf.random.poisson([0], 3.0))
out(tf.random.poisson([2], [0.0, 9.99, 10.0], seed=4))
out(tf.random.poisson([2], [0.0, 9.99, 10.0], seed=4))
out(tf.random.stateless_poisson([3, 2], seed=[1, 2], lam=[4.0, 40.0]))
out(tf.random.stateless_poisson([5], seed=[1, 2], lam=tf.constant(40.0, tf.float64),
                                dtype=tf.float32))
"""
    progs["stateless_binomial"] = """
out(tf.random.stateless_binomial([4], seed=[1, 2], counts=10.0, probs=0.5))
out(tf.random.stateless_binomial([3, 4], seed=[3, 4], counts=[5.0, 20.0, 100.0, 1000.0],
                                 probs=[0.3, 0.6, 0.05, 0.99]))
c = tf.constant([[40.0], [7.0]], tf.float64)
out(tf.random.stateless_binomial([2, 3], seed=[3, 4], counts=c,
                                 probs=tf.constant([0.0, 1.0, 0.5], tf.float64),
                                 output_dtype=tf.float64))
out(tf.random.stateless_binomial([5], seed=[9, 9], counts=tf.constant(200.0, tf.float16),
                                 probs=tf.constant(0.7, tf.float16), output_dtype=tf.float16))
out(tf.random.stateless_binomial([6], seed=[1, 5], counts=1e6, probs=0.4, output_dtype=tf.int64))
out(tf.random.stateless_binomial([0, 2], seed=[1, 5], counts=3.0, probs=0.4))
"""
    progs["op_seeds_in_cond_and_while_branches"] = """
tf.random.set_seed(3)
@tf.function
def f(p):
    a = tf.random.uniform([2])
    b = tf.cond(p, lambda: tf.random.uniform([2]) + tf.random.normal([2]),
                lambda: tf.random.normal([2]))
    c = tf.random.uniform([2])
    return a, b, c
for p in (True, False, True, False):
    out(f(tf.constant(p)))
@tf.function
def g():
    def body(i, acc):
        return i + 1, acc + tf.random.uniform([2])
    acc = tf.while_loop(lambda i, acc: i < 3, body, (0, tf.zeros([2])))[1]
    return acc, tf.random.uniform([1])
out(g())
out(g())
"""
    return progs


def keras_programs():
    progs = {}
    inits = ["glorot_uniform", "glorot_normal", "he_normal", "he_uniform", "lecun_normal",
             "lecun_uniform", "random_normal", "random_uniform", "truncated_normal"]
    for name in inits:
        progs[f"initializer_{name}"] = f"""
keras.utils.set_random_seed(4)
init = keras.initializers.get("{name}")
out(init((3, 4)))
out(init((3, 4)))
out(init((2, 2, 3, 5)))
seeded = type(init)(seed=12)
out(seeded((6,)))
out(seeded((6,)))
"""
    progs["initializer_variance_scaling"] = """
keras.utils.set_random_seed(4)
for dist in ("truncated_normal", "untruncated_normal", "uniform"):
    for mode in ("fan_in", "fan_out", "fan_avg"):
        out(keras.initializers.VarianceScaling(2.0, mode, dist, seed=3)((4, 5)))
out(keras.initializers.RandomNormal(1.0, 2.0, seed=keras.random.SeedGenerator(5))((3,)))
"""
    progs["initializer_orthogonal"] = ("""
keras.utils.set_random_seed(4)
out(keras.initializers.Orthogonal(seed=1)((4, 3)))
out(keras.initializers.Orthogonal(gain=2.0)((3, 5)))
""", 2e-6)
    progs["sequential_initial_weights"] = """
keras.utils.set_random_seed(7)
model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dropout(0.5),
    keras.layers.Dense(6, kernel_initializer="he_normal", bias_initializer="random_normal"),
    keras.layers.Dense(3, kernel_initializer=keras.initializers.TruncatedNormal(seed=2)),
])
for w in model.weights:
    out(w)
"""
    progs["conv_and_embedding_initial_weights"] = """
keras.utils.set_random_seed(21)
model = keras.Sequential([
    keras.Input((6,), dtype="int32"),
    keras.layers.Embedding(10, 4),
    keras.layers.Conv1D(5, 3),
    keras.layers.Flatten(),
    keras.layers.Dense(2),
])
for w in model.weights:
    out(w)
"""
    progs["dropout_layer_masks"] = """
keras.utils.set_random_seed(3)
layer = keras.layers.Dropout(0.4)
x = tf.ones((3, 7))
out(layer(x, training=True))
out(layer(x, training=True))
out(layer(x, training=False))
seeded = keras.layers.Dropout(0.5, seed=11)
out(seeded(x, training=True))
out(keras.layers.Dropout(0.3, noise_shape=(None, 1))(x, training=True))
out(keras.layers.SpatialDropout1D(0.5)(tf.ones((2, 3, 4)), training=True))
out(keras.layers.GaussianNoise(0.5)(tf.zeros((2, 3)), training=True))
out(keras.layers.GaussianDropout(0.3)(tf.ones((2, 3)), training=True))
out(keras.layers.AlphaDropout(0.2, seed=2)(tf.ones((2, 3)), training=True))
"""
    progs["fit_with_dropout"] = ("""
keras.utils.set_random_seed(1)
x = np.random.rand(64, 5).astype("float32")
y = np.random.rand(64, 1).astype("float32")
model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu"),
                          keras.layers.Dropout(0.3), keras.layers.Dense(1)])
model.compile("sgd", "mse")
history = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
out(np.asarray(history.history["loss"], np.float32))
out(model.layers[1].seed_generator.state)
""", 1e-5)
    progs["fit_shuffled"] = ("""
keras.utils.set_random_seed(1)
x = np.random.rand(50, 5).astype("float32")
y = np.random.rand(50, 1).astype("float32")
model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu"),
                          keras.layers.Dense(1)])
model.compile(keras.optimizers.SGD(0.5), "mse")
history = model.fit(x, y, batch_size=8, epochs=3, verbose=0)
out(np.asarray(history.history["loss"], np.float32))
""", 1e-5)
    progs["keras_random_seed_generator"] = """
keras.utils.set_random_seed(2)
g = keras.random.SeedGenerator(3)
out(keras.random.normal((3,), seed=g))
out(keras.random.uniform((2, 2), seed=g))
out(keras.random.uniform((4,), minval=-1.0, maxval=5.0, seed=g))
out(keras.random.normal((3,), mean=1.0, stddev=2.0, dtype="float64", seed=g))
out(keras.random.truncated_normal((5,), seed=g))
out(keras.random.randint((6,), 0, 10, seed=g))
out(keras.random.randint((3,), -5, 5, dtype="int64", seed=g))
out(keras.random.shuffle(np.arange(8), seed=g))
out(keras.random.shuffle(np.arange(12).reshape(3, 4), axis=1, seed=g))
out(keras.random.dropout(tf.ones((2, 5)), 0.3, seed=g))
out(keras.random.categorical(np.log([[0.2, 0.8], [0.6, 0.4]]), 5, seed=g))
out(g.state)
"""
    progs["keras_random_int_and_global_seeds"] = """
keras.utils.set_random_seed(6)
out(keras.random.normal((3,), seed=5))
out(keras.random.normal((3,), seed=5))
out(keras.random.normal((3,), seed=2**40 + 3))
out(keras.random.normal((3,)))
out(keras.random.uniform((3,)))
out(keras.random.dropout(tf.ones((4,)), 0.5))
keras.utils.set_random_seed(6)
out(keras.random.normal((3,)))
"""
    progs["keras_random_binomial"] = """
keras.utils.set_random_seed(8)
out(keras.random.binomial((2, 3), counts=10, probabilities=0.3))
out(keras.random.binomial((4,), counts=50.0, probabilities=0.8, seed=4))
g = keras.random.SeedGenerator(1)
out(keras.random.binomial((3,), counts=[5.0, 30.0, 2000.0], probabilities=0.5, seed=g,
                          dtype="float64"))
out(keras.random.binomial((3,), counts=7, probabilities=0.5, seed=g, dtype="int32"))
"""
    progs["keras_random_gamma_beta"] = """
keras.utils.set_random_seed(7)
out(keras.random.gamma((2, 3), alpha=0.7))
out(keras.random.gamma((3,), alpha=2.5, seed=11))
g = keras.random.SeedGenerator(3)
out(keras.random.gamma((3,), alpha=1.0, seed=g))
out(keras.random.gamma((3,), alpha=4.0, seed=g, dtype="float64"))
out(keras.random.beta((2, 2), alpha=0.5, beta=2.0, seed=5))
out(keras.random.beta((3,), alpha=[0.5, 1.0, 3.0], beta=1.5))
out(keras.random.beta((3,), alpha=2.0, beta=2.0, seed=g, dtype="float16"))
"""
    return progs


def data_programs():
    progs = {}
    progs["shuffle_global_seed"] = """
tf.random.set_seed(3)
ds = tf.data.Dataset.range(10).shuffle(10)
out(np.array(list(ds.as_numpy_iterator())))
out(np.array(list(ds.as_numpy_iterator())))
"""
    progs["shuffle_small_buffer"] = """
tf.random.set_seed(3)
ds = tf.data.Dataset.range(30).shuffle(4, seed=9)
out(np.array(list(ds.as_numpy_iterator())))
out(np.array(list(ds.as_numpy_iterator())))
"""
    progs["shuffle_fixed_order"] = """
tf.random.set_seed(12)
ds = tf.data.Dataset.range(7).shuffle(3, seed=2, reshuffle_each_iteration=False)
out(np.array(list(ds.as_numpy_iterator())))
out(np.array(list(ds.as_numpy_iterator())))
"""
    progs["shuffle_op_seed_only"] = """
tf.random.set_seed(None)
ds = tf.data.Dataset.range(9).shuffle(9, seed=4)
out(np.array(list(ds.as_numpy_iterator())))
"""
    progs["shuffle_slices_batch_repeat"] = """
tf.random.set_seed(1)
x = np.arange(40, dtype=np.float32).reshape(20, 2)
ds = tf.data.Dataset.from_tensor_slices((x, np.arange(20))).shuffle(100).batch(6)
for a, b in ds:
    out(a)
    out(b)
out(np.array(list(tf.data.Dataset.range(8).shuffle(8).repeat(2).as_numpy_iterator())))
out(np.array(list(tf.data.Dataset.range(5).repeat(2).shuffle(3).as_numpy_iterator())))
out(tf.random.uniform([2]))
"""
    progs["dataset_random"] = """
tf.random.set_seed(4)
ds = tf.data.Dataset.random(seed=3).take(6)
out(np.array(list(ds.as_numpy_iterator())))
out(np.array(list(ds.as_numpy_iterator())))
out(np.array(list(tf.data.Dataset.random().take(3).as_numpy_iterator())))
ds = tf.data.Dataset.random(seed=5, rerandomize_each_iteration=True).take(3)
out(np.array(list(ds.as_numpy_iterator())))
out(np.array(list(ds.as_numpy_iterator())))
out(np.array(list(tf.data.Dataset.random(seed=5).batch(4).take(2).as_numpy_iterator())))
"""
    progs["sample_from_datasets"] = """
tf.random.set_seed(4)
a = tf.data.Dataset.range(0, 10)
b = tf.data.Dataset.range(100, 104)
c = tf.data.Dataset.range(50, 53)
s = tf.data.Dataset.sample_from_datasets([a, b], seed=7)
out(np.array(list(s.as_numpy_iterator())))
s = tf.data.Dataset.sample_from_datasets([a, b, c], weights=[0.2, 0.5, 0.3])
out(np.array(list(s.as_numpy_iterator())))
out(np.array(list(s.as_numpy_iterator())))
s = tf.data.Dataset.sample_from_datasets([a, b], weights=[0.9, 0.1], seed=1,
                                         stop_on_empty_dataset=True)
out(np.array(list(s.as_numpy_iterator())))
s = tf.data.Dataset.sample_from_datasets([a, b], weights=np.array([0.3, 0.7]), seed=2,
                                         rerandomize_each_iteration=True)
out(np.array(list(s.as_numpy_iterator())))
out(np.array(list(s.as_numpy_iterator())))
s = tf.data.Dataset.sample_from_datasets([a, b, c], weights=[0.5, 0.0, 0.5], seed=3)
out(np.array(list(s.as_numpy_iterator())))
"""
    progs["shuffle_large"] = """
tf.random.set_seed(77)
order = np.array(list(tf.data.Dataset.range(5000).shuffle(1000).as_numpy_iterator()))
out(order)
order = np.array(list(tf.data.Dataset.range(3000).shuffle(5000).as_numpy_iterator()))
out(order)
"""
    return progs


def encode(value):
    """A value as JSON: dtype, shape and the flat values (floats exact as Python floats,
    nan/inf as strings)."""
    if isinstance(value, (tuple, list)):
        return {"seq": [encode(v) for v in value]}
    a = np.asarray(value)
    flat = []
    for v in a.ravel().tolist():
        if isinstance(v, float) and not np.isfinite(v):
            flat.append(repr(v))
        else:
            flat.append(v)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": flat}


def run(name, source, tf, keras):
    """Run a program with ``tf``/``keras``; the values it passed to ``out`` (as NumPy).
    The source is registered with ``linecache`` so that AutoGraph can read it."""
    got = []
    filename = f"<random program {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    scope = {"tf": tf, "keras": keras, "np": np, "out": lambda v: got.append(_numpy(v)),
             "__name__": "random_program"}
    exec(compile(source, filename, "exec"), scope)
    return got


def _numpy(v):
    if isinstance(v, (tuple, list)):
        return [_numpy(x) for x in v]
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def decode(doc):
    """The value :func:`encode` wrote."""
    if "seq" in doc:
        return [decode(d) for d in doc["seq"]]
    flat = [float(v) if isinstance(v, str) else v for v in doc["values"]]
    return np.asarray(flat, dtype=doc["dtype"]).reshape(doc["shape"])


def assert_same(got, want, tol, where):
    """``got`` equals ``want`` (dtype, shape, values; within ``tol`` relative/absolute when
    the program states one)."""
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, tol, f"{where}[{i}]")
        return
    got = np.asarray(got)
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"{where}: shape {got.shape} != {want.shape}"
    if tol:
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=where)
    else:
        np.testing.assert_array_equal(got, want, err_msg=where)


def check(fixture, name, tf, keras):
    """Run fixture program ``name`` under tapeflow and compare every output with TF's."""
    prog = fixture["programs"][name]
    got = run(name, prog["source"], tf, keras)
    want = [decode(d) for d in prog["outputs"]]
    assert len(got) == len(want), f"{name}: {len(got)} outputs, TensorFlow {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, prog["tol"], f"{name} output {i}")
