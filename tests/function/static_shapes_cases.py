"""Programs printing static shapes inside ``tf.function`` traces with unknown dimensions (an
``input_signature`` with None, ``reduce_retracing``, the automatic relaxation on a second
shape), as TensorFlow's shape inference gives them.

Each case is ``fn(tf)`` printing lines; ``tools/record_static_shapes.py`` records what each
prints under TensorFlow 2.21 into ``tests/fixtures/static_shapes.json`` and
``test_static_shapes.py`` compares tapeflow's lines with them.
"""

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _sig(tf, *shapes, dtype=None):
    return [tf.TensorSpec(s, dtype or tf.float32) for s in shapes]


@case
def elementwise_and_reductions(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]))
    def f(x):
        print("x", x.shape, "x*2", (x * 2).shape, "neg", tf.negative(x).shape)
        print("sum0", tf.reduce_sum(x, 0).shape, "sum1", tf.reduce_sum(x, 1).shape)
        print("all", tf.reduce_sum(x).shape, "mean keep", tf.reduce_mean(x, 1, keepdims=True).shape)
        print("keep0", tf.reduce_max(x, 0, keepdims=True).shape)
        print("argmax", tf.argmax(x, 1).shape, tf.argmax(x, 0).shape)
        return x
    f(tf.ones([2, 4]))
    f(tf.ones([3, 4]))


@case
def matmul_concat_reshape(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]))
    def f(x):
        print("matmul", tf.matmul(x, tf.ones([4, 3])).shape)
        print("gram", tf.matmul(x, x, transpose_a=True).shape,
              tf.matmul(x, x, transpose_b=True).shape)
        print("concat0", tf.concat([x, x], 0).shape, "concat1", tf.concat([x, x], 1).shape)
        print("concat fixed", tf.concat([x, tf.zeros([2, 4])], 0).shape)
        print("reshape", tf.reshape(x, [-1, 2]).shape, tf.reshape(x, [-1]).shape)
        print("reshape shape", tf.reshape(x, tf.shape(x)).shape)
        print("dense", tf.nn.relu(x @ tf.ones([4, 5]) + 1.0).shape)
        return x
    f(tf.ones([2, 4]))


@case
def transpose_slice_expand(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]))
    def f(x):
        print("transpose", tf.transpose(x).shape, "expand", tf.expand_dims(x, 1).shape)
        print("expand -1", tf.expand_dims(x, -1).shape)
        print("slice", x[:, 1:3].shape, x[0].shape, x[1:].shape, x[:, 0].shape)
        print("squeeze", tf.squeeze(tf.expand_dims(x, 1), 1).shape)
        print("stack", tf.stack([x, x]).shape, tf.stack([x, x], 1).shape)
        print("tile", tf.tile(x, [2, 1]).shape, tf.tile(x, [1, 2]).shape)
        print("pad", tf.pad(x, [[1, 1], [0, 2]]).shape)
        return x
    f(tf.ones([3, 4]))


@case
def broadcasting(tf):
    @tf.function(input_signature=_sig(tf, [None, 1]))
    def f(x):
        print("b3", (x + tf.ones([3])).shape, "b13", (x * tf.ones([1, 3])).shape)
        print("self", (x + tf.transpose(x)).shape)
        return x
    f(tf.ones([2, 1]))


@case
def shape_and_gather(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]) + _sig(tf, [None], dtype=tf.int32))
    def f(x, i):
        print("tf.shape", tf.shape(x).shape, "size", tf.size(x).shape)
        print("gather0", tf.gather(x, i).shape, "gather1", tf.gather(x, [0, 1, 2], axis=1).shape)
        print("gather const", tf.gather(x, [0, 1]).shape)
        print("zeros", tf.zeros(tf.shape(x)).shape, "ones_like", tf.ones_like(x).shape)
        print("fill", tf.fill([tf.shape(x)[0], 2], 1.0).shape)
        print("cast", tf.cast(x, tf.int32).shape, "one_hot", tf.one_hot(i, 5).shape)
        return x
    f(tf.ones([3, 4]), tf.constant([0, 1], tf.int32))


@case
def values_decide_sizes(tf):
    @tf.function(input_signature=_sig(tf, [None]) + _sig(tf, [], dtype=tf.int32))
    def f(x, n):
        y, idx = tf.unique(x)
        print("unique", y.shape, idx.shape)
        print("mask", tf.boolean_mask(x, x > 0).shape)
        print("where", tf.where(x > 0).shape, "select", tf.where(x > 0, x, -x).shape)
        print("range", tf.range(n).shape, "range3", tf.range(3).shape)
        return x
    f(tf.constant([1.0, 1.0, 2.0]), tf.constant(3))


@case
def fixed_signature_derived(tf):
    @tf.function(input_signature=_sig(tf, [2, 4]))
    def f(x):
        y, _ = tf.unique(tf.reshape(x, [-1]))
        print("fixed", (x * 2).shape, "unique", y.shape, tf.where(x > 0).shape)
        return x
    f(tf.ones([2, 4]))


@case
def conv2d(tf):
    @tf.function(input_signature=_sig(tf, [None, 8, 8, 3]))
    def f(x):
        k = tf.ones([3, 3, 3, 5])
        print("same", tf.nn.conv2d(x, k, 1, "SAME").shape)
        print("valid s2", tf.nn.conv2d(x, k, 2, "VALID").shape)
        print("pool", tf.nn.max_pool2d(x, 2, 2, "VALID").shape)
        print("flat", tf.reshape(x, [tf.shape(x)[0], -1]).shape)
        return x
    f(tf.ones([2, 8, 8, 3]))


@case
def spatial_unknown(tf):
    @tf.function(input_signature=_sig(tf, [1, None, None, 2]))
    def f(x):
        print("mean hw", tf.reduce_mean(x, [1, 2]).shape, "x+1", (x + 1).shape)
        print("transpose", tf.transpose(x, [0, 3, 1, 2]).shape)
        return x
    f(tf.ones([1, 5, 6, 2]))


@case
def while_loop_body(tf):
    @tf.function(input_signature=_sig(tf, [None, 2]))
    def f(x):
        def body(i, acc):
            print("body", acc.shape, (acc * 2).shape, i.shape)
            return i + 1, acc + 1.0
        i, acc = tf.while_loop(lambda i, acc: i < 3, body, [tf.constant(0), x])
        print("after", acc.shape, i.shape, tf.reduce_sum(acc, 1).shape)
        return acc
    f(tf.ones([4, 2]))


@case
def cond_branches(tf):
    @tf.function(input_signature=_sig(tf, [None, 3]))
    def f(x):
        def yes():
            print("yes", (x * 2).shape)
            return x * 2

        def no():
            return x - 1
        y = tf.cond(tf.reduce_sum(x) > 0, yes, no)
        print("cond", y.shape)
        return y
    f(tf.ones([2, 3]))


@case
def reduce_retracing(tf):
    @tf.function(reduce_retracing=True)
    def g(x):
        print("g", x.shape, (x + 1).shape, tf.reduce_sum(x).shape, tf.stack([x, x]).shape)
        return x
    g(tf.ones([2]))
    g(tf.ones([3]))
    g(tf.ones([4]))


@case
def automatic_relaxation(tf):
    @tf.function
    def h(x):
        print("h", x.shape, tf.matmul(x, tf.ones([2, 2])).shape, x[:, :1].shape)
        return x
    h(tf.ones([1, 2]))
    h(tf.ones([5, 2]))
    h(tf.ones([7, 2]))


@case
def user_branches_on_none(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]))
    def f(x):
        y = x * 3
        if y.shape[0] is None:
            print("dynamic batch", y.get_shape(), y.shape.as_list())
        else:
            print("static batch", y.shape[0])
        print("rank", y.shape.rank, y.shape[1], len(y.shape))
        return y
    f(tf.ones([2, 4]))


@case
def printed_tensors(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]))
    def f(x):
        y = x * 2
        z = y + 1
        print(y)
        print(repr(z))
        return z
    f(tf.ones([2, 4]))


@case
def keras_dense(tf):
    keras = tf.keras
    layer = keras.layers.Dense(3)
    second = keras.layers.Dense(2)

    @tf.function(input_signature=_sig(tf, [None, 5]))
    def f(x):
        y = layer(x)
        z = second(tf.nn.relu(y))
        print("dense", y.shape, z.shape, layer.kernel.shape, second.kernel.shape)
        return z
    f(tf.ones([4, 5]))


@case
def keras_model(tf):
    keras = tf.keras
    inputs = keras.Input((6,))
    h = keras.layers.Dense(4, activation="relu")(inputs)
    out = keras.layers.Dense(1)(keras.layers.Dropout(0.5)(h))
    model = keras.Model(inputs, out)

    class Probe(keras.layers.Layer):
        def call(self, x):
            print("probe", x.shape, keras.ops.shape(x)[1])
            return x

    probe = Probe()

    @tf.function(input_signature=_sig(tf, [None, 6]))
    def f(x):
        y = model(x)
        z = probe(y)
        print("model", y.shape, z.shape)
        return z
    f(tf.ones([3, 6]))


@case
def more_ops(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]) + _sig(tf, [None], dtype=tf.int32))
    def f(x, i):
        print("unsorted", tf.math.unsorted_segment_sum(x, i, 3).shape)
        print("repeat", tf.repeat(x, 2, axis=0).shape, tf.repeat(x, [1, 2, 1, 1], axis=1).shape)
        print("seqmask", tf.sequence_mask(i).shape, tf.sequence_mask(i, 5).shape)
        print("bincount", tf.math.bincount(i).shape)
        print("softmax", tf.nn.softmax(x).shape,
              "einsum", tf.einsum("ij,jk->ik", x, tf.ones([4, 2])).shape)
        print("split", [t.shape for t in tf.split(x, 2, axis=1)])
        print("topk", tf.math.top_k(x, 2).values.shape, "sort", tf.sort(x, axis=0).shape)
        print("cumsum", tf.cumsum(x, 0).shape, "norm", tf.norm(x, axis=1).shape)
        print("clip", tf.clip_by_value(x, 0., 1.).shape, "max", tf.maximum(x, tf.zeros([4])).shape)
        print("resize", tf.image.resize(tf.reshape(x, [-1, 2, 2, 1]), [4, 4]).shape)
        print("partition", [t.shape for t in tf.dynamic_partition(x, tf.zeros_like(i), 2)])
        print("gather_nd", tf.gather_nd(x, tf.zeros([3, 2], tf.int32)).shape)
        print("scatter", tf.scatter_nd(tf.zeros([3, 1], tf.int32), tf.ones([3]), [5]).shape)
        print("slice", tf.slice(x, [0, 0], [tf.shape(x)[0] - 1, 2]).shape)
        print("strided", x[::2].shape, x[-1:].shape, x[:2].shape, (x[:2] + 1).shape)
        print("random", tf.random.uniform(tf.shape(x)).shape, tf.random.normal([3]).shape)
        y = tf.reshape(x, [tf.shape(x)[0], -1])
        print("flatten", y.shape, (y @ tf.ones([4, 10])).shape)
        for _ in tf.range(2):
            x = x + 1.0
        print("for", x.shape)
        return x
    f(tf.ones([3, 4]), tf.constant([0, 1, 1], tf.int32))


@case
def ranges_of_shapes(tf):
    @tf.function(input_signature=_sig(tf, [3, 4]) + _sig(tf, [], dtype=tf.int32))
    def f(x, n):
        print("fixed", tf.range(tf.shape(x)[0]).shape, tf.range(n).shape,
              tf.sort(x, axis=0).shape, (tf.unique(tf.reshape(x, [-1]))[0] + 1).shape)
        return x
    f(tf.ones([3, 4]), tf.constant(2))

    @tf.function(input_signature=_sig(tf, [None, 4]))
    def g(x):
        print("relaxed", tf.range(tf.shape(x)[0]).shape, tf.range(tf.shape(x)[1]).shape)
        return x
    g(tf.ones([3, 4]))


@case
def tensor_spec_from_tensor(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]))
    def f(x):
        y = tf.concat([x * 2, x], 1)
        print("spec", tf.TensorSpec.from_tensor(y))
        print("named", tf.TensorSpec.from_tensor(x, name="inp"))
        print("reduced", tf.TensorSpec.from_tensor(tf.reduce_sum(y, 0)).shape)
        try:
            tf.TensorSpec.from_tensor(v)
        except ValueError as exc:
            print("variable ValueError", exc)
        return y
    v = tf.Variable([1.0, 2.0])
    print("eager", tf.TensorSpec.from_tensor(tf.ones([2, 3])))
    f(tf.ones([3, 4]))


@case
def ensure_shape(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]))
    def f(x):
        y = x * 2
        print("loose", tf.ensure_shape(y, [None, 4]).shape, tf.ensure_shape(y, [None, None]).shape)
        z = tf.ensure_shape(y, [3, None])
        print("pinned", z.shape, (z + 1).shape, tf.reduce_sum(z, 1).shape)
        try:
            tf.ensure_shape(y, [None, 5])
        except ValueError:
            print("static mismatch ValueError")
        return z
    print("ok", f(tf.ones([3, 4])).shape)
    try:
        f(tf.ones([2, 4]))
    except tf.errors.InvalidArgumentError:
        print("runtime mismatch InvalidArgumentError")


@case
def unstack_along_unknown_dim(tf):
    @tf.function(input_signature=_sig(tf, [None, 2]))
    def f(x):
        print("known axis", [t.shape for t in tf.unstack(x, axis=1)])
        print("num given", [t.shape for t in tf.unstack(x, num=3)])
        try:
            tf.unstack(x)
        except ValueError as exc:
            print("ValueError", exc)
        try:
            tf.unstack(tf.transpose(x), axis=1)
        except ValueError as exc:
            print("ValueError", exc)
        return x
    f(tf.ones([3, 2]))


@case
def tf_shape_rank_and_static_shape(tf):
    @tf.function(input_signature=_sig(tf, [None, 4]))
    def f(x):
        y = tf.concat([x, x], 0)
        print("shape", y.shape, "tf.shape", tf.shape(y).shape, tf.shape(y)[0].shape)
        print("symbolic", y, tf.shape(y), tf.size(y), tf.shape(y)[0], tf.shape(x)[0] * 2)
        print("rank", tf.rank(y).shape, y.shape.rank, y.ndim, tf.size(y).shape)
        print("as_list", y.shape.as_list(), "len", len(y.shape), "dims", y.shape[0], y.shape[1])
        print("num_elements", y.shape.num_elements(), y.shape.is_fully_defined(),
              x[:1].shape.is_fully_defined(), y.shape[1:], y.shape[-1])
        print("compatible", y.shape.is_compatible_with([7, 4]), y.shape == (None, 4),
              y.shape.merge_with([6, None]))
        return tf.shape(y), tf.rank(y), tf.size(y)
    s, r, n = f(tf.ones([3, 4]))
    print("values", s.numpy().tolist(), int(r), int(n))


@case
def shape_dims_in_python_control_flow(tf):
    @tf.function(input_signature=_sig(tf, [None, 3]))
    def f(x):
        if x.shape[0] is None:
            print("batch unknown")
        else:
            print("batch known")
        cols = []
        for i in range(x.shape[1]):
            cols.append(x[:, i] * float(i))
        y = tf.stack(cols, 1)
        if y.shape[1] == 3:
            print("three columns", y.shape)
        n = x.shape[0] or tf.shape(x)[0]
        print("n is a tensor", tf.is_tensor(n))
        try:
            for _ in range(x.shape[0]):
                pass
        except TypeError:
            print("range(None) TypeError")
        if x.shape.as_list()[0] is None and len(x.shape) == 2:
            print("as_list None, len 2")
        return tf.reduce_sum(y, 0)
    print([round(float(v), 3) for v in f(tf.ones([4, 3])).numpy()])


@case
def keras_layers_in_relaxed_function(tf):
    keras = tf.keras
    conv = keras.layers.Conv2D(2, 3, padding="same")
    flat = keras.layers.Flatten()
    norm = keras.layers.LayerNormalization()
    emb = keras.layers.Embedding(10, 3)
    resh = keras.layers.Reshape((-1, 2))
    pool = keras.layers.GlobalAveragePooling2D()

    class Probe(keras.layers.Layer):
        def build(self, shape):
            print("build", tuple(shape))

        def call(self, x):
            print("call", x.shape, len(x.shape), x.shape[-1])
            return x * tf.ones([x.shape[-1]])

    probe = Probe()

    @tf.function(input_signature=_sig(tf, [None, 4, 4, 1]) + _sig(tf, [None, None],
                                                                   dtype=tf.int32))
    def f(img, ids):
        c = conv(img)
        fl = flat(c)
        print("conv", c.shape, "flat", fl.shape, "norm", norm(fl).shape)
        print("pool", pool(c).shape, "reshape", resh(fl).shape)
        e = probe(emb(ids))
        print("embed", e.shape)
        return tf.reduce_sum(e) + tf.reduce_sum(fl)
    f(tf.ones([2, 4, 4, 1]), tf.zeros([2, 5], tf.int32))


@case
def ensure_shape_eager_and_gradient(tf):
    import re
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for s in ([2, 3], [None, 3], (None, None), None, [2, 4], [3], [2, 3, 1]):
        try:
            y = tf.ensure_shape(x, s)
            print(s, y.shape, y.dtype.name, y.numpy().tolist())
        except tf.errors.InvalidArgumentError as exc:
            print(s, "InvalidArgumentError",
                  re.sub(r"^\{\{function_node [^}]*\}\} ", "", exc.message))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.ensure_shape(x * x, [2, None])
        z = tf.reduce_sum(y * tf.constant([1.0, 2.0, 3.0]))
    print("grad", tape.gradient(z, x).numpy().tolist())

    @tf.function(input_signature=_sig(tf, None))
    def g(v):
        w = tf.ensure_shape(v, [None, 3])
        print("unknown rank", v.shape, w.shape, (w * 2).shape, tf.reduce_sum(w, 0).shape)
        return w
    print(g(x).numpy().tolist())
