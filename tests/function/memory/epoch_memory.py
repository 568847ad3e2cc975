"""A whole epoch over a dataset, eagerly or inside one tf.function (argv[1]); prints the
result and the peak RSS (tests/function/test_programs.py compares the two runs)."""
import resource
import sys

import numpy as np

import tapeflow as tf

mode = sys.argv[1]
rng = np.random.default_rng(0)
x = rng.standard_normal((20000, 64)).astype("float32")
y = rng.integers(0, 10, 20000)
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
W = tf.Variable(rng.standard_normal((64, 10)).astype("float32") * 0.1)
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, xb @ W))
    W.assign_sub(0.1 * tape.gradient(loss, W))
    return loss
def epoch(ds):
    total = tf.constant(0.0)
    for xb, yb in ds:
        total += step(xb, yb)
    return total
if mode == "function":
    epoch = tf.function(epoch)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for _ in range(2):
    t = epoch(ds)
print(mode, float(t), "peak RSS MB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
