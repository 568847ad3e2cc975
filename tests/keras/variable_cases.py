"""``keras.Variable`` as Keras 3.15 on TensorFlow 2.21 has it (issue 21): a wrapper of a
``tf.Variable``, not one; what a program sees of it, run under Keras 3 and under tapeflow.

``tools/record_keras_variable.py`` runs every case with ``tf`` bound to TensorFlow and
``keras`` to Keras 3 and stores what it returns in ``tests/fixtures/keras/variable.json``;
``tests/keras/test_keras_variable.py`` runs them with tapeflow and compares. A case takes
``(tf, keras, workdir)`` and returns a dict of JSON-able values.
"""
import os

import numpy as np

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _error(fn):
    try:
        fn()
    except Exception as e:   # the class and the text are what the case records
        return [type(e).__name__, str(e)]
    return None


def _dense(keras, units=2, inputs=3, name=None):
    layer = keras.layers.Dense(units, name=name)
    layer.build((None, inputs))
    layer.kernel.assign(np.arange(inputs * units, dtype="float32").reshape(inputs, units) / 4)
    layer.bias.assign(np.linspace(-1, 1, units).astype("float32"))
    return layer


@case
def attributes(tf, keras, workdir):
    """The class, names, dtype string, shape and printed form of a Dense kernel."""
    layer = _dense(keras, name="dense")
    k = layer.kernel
    return {"type": str(type(k)), "type_name": type(k).__name__,
            "is_tf_variable": isinstance(k, tf.Variable), "is_tf_tensor": isinstance(k, tf.Tensor),
            "is_tensor": bool(tf.is_tensor(k)),
            "dtype": repr(k.dtype), "dtype_is_str": isinstance(k.dtype, str),
            "dtype_eq": [k.dtype == tf.float32, k.dtype == "float32", k.dtype == tf.float16],
            "name": k.name, "path": k.path, "shape": str(k.shape), "ndim": k.ndim,
            "trainable": k.trainable,
            "aggregation": str(k.aggregation), "synchronization": str(k.synchronization),
            "value_type": type(k.value).__name__, "value_name": k.value.name,
            "value_trainable": k.value.trainable,
            "repr": repr(k), "str": str(k), "bias": repr(layer.bias),
            "hash": _error(lambda: hash(k)), "len": _error(lambda: len(k))}


@case
def constructed(tf, keras, workdir):
    """``keras.Variable(...)`` made directly: dtypes from values, initializers with shapes."""
    a = keras.Variable(np.float16(1.5))
    b = keras.Variable(3)
    c = keras.Variable([1.0, 2.0], name="w")
    d = keras.Variable(initializer=keras.initializers.Ones(), shape=(2, 2), dtype="float64")
    e = keras.Variable(np.zeros(3, "float32"), trainable=False)
    return {"dtypes": [a.dtype, b.dtype, c.dtype, d.dtype, e.dtype],
            "names": [a.name, b.name, c.name, d.name, e.name],
            "inner": [v.value.name for v in (a, b, c, d, e)],
            "trainable": [v.trainable for v in (a, b, c, d, e)],
            "reprs": [repr(v) for v in (a, b, c, d, e)]}


@case
def ops_and_conversion(tf, keras, workdir):
    """Arithmetic, ops, conversion and NumPy on a Keras variable."""
    k = _dense(keras).kernel
    return {"mul_type": type(k * 2.0).__name__, "mul": (k * 2.0).numpy().tolist(),
            "radd": (1.0 + k).numpy().tolist(), "neg": (-k).numpy().tolist(),
            "matmul": tf.matmul(k, tf.ones((2, 1))).numpy().tolist(),
            "matmul_op": (tf.ones((1, 3)) @ k).numpy().tolist(),
            "convert": type(tf.convert_to_tensor(k)).__name__,
            "convert_dtype": repr(tf.convert_to_tensor(k).dtype),
            "identity": repr(tf.identity(k).dtype), "cast": repr(tf.cast(k, tf.float16).dtype),
            "reduce_sum": float(tf.reduce_sum(k)), "getitem": k[1].numpy().tolist(),
            "numpy_type": type(k.numpy()).__name__, "asarray": np.asarray(k).tolist(),
            "asarray_dtype": str(np.asarray(k).dtype), "shape_op": tf.shape(k).numpy().tolist(),
            "compare": (k > 0.5).numpy().tolist()}


@case
def assign(tf, keras, workdir):
    """What assign, assign_add and assign_sub return, casting, and a shape mismatch."""
    v = keras.Variable([1.0, 2.0], name="w")
    r1 = v.assign(np.array([3.0, 4.0]))        # float64 values: cast to float32
    r2 = v.assign_add([1.0, 1.0])
    r3 = v.assign_sub(tf.constant([0.5, 0.5]))
    r4 = v.assign(v * 2)
    return {"types": [type(r).__name__ for r in (r1, r2, r3, r4)],
            "values": [np.asarray(r).tolist() for r in (r1, r2, r3, r4)],
            "dtypes": [repr(r.dtype) for r in (r1, r2, r3)],
            "final": v.numpy().tolist(), "dtype": v.dtype,
            "mismatch": _error(lambda: v.assign([1.0, 2.0, 3.0]))}


@case
def tape(tf, keras, workdir):
    """A tape over a layer's call: the tf.Variables it watched (``dense/kernel:0``) and the
    gradients by ``layer.trainable_variables``; a Keras variable as a source; ``watch``."""
    layer = _dense(keras, name="dense")
    x = tf.constant([[1.0, -2.0, 0.5]])
    with tf.GradientTape(persistent=True) as t:
        y = tf.reduce_sum(layer(x) ** 2)
    grads = t.gradient(y, layer.trainable_variables)
    direct = t.gradient(y, layer.kernel)
    watched = t.watched_variables()
    with tf.GradientTape() as t2:
        z = tf.reduce_sum(layer.kernel * layer.kernel)
    with tf.GradientTape() as t3:
        bad = _error(lambda: t3.watch(layer.kernel))
    return {"watched": [v.name for v in watched],
            "watched_types": [type(v).__name__ for v in watched],
            "grads": [g.numpy().tolist() for g in grads],
            "grad_types": [type(g).__name__ for g in grads],
            "direct": direct.numpy().tolist(),
            "read_grad": t2.gradient(z, layer.kernel).numpy().tolist(),
            "watch_error": None if bad is None else bad[0]}


@case
def optimizers(tf, keras, workdir):
    """SGD and Adam applying gradients to Keras variables, and the learning rate variable."""
    out = {}
    for name, opt in (("sgd", keras.optimizers.SGD(0.1, momentum=0.5)),
                      ("adam", keras.optimizers.Adam(0.01))):
        layer = _dense(keras)
        x = tf.constant([[1.0, -2.0, 0.5], [0.3, 0.2, 0.1]])
        for _ in range(3):
            with tf.GradientTape() as t:
                loss = tf.reduce_mean(layer(x) ** 2)
            grads = t.gradient(loss, layer.trainable_variables)
            opt.apply_gradients(zip(grads, layer.trainable_variables))
        out[name] = {"kernel": layer.kernel.numpy().tolist(), "bias": layer.bias.numpy().tolist(),
                     "iterations": int(opt.iterations.numpy()),
                     "iterations_type": type(opt.iterations).__name__,
                     "lr": repr(opt.learning_rate),
                     "lr_dtype": repr(opt.learning_rate.dtype),
                     "slots": sorted(v.path for v in opt.variables)}
    return out


@case
def function_capture(tf, keras, workdir):
    """A tf.function closing over a Keras variable, and one assigning to it."""
    v = keras.Variable([1.0, 2.0], name="w")

    @tf.function
    def read(x):
        return v * x

    @tf.function
    def bump():
        v.assign_add([1.0, 1.0])
        return v + 0.0

    first = read(tf.constant(2.0)).numpy().tolist()
    bumped = [bump().numpy().tolist() for _ in range(2)]
    return {"first": first, "bumped": bumped, "after": read(tf.constant(1.0)).numpy().tolist(),
            "final": v.numpy().tolist()}


@case
def module_and_checkpoint(tf, keras, workdir):
    """``tf.Module`` does not collect Keras variables (they are no tf.Variables); a
    checkpoint saves and restores them as variables."""
    layer = _dense(keras, name="dense")
    m = tf.Module()
    m.w = keras.Variable([1.0, 2.0], name="w")
    m.layer = layer
    ck = tf.train.Checkpoint(w=m.w, layer=layer)
    path = ck.write(os.path.join(workdir, "ck"))
    names = sorted(n for n, _ in tf.train.list_variables(path))
    m.w.assign([0.0, 0.0])
    layer.kernel.assign(tf.zeros((3, 2)))
    ck.read(path)
    return {"module_vars": [v.name for v in m.trainable_variables],
            "module_all": [v.name for v in m.variables],
            "names": names, "restored_w": m.w.numpy().tolist(),
            "restored_kernel": layer.kernel.numpy().tolist()}


@case
def model_weights(tf, keras, workdir):
    """A Sequential model's weights: classes, paths, names, the tf.Variables' names, and a
    fit step that updates them."""
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dense(1)], name="seq")
    for i, w in enumerate(model.weights):
        w.assign(np.linspace(-0.5, 0.5 + i, int(np.prod(w.shape))).reshape(w.shape)
                 .astype("float32"))
    model.compile(keras.optimizers.SGD(0.05), "mse")
    x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
    y = np.linspace(0, 1, 8).reshape(8, 1).astype("float32")
    hist = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"types": sorted({type(w).__name__ for w in model.weights}),
            "paths": [w.path for w in model.weights], "names": [w.name for w in model.weights],
            "inner": [w.value.name for w in model.weights],
            "loss": hist.history["loss"],
            "weights": [w.numpy().tolist() for w in model.weights]}


@case
def fit_reshuffled_dataset(tf, keras, workdir):
    """(Item 4 of the same brief, kept with these cases.) ``fit`` over a reshuffling
    ``Dataset``: Keras's epoch iterator makes an iterator it never reads at the end of each
    epoch, so epoch 2 reads the dataset's third order, epoch 3 its fifth; iterating by hand
    reads them in turn. Unknown cardinality (a ``filter``): one iterator per epoch."""
    seen = []

    class Recorder(keras.Model):
        def train_step(self, data):
            seen.append(np.asarray(data[1])[:4].astype(int).tolist())
            return {"n": tf.constant(0.0)}

    def make(unknown=False):
        keras.utils.set_random_seed(5)
        ds = tf.data.Dataset.from_tensor_slices((np.zeros((20, 1), "float32"),
                                                 np.arange(20, dtype="float32")))
        ds = ds.shuffle(buffer_size=1024)
        if unknown:
            ds = ds.filter(lambda x, y: y >= 0)
        return ds.batch(10)

    ds = make()
    by_hand = [[b[1].numpy()[:4].astype(int).tolist() for b in ds][0] for _ in range(5)]
    out = {"by_hand": by_hand}
    for key, unknown in (("fit", False), ("fit_unknown_cardinality", True)):
        seen.clear()
        inp = keras.Input((1,))
        model = Recorder(inp, keras.layers.Dense(1)(inp))
        model.compile(run_eagerly=True)
        model.fit(make(unknown), epochs=3, verbose=0)
        out[key] = seen[::2]
        out[key + "_batches"] = len(seen)
    return out
