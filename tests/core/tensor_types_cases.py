"""Programs whose TensorFlow answers are recorded into fixtures/core/tensor_types/*.json.

Each case is a small program over ``tf`` and ``np``: statements separated by ``;`` or
newlines, the last one an expression whose value is described. The recorder
(``tools/record_core_tensor_types.py``) runs it with TensorFlow 2.21; ``test_tensor_types.py``
runs it with tapeflow and compares. Groups in ``PRINTED`` compare printed forms exactly;
groups in ``VALUES`` compare numbers within float32 rounding. This module imports neither
library.
"""
import ast
import re

_NODE_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")

TYPES = [
    "type(tf.constant(1.0)).__name__",
    "repr(type(tf.constant(1.0)))",
    "repr(tf.Tensor)",
    "isinstance(tf.constant(1.0), tf.Tensor)",
    "isinstance(tf.Variable(1.0), tf.Tensor)",
    "isinstance(tf.Variable(1.0), tf.Variable)",
    "repr(type(tf.Variable(1.0)))",
    "type(tf.Variable(1.0)).__name__",
    "type(tf.Variable(1.0).assign(2.0)).__name__",
    "isinstance(tf.Variable(1.0).assign(2.0), tf.Variable)",
    "tf.Variable(1.0).assign(2.0, read_value=False)",
    "v = tf.Variable(1.0); u = v.assign(5.0); v.assign(7.0); u",
    "v = tf.Variable([1.0, 2.0]); u = v.assign_add([1.0, 1.0]); (u * 2.0, u.shape, u.dtype)",
    "tf.Variable(1.0).assign(3.0).name",
    "tf.Variable([1, 2]).assign_add([1, 1])",
    "v = tf.Variable(2.0); v.assign(4.0).assign_add(1.0); v",
    "d = tf.keras.layers.Dense(1, kernel_initializer='ones'); d.build((None, 1)); "
    "v = d.kernel; (v.assign([[2.0]]), v.assign_add([[1.0]]), v.assign_sub([[0.5]]))",
    "tf.TensorSpec([2, None], tf.float32)",
    "tf.TensorSpec([2], name='x')",
    "tf.TensorSpec([])",
    "tf.TensorSpec(None)",
    "tf.TensorSpec(shape=[], dtype=tf.int32)",
    "tf.TensorSpec([3], 'float64')",
    "str(tf.TensorSpec([3, 1]))",
    "s = tf.TensorSpec([2, None], tf.float32, name='x'); (s.shape, s.dtype, s.name)",
    "s = tf.TensorSpec([2, None]); [s.is_compatible_with(x) for x in "
    "(tf.ones((2, 5)), tf.ones((3, 5)), tf.TensorSpec([2, 4]), tf.ones((2, 5), tf.float64), "
    "np.ones((2, 3), np.float32), tf.Variable(tf.ones((2, 1))))]",
    "tf.TensorSpec([2, None], name='x') == tf.TensorSpec([2, None], name='x')",
    "tf.TensorSpec([2, None], name='x') == tf.TensorSpec([2, None])",
    "tf.TensorSpec([2, 3]) != tf.TensorSpec([2, 3], tf.int32)",
    "tf.TensorSpec.from_tensor(tf.ones((2, 3)))",
    "tf.TensorSpec.from_tensor(tf.constant([1, 2]), name='a')",
    "tf.TensorSpec([2], tf.float32, name=3)",
    "tf.TensorSpec([2, 3]).is_subtype_of(tf.TensorSpec([None, 3]))",
    "tf.TensorSpec([None, 3]).is_subtype_of(tf.TensorSpec([2, 3]))",
    "tf.TensorSpec([2, 3]).is_subtype_of(tf.TensorSpec(None))",
    "tf.TensorSpec([2, 3]).most_specific_common_supertype([tf.TensorSpec([4, 3])])",
    "tf.TensorSpec([2, 3]).most_specific_common_supertype([tf.TensorSpec([4])])",
    "tf.TensorSpec([2], tf.int32).most_specific_common_supertype([tf.TensorSpec([2])])",
    "{tf.TensorSpec([2]): 1}[tf.TensorSpec([2])]",
    "tf.reduce_prod(tf.Variable(tf.ones((2, 3))).shape)",
    "tf.constant(tf.TensorShape([2, 3]))",
    "tf.convert_to_tensor(tf.TensorShape([2, 3]))",
    "tf.constant(tf.TensorShape([2, 3]), dtype=tf.int64)",
    "tf.zeros(tf.constant([1.0, 2.0, 3.0]).shape)",
    "tf.reshape(tf.range(6), tf.TensorShape([2, 3]))",
    "tf.constant(tf.TensorShape([None, 3]))",
    "tf.cast(tf.ones((4, 2)).shape, tf.float32)",
    "tf.ones((4, 2)).shape + tf.constant([1, 1])",
]

VARIABLES = [
    "v = tf.Variable([1.0, 2.0, 3.0]); u = v[1].assign(5.0); (u, v)",
    "v = tf.Variable([1.0, 2.0, 3.0]); v[1:3].assign([7.0, 8.0])",
    "v = tf.Variable([[1, 2], [3, 4]]); v[:, 0].assign([9, 9]); v",
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0]]); v[1].assign(tf.constant([5.0, 6.0])); v",
    "v = tf.Variable([1.0, 2.0, 3.0]); v[1:3].assign([7.0])",
    "v = tf.Variable([1.0, 2.0, 3.0]); v.scatter_nd_update([[0], [2]], [9.0, 8.0])",
    "v = tf.Variable([1.0, 2.0, 3.0]); v.scatter_nd_add([[0], [0]], [1.0, 2.0])",
    "v = tf.Variable([1.0, 2.0, 3.0]); v.scatter_nd_sub([[1]], [1.0])",
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0]]); "
    "v.scatter_update(tf.IndexedSlices(tf.constant([[5.0, 6.0]]), tf.constant([1])))",
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0]]); "
    "v.scatter_add(tf.IndexedSlices(tf.constant([[5.0, 6.0]]), tf.constant([0])))",
    "v = tf.Variable([1.0, 2.0]); v.scatter_sub(tf.IndexedSlices(tf.constant([5.0]), "
    "tf.constant([1])))",
    "tf.tensor_scatter_nd_update(tf.zeros((4,)), [[1], [3]], [5.0, 6.0])",
    "tf.tensor_scatter_nd_add(tf.ones((2, 2)), [[0, 1]], [5.0])",
    "tf.tensor_scatter_nd_sub(tf.ones((2, 2)), [[0, 1]], [5.0])",
    "tf.tensor_scatter_nd_max(tf.ones((3,)), [[0], [2]], [5.0, -1.0])",
    "tf.tensor_scatter_nd_min(tf.ones((3,)), [[0], [2]], [5.0, -1.0])",
    "tf.scatter_nd([[1], [3]], [5, 6], [5])",
    "tf.constant([1, 2, 3])[tf.constant([True, False, True])]",
    "tf.constant([[1, 2], [3, 4]])[tf.constant([False, True])]",
    "x = tf.constant([1.0, -2.0, 3.0]); x[x > 0]",
    "tf.boolean_mask(tf.constant([[1, 2], [3, 4], [5, 6]]), [True, False, True])",
    "tf.boolean_mask(tf.constant([[1, 2], [3, 4]]), [[True, False], [False, True]])",
    "tf.boolean_mask(tf.constant([[1, 2], [3, 4]]), [True, False], axis=1)",
    "x = tf.Variable(2); b = tf.Variable(True); w = tf.Variable(1.0)\n"
    "with tf.GradientTape() as t:\n    z = x * 2; q = tf.logical_not(b); y = w * 3.0\n"
    "(t.watched_variables(), t.gradient(y, [x, w]))",
    "v = tf.Variable(3)\nwith tf.GradientTape() as t:\n    y = v * v\n"
    "(t.watched_variables(), t.gradient(y, v))",
    "tf.Variable([True, False])",
    "v = tf.Variable([1, 2]); v.assign_add([3, 4]); v",
    "v = tf.Variable(True); v.assign(False); v",
]

_GATHER_TAPE = (
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\n"
    "with tf.GradientTape(persistent=True) as t:\n"
    "    y = tf.reduce_sum(tf.gather(v, [2, 0, 2]) * 2.0)\n"
    "    z = y + tf.reduce_sum(v)\n"
    "    w = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(tf.gather(v, [0]))\n"
    "    e = tf.reduce_sum(tf.nn.embedding_lookup(v, [[0, 1], [1, 1]]) ** 2)\n"
    "g = t.gradient(y, v)\n")

INDEXED_SLICES = [
    _GATHER_TAPE + "g",
    _GATHER_TAPE + "(g.values, g.indices, g.dense_shape, g.dtype, g.shape)",
    _GATHER_TAPE + "type(g).__name__",
    _GATHER_TAPE + "t.gradient(z, v)",
    _GATHER_TAPE + "t.gradient(w, v)",
    _GATHER_TAPE + "t.gradient(e, v)",
    _GATHER_TAPE + "t.gradient(y, v, output_gradients=tf.constant(3.0))",
    _GATHER_TAPE + "tf.convert_to_tensor(g)",
    _GATHER_TAPE + "-g",
    _GATHER_TAPE + "g * 2.0",
    _GATHER_TAPE + "tf.multiply(g, 2.0)",
    _GATHER_TAPE + "tf.reduce_sum(g)",
    _GATHER_TAPE + "tf.IndexedSlices(g.values, g.indices) ",
    _GATHER_TAPE + "tf.add_n([g, g])",
    _GATHER_TAPE + "tf.add_n([g])",
    _GATHER_TAPE + "tf.add_n([g, tf.ones((3, 2))])",
    _GATHER_TAPE + "tf.clip_by_norm(g, 1.0)",
    _GATHER_TAPE + "tf.clip_by_global_norm([g, tf.constant([3.0, 4.0])], 2.0)",
    _GATHER_TAPE + "tf.linalg.global_norm([g, tf.constant([3.0, 4.0])])",
    _GATHER_TAPE + "tf.math.add_n([g, g, g])",
    "tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), "
    "dense_shape=tf.constant([3, 2]))",
    "tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), "
    "tf.constant([1, 1]), dense_shape=tf.constant([3, 2])))",
    "x = tf.constant([[1.0, 2.0], [3.0, 4.0]])\nwith tf.GradientTape() as t:\n"
    "    t.watch(x); y = tf.reduce_sum(tf.gather(x, [1, 1]))\nt.gradient(y, x)",
    "x = tf.constant([[1.0, 2.0], [3.0, 4.0]])\nwith tf.GradientTape() as t:\n"
    "    t.watch(x); y = tf.reduce_sum(tf.gather(x, [1], axis=1))\nt.gradient(y, x)",
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.gather(v * 1.0, [1, 1]))\nt.gradient(y, v)",
    "v = tf.Variable([1.0, 2.0, 3.0])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.pad(v, [[1, 1]], mode='REFLECT'))\nt.gradient(y, v)",
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\nwith tf.GradientTape() as outer:\n"
    "    with tf.GradientTape() as inner:\n"
    "        y = tf.reduce_sum(tf.gather(v, [0, 0, 1]) ** 3)\n"
    "    g = inner.gradient(y, v)\n    z = tf.reduce_sum(tf.convert_to_tensor(g) ** 2)\n"
    "(g, outer.gradient(z, v))",
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\n(v.sparse_read([2, 0]), "
    "v.gather_nd([[1, 0], [2, 1]]))",
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(v.sparse_read([2, 2]))\nt.gradient(y, v)",
    "v = tf.Variable([1.0, 2.0, 3.0])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.gather(v, [0, 2]) * tf.gather(v, [1, 1]))\n"
    "g = t.gradient(y, v)\n(g, tf.math.unsorted_segment_sum(g.values, g.indices, 3))",
]


def _embedding_training(optimizer):
    # An Embedding trained a few steps: its gradient is an IndexedSlices (ids repeat).
    return (
        "layer = tf.keras.layers.Embedding(5, 3, embeddings_initializer="
        "tf.keras.initializers.Constant(np.arange(15, dtype=np.float32).reshape(5, 3) / 10))\n"
        f"opt = tf.keras.optimizers.{optimizer}\n"
        "ids = tf.constant([[0, 2, 2], [4, 0, 1]])\n"
        "target = tf.constant(np.linspace(-1, 1, 18, dtype=np.float32).reshape(2, 3, 3))\n"
        "for _ in range(3):\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = tf.reduce_mean((layer(ids) - target) ** 2)\n"
        "    grads = tape.gradient(loss, layer.trainable_variables)\n"
        "    opt.apply_gradients(zip(grads, layer.trainable_variables))\n"
        "(type(grads[0]).__name__, tf.convert_to_tensor(layer.embeddings))")


SPARSE_TRAINING = [_embedding_training(opt) for opt in (
    "SGD(0.5)", "SGD(0.5, momentum=0.9)", "Adam(0.1)", "RMSprop(0.1)")]

RANDOM = [
    "tf.random.stateless_uniform([10], seed=[1, 2], dtype=tf.uint32, minval=None, "
    "maxval=None)",
    "tf.random.stateless_uniform([2, 3], seed=[1, 2])",
    "tf.random.stateless_uniform([5], seed=[-7, 2**40], minval=-2.0, maxval=3.0)",
    "tf.random.stateless_uniform([5], seed=tf.constant([3, 4], tf.int64), dtype=tf.float64)",
    "tf.random.stateless_uniform([7], seed=[5, 6], minval=3, maxval=17, dtype=tf.int32)",
    "tf.random.stateless_uniform([5], seed=[5, 6], minval=-9, maxval=2**40, dtype=tf.int64)",
    "tf.random.stateless_uniform([3], seed=[5, 6], minval=None, maxval=None, dtype=tf.int64)",
    "tf.random.stateless_normal([7], seed=[1, 2])",
    "tf.random.stateless_normal([2, 2], seed=[11, 12], mean=3.0, stddev=0.5)",
    "tf.random.stateless_normal([5], seed=[1, 2], dtype=tf.float64)",
    "tf.random.stateless_truncated_normal([10], seed=[1, 2])",
    "tf.random.stateless_truncated_normal([3, 3], seed=[8, 9], mean=1.0, stddev=2.0)",
    "tf.random.stateless_categorical(tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]), 8, "
    "seed=[1, 2])",
    "tf.random.stateless_categorical([[1.0, -1.0, float('-inf'), 2.0]], 6, seed=[3, 3], "
    "dtype=tf.int32)",
    "g = tf.random.Generator.from_seed(1); (g.state, g.normal([3]), g.state, g.normal([5]))",
    "g = tf.random.Generator.from_seed(7); (g.uniform([4]), g.uniform([2], 1.0, 5.0), "
    "g.uniform([3], minval=0, maxval=10, dtype=tf.int32), g.state)",
    "g = tf.random.Generator.from_seed(3); (g.uniform_full_int([3], tf.int64), "
    "g.uniform_full_int([2]), g.state)",
    "g = tf.random.Generator.from_seed(2**40 + 5); (g.state, g.truncated_normal([6]))",
    "g = tf.random.Generator.from_seed(1); [x.state for x in g.split(2)] + [g.state]",
    "g = tf.random.Generator.from_seed(1); s = g.split(3); (s[1].normal([4]), g.normal([2]))",
    "g = tf.random.Generator.from_seed(5); a = g.normal([3]); g.reset_from_seed(5); "
    "(a, g.normal([3]))",
    "g = tf.random.Generator.from_seed(4); (g.make_seeds(2), g.state)",
    "g = tf.random.Generator.from_seed(4); g.normal([2, 3], dtype=tf.float64)",
    "tf.random.split(tf.constant([1, 2]), 3)",
    "tf.random.split(tf.constant([7, -3], tf.int64))",
    "tf.random.fold_in(tf.constant([1, 2]), 5)",
    "tf.random.fold_in(tf.constant([1, 2], tf.int64), tf.constant(9, tf.int64))",
    "g = tf.random.Generator.from_state([1, 2, 3], tf.random.Algorithm.PHILOX); "
    "(g.uniform([3]), g.state)",
]

_S = "tf.constant(['Hello', 'TensorFlow', ' a b '])"

STRINGS = [
    "tf.constant('abc')",
    "tf.constant(['a', 'bc', ''])",
    "tf.constant([['ab', 'c'], ['d', 'ef']])",
    "tf.constant('abc') + tf.constant('d')",
    "tf.constant(['a', 'b']) + 'x'",
    "'x' + tf.constant(['a', 'b'])",
    "tf.constant(['a', 'b']) == tf.constant(['a', 'c'])",
    "tf.constant(['a', 'b']) != 'a'",
    "tf.constant('a') == 'a'",
    "tf.constant('café')",
    "tf.constant('🥳')",
    "tf.constant(['🥳', 'ü'])",
    f"tf.strings.length({_S})",
    "tf.strings.length(tf.constant('café'))",
    "tf.strings.length(tf.constant('café'), unit='UTF8_CHAR')",
    f"tf.strings.upper({_S})",
    f"tf.strings.lower({_S})",
    f"tf.strings.strip({_S})",
    f"tf.strings.split({_S})",
    "tf.strings.split(tf.constant('a,b,,c'), sep=',')",
    "tf.strings.split(tf.constant(['a b', 'c d e']))",
    "tf.strings.split(tf.constant(['a b', 'c d e'])).to_tensor()",
    "tf.strings.join([tf.constant(['a', 'b']), tf.constant(['c', 'd'])], separator='-')",
    "tf.strings.join(['x', tf.constant(['a', 'b'])])",
    f"tf.strings.reduce_join({_S})",
    "tf.strings.reduce_join(tf.constant([['a', 'b'], ['c', 'd']]), axis=1, separator=' ')",
    f"tf.strings.substr({_S}, 1, 3)",
    "tf.strings.substr(tf.constant('hello'), -3, 2)",
    f"tf.strings.regex_replace({_S}, 'l+', 'L')",
    "tf.strings.regex_replace(tf.constant('a1b22c'), '[0-9]', '#', replace_global=False)",
    "tf.strings.regex_full_match(tf.constant(['abc', 'a1']), '[a-z]+')",
    "tf.strings.to_number(tf.constant(['1.5', '-2', '3e2']))",
    "tf.strings.to_number(tf.constant(['7', '-2']), out_type=tf.int32)",
    "tf.strings.to_number(tf.constant('x'))",
    "tf.strings.as_string(tf.constant([1.5, 2.0]))",
    "tf.strings.as_string(tf.constant([1, 22]))",
    "tf.strings.as_string(tf.constant([True, False]))",
    "tf.strings.as_string(tf.constant([3.14159]), precision=2)",
    "tf.strings.format('x={} y={}', (tf.constant(1), tf.constant([1.5, 2.0])))",
    "tf.strings.format('{}', tf.constant('s'))",
    "tf.strings.unicode_decode(tf.constant('héllo'), 'UTF-8')",
    "tf.strings.unicode_decode(tf.constant(['ab', 'ü']), 'UTF-8')",
    "tf.strings.unicode_encode(tf.constant([104, 105]), 'UTF-8')",
    "tf.strings.unicode_split(tf.constant('añb'), 'UTF-8')",
    "tf.strings.bytes_split(tf.constant('abc'))",
    "tf.io.decode_raw(tf.constant('\\x01\\x02\\x03\\x04'), tf.uint8)",
    "tf.io.decode_raw(tf.constant(['abcd', 'efgh']), tf.int32)",
    "tf.io.decode_raw(tf.constant(np.array([1.5, 2.0], np.float32).tobytes()), tf.float32)",
    "tf.strings.length(tf.constant(['ab', 'c'])).dtype",
    "w = tf.strings.split(tf.constant(['the quick fox', 'jumps'])); "
    "(tf.strings.substr(w, 0, 2), tf.strings.length(w), tf.strings.upper(w))",
    "tf.strings.to_number(tf.strings.split(tf.constant(['1 2', '3'])))",
    "tf.constant(['a', 'b']).dtype",
    "tf.constant(['a', 'b']).numpy()",
    "tf.constant('abc').numpy()",
    "tf.constant(['b', 'a'])[1]",
    "tf.reshape(tf.constant(['a', 'b', 'c', 'd']), (2, 2))",
    "tf.concat([tf.constant(['a']), tf.constant(['b'])], 0)",
]

_R = "tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])"
_RF = "tf.ragged.constant([[1.5, -2.0], [3.0], [], [4.0, 5.0, 6.0]])"

RAGGED = [
    _R, f"str({_R})", f"{_R}.shape", f"{_R}.dtype", f"{_R}.ragged_rank",
    f"{_R}.row_splits", f"{_R}.values", f"{_R}.row_lengths()", f"{_R}.nrows()",
    f"{_R}.value_rowids()", f"{_R}.to_tensor()", f"{_R}.to_list()",
    f"{_R}.to_tensor(default_value=-1)", f"{_R}.bounding_shape()", f"{_R}.flat_values",
    f"{_R}.nested_row_splits", f"type({_R}).__name__", f"repr(type({_R}))",
    f"isinstance({_R}, tf.RaggedTensor)",
    "tf.ragged.constant([[[1, 2], [3]], [[4]]])",
    "tf.ragged.constant([[[1, 2], [3]], [[4]]]).shape",
    "tf.ragged.constant([[1.5], [2.0, 3.0]])",
    "tf.ragged.constant([['a', 'b'], ['c']])",
    "tf.ragged.constant([[1, 2], [3]], dtype=tf.float64)",
    "tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)",
    "tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).shape",
    f"{_R} + 1", f"{_R} * 2", f"{_R} + {_R}", f"-{_R}", f"{_R} == 1", f"2 * {_R}",
    f"{_RF} / 2.0", f"{_R} > 2",
    f"tf.reduce_sum({_R}, axis=1)", f"tf.reduce_mean({_R}, axis=1)",
    f"tf.reduce_max({_R}, axis=1)", f"tf.reduce_min({_R}, axis=1)", f"tf.reduce_sum({_R})",
    f"tf.reduce_prod({_R}, axis=1)", f"tf.reduce_sum({_R}, axis=0)",
    f"tf.reduce_mean({_RF}, axis=1)", f"tf.reduce_max({_RF}, axis=0)",
    f"tf.math.reduce_sum({_R}, axis=1)",
    f"{_R}[0]", f"{_R}[-1]", f"{_R}[1:3]", f"{_R}[:, 0:1]", f"{_R}[::2]",
    "tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 1, 4])",
    "tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [3, 1])",
    "tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=3)",
    "tf.RaggedTensor.from_row_starts([1, 2, 3], [0, 2])",
    "tf.RaggedTensor.from_tensor([[1, 0], [2, 3]], padding=0)",
    "tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 4]], lengths=[1, 2])",
    "tf.RaggedTensor.from_nested_row_splits([1, 2, 3], [[0, 1, 2], [0, 2, 3]])",
    "tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1])",
    "tf.RaggedTensor([1], [0, 1])",
    f"tf.ragged.map_flat_values(tf.math.square, {_R})",
    f"tf.concat([{_R}, tf.ragged.constant([[7]])], axis=0)",
    f"tf.concat([{_R}, {_R}], axis=1)",
    f"len({_R})",
    "[r for r in tf.ragged.constant([[1], [2, 3]])]",
    f"x = {_RF}\nwith tf.GradientTape() as t:\n    t.watch(x.flat_values)\n"
    "    y = tf.reduce_sum(x * x)\nt.gradient(y, x.flat_values)",
    "v = tf.Variable([1.0, 2.0, 3.0])\nwith tf.GradientTape() as t:\n"
    "    r = tf.RaggedTensor.from_row_lengths(v, [2, 1])\n"
    "    y = tf.reduce_sum(tf.reduce_max(r, axis=1) * tf.constant([1.0, 10.0]))\n"
    "t.gradient(y, v)",
    "v = tf.Variable([1.0, 2.0, 3.0])\nwith tf.GradientTape() as t:\n"
    "    r = tf.RaggedTensor.from_row_lengths(v, [2, 0, 1])\n"
    "    y = tf.reduce_sum(r.to_tensor() * tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))\n"
    "t.gradient(y, v)",
]

_ST = ("tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], "
       "dense_shape=[3, 4])")

SPARSE = [
    _ST, f"type({_ST}).__name__", f"repr(type({_ST}))", f"{_ST}.shape", f"{_ST}.dtype",
    f"({_ST}.indices, {_ST}.values, {_ST}.dense_shape)",
    "tf.SparseTensor is tf.sparse.SparseTensor",
    f"tf.sparse.to_dense({_ST})", f"tf.sparse.to_dense({_ST}, default_value=-1.0)",
    "tf.sparse.from_dense(tf.constant([[0, 1], [2, 0]]))",
    f"tf.sparse.reduce_sum({_ST})", f"tf.sparse.reduce_sum({_ST}, axis=1)",
    f"tf.sparse.reduce_sum({_ST}, axis=0, keepdims=True)",
    f"tf.sparse.reduce_max({_ST}, axis=1)",
    f"tf.sparse.sparse_dense_matmul({_ST}, tf.reshape(tf.range(8.0), (4, 2)))",
    f"tf.sparse.sparse_dense_matmul({_ST}, tf.ones((3, 2)), adjoint_a=True)",
    f"tf.sparse.add({_ST}, {_ST})", f"tf.sparse.add({_ST}, tf.ones((3, 4)))",
    "tf.sparse.add(tf.sparse.SparseTensor([[0, 1]], [1.0], [2, 2]), "
    "tf.sparse.SparseTensor([[1, 0], [0, 1]], [2.0, 3.0], [2, 2]))",
    "tf.sparse.reorder(tf.sparse.SparseTensor([[1, 0], [0, 1]], [1, 2], [2, 2]))",
    f"tf.sparse.transpose({_ST})", f"tf.sparse.reshape({_ST}, [4, 3])",
    f"tf.sparse.reshape({_ST}, [-1, 2])",
    "tf.sparse.to_dense(tf.sparse.SparseTensor([[0], [2]], ['a', 'b'], [3]))",
    f"tf.sparse.retain({_ST}, [True, False])", f"tf.sparse.slice({_ST}, [0, 0], [2, 2])",
    f"tf.sparse.maximum({_ST}, {_ST})", f"tf.sparse.expand_dims({_ST}, 0).shape",
    f"tf.sparse.concat(0, [{_ST}, {_ST}])", f"tf.sparse.concat(1, [{_ST}, {_ST}]).shape",
    f"{_ST} * 3.0", f"{_ST} * tf.ones((3, 4)) * 2.0",
    "v = tf.Variable([1.0, 2.0])\nwith tf.GradientTape() as t:\n"
    "    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], v, [3, 4])\n"
    "    y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, tf.reshape(tf.range(8.0), "
    "(4, 2))))\nt.gradient(y, v)",
    "v = tf.Variable([1.0, 2.0])\nb = tf.Variable(tf.ones((4, 2)))\n"
    "with tf.GradientTape() as t:\n"
    "    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], v, [3, 4])\n"
    "    y = tf.reduce_sum(tf.sparse.to_dense(st) ** 2) + "
    "tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, b))\nt.gradient(y, [v, b])",
    "tf.sparse.SparseTensor([[0, 0]], [1.0, 2.0], [2, 2])",
]

_IMG = "tf.constant(np.arange(2 * 3 * 4 * 2, dtype=np.float32).reshape(2, 3, 4, 2) / 10)"
_IMG3 = "tf.constant(np.arange(3 * 5 * 3, dtype=np.float32).reshape(3, 5, 3) / 7)"
_U8 = "tf.constant(np.arange(0, 250, 10, dtype=np.uint8).reshape(1, 5, 5, 1))"


def _image_grad(expr):
    return (f"x = tf.Variable({_IMG})\nw = tf.constant(np.linspace(-1, 1, 120, dtype="
            "np.float32))\nwith tf.GradientTape() as t:\n"
            f"    y = {expr}\n    loss = tf.reduce_sum(tf.reshape(y, [-1]) * w[:tf.size(y)])\n"
            "t.gradient(loss, x)")


IMAGES = [
    f"tf.image.flip_left_right({_IMG})", f"tf.image.flip_up_down({_IMG3})",
    f"tf.image.rot90({_IMG3})", f"tf.image.rot90({_IMG}, k=2)", f"tf.image.rot90({_IMG3}, 3)",
    f"tf.image.central_crop({_IMG3}, 0.5)", f"tf.image.central_crop({_IMG}, 0.7)",
    f"tf.image.resize({_IMG}, [5, 7])", f"tf.image.resize({_IMG3}, [2, 3])",
    f"tf.image.resize({_IMG}, [6, 2], method='nearest')",
    f"tf.image.resize({_IMG}, [3, 3], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)",
    f"tf.image.resize({_U8}, [3, 7], method='nearest')",
    f"tf.image.resize({_U8}, [8, 3])",
    f"tf.image.resize({_IMG3}, [9, 4], preserve_aspect_ratio=True)",
    f"tf.image.adjust_brightness({_IMG}, 0.25)", f"tf.image.adjust_brightness({_U8}, 0.1)",
    f"tf.image.adjust_contrast({_IMG}, 1.7)", f"tf.image.adjust_contrast({_U8}, 0.5)",
    f"tf.image.per_image_standardization({_IMG})",
    f"tf.image.per_image_standardization({_U8})",
    "tf.image.per_image_standardization(tf.ones((2, 2, 1)))",
    f"tf.image.convert_image_dtype({_U8}, tf.float32)",
    "tf.image.convert_image_dtype(tf.constant([0.0, 0.5, 1.0]), tf.uint8)",
    "tf.image.convert_image_dtype(tf.constant([-0.5, 1.5]), tf.uint8, saturate=True)",
    "tf.image.convert_image_dtype(tf.constant([0, 128, 255], tf.uint8), tf.int32)",
    "tf.image.convert_image_dtype(tf.constant([0, 2**30], tf.int32), tf.uint8)",
    "tf.image.convert_image_dtype(tf.constant([0.25], tf.float64), tf.float32)",
    f"tf.image.stateless_random_flip_left_right({_IMG}, seed=[1, 2])",
    f"tf.image.stateless_random_flip_left_right({_IMG}, seed=[3, 4])",
    f"tf.image.stateless_random_flip_up_down({_IMG}, seed=[5, 6])",
    f"tf.image.stateless_random_flip_up_down({_IMG3}, seed=[7, 9])",
    f"tf.image.random_flip_left_right({_IMG}).shape",
    f"tf.image.stateless_random_brightness({_IMG}, 0.3, seed=[1, 2])",
    f"tf.image.stateless_random_brightness({_U8}, 0.3, seed=[5, 2])",
    f"tf.image.stateless_random_contrast({_IMG}, 0.2, 1.8, seed=[3, 2])",
    f"tf.image.stateless_random_crop({_IMG3}, [2, 3, 3], seed=[1, 2])",
    f"tf.image.stateless_random_crop({_IMG}, [2, 2, 2, 1], seed=[4, 7])",
    f"tf.image.random_crop({_IMG3}, [2, 3, 3]).shape",
    f"tf.image.random_brightness({_IMG}, 0.2).shape",
    f"tf.image.random_contrast({_IMG}, 0.5, 1.5).shape",
    f"tf.image.resize_with_crop_or_pad({_IMG3}, 5, 3)",
    f"tf.image.resize_with_crop_or_pad({_IMG}, 2, 6)",
    f"tf.image.rgb_to_grayscale({_IMG3})",
    "tf.image.rgb_to_grayscale(tf.constant([[[10, 200, 30]]], tf.uint8))",
    "tf.image.grayscale_to_rgb(tf.constant([[[0.5], [0.25]]]))",
    f"tf.image.stateless_random_crop({_IMG3}, [4, 3, 3], seed=[1, 2])",
    _image_grad("tf.image.resize(x, [5, 7])"),
    _image_grad("tf.image.resize(x, [2, 3])"),
    _image_grad("tf.image.resize(x, [4, 9], method='nearest')"),
    _image_grad("tf.image.per_image_standardization(x)"),
    _image_grad("tf.image.rot90(tf.image.flip_left_right(x))"),
    _image_grad("tf.image.central_crop(x, 0.5)"),
    _image_grad("tf.image.adjust_contrast(tf.stop_gradient(x), 2.0) * x"),
    _image_grad("tf.image.stateless_random_crop(x, [2, 2, 3, 1], seed=[1, 2])"),
    _image_grad("tf.image.resize_with_crop_or_pad(x, 2, 6)"),
]

NO_GRADIENT = [
    f"x = tf.Variable({_IMG})\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.image.adjust_contrast(x, 2.0))\nt.gradient(y, x)",
]

_Z = "tf.constant([1 + 2j, -3 + 0.5j, -1 - 1j], dtype=tf.complex64)"

COMPLEX = [
    "tf.complex(tf.constant([1.0, 2.0]), tf.constant([3.0, -4.0]))",
    "tf.complex(tf.constant(1.0, tf.float64), tf.constant(2.0, tf.float64))",
    "tf.complex(tf.constant(1.0), tf.constant(2.0, tf.float64))",
    "tf.complex(tf.constant(1), tf.constant(2))",
    _Z, f"tf.math.real({_Z})", f"tf.math.imag({_Z})", f"tf.math.conj({_Z})",
    f"tf.math.angle({_Z})", f"tf.abs({_Z})", f"tf.math.abs({_Z})",
    "tf.math.angle(tf.constant([-2.0, 0.0, 3.0]))",
    "tf.constant(np.complex128(1 - 2j))",
    "tf.Variable([1 + 1j, 2 - 1j])",
    "tf.Variable(tf.complex(1.0, 1.0))",
    f"{_Z} * {_Z}", f"{_Z} + 1", f"{_Z}.dtype.real_dtype",
    "z = tf.Variable([1 + 2j, -3 + 0.5j])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.abs(z) ** 2)\nt.gradient(y, z)",
    "z = tf.Variable([1 + 2j, -3 + 0.5j])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.math.real(z * tf.math.conj(z)))\nt.gradient(y, z)",
    "z = tf.Variable([1 + 2j, -3 + 0.5j])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.math.angle(z))\nt.gradient(y, z)",
    "z = tf.Variable([1 + 2j, -3 + 0.5j])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.abs(z))\nt.gradient(y, z)",
    "z = tf.Variable([1 + 2j, -3 + 0.5j])\nwith tf.GradientTape() as t:\n"
    "    y = tf.math.real(tf.reduce_sum(z * z))\nt.gradient(y, z)",
    "x = tf.Variable([1.0, 2.0]); y = tf.Variable([0.5, -1.0])\n"
    "with tf.GradientTape() as t:\n    z = tf.complex(x, y)\n"
    "    loss = tf.reduce_sum(tf.abs(z * z))\nt.gradient(loss, [x, y])",
    "x = tf.Variable([1.0, 2.0]); y = tf.Variable([0.5, -1.0])\n"
    "with tf.GradientTape() as t:\n    loss = tf.reduce_sum(tf.math.angle(tf.complex(x, y)))"
    "\nt.gradient(loss, [x, y])",
]

BFLOAT16 = [
    "tf.constant(1.5, dtype=tf.bfloat16)",
    "tf.cast(tf.constant([1.1, 2.7]), tf.bfloat16)",
    "tf.cast(tf.constant([1.1, 2.7]), tf.bfloat16) * 3",
    "tf.constant([1.0, 2.0], dtype=tf.bfloat16) + tf.constant([0.5, 0.25], dtype=tf.bfloat16)",
    "tf.bfloat16", "tf.bfloat16.is_floating", "tf.as_dtype('bfloat16')",
    "tf.constant([1.0, 2.0], dtype=tf.bfloat16).numpy().dtype.name",
    "tf.Variable([1.0, 2.0], dtype=tf.bfloat16)",
    "tf.reduce_sum(tf.constant([1.0, 2.0, 3.5], dtype=tf.bfloat16))",
    "tf.cast(tf.constant([1.5], dtype=tf.bfloat16), tf.float32)",
]

# Guide-like programs (written for these tests): what they print is compared whole.
PROGRAMS = [
    "rows = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]\n"
    "try:\n    tf.constant(rows)\nexcept Exception as e:\n    print(type(e).__name__, e)\n"
    "r = tf.ragged.constant(rows)\nprint(r)\nprint(r.shape)\n"
    "print(tf.reduce_mean(tf.cast(r, tf.float32), axis=1))\nprint(r.to_tensor(default_value=-1))",
    "s = tf.constant('Gray wolf')\nt = tf.constant(['Gray wolf', 'Quick brown fox', 'Lazy dog'])\n"
    "print(s)\nprint(t)\nprint(tf.strings.split(s, sep=' '))\nprint(tf.strings.split(t))\n"
    "print(tf.strings.to_number(tf.strings.split(tf.constant('1 10 100'), ' ')))\n"
    "print('Byte strings:', tf.strings.bytes_split(tf.constant('Duck')))\n"
    "print('Bytes:', tf.io.decode_raw(tf.constant('Duck'), tf.uint8))\n"
    "u = tf.constant('アヒル 🦆')\nprint(u)\nprint(tf.strings.unicode_split(u, 'UTF-8'))\n"
    "print(tf.strings.unicode_decode(u, 'UTF-8'))\nprint(repr(tf.constant('🥳👍')))",
    "st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])\n"
    "print(st, '\\n')\nprint(tf.sparse.to_dense(st))\nprint(tf.sparse.reduce_sum(st, axis=1))",
    "x = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)\nh = tf.cast(x, tf.float16)\n"
    "print(tf.cast(h, tf.uint8))\nshape = tf.ones((3, 2, 4)).shape\n"
    "print(shape, tf.reduce_prod(shape), tf.constant(shape))\n"
    "print(tf.TensorSpec(shape, tf.float32))",
    "v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name='m')\nprint(v.assign(v * 2))\n"
    "print(v[0].assign([0.0, 0.0]))\nprint(type(v).__name__, type(v.assign_add(v)).__name__)\n"
    "print(v.scatter_nd_update([[1, 1]], [9.0]))\nprint(v[v > 1.0])",
    "emb = tf.Variable(tf.reshape(tf.range(12.0), (4, 3)))\n"
    "with tf.GradientTape() as tape:\n    rows = tf.gather(emb, [3, 1, 3])\n"
    "    loss = tf.reduce_sum(rows * rows)\ng = tape.gradient(loss, emb)\n"
    "print(type(g).__name__)\nprint(g)\nprint(tf.convert_to_tensor(g))\n"
    "opt = tf.keras.optimizers.SGD(0.1)\nopt.apply_gradients([(g, emb)])\nprint(emb.numpy())",
    "g = tf.random.Generator.from_seed(42)\nprint(np.round(g.normal([2, 2]).numpy(), 5))\n"
    "print(g.uniform([3]))\nprint(g.state)\n"
    "print(np.round(tf.random.stateless_normal([3], seed=[4, 2]).numpy(), 5))\n"
    "print(tf.random.stateless_categorical(tf.math.log([[0.5, 0.5]]), 6, seed=[1, 1]))",
]

BFLOAT16_MATH = [
    "x = tf.constant([1.0, 2.0, -0.5], tf.bfloat16)\n"
    "(tf.exp(x), tf.nn.relu(x), tf.sigmoid(x), tf.nn.softmax(x), tf.math.log(tf.abs(x)))",
    "a = tf.constant([[1.5, 2.0], [0.25, -1.0]], tf.bfloat16)\n(a @ a, tf.reduce_mean(a, 0))",
    "w = tf.Variable([[0.5, -1.0], [2.0, 0.25]], dtype=tf.bfloat16)\n"
    "x = tf.constant([[1.0, 2.0]], tf.bfloat16)\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.tanh(x @ w))\nt.gradient(y, w)",
    "w = tf.Variable([[0.5, -1.0], [2.0, 0.25]])\nwith tf.GradientTape() as t:\n"
    "    y = tf.reduce_sum(tf.square(tf.cast(w, tf.bfloat16)) * 3.0)\nt.gradient(y, w)",
]

PRINTED = {"types": TYPES, "variables": VARIABLES, "indexed_slices": INDEXED_SLICES,
           "strings": STRINGS, "ragged": RAGGED,
           "sparse": SPARSE, "no_gradient": NO_GRADIENT,
           "complex": COMPLEX, "bfloat16": BFLOAT16}
VALUES = {"sparse_training": SPARSE_TRAINING, "random": RANDOM, "images": IMAGES,
          "bfloat16_math": BFLOAT16_MATH}
STDOUT = {"programs": PROGRAMS}
GROUPS = {**PRINTED, **VALUES, **STDOUT}


def first_line(exc) -> str:
    """The first line of an exception's text, without TensorFlow's node-name prefix."""
    lines = str(exc).splitlines()
    return _NODE_PREFIX.sub("", lines[0] if lines else "")


_PRINTED_TYPES = {"TensorShape", "TensorSpec", "RaggedTensor", "SparseTensor",
                  "IndexedSlices", "DType", "RaggedTensorSpec", "SparseTensorSpec"}


def describe(value):
    """The printed forms of a result (tensors, shapes, specs, composites), recursively for
    tuples and lists; Python values by repr."""
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [describe(v) for v in value]}
    name = type(value).__name__
    if (hasattr(value, "numpy") and hasattr(value, "dtype")) or name in _PRINTED_TYPES:
        return {"str": str(value), "repr": _ADDRESS.sub(" at 0x?", repr(value))}
    if type(value).__module__ == "numpy" or name == "ndarray":
        return {"numpy": repr(value)}
    return {"py": repr(value), "type": name}


def values(value):
    """The numbers of a result (tensors or nests of them) for comparison with tolerance."""
    if isinstance(value, (list, tuple)):
        return [values(v) for v in value]
    if hasattr(value, "numpy"):
        arr = value.numpy()
        kind = arr.dtype.kind
        out = arr.astype(float).tolist() if kind in "fb" else arr.tolist()
        if kind == "c":
            out = [[z.real, z.imag] for z in arr.ravel().tolist()]
        return {"values": out, "dtype": value.dtype.name, "shape": list(arr.shape)}
    return {"py": repr(value)}


def run(code, tf, np):
    """The value of ``code``'s last expression, after its statements ran."""
    tree = ast.parse(code)
    last = tree.body.pop()
    env = {"tf": tf, "np": np}
    exec(compile(tree, "<case>", "exec"), env)  # noqa: S102 - a fixed table of cases
    return eval(compile(ast.Expression(last.value), "<case>", "eval"), env)  # noqa: S307


def stdout(code, tf, np):
    """What ``code`` prints (its last line's value too, if not None), or the exception."""
    import contextlib
    import io
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            value = run(code, tf, np)
            if value is not None:
                print(value)
    except Exception as exc:  # noqa: BLE001 - the exception is the recorded answer
        return {"stdout": buf.getvalue(), "error": type(exc).__name__,
                "message": first_line(exc)}
    return {"stdout": buf.getvalue()}


def evaluate(code, tf, np, how=describe):
    """``how`` (describe or values) of ``code``'s value, or the exception it raises."""
    try:
        value = run(code, tf, np)
    except Exception as exc:  # noqa: BLE001 - the exception is the recorded answer
        return {"error": type(exc).__name__, "message": first_line(exc)}
    return how(value)
