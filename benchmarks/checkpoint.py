"""Checkpoint save/restore throughput: 100 MB of float32 weights, beside ``np.save``.

Usage:
    PYTHONPATH=src python benchmarks/checkpoint.py [--mb 100] [--variables 25] [--repeats 5]

Each repeat writes a new file, as a training run's successive checkpoints do (the previous
one is deleted untimed). Both sides fsync: ``np.save`` writes one array of the same bytes
to an open file, then ``flush`` + ``os.fsync``; ``tf.train.Checkpoint.write`` writes the
data file and index through temporaries with fsync, rename and a directory fsync
(TensorFlow's format, a CRC32C over every tensor). Restore: ``Checkpoint.read`` into the
same variables (every checksum verified) beside ``np.load``. CRC32C runs with
``google-crc32c`` when installed and with the pure NumPy implementation (``--pure``
forces it; both are printed by default).
Goal (issue 11): save within 1.5x of np.save.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
import tapeflow as tf  # noqa: E402
from tapeflow import _crc32c as crc32c  # noqa: E402


def _median(fn, repeats, cleanup=None):
    times = []
    for i in range(repeats):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
        if cleanup is not None:
            cleanup(i)  # untimed, as a manager deletes old checkpoints after the save
    return statistics.median(times)


def _remove(*paths):
    for p in paths:
        if os.path.exists(p):
            os.remove(p)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100)
    parser.add_argument("--variables", type=int, default=25)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pure", action="store_true", help="only the pure NumPy CRC32C")
    args = parser.parse_args()
    n = int(args.mb * 2**20 / 4 / args.variables)
    rng = np.random.default_rng(0)
    variables = [tf.Variable(rng.standard_normal(n, dtype=np.float32))
                 for _ in range(args.variables)]
    total = sum(v.numpy().nbytes for v in variables)
    flat = np.concatenate([v.numpy() for v in variables])
    ckpt = tf.train.Checkpoint(weights=variables)
    mb = total / 2**20
    with tempfile.TemporaryDirectory(dir=os.getcwd()) as d:
        def npy(i):
            return os.path.join(d, f"w{i}.npy")

        def np_save(i):
            with open(npy(i), "wb") as f:
                np.save(f, flat)
                f.flush()
                os.fsync(f.fileno())

        def prefix(i):
            return os.path.join(d, f"ckpt-{i}")

        def remove_ckpt(i):
            _remove(prefix(i) + ".index", prefix(i) + ".data-00000-of-00001")

        t_np_save = _median(np_save, args.repeats, lambda i: _remove(npy(i)))
        np_save(0)
        t_np_load = _median(lambda i: np.load(npy(0)), args.repeats)
        print(f"{mb:.0f} MB of float32 in {args.variables} variables; median of "
              f"{args.repeats}; on {d}")
        print(f"  np.save + fsync        {t_np_save * 1e3:8.1f} ms  {mb / t_np_save:7.0f} MB/s")
        print(f"  np.load                {t_np_load * 1e3:8.1f} ms  {mb / t_np_load:7.0f} MB/s")
        modes = [("pure NumPy CRC32C", None)]
        if crc32c._accel is not None and not args.pure:
            modes.insert(0, ("google-crc32c", crc32c._accel))
        saved = crc32c._accel
        try:
            for label, accel in modes:
                crc32c._accel = accel
                t_save = _median(lambda i: ckpt.write(prefix(i)), args.repeats, remove_ckpt)
                ckpt.write(prefix(0))
                t_read = _median(lambda i: ckpt.read(prefix(0)).assert_consumed(),
                                 args.repeats)
                print(f"  Checkpoint.write       {t_save * 1e3:8.1f} ms  {mb / t_save:7.0f} "
                      f"MB/s  {t_save / t_np_save:.2f}x np.save   ({label})")
                print(f"  Checkpoint.read        {t_read * 1e3:8.1f} ms  {mb / t_read:7.0f} "
                      f"MB/s  {t_read / t_np_load:.2f}x np.load   ({label})")
        finally:
            crc32c._accel = saved


if __name__ == "__main__":
    main()
