"""A replayed program that fails raises what the eager op raises (class and text) and names
the user's line recorded at trace time."""
import numpy as np
import pytest

import tapeflow as tf


def test_sparse_xent_checks_labels_in_the_forward():
    logits = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))

    @tf.function
    def loss(labels):
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)

    loss(tf.constant([0, 1, 2, 1]))
    for bad in ([0, 1, -2, 1], [0, 3, 1, 1]):
        with pytest.raises(tf.errors.InvalidArgumentError, match="outside the valid range"):
            loss(tf.constant(bad))


def test_replay_errors_are_eager_and_name_the_traced_line():
    w = tf.Variable(np.ones((3, 2), np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        return tf.matmul(x, w)   # the line the error names

    f(tf.ones([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.ones([2, 4]))
    assert "Matrix size-incompatible" in str(info.value)
    text = str(info.value)
    assert "(in tf.function, traced at" in text and "test_replay_errors.py" in text
