"""Sorted segment ops (``tf.math.segment_*``) inside a ``tf.function``: the output's row count
comes from the ids' values, so a later call with other ids must not reuse the first trace's
count."""
import numpy as np
import pytest

import tapeflow as tf

# TF 2.21 (run by hand, /tmp/resD_ss_tf.py): one relaxed tf.function per op, called with
# (ones(3), [0, 1, 1]), (ones(3), [0, 1, 2]) and ([1, 2, 3, 4], [0, 0, 3, 3])
TF_VALUES = {
    "segment_sum": ([1, 2], [1, 1, 1], [3, 0, 0, 7]),
    "segment_mean": ([1, 1], [1, 1, 1], [1.5, 0, 0, 3.5]),
    "segment_max": ([1, 1], [1, 1, 1], [2, 0, 0, 4]),
    "segment_min": ([1, 1], [1, 1, 1], [1, 0, 0, 3]),
}
CALLS = [([1.0, 1, 1], [0, 1, 1]), ([1.0, 1, 1], [0, 1, 2]), ([1.0, 2, 3, 4], [0, 0, 3, 3])]


@pytest.mark.parametrize("name", sorted(TF_VALUES))
def test_sorted_segment_rows_per_call_in_tf_function(name):
    op = getattr(tf.math, name)

    @tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None], tf.int32)])
    def f(x, i):
        return op(x, i)

    for (x, ids), want in zip(CALLS, TF_VALUES[name]):
        got = f(tf.constant(x), tf.constant(ids))
        np.testing.assert_array_equal(got.numpy(), np.asarray(want, np.float32))


def test_segment_sum_gradient_per_call_in_tf_function():
    # the gradient of segment_sum is gather(upstream, ids): with upstream 1, 2, ... per row
    @tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None], tf.int32)])
    def g(x, i):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.segment_sum(x, i)
            loss = tf.reduce_sum(y * tf.range(1, tf.shape(y)[0] + 1, dtype=tf.float32))
        return tape.gradient(loss, x)

    np.testing.assert_array_equal(g(tf.ones([3]), tf.constant([0, 1, 1])).numpy(), [1, 2, 2])
    np.testing.assert_array_equal(g(tf.ones([3]), tf.constant([0, 1, 2])).numpy(), [1, 2, 3])
    np.testing.assert_array_equal(g(tf.ones([4]), tf.constant([0, 0, 3, 3])).numpy(),
                                  [1, 1, 4, 4])


def test_unsorted_segment_sum_drops_negative_ids_per_call_in_tf_function():
    # TF 2.21 (run by hand): a relaxed tf.function of unsorted_segment_sum(x, i, 3) gives
    # [1, 5, 0], then [1, 0, 3] (id -1 dropped), [4, 0, 3], and an InvalidArgumentError for an
    # id of 5
    @tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None], tf.int32)])
    def f(x, i):
        return tf.math.unsorted_segment_sum(x, i, 3)

    for x, ids, want in (([1.0, 2, 3], [0, 1, 1], [1, 5, 0]), ([1.0, 2, 3], [0, -1, 2], [1, 0, 3]),
                         ([1.0, 2, 3, 4], [-1, -1, 2, 0], [4, 0, 3])):
        np.testing.assert_array_equal(f(tf.constant(x), tf.constant(ids)).numpy(), want)
    with pytest.raises(tf.errors.InvalidArgumentError):
        f(tf.constant([1.0, 2, 3]), tf.constant([0, 5, 2]))
