"""Programs that misuse the API, run under TensorFlow 2.21 and under tapeflow.

``tools/record_errors.py`` runs each one with ``tf`` bound to TensorFlow and
stores the exception's class and message (or what it printed, when TensorFlow accepts the
program) in ``tests/fixtures/errors/errors.json``; ``tests/test_errors.py`` runs the same
text with ``tf`` bound to tapeflow and compares. Each snippet runs with ``tf`` and ``np`` in
scope, after ``tf.keras.backend.clear_session()`` (layer names restart at ``dense``).

How a case is compared (its third field):
  ``exact``  the class and the whole message (tapeflow may add ``\\nHint: ...`` lines);
  ``first_line``  the class and the first line (TensorFlow dumps the op's NodeDef after it);
  ``keras``  Keras re-raised an error from inside ``call()`` with its argument report: the
             class, the first line and the original message's first line (between the
             bold marks; TensorFlow's NodeDef dump after it is not compared);
  ``names:ARG``  the class; TensorFlow's text is an accident of its implementation (an
             ``AttributeError`` about ``.shape``, an op-dependent shape message), so
             tapeflow's message is its own and must name ``ARG``.
"""

# (name, code, how)
TAPE = [
    ("stop_recording_never_entered", """
t = tf.GradientTape()
with t.stop_recording():
    pass
""", "exact"),
    ("stop_recording_after_exit", """
x = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
with t.stop_recording():
    pass
""", "exact"),
    ("stop_recording_nested", """
x = tf.constant(1.0)
with tf.GradientTape() as t:
    with t.stop_recording():
        with t.stop_recording():
            pass
""", "exact"),
    ("reset_never_entered", """
t = tf.GradientTape()
t.reset()
""", "exact"),
    ("reset_after_exit", """
x = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.reset()
""", "exact"),
    ("reset_inside_stop_recording", """
with tf.GradientTape() as t:
    with t.stop_recording():
        t.reset()
""", "exact"),
    ("gradient_of_a_source_itself", """
v = tf.Variable(2.0)
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as t:
    y = v * 1.0
print(t.gradient(v, v), t.gradient(x, x), t.gradient([y, v], [v, x]))
""", "exact"),
    ("reset_inside_context_then_gradient", """
x = tf.constant(2.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    t.reset()
    t.watch(x)
    z = x * x * x
print(t.gradient(z, x))
""", "exact"),
    ("reenter_active_tape", """
t = tf.GradientTape()
with t:
    with t:
        pass
""", "exact"),
    ("second_gradient_nonpersistent", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(y, x)
t.gradient(y, x)
""", "exact"),
    ("second_jacobian_nonpersistent", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.jacobian(y, x)
t.jacobian(y, x)
""", "exact"),
    ("gradient_inside_context_then_again", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    g = t.gradient(y, x)
    z = y * 2.0
t.gradient(z, x)
""", "exact"),
    ("jacobian_no_pfor_nonpersistent", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.jacobian(y, x, experimental_use_pfor=False)
""", "exact"),
    ("unknown_unconnected_gradients", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(y, x, unconnected_gradients="bogus")
""", "exact"),
    ("watch_a_float", """
with tf.GradientTape() as t:
    t.watch(3.0)
""", "exact"),
    ("gradient_of_a_float", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(3.0, x)
""", "exact"),
    ("gradient_of_an_int", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(3, x)
""", "exact"),
    ("gradient_of_a_string", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient("a", x)
""", "exact"),
    ("gradient_of_none", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(None, x)
""", "exact"),
    ("gradient_of_list_with_none", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient([y, None], x)
""", "exact"),
    ("gradient_of_ndarray", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(np.ones(2), x)
""", "exact"),
    ("gradient_wrt_float", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(y, 3.0)
""", "exact"),
    ("gradient_wrt_none_in_list", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(y, [x, None])
""", "exact"),
    ("gradient_wrt_ndarray", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(y, np.ones(2))
""", "exact"),
    ("output_gradients_wrong_shape", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(y, x, output_gradients=tf.ones((3,)))
""", "names:output_gradients"),
    ("output_gradients_wrong_shape_2d", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(y, x, output_gradients=tf.ones((2, 2)))
""", "names:output_gradients"),
    ("output_gradients_wrong_shape_second_target", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    z = tf.reduce_sum(x)
t.gradient([y, z], x, output_gradients=[tf.ones(3), tf.constant(2.0)])
""", "names:output_gradients"),
    ("output_gradients_wrong_dtype", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.gradient(y, x, output_gradients=tf.ones((2,), dtype=tf.float64))
""", "names:output_gradients"),
    ("output_gradients_none_in_list", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    z = tf.reduce_sum(x)
print(t.gradient([y, z], x, output_gradients=[None, tf.constant(2.0)]))
""", "exact"),
    ("output_gradients_scalar_broadcasts", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
print(t.gradient(y, x, output_gradients=tf.constant(3.0)))
""", "exact"),
    ("forward_accumulator_reentered", """
x = tf.constant(1.0)
with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
    y = x * 2.0
    with acc:
        pass
""", "exact"),
    ("forward_accumulator_jvp_of_float", """
x = tf.constant(1.0)
with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
    y = x * 2.0
acc.jvp(3.0)
""", "exact"),
    ("forward_accumulator_unknown_unconnected", """
x = tf.constant(1.0)
with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
    y = x * 2.0
acc.jvp(y, unconnected_gradients="bogus")
""", "exact"),
    ("forward_accumulator_tangent_dtype", """
tf.autodiff.ForwardAccumulator(tf.constant([1.0, 2.0]), tf.constant([1, 2]))
""", "exact"),
    ("custom_gradient_too_many_gradients", """
@tf.custom_gradient
def f(x):
    return x * 2.0, lambda dy: (dy, dy)
x = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = f(x)
t.gradient(y, x)
""", "exact"),
    ("batch_jacobian_scalar_target", """
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.reduce_sum(x * x)
t.batch_jacobian(y, x)
""", "exact"),
    ("batch_jacobian_rank1_target", """
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.reduce_sum(x, axis=1)
t.batch_jacobian(y, x)
""", "exact"),
    ("batch_jacobian_rank1_both", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.batch_jacobian(y, x)
""", "exact"),
    ("batch_jacobian_scalar_source", """
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.batch_jacobian(y, tf.constant(1.0))
""", "exact"),
    ("batch_jacobian_first_dims_differ", """
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as t:
    t.watch(x)
    y = x[:1] * 2.0
t.batch_jacobian(y, x)
""", "exact"),
    ("batch_jacobian_no_pfor_nonpersistent", """
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.batch_jacobian(y, x, experimental_use_pfor=False)
""", "exact"),
    ("batch_jacobian_list_target", """
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.batch_jacobian([y], x)
""", "names:target"),
    ("batch_jacobian_list_source", """
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.batch_jacobian(y, [x])
""", "names:source"),
    ("jacobian_list_target", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    z = x + 1.0
t.jacobian([y, z], x)
""", "names:target"),
    ("jacobian_dict_target", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.jacobian({"a": y}, x)
""", "names:target"),
    ("jacobian_float_target", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.jacobian(3.0, x)
""", "names:target"),
    ("jacobian_none_target", """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
t.jacobian(None, x)
""", "names:target"),
]

SHAPES = [
    ("transpose_perm_out_of_range", "tf.transpose(tf.ones((2, 3)), perm=[0, 2])", "exact"),
    ("transpose_perm_repeated", "tf.transpose(tf.ones((2, 3)), perm=[0, 0])", "exact"),
    ("concat_ranks_differ", "tf.concat([tf.ones((2, 3)), tf.ones((2, 3, 1))], axis=0)",
     "exact"),
    ("concat_axis_out_of_range", "tf.concat([tf.ones((2, 3)), tf.ones((2, 3))], axis=2)",
     "exact"),
    ("batch_matmul_batch_dims", "tf.matmul(tf.ones((2, 2, 3)), tf.ones((3, 3, 2)))", "exact"),
    ("invert_permutation_duplicated", "tf.math.invert_permutation([2, 0, 3, 1, 1])", "exact"),
    ("invert_permutation_out_of_range", "tf.math.invert_permutation([0, -1, 1])", "exact"),
    ("reverse_sequence_too_long",
     "tf.reverse_sequence(tf.ones((2, 3)), [4, 1], seq_axis=1)", "exact"),
    ("reverse_sequence_negative",
     "tf.reverse_sequence(tf.ones((2, 3)), [-1, 1], seq_axis=1)", "exact"),
    ("reverse_sequence_negative_seq_axis",
     "tf.reverse_sequence(tf.ones((2, 3)), [1, 2], seq_axis=-1)", "exact"),
    ("reverse_sequence_batch_axis_out_of_range",
     "tf.reverse_sequence(tf.ones((2, 3)), [1, 2], seq_axis=1, batch_axis=2)", "exact"),
    ("reverse_sequence_same_axes",
     "tf.reverse_sequence(tf.ones((2, 3)), [1, 2], seq_axis=0)", "exact"),
    ("reverse_sequence_seq_axis_out_of_range",
     "tf.reverse_sequence(tf.ones((2, 3)), [1, 2], seq_axis=2)", "exact"),
    ("reverse_sequence_lengths_size",
     "tf.reverse_sequence(tf.ones((2, 3)), [1, 2, 3], seq_axis=1)", "exact"),
    ("gather_axis_out_of_range", "tf.gather(tf.ones((3, 2)), [0], axis=2)", "exact"),
    ("gather_negative_index", "tf.gather(tf.ones((3, 2)), [-1])", "exact"),
    ("gather_index_out_of_range", "tf.gather(tf.ones((3, 2)), [[0, 3]])", "exact"),
    ("broadcast_to_incompatible", "tf.broadcast_to(tf.ones((2, 3)), (4, 3))", "exact"),
    ("reshape_two_unknowns", "tf.reshape(tf.ones((2, 3)), (-1, -1))", "exact"),
    ("reshape_not_a_multiple", "tf.reshape(tf.ones((2, 3)), (5, -1))", "exact"),
    ("split_uneven", "tf.split(tf.ones((5, 2)), 2)", "exact"),
    ("tile_wrong_length", "tf.tile(tf.ones((2, 3)), [2])", "exact"),
    ("slice_too_large", "tf.slice(tf.ones((2, 3)), [0, 0], [3, 1])", "exact"),
    ("squeeze_not_one", "tf.squeeze(tf.ones((2, 3)), axis=0)", "exact"),
    ("where_not_broadcastable",
     "tf.where(tf.constant([True, False]), tf.ones((3,)), tf.ones((3,)))", "exact"),
    ("zeros_negative_dim", "tf.zeros((-1, 2))", "exact"),
    ("random_normal_negative_dim", "tf.random.normal((2, -3))", "exact"),
    ("random_uniform_int_empty_range",
     "tf.random.uniform((2,), minval=5, maxval=3, dtype=tf.int32)", "exact"),
    ("softmax_xent_shapes",
     "tf.nn.softmax_cross_entropy_with_logits(labels=tf.ones((2, 3)), logits=tf.ones((2, 4)))",
     "exact"),
    ("sparse_softmax_xent_label_shape",
     "tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0, 1, 2]), "
     "logits=tf.ones((2, 4)))", "exact"),
    ("reduce_duplicate_axes", "tf.reduce_sum(tf.ones((2, 3)), axis=[0, 0])", "exact"),
    ("reshape_float_shape", "tf.reshape(tf.ones((2, 3)), (2.0, 3))", "first_line"),
    ("index_too_many_dims", "tf.ones((2, 3))[:, :, 0]", "exact"),
    ("gather_float_indices", "tf.gather(tf.ones((3,)), [1.0])", "first_line"),
    ("random_normal_int_dtype", "tf.random.normal((2,), dtype=tf.int32)", "exact"),
    ("stack_axis_out_of_range", "tf.stack([tf.ones((2,)), tf.ones((2,))], axis=3)", "exact"),
    ("mse_shapes", "tf.keras.losses.MeanSquaredError()(tf.ones((2, 3)), tf.ones((2, 4)))",
     "exact"),
    ("sparse_cce_shapes", "tf.keras.losses.SparseCategoricalCrossentropy()("
     "tf.constant([0, 1, 2]), tf.ones((2, 4)))", "exact"),
    ("cce_shapes", "tf.keras.losses.CategoricalCrossentropy()(tf.ones((2, 3)), tf.ones((2, 4)))",
     "exact"),
    ("bce_shapes", "tf.keras.losses.BinaryCrossentropy()(tf.ones((2, 3)), tf.ones((2, 4)))",
     "exact"),
]

CONVERSIONS = [
    ("constant_mixed_types", 'tf.constant([1, "a"])', "exact"),
    ("constant_none_in_list", "tf.constant([1, None])", "exact"),
    ("constant_int_too_large", "tf.constant(2**63)", "exact"),
    ("constant_ints_too_large_in_list", "tf.constant([1, 2**70])", "exact"),
    ("constant_huge_int_among_floats", "print(tf.constant([1.5, 2**70]))", "exact"),
    ("constant_wraps_int32_list", "print(tf.constant([1, 2**40], dtype=tf.int32))", "exact"),
    ("constant_float_overflows_to_inf", "print(tf.constant(1e40, dtype=tf.float32))", "exact"),
    ("constant_one_as_bool", "tf.constant(1, dtype=tf.bool)", "exact"),
    ("constant_non_rectangular", "tf.constant([[1, 2], [3]])", "exact"),
    ("constant_dict", 'tf.constant({"a": 1})', "exact"),
    ("constant_string_as_float", 'tf.constant("a", dtype=tf.float32)', "exact"),
    ("constant_float_as_int", "tf.constant(1.5, dtype=tf.int32)", "exact"),
    ("constant_floats_as_int", "tf.constant([1.5, 2.0], dtype=tf.int32)", "exact"),
    ("constant_wraps_int8", "print(tf.constant(300, dtype=tf.int8))", "exact"),
    ("constant_wraps_uint8", "print(tf.constant(-1, dtype=tf.uint8))", "exact"),
    ("constant_2_31_is_int64", "print(tf.constant(2**31))", "exact"),
    ("convert_tensor_to_other_dtype",
     "tf.convert_to_tensor(tf.constant(1.5), dtype=tf.int32)", "exact"),
    ("ones_shape_with_string", 'tf.ones((2, "a"))', "exact"),
    ("cast_to_bogus_dtype", 'tf.cast(tf.constant(1.0), "bogus")', "exact"),
    ("variable_int_assign_float", "v = tf.Variable(1)\nv.assign(1.5)", "exact"),
    ("variable_int_assign_float_tensor", "v = tf.Variable(1)\nv.assign(tf.constant(1.5))",
     "exact"),
    ("variable_float_assign_int_tensor",
     "v = tf.Variable(1.0)\nv.assign(tf.constant(1, dtype=tf.int32))", "exact"),
    ("variable_float_assign_add_float64",
     "v = tf.Variable(1.0)\nv.assign_add(tf.constant(1.0, dtype=tf.float64))", "exact"),
    ("variable_assign_wrong_shape", "v = tf.Variable([1.0, 2.0])\nv.assign([1.0, 2.0, 3.0])",
     "exact"),
    ("variable_assign_add_wrong_shape",
     "v = tf.Variable([1.0, 2.0])\nv.assign_add([1.0, 2.0, 3.0])", "exact"),
    ("variable_assign_string", 'v = tf.Variable(1.0)\nv.assign("a")', "exact"),
    ("variable_none", "tf.Variable(None)", "exact"),
    ("variable_mixed_types", 'tf.Variable([1, "a"])', "exact"),
    ("variable_float_as_int", "tf.Variable(1.0, dtype=tf.int32)", "exact"),
    ("variable_shape_mismatch", "tf.Variable(1.0, shape=(2,))", "exact"),
    ("cast_string_to_float", 'tf.cast(tf.constant(["1.5"]), tf.float32)', "exact"),
    ("cast_float_to_string", "tf.cast(tf.constant([1.5]), tf.string)", "exact"),
    ("cast_python_string_to_float", 'tf.cast("a", tf.float32)', "exact"),
]

KERAS = [
    ("dense_rank1_input", "tf.keras.layers.Dense(3)(tf.ones((3,)))", "exact"),
    ("dense_scalar_input", "tf.keras.layers.Dense(3)(tf.constant(1.0))", "exact"),
    ("dense_last_dim_changes",
     "l = tf.keras.layers.Dense(3)\nl(tf.ones((2, 4)))\nl(tf.ones((2, 3)))", "exact"),
    ("dense_none_input", "tf.keras.layers.Dense(3)(None)", "exact"),
    ("dense_string_input", 'tf.keras.layers.Dense(3)("abc")', "exact"),
    ("dense_string_tensor_input", 'tf.keras.layers.Dense(3)(tf.constant([["a", "b"]]))',
     "keras"),
    ("lstm_int_input_becomes_float",
     "print(tf.keras.layers.LSTM(2)(tf.ones((1, 2, 3), dtype=tf.int32)).dtype)", "exact"),
    ("batchnorm_int_input_becomes_float",
     "print(tf.keras.layers.BatchNormalization()(tf.ones((2, 3), dtype=tf.int32)).dtype)",
     "exact"),
    ("layernorm_string_input", 'tf.keras.layers.LayerNormalization()(tf.constant([["a"]]))',
     "keras"),
    ("embedding_string_input", 'tf.keras.layers.Embedding(3, 2)(tf.constant([["a"]]))',
     "keras"),
    ("dense_python_list_input", "tf.keras.layers.Dense(3)([[1.0, 2.0]])", "exact"),
    ("dense_numpy_input_accepted", "print(tf.keras.layers.Dense(3)(np.ones((1, 2))).shape)",
     "exact"),
    ("custom_layer_error_in_call", """
class Boom(tf.keras.layers.Layer):
    def call(self, x):
        raise ValueError("boom")
Boom()(tf.ones((1,)))
""", "keras"),
    ("custom_layer_op_error_in_call", """
class Index(tf.keras.layers.Layer):
    def call(self, x, training=None):
        return tf.gather(x, [5])
Index()(tf.ones((1,)))
""", "keras"),
    ("input_spec_repr", 'print(tf.keras.layers.InputSpec(ndim=2, axes={-1: 3}))\n'
     'l = tf.keras.layers.Dense(3)\nl.build((None, 4))\nprint(l.input_spec)', "exact"),
    ("input_spec_axis_too_large", "tf.keras.layers.InputSpec(ndim=2, axes={3: 1})", "exact"),
    ("dense_units_negative", "tf.keras.layers.Dense(units=-1)", "exact"),
    ("dense_units_zero", "tf.keras.layers.Dense(units=0)", "exact"),
    ("dense_units_string", 'tf.keras.layers.Dense("a")', "exact"),
    ("dense_units_float", "tf.keras.layers.Dense(2.5)", "exact"),
    ("dense_units_none", "tf.keras.layers.Dense(None)", "exact"),
    ("dense_unknown_activation", 'tf.keras.layers.Dense(3, activation="bogus")', "exact"),
    ("dense_unknown_initializer", 'tf.keras.layers.Dense(3, kernel_initializer="bogus")',
     "exact"),
    ("dense_unknown_kwarg", "tf.keras.layers.Dense(3, foo=1)", "exact"),
    ("dropout_rate_2", "tf.keras.layers.Dropout(rate=2)", "exact"),
    ("dropout_rate_negative", "tf.keras.layers.Dropout(rate=-0.1)", "exact"),
    ("dropout_rate_string", 'tf.keras.layers.Dropout("a")', "exact"),
    ("conv2d_filters_zero", "tf.keras.layers.Conv2D(0, 3)", "exact"),
    ("conv2d_kernel_size_zero", "tf.keras.layers.Conv2D(4, 0)", "exact"),
    ("conv2d_kernel_size_triple", "tf.keras.layers.Conv2D(4, (3, 3, 3))", "exact"),
    ("conv2d_strides_zero", "tf.keras.layers.Conv2D(4, 3, strides=0)", "exact"),
    ("conv2d_rank3_input", "tf.keras.layers.Conv2D(4, 3)(tf.ones((2, 5, 5)))", "exact"),
    ("conv2d_channels_change",
     "l = tf.keras.layers.Conv2D(4, 3)\nl(tf.ones((1, 5, 5, 2)))\nl(tf.ones((1, 5, 5, 3)))",
     "exact"),
    ("conv2d_no_output_position", "tf.keras.layers.Conv2D(4, 3)(tf.ones((1, 2, 5, 1)))",
     "exact"),
    ("conv2d_no_output_position_strided",
     "tf.keras.layers.Conv2D(4, 3, strides=2)(tf.ones((1, 5, 2, 1)))", "exact"),
    ("conv1d_no_output_position",
     "tf.keras.layers.Conv1D(4, 3, dilation_rate=2)(tf.ones((1, 4, 5)))", "exact"),
    ("conv2d_on_symbolic_rank3_input",
     "tf.keras.layers.Conv2D(4, 3)(tf.keras.Input((5, 5)))", "exact"),
    ("functional_dense_width_changes", """
inputs = tf.keras.Input((3,))
hidden = tf.keras.layers.Dense(2, name="h")
hidden(tf.ones((1, 4)))
hidden(inputs)
""", "exact"),
    ("conv1d_rank2_input", "tf.keras.layers.Conv1D(4, 3)(tf.ones((5, 5)))", "exact"),
    ("maxpool2d_rank3_input", "tf.keras.layers.MaxPooling2D()(tf.ones((2, 5, 5)))", "exact"),
    ("maxpool2d_pool_size_zero", "tf.keras.layers.MaxPooling2D(pool_size=0)", "exact"),
    ("avgpool2d_strides_negative", "tf.keras.layers.AveragePooling2D(2, strides=-1)", "exact"),
    ("global_avg_pool2d_rank2_input",
     "tf.keras.layers.GlobalAveragePooling2D()(tf.ones((2, 5)))", "exact"),
    ("global_max_pool1d_rank2_input",
     "tf.keras.layers.GlobalMaxPooling1D()(tf.ones((2, 5)))", "exact"),
    ("flatten_scalar_input", "tf.keras.layers.Flatten()(tf.constant(1.0))", "exact"),
    ("lstm_rank2_input", "tf.keras.layers.LSTM(4)(tf.ones((2, 3)))", "exact"),
    ("gru_rank2_input", "tf.keras.layers.GRU(4)(tf.ones((2, 3)))", "exact"),
    ("simple_rnn_rank2_input", "tf.keras.layers.SimpleRNN(4)(tf.ones((2, 3)))", "exact"),
    ("lstm_units_zero", "tf.keras.layers.LSTM(0)", "exact"),
    ("gru_units_negative", "tf.keras.layers.GRU(-2)", "exact"),
    ("simple_rnn_units_zero", "tf.keras.layers.SimpleRNN(0)", "exact"),
    ("embedding_input_dim_zero", "tf.keras.layers.Embedding(0, 3)", "exact"),
    ("embedding_output_dim_zero", "tf.keras.layers.Embedding(10, 0)", "exact"),
    ("embedding_input_dim_float", "tf.keras.layers.Embedding(2.5, 3)", "exact"),
    ("embedding_index_out_of_range",
     "tf.keras.layers.Embedding(10, 3)(tf.constant([[12]]))", "keras"),
    ("batchnorm_channels_change",
     "l = tf.keras.layers.BatchNormalization()\nl(tf.ones((2, 4)))\nl(tf.ones((2, 3)))",
     "exact"),
    ("reshape_wrong_size", "tf.keras.layers.Reshape((4,))(tf.ones((2, 3)))", "keras"),
    ("keras_reshape_two_unknowns", "tf.keras.layers.Reshape((-1, -1))", "exact"),
    ("activation_unknown", 'tf.keras.layers.Activation("bogus")', "exact"),
    ("concatenate_shapes",
     "tf.keras.layers.Concatenate()([tf.ones((2, 3)), tf.ones((3, 3))])", "exact"),
    ("add_shapes", "tf.keras.layers.Add()([tf.ones((2, 3)), tf.ones((2, 4))])", "exact"),
    ("add_not_a_list", "tf.keras.layers.Add()(tf.ones((2, 3)))", "exact"),
    ("softmax_int_input", "tf.keras.layers.Softmax()(tf.constant([1, 2]))", "keras"),
    ("sequential_predict_wrong_width", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.compile(optimizer="sgd", loss="mse")
m.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)
m.predict(np.ones((2, 2)), verbose=0)
""", "keras"),
    ("fit_before_compile", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
""", "exact"),
    ("evaluate_before_compile", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.evaluate(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
""", "exact"),
    ("fit_x_y_sizes_differ", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.compile(optimizer="sgd", loss="mse")
m.fit(np.ones((4, 2)), np.ones((3, 1)), verbose=0)
""", "exact"),
    ("evaluate_x_y_sizes_differ", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.compile(optimizer="sgd", loss="mse")
m.evaluate(np.ones((4, 2)), np.ones((3, 1)), verbose=0)
""", "exact"),
    ("fit_sample_weight_size_differs", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.compile(optimizer="sgd", loss="mse")
m.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0, sample_weight=np.ones(3))
""", "exact"),
    ("fit_validation_sizes_differ", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.compile(optimizer="sgd", loss="mse")
m.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0,
      validation_data=(np.ones((2, 2)), np.ones((3, 1))))
""", "exact"),
    ("fit_dataset_and_y", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.compile(optimizer="sgd", loss="mse")
ds = tf.data.Dataset.from_tensor_slices((np.ones((4, 2)), np.ones((4, 1)))).batch(2)
m.fit(ds, np.ones((4, 1)), verbose=0)
""", "exact"),
    ("dense_unknown_regularizer", 'tf.keras.layers.Dense(3, kernel_regularizer="bogus")',
     "exact"),
    ("conv2d_unknown_regularizer", 'tf.keras.layers.Conv2D(3, 2, bias_regularizer="bogus")',
     "exact"),
    ("sparse_accuracy_shapes", "tf.keras.metrics.SparseCategoricalAccuracy().update_state("
     "[0, 1, 2], tf.ones((2, 3)))", "exact"),
    ("categorical_accuracy_shapes", "tf.keras.metrics.CategoricalAccuracy().update_state("
     "tf.ones((3, 3)), tf.ones((2, 3)))", "exact"),
    ("accuracy_shapes", "tf.keras.metrics.Accuracy().update_state([1, 2, 3], [1, 2])",
     "exact"),
    ("binary_accuracy_shapes",
     "tf.keras.metrics.BinaryAccuracy().update_state([1, 0, 1], [0.3, 0.8])", "exact"),
    ("mean_metric_of_a_string", 'tf.keras.metrics.Mean().update_state("1.5")', "exact"),
    ("sum_metric_of_strings", 'tf.keras.metrics.Sum().update_state(["1", "2"])', "exact"),
    ("compile_unknown_optimizer", """
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
m.compile(optimizer="bogus", loss="mse")
""", "exact"),
    ("optimizer_sgd_gradient_shape", """
v = tf.Variable(tf.ones((2, 2)))
opt = tf.keras.optimizers.SGD(0.1)
opt.apply_gradients([(tf.ones((3,)), v)])
""", "exact"),
    ("optimizer_adam_gradient_shape", """
v = tf.Variable(tf.ones((2, 2)))
opt = tf.keras.optimizers.Adam(0.1)
opt.apply_gradients([(tf.ones((2, 3)), v)])
""", "names:gradient"),
    ("optimizer_no_gradients", """
v = tf.Variable(tf.ones((2, 2)))
opt = tf.keras.optimizers.Adam(0.1)
opt.apply_gradients([(None, v)])
""", "exact"),
    ("optimizer_learning_rate_string", "tf.keras.optimizers.Adam(learning_rate='a')", "exact"),
    ("optimizer_momentum_negative", "tf.keras.optimizers.SGD(0.1, momentum=-1)", "exact"),
    ("optimizer_unknown_kwarg", "tf.keras.optimizers.SGD(0.1, bogus=3)", "exact"),
    ("optimizer_two_clips", "tf.keras.optimizers.Adam(0.1, clipnorm=1.0, global_clipnorm=1.0)",
     "exact"),
]

DATA = [
    ("batch_zero", "tf.data.Dataset.range(5).batch(0)", "exact"),
    ("batch_negative", "tf.data.Dataset.range(5).batch(-3)", "exact"),
    ("batch_string", 'tf.data.Dataset.range(5).batch("a")', "exact"),
    ("shuffle_negative", "tf.data.Dataset.range(5).shuffle(-1)", "exact"),
    ("shuffle_zero", "tf.data.Dataset.range(5).shuffle(0)", "exact"),
    ("prefetch_negative", "tf.data.Dataset.range(5).prefetch(-5)", "exact"),
    ("take_string", 'tf.data.Dataset.range(5).take("a")', "exact"),
    ("repeat_float", "tf.data.Dataset.range(5).repeat(1.5)", "exact"),
    ("skip_none", "tf.data.Dataset.range(5).skip(None)", "exact"),
    ("shard_zero", "tf.data.Dataset.range(5).shard(0, 0)", "exact"),
    ("shard_index_too_large", "tf.data.Dataset.range(5).shard(2, 5)", "exact"),
    ("map_not_callable", "tf.data.Dataset.range(5).map(1)", "exact"),
    ("filter_not_bool", "list(tf.data.Dataset.range(5).filter(lambda x: x))", "exact"),
    ("zip_not_a_dataset", "tf.data.Dataset.zip(tf.data.Dataset.range(5), 3)", "exact"),
    ("from_tensor_slices_first_dims",
     "tf.data.Dataset.from_tensor_slices((np.ones((3, 2)), np.ones((4,))))", "exact"),
    ("from_tensor_slices_scalar", "tf.data.Dataset.from_tensor_slices(np.float32(1.0))",
     "exact"),
    ("from_tensor_slices_ragged", "tf.data.Dataset.from_tensor_slices([[1, 2], [3]])",
     "exact"),
    ("range_float", "tf.data.Dataset.range(0.5)", "exact"),
]

CASES = TAPE + SHAPES + CONVERSIONS + KERAS + DATA
