"""``Model.fit`` on examples/train_digits.py's MLP (64-128-10, Adam, sparse cross-entropy,
accuracy), batch 32, data shaped as the digits training split: time per step of the whole
``fit`` (data slicing, step, callbacks, progress bar off), compiled step vs
``run_eagerly=True``. Run from a checkout::

    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 python benchmarks/keras_fit.py [--epochs 3]
"""
import argparse
import statistics
import time

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    import tapeflow as tf

    rng = np.random.default_rng(0)
    x = rng.random((1347, 64), dtype=np.float32)
    y = rng.integers(0, 10, 1347).astype(np.int64)
    steps = args.epochs * -(-len(x) // 32)
    for run_eagerly in (True, False):
        times = []
        for _ in range(args.repeats):
            tf.keras.utils.set_random_seed(0)
            model = tf.keras.Sequential([tf.keras.Input((64,)),
                                         tf.keras.layers.Dense(128, activation="relu"),
                                         tf.keras.layers.Dense(10, activation="softmax")])
            model.compile(tf.keras.optimizers.Adam(0.002), "sparse_categorical_crossentropy",
                          metrics=["accuracy"], run_eagerly=run_eagerly)
            start = time.perf_counter()
            history = model.fit(x, y, batch_size=32, epochs=args.epochs, verbose=0)
            times.append((time.perf_counter() - start) / steps * 1e3)
        print(f"fit run_eagerly={run_eagerly!s:5}: median {statistics.median(times):.3f} "
              f"ms/step (min {min(times):.3f}) over {steps} steps; last loss "
              f"{history.history['loss'][-1]:.6f}")


if __name__ == "__main__":
    main()
