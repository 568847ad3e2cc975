"""``tf.sparse``: re-exports of the sparse tensor ops."""
