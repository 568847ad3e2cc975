"""String, ragged and sparse tensors (in the spirit of the later sections of guide/tensor)."""
import tensorflow as tf

scalar_string_tensor = tf.constant("Gray wolf")
print(scalar_string_tensor)
tensor_of_strings = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
print(tensor_of_strings)
print(tf.strings.split(scalar_string_tensor, sep=" "))
print(tf.strings.to_number(tf.constant("3.5 1 2".split())))
print(tf.strings.length(tensor_of_strings), tf.strings.upper(tensor_of_strings[0]))
print(tf.strings.join(["a", "b"], separator="-"), tensor_of_strings + "!")
print(tf.strings.bytes_split(tf.constant("Duck")))
print(tf.io.decode_raw(tf.constant("Duck"), tf.uint8))

ragged_list = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]
ragged_tensor = tf.ragged.constant(ragged_list)
print(ragged_tensor)
print(ragged_tensor.shape)
print(ragged_tensor.row_lengths(), ragged_tensor.to_tensor())
print(ragged_tensor * 2, tf.reduce_sum(ragged_tensor, axis=1))

sparse_tensor = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2],
                                       dense_shape=[3, 4])
print(sparse_tensor, "\n")
print(tf.sparse.to_dense(sparse_tensor))
print(tf.sparse.reduce_sum(sparse_tensor, axis=0))
