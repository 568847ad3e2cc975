"""W2's MLP trained with the Keras stack: ``keras.optimizers.Adam`` and two metrics per step.

Measures what ``fit``'s step costs beyond the raw tape step of W2: the optimizer's update and
the metric updates. Wall and process CPU time (the latter steadier on a loaded machine); BLAS
should run on one thread (``OPENBLAS_NUM_THREADS=1``). Run from a checkout::

    PYTHONPATH=src python benchmarks/keras_train.py [--steps 200] [--repeats 7]
"""
import argparse
import statistics
import time

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--optimizer", default="Adam")
    args = parser.parse_args()
    import tapeflow as tf

    rng = np.random.default_rng(0)
    x = rng.random((1024, 64), dtype=np.float32)
    y = rng.integers(0, 10, 1024).astype(np.int32)
    batches = [(tf.constant(x[i:i + 128]), tf.constant(y[i:i + 128]))
               for i in range(0, 1024, 128)]
    times, cpu_times = [], []
    for _ in range(args.repeats):
        params = []
        for a, b in ((64, 256), (256, 256), (256, 10)):
            params.append(tf.Variable(rng.standard_normal((a, b)).astype(np.float32) * 0.1))
            params.append(tf.Variable(np.zeros(b, np.float32)))
        opt = getattr(tf.keras.optimizers, args.optimizer)(learning_rate=1e-3)
        loss_mean = tf.keras.metrics.Mean()
        acc = tf.keras.metrics.SparseCategoricalAccuracy()
        start, cpu_start = time.perf_counter(), time.process_time()
        for step in range(args.steps):
            xb, yb = batches[step % len(batches)]
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(xb, params[0]) + params[1])
                h = tf.nn.relu(tf.matmul(h, params[2]) + params[3])
                logits = tf.matmul(h, params[4]) + params[5]
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=yb, logits=logits))
            grads = tape.gradient(loss, params)
            opt.apply_gradients(zip(grads, params, strict=True))
            loss_mean.update_state(loss)
            acc.update_state(yb, logits)
        float(loss_mean.result()), float(acc.result())
        times.append((time.perf_counter() - start) / args.steps * 1e3)
        cpu_times.append((time.process_time() - cpu_start) / args.steps * 1e3)
    print(f"keras {args.optimizer} MLP 64-256-256-10 batch 128: median "
          f"{statistics.median(times):.4f} ms/step (min {min(times):.4f}; CPU time median "
          f"{statistics.median(cpu_times):.4f}, min {min(cpu_times):.4f}), "
          f"loss {float(loss_mean.result()):.6f}")


if __name__ == "__main__":
    main()
