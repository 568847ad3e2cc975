"""The ragged and sparse cases recorded from TensorFlow 2.21 (``tools/record_ragged.py``) and
replayed on tapeflow (``tests/ops/test_ragged_dispatch.py``).

Each case is Python source run with ``tf`` bound to the library under test; it leaves its
result in ``out`` (a tensor, a RaggedTensor, a SparseTensor, a shape, a list of them, or a
raised error).
"""

_RT = "rt = tf.ragged.constant([[1, 87, 12], [19, 53], [12, 32]])\n"
_RF = "rf = tf.ragged.constant([[1.5, -2.0, 3.0], [], [4.0, 5.5]])\n"
_R3 = "r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], [[7], [8, 9], []]])\n"
_RU = ("ru = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)\n")
_RS = "rs = tf.ragged.constant([['a', 'bc'], ['def'], []])\n"

CASES = {
    # ------------------------------------------------ element-wise, ragged broadcasting
    "add_scalar": _RT + "out = tf.add(rt, 3)",
    "add_operator_scalar": _RT + "out = rt + 3",
    "radd_scalar": _RT + "out = 3 + rt",
    "add_dense_column": _RT + "out = rt + tf.constant([[1000], [2000], [3000]])",
    "add_dense_column_reflected": _RT + "out = tf.constant([[1000], [2000], [3000]]) + rt",
    "add_dense_row_mismatch": _RT + "out = rt + tf.constant([[1, 2]])",
    "add_ragged_same": _RT + "out = rt + rt * 2",
    "add_ragged_mismatch": _RT + "out = rt + tf.ragged.constant([[1, 2], [3, 4, 5], [1, 2]])",
    "multiply_inner_broadcast": _RU + "out = tf.multiply(ru, tf.constant([10, 100]))",
    "add_inner_column": _RU + "out = ru + tf.constant([[1], [2], [3]])",
    "add_3d_by_rows": _R3 + "out = r3 + tf.constant([[[100]], [[200]], [[300]]])",
    "subtract_float": _RF + "out = tf.subtract(rf, 0.5)",
    "divide_int": _RT + "out = tf.divide(rt, 2)",
    "truediv_operator": _RT + "out = rt / 4",
    "floordiv": _RT + "out = rt // 5",
    "mod": _RT + "out = rt % 5",
    "pow": _RF + "out = rf ** 2",
    "maximum": _RF + "out = tf.maximum(rf, 2.0)",
    "unary_abs": _RF + "out = tf.abs(rf)",
    "unary_neg": _RF + "out = -rf",
    "unary_exp": _RF + "out = tf.math.exp(rf)",
    "unary_sqrt_square": _RF + "out = tf.sqrt(tf.square(rf))",
    "unary_round": _RF + "out = tf.round(rf)",
    "less": _RT + "out = tf.less(rt, 20)",
    "greater_operator": _RT + "out = rt > 20",
    "equal": _RT + "out = tf.equal(rt, 12)",
    "logical_and": _RT + "out = tf.logical_and(rt > 10, rt < 60)",
    "logical_not": _RT + "out = tf.logical_not(rt > 10)",
    "cast": _RT + "out = tf.cast(rt, tf.float32)",
    "math_is_nan": _RF + "out = tf.math.is_nan(rf / 0.0)",
    # ------------------------------------------------ array ops
    "tile": _RT + "out = tf.tile(rt, [2, 2])",
    "tile_rows": _RT + "out = tf.tile(rt, [1, 3])",
    "expand_dims_0": _RT + "out = tf.expand_dims(rt, 0)",
    "expand_dims_0_shape": _RT + "out = tf.expand_dims(rt, 0).shape",
    "expand_dims_1": _RT + "out = tf.expand_dims(rt, 1)",
    "expand_dims_1_shape": _RT + "out = tf.expand_dims(rt, 1).shape",
    "expand_dims_2": _RT + "out = tf.expand_dims(rt, 2)",
    "expand_dims_last": _RT + "out = tf.expand_dims(rt, -1).shape",
    "ones_like": _RF + "out = tf.ones_like(rf)",
    "zeros_like": _RT + "out = tf.zeros_like(rt)",
    "shape": _RT + "out = tf.shape(rt)",
    "shape_3d": _R3 + "out = tf.shape(r3)",
    "shape_uniform_inner": _RU + "out = tf.shape(ru)",
    "shape_dim0": _RT + "out = tf.shape(rt)[0]",
    "shape_ragged_dim": _RT + "out = tf.shape(rt)[1]",
    "size": _RT + "out = tf.size(rt)",
    "rank": _R3 + "out = tf.rank(r3)",
    "reverse_rows": _RT + "out = tf.reverse(rt, [0])",
    "reverse_within": _RT + "out = tf.reverse(rt, [1])",
    "gather_rows": _RT + "out = tf.gather(rt, [2, 0, 2])",
    "gather_ragged_indices": "out = tf.gather(tf.constant(['a', 'b', 'c', 'd']), "
                             "tf.ragged.constant([[1, 0], [], [3]]))",
    "gather_out_of_range": _RT + "out = tf.gather(rt, [3])",
    "boolean_mask_ragged": _RT + "out = tf.boolean_mask(rt, rt > 15)",
    "boolean_mask_rows": _RT + "out = tf.boolean_mask(rt, [True, False, True])",
    "ragged_boolean_mask": _RT + "out = tf.ragged.boolean_mask(rt, rt > 15)",
    "where": _RT + "out = tf.where(rt > 15, rt, tf.zeros_like(rt))",
    "where_scalar_other": _RT + "out = tf.where(rt > 15, rt, -1)",
    "stack_0": _RT + "out = tf.stack([rt, rt * 2])",
    "stack_0_shape": _RT + "out = tf.stack([rt, rt * 2]).shape",
    "stack_1": _RT + "out = tf.stack([rt, rt * 2], axis=1)",
    "ragged_stack": "out = tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4, 5])])",
    "concat_0": _RT + "out = tf.concat([rt, rt], 0)",
    "concat_1": _RT + "out = tf.concat([rt, rt], 1)",
    "embedding_lookup": "out = tf.nn.embedding_lookup(tf.constant([[0., 1.], [2., 3.], "
                        "[4., 5.]]), tf.ragged.constant([[2, 0], [], [1]]))",
    "map_fn_ragged_out": _RT + "out = tf.map_fn(lambda r: r * 2, rt)",
    "map_fn_dense_out": _RT + "out = tf.map_fn(lambda r: tf.reduce_sum(r), rt, "
                              "fn_output_signature=tf.int32)",
    "map_fn_spec": "out = tf.map_fn(lambda n: tf.range(n), tf.constant([1, 3, 0]), "
                   "fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32))",
    "reduce_sum_0": _RT + "out = tf.reduce_sum(rt, axis=0)",
    "reduce_sum_1": _RT + "out = tf.reduce_sum(rt, axis=1)",
    "reduce_mean_1": _RF + "out = tf.reduce_mean(rf, axis=1)",
    "reduce_max_3d_2": _R3 + "out = tf.reduce_max(r3, axis=2)",
    "reduce_sum_3d_1": _R3 + "out = tf.reduce_sum(r3, axis=1)",
    # ------------------------------------------------ strings
    "strings_join": _RS + "out = tf.strings.join([rs, 'x'])",
    "strings_join_two": _RS + "out = tf.strings.join([rs, rs], separator='-')",
    "strings_length": _RS + "out = tf.strings.length(rs)",
    "strings_upper": _RS + "out = tf.strings.upper(rs)",
    "strings_substr": _RS + "out = tf.strings.substr(rs, 0, 2)",
    "strings_split": "out = tf.strings.split(tf.constant(['a b c', 'd', '']))",
    "strings_to_tensor": _RS + "out = rs.to_tensor()",
    "strings_print": _RS + "out = rs",
    "unicode_decode": "out = tf.strings.unicode_decode(tf.constant(['hé', 'abc']), 'UTF-8')",
    # ------------------------------------------------ slicing
    "slice_row": _RT + "out = rt[1]",
    "slice_rows": _RT + "out = rt[1:]",
    "slice_inner": _RT + "out = rt[:, 1:]",
    "slice_inner_negative": _RT + "out = rt[:, -1]",
    "slice_value": _RT + "out = rt[0, 2]",
    "slice_3d": _R3 + "out = r3[:, 1:, 0]",
    "slice_3d_first": _R3 + "out = r3[:, :1, 0]",
    "slice_3d_inner": _R3 + "out = r3[:, 1:]",
    "slice_3d_row": _R3 + "out = r3[2, 1]",
    "slice_3d_innermost": _R3 + "out = r3[:, :, 1:]",
    "slice_uniform_inner": _RU + "out = ru[:, :, 0]",
    "slice_ellipsis": _RU + "out = ru[..., 1]",
    "slice_short_row_error": _RT + "out = rt[:, 2]",
    # ------------------------------------------------ constructors and methods
    "from_sparse": "out = tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor("
                   "[[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 4]))",
    "to_sparse": _RT + "out = rt.to_sparse()",
    "to_sparse_3d": _R3 + "out = r3.to_sparse()",
    "from_uniform_row_length": "out = tf.RaggedTensor.from_uniform_row_length(tf.range(6), 2)",
    "from_uniform_row_length_shape": "out = tf.RaggedTensor.from_uniform_row_length("
                                     "tf.range(6), 2).shape",
    "uniform_row_length": "out = tf.RaggedTensor.from_uniform_row_length(tf.range(6), 3)"
                          ".uniform_row_length",
    "uniform_row_length_none": _RT + "out = [rt.uniform_row_length]",
    "from_nested_row_lengths": "out = tf.RaggedTensor.from_nested_row_lengths("
                               "[1, 2, 3, 4, 5], [[2, 1], [2, 0, 3]])",
    "nested_row_splits": _R3 + "out = list(r3.nested_row_splits)",
    "nested_row_lengths": _R3 + "out = list(r3.nested_row_lengths())",
    "merge_dims_01": _R3 + "out = r3.merge_dims(0, 1)",
    "merge_dims_12": _R3 + "out = r3.merge_dims(1, 2)",
    "merge_dims_all": _R3 + "out = r3.merge_dims(0, -1)",
    "with_flat_values": _R3 + "out = r3.with_flat_values(tf.range(9) * 10)",
    "with_row_splits_dtype": _RT + "out = rt.with_row_splits_dtype(tf.int32).row_splits",
    "row_splits_dtype": _RT + "out = [rt.with_row_splits_dtype(tf.int32).row_splits.dtype]",
    "ragged_range": "out = tf.ragged.range([1, 3], [4, 5])",
    "ragged_range_delta": "out = tf.ragged.range([0, 5, 8], 10, [2, 1, 3])",
    "ragged_range_float": "out = tf.ragged.range([0.5, 1.0], 2.0, 0.5)",
    "ragged_range_one": "out = tf.ragged.range([3, 0, 2])",
    "stack_dynamic_partitions": "out = tf.ragged.stack_dynamic_partitions("
                                "['a', 'b', 'c', 'd', 'e'], [3, 0, 3, 2, 0], 4)",
    "row_splits_to_segment_ids": "out = tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5])",
    "segment_ids_to_row_splits": "out = tf.ragged.segment_ids_to_row_splits([0, 0, 2])",
    "bounding_shape": _R3 + "out = r3.bounding_shape()",
    "to_list": _R3 + "out = repr(r3.to_list())",
    "to_tensor_default": _RF + "out = rf.to_tensor(default_value=-1.0)",
    "numpy_repr": "out = repr(tf.ragged.constant([[1.5], [2.0]]).numpy())",
    "from_row_splits_not_monotonic": "out = tf.RaggedTensor.from_row_splits([1, 2, 3], "
                                     "[0, 2, 1])",
    "from_row_splits_bad_end": "out = tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2])",
    # ------------------------------------------------ shapes and partitions
    "drs_from_lengths": "out = tf.experimental.DynamicRaggedShape.from_lengths("
                        "[3, (2, 0, 1), 4])",
    "drs_num_row_partitions": "s = tf.experimental.DynamicRaggedShape.from_lengths("
                              "[3, (2, 0, 1), 4])\nout = [s.num_row_partitions, s.rank]",
    "drs_index": "out = tf.experimental.DynamicRaggedShape.from_lengths([3, (2, 0, 1), 4])[2]",
    "drs_index_ragged": "out = tf.experimental.DynamicRaggedShape.from_lengths("
                        "[3, (2, 0, 1), 4])[1]",
    "drs_from_tensor": "out = tf.experimental.DynamicRaggedShape.from_tensor(tf.zeros([2, 3]))",
    "drs_uniform": "out = tf.experimental.DynamicRaggedShape.from_lengths([2, 2, (1, 2, 3, 4)])",
    "drs_inner_shape": _RU + "out = tf.experimental.DynamicRaggedShape.from_tensor(ru)"
                             ".inner_shape",
    "drs_row_partitions": "out = list(tf.experimental.DynamicRaggedShape.from_lengths("
                          "[2, (1, 2)]).row_partitions)",
    "rp_from_row_lengths": "out = tf.experimental.RowPartition.from_row_lengths([2, 0, 1])",
    "rp_uniform": "out = tf.experimental.RowPartition.from_uniform_row_length(2, 6)",
    "rp_queries": "p = tf.experimental.RowPartition.from_row_splits([0, 2, 5])\n"
                  "out = [p.nvals(), p.nrows(), p.row_lengths(), p.value_rowids()]",
    "rp_from_value_rowids": "out = tf.experimental.RowPartition.from_value_rowids("
                            "[0, 0, 2], nrows=4).row_splits()",
    # ------------------------------------------------ gradients
    "grad_broadcast_dense": _RF + "d = tf.constant([[2.0], [3.0], [4.0]])\n"
                            "with tf.GradientTape() as t:\n    t.watch(d)\n"
                            "    y = tf.reduce_sum((rf * d) ** 2)\nout = t.gradient(y, d)",
    "grad_flat_values": "v = tf.constant([1.0, 2.0, 3.0, 4.0])\n"
                        "with tf.GradientTape() as t:\n    t.watch(v)\n"
                        "    rt = tf.RaggedTensor.from_row_lengths(v, [3, 1])\n"
                        "    y = tf.reduce_sum(tf.reduce_max(tf.tile(rt, [2, 2]), axis=1) ** 2)\n"
                        "out = tf.convert_to_tensor(t.gradient(y, v))",
    "grad_gather_slice": "v = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])\n"
                         "with tf.GradientTape() as t:\n    t.watch(v)\n"
                         "    rt = tf.RaggedTensor.from_row_lengths(v, [2, 0, 3])\n"
                         "    y = tf.reduce_sum(tf.gather(rt, [2, 0])[:, 1:] * 3.0)\n"
                         "out = tf.convert_to_tensor(t.gradient(y, v))",
    "grad_embedding": "p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\n"
                      "with tf.GradientTape() as t:\n    t.watch(p)\n"
                      "    e = tf.nn.embedding_lookup(p, tf.ragged.constant([[2, 0], [2]]))\n"
                      "    y = tf.reduce_sum(tf.reduce_mean(e, axis=1) ** 2)\n"
                      "out = tf.convert_to_tensor(t.gradient(y, p))",
    # ------------------------------------------------ sparse
    "sparse_map_values": "st = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.0, -2.0], [3, 2])\n"
                         "out = tf.sparse.map_values(tf.abs, st)",
    "sparse_abs": "st = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.0, -2.0], [3, 2])\n"
                  "out = tf.abs(st)",
    "sparse_cast": "st = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1, -2], [3, 2])\n"
                   "out = tf.cast(st, tf.float64)",
    "sparse_to_dense": "st = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1, -2], [3, 2])\n"
                       "out = tf.sparse.to_dense(st)",
    # ------------------------------------------------ tf.function
    "function_ragged_args": _RT + "@tf.function\ndef f(x):\n"
                            "    return tf.reduce_sum(x, axis=1), x * 2\n"
                            "out = [f(rt), f(rt + 1), f(tf.ragged.constant([[1], [2, 3]]))]",
    "function_input_signature": _RT + "@tf.function(input_signature=[tf.RaggedTensorSpec("
                                "shape=[None, None], dtype=tf.int32)])\n"
                                "def f(x):\n    return tf.reduce_max(x, axis=-1)\n"
                                "out = [f(rt), f(tf.ragged.constant([[5], [], [1, 2]]))]",
    "function_signature_refuses_dense": "@tf.function(input_signature=[tf.RaggedTensorSpec("
                                        "shape=[None, None], dtype=tf.int32)])\n"
                                        "def f(x):\n    return x\n"
                                        "out = f(tf.ragged.constant([[1.0]]))",
    "function_concrete": _RT + "@tf.function\ndef f(x):\n    return x + 1\n"
                         "out = f.get_concrete_function(rt)(rt)",
    "function_data_dependent_rows": "@tf.function\ndef f(x):\n"
                                    "    return tf.ragged.boolean_mask(x, x > 1)\n"
                                    "out = [f(tf.constant([[1, 2], [3, 0]])), "
                                    "f(tf.constant([[3, 2], [1, 0]]))]",
    "function_sparse_arg": "st = tf.sparse.SparseTensor([[0, 1], [1, 0]], [-1.0, 2.0], [2, 2])\n"
                           "@tf.function\ndef f(s):\n"
                           "    return tf.sparse.reduce_sum(s), tf.abs(s)\n"
                           "out = list(f(st))",
    "function_palindrome": "digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])\n"
                           "@tf.function\ndef f(x, axis):\n"
                           "    return tf.concat([x, tf.reverse(x, [axis])], axis)\n"
                           "out = [f(digits, axis=1), f(digits, axis=0)]",
    # ------------------------------------------------ DynamicRaggedShape as a shape argument
    "zeros_of_ragged_shape": "rt = tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]])\n"
                             "out = tf.zeros(tf.shape(rt))",
    "ones_of_ragged_shape": "rt = tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]])\n"
                            "out = tf.ones(tf.shape(rt), tf.int64)",
    "fill_ragged_shape": "rt = tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]])\n"
                         "out = tf.fill(tf.shape(rt), 'x')",
    "reshape_to_ragged_shape": "rt = tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]])\n"
                               "out = tf.reshape(tf.range(6), tf.shape(rt))",
    "to_tensor_string_default": _RS + "out = rs.to_tensor(default_value='', shape=[None, 4])",
    "to_tensor_string_pad": _RS + "out = rs.to_tensor(default_value='-')",
    "from_tensor_padding": "out = tf.RaggedTensor.from_tensor([[1, 3, -1, -1], [2, -1, -1, -1],"
                           " [4, 5, 8, 9]], padding=-1)",
    "from_tensor_lengths": "out = tf.RaggedTensor.from_tensor([[1, 3, 0], [2, 0, 0]], "
                           "lengths=[2, 1])",
    "drs_constructor": "out = tf.experimental.DynamicRaggedShape(row_partitions=["
                       "tf.experimental.RowPartition.from_row_lengths([5, 3, 2])], "
                       "inner_shape=[10, 8])",
    "drs_slice": "rt = tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]])\n"
                 "out = tf.shape(rt)[:1]",
    "assert_summarize_3": "x = tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]])\n"
                          "out = x + tf.constant([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])",
    "ragged_3d_bcast_inner": "x = tf.ragged.constant([[[[1], [2]], [], [[3]], [[4]]], "
                             "[[[5], [6]], [[7]]]], ragged_rank=2)\n"
                             "out = x + tf.constant([10, 20, 30])",
    # ------------------------------------------------ more dispatched ops
    "squeeze_0": _RT + "out = tf.squeeze(tf.expand_dims(rt, 0), [0])",
    "squeeze_no_axis": _RT + "out = tf.squeeze(tf.expand_dims(rt, 0))",
    "unique_refused": _RT + "out = tf.unique(rt)",
    "argmax_refused": _RT + "out = tf.argmax(rt, axis=1)",
    "sort_refused": _RT + "out = tf.sort(rt)",
    "strings_split_ragged": "out = tf.strings.split(tf.ragged.constant([['a b', 'c'], "
                            "['d e f']]))",
    "unicode_decode_ragged": "out = tf.strings.unicode_decode(tf.ragged.constant([['h\u00e9'], "
                             "[]]), 'UTF-8')",
    "unicode_encode_ragged": "out = tf.strings.unicode_encode(tf.ragged.constant([[104, 233], "
                             "[97]]), 'UTF-8')",
    "reduce_join_ragged": "out = tf.strings.reduce_join(tf.ragged.constant([['a b', 'c'], "
                          "['d e f']]), axis=1)",
    "reduce_any_1": _RT + "out = tf.reduce_any(rt > 50, axis=1)",
    "reduce_all_1": _RT + "out = tf.reduce_all(rt > 10, axis=1)",
    "reduce_any_empty_rows": _RF + "out = [tf.reduce_any(rf > 0, axis=1), "
                             "tf.reduce_all(rf > 0, axis=1)]",
    "reduce_variance_1": _RT + "out = tf.math.reduce_variance(tf.cast(rt, tf.float32), axis=1)",
    "reduce_std_1": _RF + "out = tf.math.reduce_std(rf, axis=1)",
    "clip_by_value": _RT + "out = tf.clip_by_value(rt, 10, 50)",
    "cumsum_1": _RT + "out = tf.math.cumsum(rt, axis=1)",
    "cumsum_exclusive_reverse": _RF + "out = [tf.math.cumsum(rf, axis=1, exclusive=True), "
                                "tf.math.cumsum(rf, axis=1, reverse=True), "
                                "tf.math.cumsum(rf, axis=-1, exclusive=True, reverse=True)]",
    "one_hot": _RT + "out = tf.one_hot(rt % 3, 3)",
    "nn_relu": _RT + "out = tf.nn.relu(rt - 20)",
    "as_string": _RT + "out = tf.strings.as_string(rt)",
    "size_int64": _RT + "out = tf.size(rt, out_type=tf.int64)",
    "bincount": _RT + "out = tf.math.bincount(rt % 5)",
    "add_n": _RT + "out = tf.add_n([rt, rt, rt])",
    "nrows_int32": _RT + "out = rt.nrows(out_type=tf.int32)",
    "dynamic_partition": _RT + "out = tf.dynamic_partition(rt, [0, 1, 0], 2)",
    "ragged_boolean_mask_dense": "out = tf.ragged.boolean_mask(tf.constant([[1, 2], [3, 4]]), "
                                 "tf.constant([[True, False], [True, True]]))",
    "concat_dense_list": _RT + "out = tf.concat([rt, [[5, 3]]], axis=0)",
    "reduce_mean_int": _RT + "out = tf.reduce_mean(rt, axis=1)",
    "grad_cumsum": "v = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])\n"
                   "with tf.GradientTape() as t:\n    t.watch(v)\n"
                   "    rt = tf.RaggedTensor.from_row_lengths(v, [2, 0, 3])\n"
                   "    y = tf.reduce_sum(tf.math.cumsum(rt, axis=1) * rt)\n"
                   "out = t.gradient(y, v)",
    "grad_variance": "v = tf.constant([1.0, 2.0, 4.0, 4.0, 5.0])\n"
                     "with tf.GradientTape() as t:\n    t.watch(v)\n"
                     "    rt = tf.RaggedTensor.from_row_lengths(v, [2, 3])\n"
                     "    y = tf.reduce_sum(tf.math.reduce_variance(rt, axis=1))\n"
                     "out = t.gradient(y, v)",
    "gather_nd_values": _RT + "out = tf.gather_nd(rt, [[0, 1], [2, 0]])",
    "gather_nd_rows": _RT + "out = tf.gather_nd(rt, [[1]])",
    "ragged_cross": "out = tf.ragged.cross([tf.ragged.constant([['a'], ['b', 'c']]), "
                    "tf.ragged.constant([['d', 'f'], ['e']])])",
    "ragged_cross_dense": "out = tf.ragged.cross([tf.ragged.constant([['a'], ['b', 'c']]), "
                          "tf.constant([[1], [2]])])",
    "sparse_neg_refused": "out = -tf.sparse.SparseTensor([[0]], [1.0], [2])",
    "equality": _RT + "out = [rt == rt, rt != 1, rt == tf.ragged.constant([[1], [2]]), "
                "rt != tf.ragged.constant([[1], [2]])]",
}
