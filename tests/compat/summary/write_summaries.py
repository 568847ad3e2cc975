# ruff: noqa: F821 - run with tf, np and logdir given (tests/test_summary.py)
# The same tf.summary calls under TensorFlow and tapeflow; TensorBoard's readers compare them.
writer = tf.summary.create_file_writer(logdir)
data = np.linspace(-1.0, 2.0, 50) ** 3
images = np.linspace(0.0, 1.0, 2 * 3 * 4).reshape(2, 3, 4, 1).astype("float32")
with writer.as_default():
    for step in range(3):
        tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
    tf.summary.histogram("weights", data, step=0)
    tf.summary.histogram("few", data, step=1, buckets=4)
    tf.summary.histogram("same", np.full(5, 3.0), step=1, buckets=3)
    tf.summary.image("img", images, step=0, max_outputs=1)
    tf.summary.text("note", "hello *tapeflow*", step=0)
    tf.summary.experimental.set_step(5)
    tf.summary.scalar("later", 2.0)
    with tf.summary.record_if(False):
        tf.summary.scalar("skipped", 1.0, step=0)
tf.summary.experimental.set_step(None)
writer.flush()
