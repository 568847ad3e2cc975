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
