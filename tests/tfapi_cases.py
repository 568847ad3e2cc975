"""Cases for the non-Keras TF names of issue 22 (``tf.group``, initializers, ``saturate_cast``,
``dynamic_partition``/``dynamic_stitch``, ``edit_distance``, ``vectorized_map``,
``type_spec_from_value``, ``check_numerics``, ``tf.train.Example`` and the parsing ops).

Each case is ``fn(tf)`` returning a nest of tensors, arrays, bytes, strings or numbers; run by
``tools/record_tfapi.py`` under TensorFlow 2.21 (-> ``fixtures/tfapi/cases.json``) and by
``tests/test_tfapi.py`` under tapeflow. An exception is recorded as its class and message.
"""
import re

import numpy as np

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def encode(v):
    """A JSON form of a case's result, shared with the test (``the recorder and the test``)."""
    if hasattr(v, "numpy") and not isinstance(v, np.ndarray):
        v = v.numpy()
        if isinstance(v, (bytes, np.bytes_)):
            v = np.asarray(v, object)
    if isinstance(v, np.ndarray) or isinstance(v, np.generic):
        a = np.asarray(v)
        if a.dtype.kind in "OSU":
            return {"strings": [x.decode("latin-1") if isinstance(x, bytes) else str(x)
                                for x in a.reshape(-1).tolist()], "shape": list(a.shape)}
        flat = a.reshape(-1)
        if a.dtype.kind == "f" or a.dtype.kind == "V" or str(a.dtype) == "bfloat16":
            flat = [repr(float(x)) for x in flat.astype(np.float64)]
        else:
            flat = flat.tolist()
        return {"array": flat, "dtype": str(a.dtype), "shape": list(a.shape)}
    if isinstance(v, bytes):
        return {"bytes": v.hex()}
    if isinstance(v, dict):
        return {"dict": {str(k): encode(x) for k, x in sorted(v.items())}}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    if isinstance(v, float):
        return {"float": repr(v)}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if hasattr(v, "as_list"):
        return {"shape_obj": v.as_list() if v.rank is not None else None}
    return {"repr": repr(v)}


def clean_message(msg):
    """TF's eager message without its ``{{function_node ...}}`` prefix."""
    return re.sub(r"^\{\{function_node [^}]*\}\} ", "", str(msg))


def run(tf, fn):
    try:
        return {"ok": encode(fn(tf))}
    except Exception as exc:  # noqa: BLE001 - recorded
        return {"error": type(exc).__name__, "message": clean_message(exc)}


# -- top level -----------------------------------------------------------------------------
@case
def group_eager(tf):
    return [tf.group(tf.constant(1.0), tf.constant(2.0)) is None]


@case
def initializers_seeded(tf):
    return [tf.random_uniform_initializer(seed=1)((2, 3)),
            tf.random_uniform_initializer(-1.0, 2.0, seed=7)((4,), tf.float64),
            tf.random_uniform_initializer(0, 10, seed=3)((5,), tf.int32),
            tf.random_normal_initializer(seed=5)((3, 2)),
            tf.random_normal_initializer(1.0, 2.0, seed=9)((4,), tf.float64),
            tf.constant_initializer([1, 2, 3, 4])((2, 2)),
            tf.constant_initializer(3.5)((2,), tf.float64),
            tf.zeros_initializer()((2,), tf.int32),
            tf.ones_initializer()((1, 2), tf.float16)]


@case
def initializer_same_each_call(tf):
    init = tf.random_normal_initializer(seed=2)
    return [init((3,)), init((3,))]


@case
def initializer_normal_int_error(tf):
    return tf.random_normal_initializer(seed=1)((2,), tf.int32)


@case
def initializer_config(tf):
    return [sorted(tf.random_uniform_initializer(-1.0, 1.0, seed=3).get_config().items()),
            sorted(tf.random_normal_initializer(seed=4).get_config().items())]


@case
def saturate_cast_values(tf):
    return [tf.saturate_cast(tf.constant([3e9, -3e9, 1.5, -1.5]), tf.int32),
            tf.saturate_cast(tf.constant([300, -5, 7]), tf.uint8),
            tf.saturate_cast(tf.constant([1e300, -1e300, 2.0], tf.float64), tf.float32),
            tf.saturate_cast(tf.constant([70000.0, -70000.0, 3.0]), tf.float16),
            tf.saturate_cast(tf.constant([-3, 4], tf.int64), tf.uint32),
            tf.saturate_cast(tf.constant([1e20, 5.0], tf.float64), tf.int64)]


@case
def saturate_cast_grad(tf):
    x = tf.constant([1e300, 2.0, -3.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.saturate_cast(x, tf.float32) * 2.0
    return [y, tape.gradient(y, x)]


@case
def dynamic_partition_values(tf):
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    parts = tf.dynamic_partition(data, tf.constant([1, 0, 1, 2]), 3)
    two_d = tf.dynamic_partition(tf.reshape(tf.range(6.0), [2, 3]),
                                 tf.constant([[0, 1, 0], [1, 1, 2]]), 4)
    return [parts, two_d]


@case
def dynamic_partition_grad(tf):
    data = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch(data)
        a, b = tf.dynamic_partition(data, tf.constant([0, 1, 0, 0, 1]), 2)
        loss = tf.reduce_sum(a * a) + 3.0 * tf.reduce_sum(b)
    return tf.convert_to_tensor(tape.gradient(loss, data))


@case
def dynamic_partition_bad(tf):
    return tf.dynamic_partition(tf.constant([1.0, 2.0]), tf.constant([0, 5]), 2)


@case
def dynamic_stitch_values(tf):
    a = tf.dynamic_stitch([tf.constant([6]), tf.constant([4, 1]), tf.constant([[5, 2], [0, 3]])],
                          [tf.constant([[61.0, 62.0]]), tf.constant([[41.0, 42.0], [11.0, 12.0]]),
                           tf.constant([[[51.0, 52.0], [21.0, 22.0]],
                                        [[1.0, 2.0], [31.0, 32.0]]])])
    dup = tf.dynamic_stitch([tf.constant([0, 1]), tf.constant([1, 2])],
                            [tf.constant([1, 2]), tf.constant([3, 4])])
    return [a, dup]


@case
def dynamic_stitch_grad(tf):
    x = tf.constant([1.0, 2.0])
    y = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.dynamic_stitch([tf.constant([0, 1]), tf.constant([1, 2])], [x, y])
        loss = tf.reduce_sum(z * tf.constant([1.0, 10.0, 100.0]))
    gx, gy = tape.gradient(loss, [x, y])
    return [tf.convert_to_tensor(gx), tf.convert_to_tensor(gy)]


@case
def edit_distance_values(tf):
    hyp = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], [2, 1, 1])
    truth = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"],
                            [2, 2, 2])
    h2 = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0]], [1, 2, 3, 4], [3, 3])
    t2 = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 3, 4, 5], [2, 2])
    return [tf.edit_distance(hyp, truth), tf.edit_distance(hyp, truth, normalize=False),
            tf.edit_distance(h2, t2), tf.edit_distance(h2, t2, normalize=False)]


@case
def vectorized_map_values(tf):
    x = tf.reshape(tf.range(6.0), [3, 2])
    y = tf.vectorized_map(lambda r: tf.reduce_sum(r * r), x)
    pair = tf.vectorized_map(lambda e: (e[0] * 2.0, e[1] + 1), (x, tf.constant([1, 2, 3])))
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.reduce_sum(tf.vectorized_map(lambda r: tf.sin(r) * r[0], x))
    return [y, list(pair), tape.gradient(z, x)]


@case
def type_spec_values(tf):
    return [repr(tf.type_spec_from_value(tf.constant([[1, 2]]))),
            repr(tf.type_spec_from_value(np.zeros((2, 3), np.float64))),
            repr(tf.type_spec_from_value(tf.ragged.constant([[1.0], [2.0, 3.0]]))),
            repr(tf.type_spec_from_value(tf.SparseTensor([[0, 1]], [1.0], [2, 3])))]


@case
def aliases(tf):
    return [tf.initializers.zeros()((2,)), tf.initializers.RandomNormal(seed=1)((2,)).shape,
            float(tf.losses.MeanSquaredError()(tf.constant([1.0, 2.0]),
                                               tf.constant([2.0, 4.0]))),
            type(tf.metrics.BinaryAccuracy()).__name__,
            type(tf.optimizers.Adam()).__name__,
            float(tf.optimizers.schedules.PiecewiseConstantDecay([10], [1.0, 0.5])(20))]


# -- tf.debugging --------------------------------------------------------------------------
@case
def check_numerics_ok(tf):
    return tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "fine")


@case
def check_numerics_nan(tf):
    return tf.debugging.check_numerics(tf.constant([1.0, float("nan")]), "bad x")


@case
def check_numerics_inf(tf):
    return tf.debugging.check_numerics(tf.constant([float("-inf"), 1.0], tf.float64), "bad y")


@case
def check_numerics_both(tf):
    return tf.debugging.check_numerics(tf.constant([float("inf"), float("nan")]), "m")


@case
def check_numerics_grad(tf):
    x = tf.constant([0.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.debugging.check_numerics(x, "fwd")
        z = tf.reduce_sum(tf.sqrt(y))
    return tape.gradient(z, x)


@case
def check_numerics_grad_ok(tf):
    x = tf.constant([4.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.reduce_sum(tf.sqrt(tf.debugging.check_numerics(x, "fwd")))
    return tape.gradient(z, x)
