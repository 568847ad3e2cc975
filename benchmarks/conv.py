"""Time tapeflow's convolution and pooling (forward + backward) next to hand-written NumPy.

Usage::

    python benchmarks/conv.py                       # this checkout's src/
    python benchmarks/conv.py --src /old/checkout/src --repeat 50   # e.g. an older version

Each row runs one untimed warm-up, then reports the median of ``--repeat`` timed runs in
milliseconds, with BLAS on one thread (``OPENBLAS_NUM_THREADS=1`` unless already set). The
NumPy column is the same forward and backward written by hand (im2col with
``sliding_window_view`` + one matmul, col2im by kernel offset, reshaped pooling windows):
the mark for a NumPy engine. Every tapeflow result is checked against it (``max|diff|``).
"""
import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from numpy.lib.stride_tricks import sliding_window_view  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


# --------------------------------------------------------------------- NumPy reference


def _same_pads(size, k, s, d=1):
    out = -(-size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def _geometry(x_shape, k, s, padding, d=1):
    (kh, kw), (_, h, w, _) = k, x_shape
    if padding == "SAME":
        pads = (_same_pads(h, kh, s, d), _same_pads(w, kw, s, d))
    else:
        pads = ((0, 0), (0, 0))
    oh = (h + sum(pads[0]) - (kh - 1) * d - 1) // s + 1
    ow = (w + sum(pads[1]) - (kw - 1) * d - 1) // s + 1
    return pads, oh, ow


def np_im2col(x, kh, kw, s, pads, oh, ow, d=1):
    xp = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    win = sliding_window_view(xp, ((kh - 1) * d + 1, (kw - 1) * d + 1), axis=(1, 2))
    win = win[:, :(oh - 1) * s + 1:s, :(ow - 1) * s + 1:s, :, ::d, ::d]
    return win.transpose(0, 1, 2, 4, 5, 3).reshape(-1, kh * kw * x.shape[3])


def np_col2im(cols, x_shape, kh, kw, s, pads, oh, ow, d=1):
    n, h, w, c = x_shape
    dxp = np.zeros((n, h + sum(pads[0]), w + sum(pads[1]), c), cols.dtype)
    c6 = cols.reshape(n, oh, ow, kh, kw, c)
    for i in range(kh):
        for j in range(kw):
            dxp[:, i * d:i * d + (oh - 1) * s + 1:s, j * d:j * d + (ow - 1) * s + 1:s] += \
                c6[:, :, :, i, j]
    return dxp[:, pads[0][0]:pads[0][0] + h, pads[1][0]:pads[1][0] + w]


def np_conv2d_fwd_bwd(x, w, s, padding, d=1):
    """y = conv2d(x, w); returns y, dL/dx, dL/dw for L = sum(y * y) / 2 (so g = y)."""
    kh, kw, _, o = w.shape
    pads, oh, ow = _geometry(x.shape, (kh, kw), s, padding, d)
    cols = np_im2col(x, kh, kw, s, pads, oh, ow, d)
    w2 = w.reshape(-1, o)
    y = cols @ w2
    dw = (cols.T @ y).reshape(w.shape)
    dx = np_col2im(y @ w2.T, x.shape, kh, kw, s, pads, oh, ow, d)
    return y.reshape(x.shape[0], oh, ow, o), dx, dw


def np_conv2d_transpose_fwd_bwd(dy, w, out_shape, s, padding):
    """z = conv2d_transpose(dy, w); returns z, dL/d(dy), dL/dw for L = sum(z * z) / 2."""
    kh, kw, _, o = w.shape
    pads, oh, ow = _geometry(out_shape, (kh, kw), s, padding)
    w2 = w.reshape(-1, o)
    z = np_col2im(dy.reshape(-1, o) @ w2.T, out_shape, kh, kw, s, pads, oh, ow)
    cols = np_im2col(z, kh, kw, s, pads, oh, ow)
    ddy = (cols @ w2).reshape(dy.shape)
    dw = (cols.T @ dy.reshape(-1, o)).reshape(w.shape)
    return z, ddy, dw


def np_pool_fwd_bwd(x, k, s, padding, kind):
    """Pooling of NHWC x and its gradient for L = sum(y * y) / 2 (first maximum wins)."""
    n, h, w, c = x.shape
    pads, oh, ow = _geometry(x.shape, (k, k), s, padding)
    if k == s and pads == ((0, 0), (0, 0)):  # windows tile the input: a reshape
        x6 = x[:, :oh * k, :ow * k].reshape(n, oh, k, ow, k, c)
        dx = np.zeros_like(x)
        if kind == "max":
            y = x6.max((2, 4))
            hit = x6 == y[:, :, None, :, None, :]  # ties are measure-zero for normal data
            dx[:, :oh * k, :ow * k] = (hit * y[:, :, None, :, None, :]).reshape(
                n, oh * k, ow * k, c)
        else:
            y = x6.mean((2, 4))
            dx[:, :oh * k, :ow * k] = np.broadcast_to(
                (y / (k * k))[:, :, None, :, None, :], x6.shape).reshape(n, oh * k, ow * k, c)
        return y, dx
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), constant_values=fill)
    win = sliding_window_view(xp, (k, k), axis=(1, 2))[:, :(oh - 1) * s + 1:s,
                                                       :(ow - 1) * s + 1:s]
    dxp = np.zeros(xp.shape, x.dtype)
    if kind == "max":
        y = win.max((-2, -1))
        taken = np.zeros(y.shape, bool)
        for i in range(k):
            for j in range(k):
                hit = (win[..., i, j] == y) & ~taken
                taken |= hit
                dxp[:, i:i + (oh - 1) * s + 1:s, j:j + (ow - 1) * s + 1:s] += hit * y
    else:
        ones = np.pad(np.ones((1, h, w, 1), x.dtype), ((0, 0), pads[0], pads[1], (0, 0)))
        cnt = sliding_window_view(ones, (k, k), axis=(1, 2))[:, :(oh - 1) * s + 1:s,
                                                             :(ow - 1) * s + 1:s]
        cnt = cnt.sum((-2, -1))
        y = win.sum((-2, -1)) / cnt
        share = y / cnt
        for i in range(k):
            for j in range(k):
                dxp[:, i:i + (oh - 1) * s + 1:s, j:j + (ow - 1) * s + 1:s] += share
    dx = dxp[:, pads[0][0]:pads[0][0] + h, pads[1][0]:pads[1][0] + w]
    return y, dx


# ----------------------------------------------------------------------------- workloads


def workloads(tf, rng):
    """(name, tapeflow closure, NumPy closure) triples; each closure returns its arrays."""
    def arr(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def tape(fn, *values):
        ts = [tf.constant(v) for v in values]
        with tf.GradientTape() as t:
            for v in ts:
                t.watch(v)
            y = fn(*ts)
            loss = tf.reduce_sum(y * y) / 2.0
        return [y.numpy()] + [g.numpy() for g in t.gradient(loss, ts)]

    out = []
    # The task's measure: conv2d SAME + max_pool2d 2x2 + reduce_sum, gradient w.r.t. filter.
    x0, w0 = arr(32, 16, 16, 16), arr(3, 3, 16, 32)

    def brief_tf():
        x, w = tf.constant(x0), tf.constant(w0)
        with tf.GradientTape() as t:
            t.watch(w)
            y = tf.reduce_sum(tf.nn.max_pool2d(tf.nn.conv2d(x, w, 1, "SAME"), 2, 2, "VALID"))
        return [y.numpy(), t.gradient(y, w).numpy()]

    def brief_np():
        pads, oh, ow = _geometry(x0.shape, (3, 3), 1, "SAME")
        cols = np_im2col(x0, 3, 3, 1, pads, oh, ow)
        c = (cols @ w0.reshape(-1, 32)).reshape(32, oh, ow, 32)
        c6 = c.reshape(32, oh // 2, 2, ow // 2, 2, 32)
        m = c6.max((2, 4))
        first = c6 == m[:, :, None, :, None, :]
        dc = first.reshape(c.shape).astype(np.float32)
        return [m.sum(), (cols.T @ dc.reshape(-1, 32)).reshape(w0.shape)]

    out.append(("conv2d+max_pool2d, d/dw  x[32,16,16,16] w[3,3,16,32]", brief_tf, brief_np))

    for xs, ws, s, p, d in [((32, 16, 16, 16), (3, 3, 16, 32), 1, "SAME", 1),
                            ((16, 32, 32, 3), (5, 5, 3, 16), 2, "VALID", 1),
                            ((8, 28, 28, 32), (3, 3, 32, 64), 1, "SAME", 1),
                            ((8, 28, 28, 16), (3, 3, 16, 16), 1, "SAME", 2)]:
        x, w = arr(*xs), arr(*ws)
        out.append((f"conv2d fwd+bwd  x{list(xs)} w{list(ws)} s{s} {p} d{d}",
                    lambda x=x, w=w, s=s, p=p, d=d: tape(
                        lambda a, b: tf.nn.conv2d(a, b, s, p, dilations=d), x, w),
                    lambda x=x, w=w, s=s, p=p, d=d: list(np_conv2d_fwd_bwd(x, w, s, p, d))))

    for xs, k, s, p in [((32, 32, 32, 32), 2, 2, "VALID"), ((32, 31, 31, 32), 3, 2, "SAME")]:
        x = arr(*xs)
        for kind, op in (("max", tf.nn.max_pool2d), ("avg", tf.nn.avg_pool2d)):
            out.append((f"{kind}_pool2d fwd+bwd  x{list(xs)} k{k} s{s} {p}",
                        lambda x=x, k=k, s=s, p=p, op=op: tape(
                            lambda a: op(a, k, s, p), x),
                        lambda x=x, k=k, s=s, p=p, kind=kind: list(
                            np_pool_fwd_bwd(x, k, s, p, kind))))

    for dys, ws, os_, s, p in [((16, 16, 16, 32), (3, 3, 16, 32), (16, 32, 32, 16), 2, "SAME"),
                               ((8, 12, 12, 64), (4, 4, 32, 64), (8, 26, 26, 32), 2, "VALID")]:
        dy, w = arr(*dys), arr(*ws)
        out.append((f"conv2d_transpose fwd+bwd  dy{list(dys)} w{list(ws)} s{s} {p}",
                    lambda dy=dy, w=w, os_=os_, s=s, p=p: tape(
                        lambda a, b: tf.nn.conv2d_transpose(a, b, os_, s, p), dy, w),
                    lambda dy=dy, w=w, os_=os_, s=s, p=p: list(
                        np_conv2d_transpose_fwd_bwd(dy, w, os_, s, p))))

    layer_x = arr(32, 8, 8, 1)
    conv = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu")
    pool = tf.keras.layers.MaxPooling2D()

    def keras_tf():
        x = tf.constant(layer_x)
        with tf.GradientTape() as t:
            y = tf.reduce_sum(pool(conv(x)))
        return [y.numpy()] + [g.numpy() for g in t.gradient(y, conv.trainable_variables)]

    out.append(("keras Conv2D(16,3,same,relu)+MaxPooling2D  x[32,8,8,1]", keras_tf, None))
    return out


def _median_ms(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=os.path.join(os.path.dirname(HERE), "src"),
                    help="the tapeflow source directory to import")
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.abspath(args.src))
    import tapeflow as tf

    rng = np.random.default_rng(0)
    print(f"tapeflow from {os.path.abspath(args.src)}; NumPy {np.__version__}; "
          f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}; "
          f"median of {args.repeat} runs, ms")
    print(f"{'workload':66s} {'tapeflow':>9s} {'numpy':>8s} {'ratio':>6s} {'max|diff|':>10s}")
    for name, run_tf, run_np in workloads(tf, rng):
        t_tf = _median_ms(run_tf, args.repeat)
        if run_np is None:
            print(f"{name:66s} {t_tf:9.2f} {'':>8s} {'':>6s}")
            continue
        t_np = _median_ms(run_np, args.repeat)
        diff = max(float(np.max(np.abs(np.asarray(a) - np.asarray(b)) / (1 + np.abs(b))))
                   for a, b in zip(run_tf(), run_np(), strict=True))
        print(f"{name:66s} {t_tf:9.2f} {t_np:8.2f} {t_tf / t_np:6.2f} {diff:10.1e}")


if __name__ == "__main__":
    main()
