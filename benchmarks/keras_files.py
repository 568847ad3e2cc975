"""Throughput of Keras files: ``save_weights`` / ``load_weights`` / ``save`` / ``load_model``
of a model with ~100 MB of float32 weights, beside ``np.save`` of the same bytes + fsync.

    PYTHONPATH=src python benchmarks/keras_files.py [--mb 100] [--dir /tmp]

Every tapeflow write includes its fsyncs (file and directory) and the rename.
"""
import argparse
import os
import shutil
import tempfile
import time

import numpy as np


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100.0)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    import tapeflow as tf

    width = 2048
    depth = max(1, round(args.mb * 2**20 / (width * width * 4)))
    model = tf.keras.Sequential([tf.keras.Input((width,))]
                                + [tf.keras.layers.Dense(width) for _ in range(depth)])
    arrays = [w.numpy() for w in model.weights]
    nbytes = sum(a.nbytes for a in arrays)
    folder = tempfile.mkdtemp(dir=args.dir)
    try:
        npy = os.path.join(folder, "w.npy")
        flat = np.concatenate([a.ravel() for a in arrays])

        def np_save():
            with open(npy, "wb") as f:
                np.save(f, flat)
                f.flush()
                os.fsync(f.fileno())

        weights = os.path.join(folder, "m.weights.h5")
        archive = os.path.join(folder, "m.keras")
        rows = [("np.save + fsync", best_of(np_save)),
                ("np.load", best_of(lambda: np.load(npy))),
                ("save_weights (.weights.h5)", best_of(lambda: model.save_weights(weights))),
                ("load_weights (.weights.h5)", best_of(lambda: model.load_weights(weights))),
                ("save (.keras)", best_of(lambda: model.save(archive))),
                ("load_model (.keras)", best_of(lambda: tf.keras.models.load_model(archive)))]
        print(f"{nbytes / 2**20:.0f} MB of float32 weights ({depth} Dense({width}) layers)")
        base = rows[0][1]
        for name, seconds in rows:
            print(f"  {name:28s} {seconds * 1e3:8.0f} ms  {nbytes / 2**20 / seconds:7.0f} MB/s"
                  f"  {seconds / base:5.2f}x np.save")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
