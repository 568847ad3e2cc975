"""The workloads as hand-written NumPy forward and backward code: the limit for a NumPy engine.

Same math, dtypes and update order as ``impl_tfapi``; derivatives written out by hand.
"""
import numpy as np
from _spec import BATCH_W2, LR_W1, LR_W2, LR_W3

f32 = np.float32


def w1(data, steps):
    epochs = 2
    x_data = data["x"][: steps // epochs]
    y_data = f32(5) * x_data + f32(3)
    lr = f32(LR_W1)
    state = {"w": f32(0), "b": f32(0)}

    def run():
        w, b = state["w"], state["b"]
        w_trace, b_trace = [w], [b]
        for _ in range(epochs):
            for x, y in zip(x_data, y_data):  # noqa: B905 - as seed000
                pred = w * x + b
                r = y - pred
                loss = r * r  # noqa: F841 - the forward pass computes it, as the others do
                d = f32(-2) * r
                w = w - lr * (d * x)
                b = b - lr * d
                w_trace.append(w)
                b_trace.append(b)
        state["w"], state["b"] = w, b
        return float(w_trace[-1])

    return run


def _params(data, n_layers):
    return [data[f"{k}{i}"].copy() for i in range(n_layers) for k in ("W", "b")]


def w2(data, steps):
    x, y = data["x"], data["y"]
    n_batches = len(y) // BATCH_W2
    batches = [(x[i * BATCH_W2:(i + 1) * BATCH_W2], y[i * BATCH_W2:(i + 1) * BATCH_W2])
               for i in range(n_batches)]
    params = _params(data, 3)
    W0, b0, W1, b1, W2, b2 = params
    lr = f32(LR_W2)
    rows = np.arange(BATCH_W2)

    def run():
        loss = None
        for step in range(steps):
            xb, yb = batches[step % n_batches]
            z0 = xb @ W0 + b0
            h0 = np.maximum(z0, 0)
            z1 = h0 @ W1 + b1
            h1 = np.maximum(z1, 0)
            logits = h1 @ W2 + b2
            m = logits.max(axis=1, keepdims=True)
            e = np.exp(logits - m)
            s = e.sum(axis=1, keepdims=True)
            loss = np.mean(np.log(s[:, 0]) + m[:, 0] - logits[rows, yb])
            dlogits = e / s
            dlogits[rows, yb] -= 1
            dlogits /= f32(BATCH_W2)
            gW2, gb2 = h1.T @ dlogits, dlogits.sum(axis=0)
            dz1 = (dlogits @ W2.T) * (z1 > 0)
            gW1, gb1 = h0.T @ dz1, dz1.sum(axis=0)
            dz0 = (dz1 @ W1.T) * (z0 > 0)
            gW0, gb0 = xb.T @ dz0, dz0.sum(axis=0)
            for v, g in zip(params, (gW0, gb0, gW1, gb1, gW2, gb2), strict=True):
                v -= lr * g
        return float(loss)

    return run


def w3(data, steps):
    x, y = data["x"], data["y"]
    params = _params(data, 3)
    W0, b0, W1, b1, W2, b2 = params
    lr = f32(LR_W3)
    scale = f32(2.0 / y.size)

    def run():
        loss = None
        for _ in range(steps):
            z0 = x @ W0 + b0
            h0 = np.maximum(z0, 0)
            z1 = h0 @ W1 + b1
            h1 = np.maximum(z1, 0)
            r = (h1 @ W2 + b2) - y
            loss = np.mean(r * r)
            dpred = scale * r
            gW2, gb2 = h1.T @ dpred, dpred.sum(axis=0)
            dz1 = (dpred @ W2.T) * (z1 > 0)
            gW1, gb1 = h0.T @ dz1, dz1.sum(axis=0)
            dz0 = (dz1 @ W1.T) * (z0 > 0)
            gW0, gb0 = x.T @ dz0, dz0.sum(axis=0)
            for v, g in zip(params, (gW0, gb0, gW1, gb1, gW2, gb2), strict=True):
                v -= lr * g
        return float(loss)

    return run


def w5(data, steps):
    W, x, v = data["W"], data["x"], data["v"]

    def run():
        hv = None
        for _ in range(steps):
            t = np.tanh(W @ x)
            f = np.sum(t * t)  # noqa: F841 - forward value, as the tapes compute it
            dt = f32(1) - t * t
            g = W.T @ (f32(2) * t * dt)  # noqa: F841 - the gradient the inner tape returns
            # d/dz of 2 t (1 - t^2) is (2 - 6 t^2)(1 - t^2).
            hv = W.T @ ((f32(2) - f32(6) * t * t) * dt * (W @ v))
        return float(np.sum(hv))

    return run


def micro(timer):
    """Per-call times of the nearest NumPy equivalents (no tape exists, so no tape rows)."""
    ns = {"x": f32(2.0), "y": f32(3.0), "v": f32(0.0), "c": f32(1e-3)}
    # A variable update in hand-written code is a rebinding, as in ``w1``.
    return {"op_no_tape": timer("x * y", ns),
            "assign_sub": timer("global v\nv = v - c", ns)}
