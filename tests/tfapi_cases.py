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


# -- tf.train.Example ----------------------------------------------------------------------
def _example(tf, **feats):
    def feature(k, v):
        if k in ("name", "tags"):
            return tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
        if isinstance(v, list) and v and isinstance(v[0], float):
            return tf.train.Feature(float_list=tf.train.FloatList(value=v))
        return tf.train.Feature(int64_list=tf.train.Int64List(value=v))
    return tf.train.Example(features=tf.train.Features(
        feature={k: feature(k, v) for k, v in feats.items()}))


def _examples(tf):
    return [_example(tf, age=[29], scores=[0.5, 1.25, -3.0], name=[b"ann"],
                     tags=[b"x", b"y\n\xff"], ids=[7, -2, 3 ** 38]),
            _example(tf, age=[41], scores=[2.0, 0.1, 1e20], name=[b"bob"], tags=[],
                     ids=[5]),
            _example(tf, age=[3], scores=[float("inf"), 0.0, 7.5], name=[b""],
                     tags=[b"z"], ids=[])]


@case
def example_bytes_and_text(tf):
    exs = _examples(tf)
    return [[e.SerializeToString(deterministic=True) for e in exs], [str(e) for e in exs],
            [tf.train.Example.FromString(e.SerializeToString()) == e for e in exs]]


@case
def example_attributes(tf):
    e = tf.train.Example.FromString(_examples(tf)[0].SerializeToString())
    f = e.features.feature
    other = tf.train.Example()
    other.ParseFromString(e.SerializeToString())
    feat = tf.train.Feature(float_list=tf.train.FloatList(value=[0.1]))
    return [sorted(f.keys()), list(f["scores"].float_list.value), list(f["ids"].int64_list.value),
            list(f["tags"].bytes_list.value), f["age"].WhichOneof("kind"),
            e.HasField("features"), tf.train.Example().HasField("features"), other == e,
            str(feat), feat.SerializeToString(), str(tf.train.Example()),
            tf.train.BytesList(value=[b"a"]).SerializeToString(),
            str(tf.train.Int64List(value=[1, -1]))]


@case
def example_text_format_merge(tf):
    """google.protobuf's text_format.Merge/Parse fill a tf.train.Example (the ragged guide's
    build_tf_example); reading an unset sub-message leaves it unset."""
    from google.protobuf import text_format
    e = text_format.Merge(
        'features { feature { key: "colors" value { bytes_list { value: ["red", "blue"] } } }'
        ' feature { key: "lengths" value { int64_list { value: [7, -3] } } } }',
        tf.train.Example())
    f = text_format.Parse(
        'features { feature { key: "x" value { float_list { value: [1.5, 2, -0.25] } } } }',
        tf.train.Example())
    g = tf.train.Example()
    _ = g.features
    return [e.SerializeToString(deterministic=True), str(f), f.HasField("features"),
            g.HasField("features"), str(g),
            list(e.features.feature["lengths"].int64_list.value)]


@case
def example_bytes_list_str_error(tf):
    return tf.train.BytesList(value=["text"])


@case
def example_int64_float_error(tf):
    return tf.train.Int64List(value=[1.5])


@case
def example_int64_bool_error(tf):
    return tf.train.Int64List(value=[True])


@case
def example_int64_numpy_bool_error(tf):
    return tf.train.Int64List(value=[np.bool_(True)])


@case
def example_numpy_scalars(tf):
    return [tf.train.Int64List(value=[np.int32(3), np.int64(-4)]).SerializeToString(),
            tf.train.FloatList(value=[np.float64(1.5), 2, True]).SerializeToString(),
            str(tf.train.FloatList(value=[np.exp(1), 1e-45, 3.4028234663852886e+38]))]


def _spec_single(tf):
    return {"age": tf.io.FixedLenFeature([], tf.int64),
            "scores": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True),
            "name": tf.io.FixedLenFeature((), tf.string),
            "tags": tf.io.VarLenFeature(tf.string),
            "ids": tf.io.RaggedFeature(tf.int64),
            "missing": tf.io.FixedLenFeature([2], tf.int64, default_value=[4, 5]),
            "missing_var": tf.io.VarLenFeature(tf.float32)}


def _spec_batch(tf):
    return {"age": tf.io.FixedLenFeature([1], tf.int64),
            "scores": tf.io.FixedLenFeature([3], tf.float32),
            "name": tf.io.RaggedFeature(tf.string, row_splits_dtype=tf.int64),
            "tags": tf.io.VarLenFeature(tf.string),
            "ids": tf.io.VarLenFeature(tf.int64),
            "missing": tf.io.FixedLenFeature([], tf.float32, default_value=2.5),
            "missing_seq": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)}


def _spec_seq(tf):
    return {"scores": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True,
                                                    default_value=-1.0),
            "ids": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
            "tags": tf.io.RaggedFeature(tf.string)}


def _parsed(tf, d):
    out = {}
    for k, v in d.items():
        if isinstance(v, tf.SparseTensor):
            out[k] = [v.indices, v.values, v.dense_shape]
        elif isinstance(v, tf.RaggedTensor):
            out[k] = [v.flat_values, v.row_splits]
        else:
            out[k] = v
    return out


@case
def parse_single_example_values(tf):
    return [_parsed(tf, tf.io.parse_single_example(e.SerializeToString(), _spec_single(tf)))
            for e in _examples(tf)]


@case
def parse_example_batch(tf):
    ser = tf.constant([e.SerializeToString() for e in _examples(tf)])
    return [_parsed(tf, tf.io.parse_example(ser, _spec_batch(tf))),
            _parsed(tf, tf.io.parse_example(ser, _spec_seq(tf))),
            _parsed(tf, tf.io.parse_example(ser[:0], _spec_batch(tf))),
            _parsed(tf, tf.io.parse_example(ser[:1], _spec_seq(tf)))]


@case
def parse_example_in_function(tf):
    spec = {"age": tf.io.FixedLenFeature([], tf.int64), "ids": tf.io.VarLenFeature(tf.int64)}

    @tf.function
    def f(s):
        d = tf.io.parse_single_example(s, spec)
        return d["age"] * 2, d["ids"].values, d["ids"].dense_shape
    return [list(f(tf.constant(e.SerializeToString()))) for e in _examples(tf)]


@case
def parse_example_in_dataset_map(tf):
    spec = {"age": tf.io.FixedLenFeature([], tf.int64),
            "scores": tf.io.FixedLenFeature([3], tf.float32)}
    ds = tf.data.Dataset.from_tensor_slices([e.SerializeToString() for e in _examples(tf)])
    ds = ds.map(lambda s: tf.io.parse_single_example(s, spec)).batch(2)
    return [dict(b) for b in ds]


@case
def parse_missing_required(tf):
    return tf.io.parse_single_example(_examples(tf)[0].SerializeToString(),
                                      {"nope": tf.io.FixedLenFeature([], tf.float32)})


@case
def parse_wrong_type(tf):
    return tf.io.parse_single_example(_examples(tf)[0].SerializeToString(),
                                      {"age": tf.io.FixedLenFeature([], tf.float32)})


@case
def parse_wrong_size(tf):
    return tf.io.parse_single_example(_examples(tf)[0].SerializeToString(),
                                      {"scores": tf.io.FixedLenFeature([2], tf.float32)})


@case
def parse_example_wrong_type(tf):
    ser = [e.SerializeToString() for e in _examples(tf)]
    return tf.io.parse_example(ser, {"ids": tf.io.VarLenFeature(tf.float32)})


@case
def parse_bad_bytes(tf):
    return tf.io.parse_single_example(b"\x0a\x05abc", {"a": tf.io.VarLenFeature(tf.int64)})


@case
def feature_reprs(tf):
    return [repr(tf.io.FixedLenFeature([3], tf.float32)),
            repr(tf.io.VarLenFeature(tf.string)),
            repr(tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)),
            repr(tf.io.RaggedFeature(tf.int64))]


@case
def serialize_tensor_values(tf):
    ts = [tf.constant([[1.5, 2.0], [3.0, -4.0]]), tf.constant(7), tf.constant([1, 2], tf.int64),
          tf.constant([b"ab", b""]), tf.constant(True), tf.zeros([0, 3], tf.float64),
          tf.constant([1, 2], tf.uint8), tf.constant(b"s")]
    ser = [tf.io.serialize_tensor(t) for t in ts]
    back = [tf.io.parse_tensor(s, t.dtype) for s, t in zip(ser, ts)]
    return [ser, back]


@case
def parse_tensor_wrong_dtype(tf):
    return tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.0])), tf.int32)


# -- tf.lookup ------------------------------------------------------------------------------
def _kv_table(tf):
    init = tf.lookup.KeyValueTensorInitializer(tf.constant(["emerson", "lake", "palmer"]),
                                               tf.constant([0, 1, 2], tf.int64))
    return tf.lookup.StaticHashTable(init, default_value=-1)


@case
def static_hash_table(tf):
    table = _kv_table(tf)
    keys = tf.constant([["emerson", "x"], ["palmer", "lake"]])
    num = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer([1, 5, 9], [0.5, 1.5, 2.5],
                                            key_dtype=tf.int64, value_dtype=tf.float32), -1.0)
    return [table.lookup(keys), table[tf.constant("lake")], table.size(),
            table.key_dtype.name, table.value_dtype.name, table.default_value,
            num.lookup(tf.constant([9, 2, 1], tf.int64)),
            table.lookup(tf.ragged.constant([["lake"], ["palmer", "zz"]])).flat_values]


@case
def static_hash_table_in_function_and_map(tf):
    table = _kv_table(tf)

    @tf.function
    def f(k):
        return table.lookup(k) * 10
    ds = tf.data.Dataset.from_tensor_slices(["lake", "nope", "palmer"]).map(table.lookup)
    return [f(tf.constant(["palmer", "b"])), f(tf.constant(["lake"])), list(ds)]


@case
def static_hash_table_wrong_key_dtype(tf):
    return _kv_table(tf).lookup(tf.constant([1, 2], tf.int64))


@case
def text_file_initializer(tf):
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("the\t7\nquick\t8\nbrown\t9\n")
    whole = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
        tf.lookup.TextFileIndex.LINE_NUMBER), -1)
    cols = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, 0, tf.int64, 1, delimiter="\t"), -1)
    return [whole.lookup(tf.constant(["quick\t8", "the"])), whole.size(),
            cols.lookup(tf.constant(["brown", "the", "fox"]))]


@case
def static_vocabulary_table(tf):
    init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], tf.constant([0, 1, 2], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
    ints = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 3)
    return [table.lookup(tf.constant(["a", "zebra", "c", "yak", "", "b"])), table.size(),
            ints.lookup(tf.constant([20, 7, 10, 123456], tf.int64)), ints.size()]


@case
def mutable_hash_table(tf):
    t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)
    t.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))
    first = t.lookup(tf.constant(["a", "c"]))
    t.insert(tf.constant(["c", "a"]), tf.constant([3, 10], tf.int64))
    t.remove(tf.constant(["b"]))
    k, v = t.export()
    order = np.argsort(k.numpy())
    return [first, t.lookup(tf.constant(["a", "b", "c"])), t.size(),
            tf.gather(k, order), tf.gather(v, order)]


@case
def dense_hash_table(tf):
    t = tf.lookup.experimental.DenseHashTable(tf.int64, tf.float32, default_value=-1.0,
                                              empty_key=0, deleted_key=-1)
    t.insert(tf.constant([5, 7], tf.int64), tf.constant([0.5, 0.7]))
    t.remove(tf.constant([7], tf.int64))
    return [t.lookup(tf.constant([5, 7, 9], tf.int64)), t.size()]


# -- special functions ---------------------------------------------------------------------
_SPECIAL = {"bessel_i0": [-3.0, -0.5, 0.0, 0.7, 4.0], "bessel_i0e": [-3.0, -0.5, 0.0, 0.7, 40.0],
            "bessel_i1": [-3.0, -0.5, 0.0, 0.7, 4.0], "bessel_i1e": [-3.0, -0.5, 0.0, 0.7, 40.0],
            "bessel_j0": [-3.0, 0.0, 0.7, 4.0, 25.0], "bessel_j1": [-3.0, 0.0, 0.7, 4.0, 25.0],
            "bessel_y0": [0.1, 0.7, 4.0, 25.0], "bessel_y1": [0.1, 0.7, 4.0, 25.0],
            "bessel_k0": [0.1, 0.7, 4.0, 25.0], "bessel_k0e": [0.1, 0.7, 4.0, 25.0],
            "bessel_k1": [0.1, 0.7, 4.0, 25.0], "bessel_k1e": [0.1, 0.7, 4.0, 25.0],
            "dawsn": [-2.0, 0.0, 0.5, 3.0, 50.0], "expint": [-2.0, 0.3, 1.0, 5.0],
            "fresnel_cos": [-2.0, 0.0, 0.5, 3.0], "fresnel_sin": [-2.0, 0.0, 0.5, 3.0],
            "spence": [0.0, 0.3, 1.0, 2.5]}


def _special_case(name, dtype):
    def fn(tf):
        f = getattr(tf.math.special, name)
        x = tf.constant(_SPECIAL[name], getattr(tf, dtype))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return [y, tape.gradient(y, x)]
    fn.__name__ = f"special_{name}_{dtype}"
    return fn


for _n in _SPECIAL:
    for _d in ("float32", "float64"):
        case(_special_case(_n, _d))


@case
def bessel_top_level_names(tf):
    x = tf.constant([0.5, 1.5])
    return [tf.math.bessel_i0(x), tf.math.bessel_i0e(x), tf.math.bessel_i1(x),
            tf.math.bessel_i1e(x)]


@case
def bessel_int_error(tf):
    return tf.math.bessel_i0(tf.constant([1, 2]))


# -- CTC ------------------------------------------------------------------------------------
def _ctc_inputs(tf):
    rng = np.random.RandomState(3)
    logits = tf.constant(rng.randn(6, 3, 5).astype(np.float32))   # [time, batch, classes]
    labels = tf.constant([[1, 2, 2, 0], [3, 4, 0, 0], [1, 1, 1, 0]])
    return logits, labels, tf.constant([3, 2, 3]), tf.constant([6, 4, 6])


@case
def ctc_loss_dense(tf):
    logits, labels, lab_len, log_len = _ctc_inputs(tf)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.ctc_loss(labels, logits, lab_len, log_len)
    return [loss, tape.gradient(loss, logits)]


@case
def ctc_loss_batch_major_blank_last(tf):
    logits, labels, lab_len, log_len = _ctc_inputs(tf)
    bm = tf.transpose(logits, [1, 0, 2])
    with tf.GradientTape() as tape:
        tape.watch(bm)
        loss = tf.nn.ctc_loss(labels, bm, lab_len, log_len, logits_time_major=False,
                              blank_index=-1)
        total = tf.reduce_sum(loss * tf.constant([1.0, 2.0, 3.0]))
    return [loss, tape.gradient(total, bm)]


@case
def ctc_loss_sparse(tf):
    logits, _, _, log_len = _ctc_inputs(tf)
    sp = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], [1, 2, 3, 4, 4], [3, 2])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.ctc_loss(sp, logits, None, log_len, blank_index=0)
    return [loss, tape.gradient(loss, logits)]


@case
def ctc_greedy(tf):
    logits, _, _, log_len = _ctc_inputs(tf)
    (dec,), neg = tf.nn.ctc_greedy_decoder(logits, log_len)
    (dec2,), neg2 = tf.nn.ctc_greedy_decoder(logits, log_len, merge_repeated=False,
                                             blank_index=0)
    return [dec.indices, dec.values, dec.dense_shape, neg, dec2.indices, dec2.values,
            dec2.dense_shape, neg2]


@case
def ctc_beam_search(tf):
    logits, _, _, log_len = _ctc_inputs(tf)
    decoded, logp = tf.nn.ctc_beam_search_decoder(logits, log_len, beam_width=100, top_paths=3)
    return [[[d.indices, d.values, d.dense_shape] for d in decoded], logp]


@case
def ctc_beam_search_default(tf):
    logits, _, _, log_len = _ctc_inputs(tf)
    (d,), logp = tf.nn.ctc_beam_search_decoder(logits * 3.0, log_len)
    return [d.indices, d.values, d.dense_shape, logp]
