"""Where Winograd F(2x2, 3x3) beats im2col for float32 3x3 stride-1 convolutions.

Usage::

    PYTHONPATH=src python benchmarks/winograd.py [--repeats 15]

For each shape (batch, height, width, in channels, out channels; SAME padding) the two
kernels of ``ops/nn_conv_ops`` run alternately in one process, one BLAS thread
(``OPENBLAS_NUM_THREADS=1`` unless set): im2col + one product, and ``ops/winograd.conv3x3``
(the filter transform included, as for a variable's filter). Printed: the best time of each
in microseconds of CPU time (``time.thread_time``: the machine is shared), their ratio, the
error of each against float64 (relative to the output's largest magnitude), and what
``winograd.worth_it`` picks.
"""
import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from tapeflow.ops import nn_conv_ops as C  # noqa: E402
from tapeflow.ops import winograd as W  # noqa: E402

SHAPES = [(1, 8, 8, 16, 16), (1, 13, 13, 16, 32), (1, 28, 28, 16, 32), (8, 13, 13, 16, 32),
          (16, 13, 13, 16, 32), (64, 13, 13, 16, 32), (64, 26, 26, 8, 16),
          (64, 28, 28, 1, 16), (64, 11, 11, 32, 64), (8, 32, 32, 32, 32),
          (1, 56, 56, 64, 64), (8, 28, 28, 128, 128), (4, 14, 14, 256, 256),
          (1, 7, 7, 512, 512)]


def _im2col(x, k, pads):
    cols, transposed = C._im2col(x, 3, 3, (1, 1), pads, (1, 1), x.shape[1], x.shape[2])
    return np.matmul(cols.T if transposed else cols, k.reshape(-1, k.shape[3]))


def _wino(x, k, pads):
    n, h, w, _ = x.shape
    eh, ew = W.padding(h, w, h + 2, w + 2)
    xp = C._pad(x, ((1, 1 + eh), (1, 1 + ew)))
    return W.conv3x3(xp, W.filter_transform(k), h, w)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeats", type=int, default=15)
    a = p.parse_args()
    rng = np.random.default_rng(0)
    print(f"load average {os.getloadavg()[0]:.1f}; OPENBLAS_NUM_THREADS="
          f"{os.environ['OPENBLAS_NUM_THREADS']}; best of {a.repeats}, alternated")
    print(f"{'N,H,W,C,O':>22} {'im2col us':>10} {'winograd us':>12} {'speed-up':>9} "
          f"{'err im2col':>11} {'err wino':>9} picked")
    for n, h, w, c, o in SHAPES:
        x = rng.standard_normal((n, h, w, c)).astype(np.float32)
        k = rng.standard_normal((3, 3, c, o)).astype(np.float32)
        pads = ((1, 1), (1, 1))
        ref = C._conv_forward(x.astype(np.float64), k.astype(np.float64), (1, 1), pads,
                              (1, 1))
        scale = np.abs(ref).max()
        errs = [np.abs(f(x, k, pads).reshape(ref.shape) - ref).max() / scale
                for f in (_im2col, _wino)]
        times = {_im2col: [], _wino: []}
        for _ in range(a.repeats):
            for f in (_im2col, _wino):
                t = time.thread_time()
                f(x, k, pads)
                times[f].append(time.thread_time() - t)
        t0, t1 = min(times[_im2col]) * 1e6, min(times[_wino]) * 1e6
        pick = "winograd" if W.worth_it(n, h, w, c, o) else "im2col"
        print(f"{str((n, h, w, c, o)):>22} {t0:10.0f} {t1:12.0f} {t0 / t1:8.2f}x "
              f"{errs[0]:11.1e} {errs[1]:9.1e} {pick}")


if __name__ == "__main__":
    main()
