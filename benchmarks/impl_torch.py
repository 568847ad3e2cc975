"""The workloads in PyTorch eager mode (torch.autograd.grad, in-place SGD under no_grad)."""
import contextlib

import numpy as np
import torch
import torch.nn.functional as F
from _spec import BATCH_W2, LR_W1, LR_W2, LR_W3


def w1(data, steps):
    epochs = 2
    x_data = torch.from_numpy(data["x"][: steps // epochs].copy())
    y_data = 5 * x_data + 3
    w = torch.zeros((), requires_grad=True)
    b = torch.zeros((), requires_grad=True)

    def loss_func(target, pred):
        return (target - pred) ** 2

    def run():
        w_trace, b_trace = [w.item()], [b.item()]
        for _ in range(epochs):
            for x, y in zip(x_data, y_data):  # noqa: B905 - as seed000
                pred = w * x + b
                loss = loss_func(target=y, pred=pred)
                gradients = torch.autograd.grad(loss, [w, b])
                with torch.no_grad():
                    w.sub_(LR_W1 * gradients[0])
                    b.sub_(LR_W1 * gradients[1])
                w_trace.append(w.item())
                b_trace.append(b.item())
        return float(w_trace[-1])

    return run


def _params(data, n_layers):
    return [torch.from_numpy(data[f"{k}{i}"].copy()).requires_grad_()
            for i in range(n_layers) for k in ("W", "b")]


def _sgd(params, grads, lr):
    with torch.no_grad():
        for v, g in zip(params, grads, strict=True):
            v.sub_(lr * g)


def w2(data, steps):
    x, y = data["x"], data["y"].astype(np.int64)
    n_batches = len(y) // BATCH_W2
    batches = [(torch.from_numpy(x[i * BATCH_W2:(i + 1) * BATCH_W2].copy()),
                torch.from_numpy(y[i * BATCH_W2:(i + 1) * BATCH_W2].copy()))
               for i in range(n_batches)]
    params = _params(data, 3)
    W0, b0, W1, b1, W2, b2 = params

    def run():
        loss = None
        for step in range(steps):
            xb, yb = batches[step % n_batches]
            h = torch.relu(xb @ W0 + b0)
            h = torch.relu(h @ W1 + b1)
            logits = h @ W2 + b2
            loss = F.cross_entropy(logits, yb)
            _sgd(params, torch.autograd.grad(loss, params), LR_W2)
        return float(loss.item())

    return run


def w3(data, steps):
    x, y = torch.from_numpy(data["x"]), torch.from_numpy(data["y"])
    params = _params(data, 3)
    W0, b0, W1, b1, W2, b2 = params

    def run():
        loss = None
        for _ in range(steps):
            h = torch.relu(x @ W0 + b0)
            h = torch.relu(h @ W1 + b1)
            loss = torch.mean(torch.square(h @ W2 + b2 - y))
            _sgd(params, torch.autograd.grad(loss, params), LR_W3)
        return float(loss.item())

    return run


def w5(data, steps):
    W, v = torch.from_numpy(data["W"]), torch.from_numpy(data["v"])
    x = torch.from_numpy(data["x"]).requires_grad_()

    def run():
        hv = None
        for _ in range(steps):
            f = torch.sum(torch.square(torch.tanh(W @ x)))
            (g,) = torch.autograd.grad(f, x, create_graph=True)
            (hv,) = torch.autograd.grad(g, x, grad_outputs=v)
        return float(hv.sum().item())

    return run


def micro(timer):
    ns = {"torch": torch, "x": torch.tensor(2.0), "y": torch.tensor(3.0),
          "v": torch.tensor(0.0), "c": torch.tensor(1e-3),
          "xg": torch.tensor(2.0, requires_grad=True)}
    out = {"op_no_tape": timer("x * y", ns),
           "op_on_tape": timer("xg * y", ns, around=contextlib.nullcontext)}
    ns["z"] = ns["xg"] * ns["y"]
    out["backward_1op"] = timer("torch.autograd.grad(z, xg, retain_graph=True)", ns)
    out["step_1op"] = timer("torch.autograd.grad(xg * y, xg)", ns)
    out["assign_sub"] = timer("v.sub_(c)", ns)
    return out
