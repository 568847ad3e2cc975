"""The workloads in JAX, op by op (no ``jit``): JAX's eager mode, the peer to an eager tape."""
import jax
import jax.numpy as jnp
import numpy as np
from _spec import BATCH_W2, LR_W1, LR_W2, LR_W3


def w1(data, steps):
    epochs = 2
    x_data = jnp.asarray(data["x"][: steps // epochs])
    y_data = 5 * x_data + 3
    state = {"w": jnp.float32(0), "b": jnp.float32(0)}

    def loss_func(params, x, y):
        w, b = params
        return (y - (w * x + b)) ** 2

    grad = jax.grad(loss_func)

    def run():
        w, b = state["w"], state["b"]
        w_trace, b_trace = [np.asarray(w)], [np.asarray(b)]
        for _ in range(epochs):
            for x, y in zip(x_data, y_data):  # noqa: B905 - as seed000
                gw, gb = grad((w, b), x, y)
                w = w - LR_W1 * gw
                b = b - LR_W1 * gb
                w_trace.append(np.asarray(w))
                b_trace.append(np.asarray(b))
        state["w"], state["b"] = w, b
        return float(w_trace[-1])

    return run


def _params(data, n_layers):
    return [jnp.asarray(data[f"{k}{i}"]) for i in range(n_layers) for k in ("W", "b")]


def _mlp(params, x):
    W0, b0, W1, b1, W2, b2 = params
    h = jax.nn.relu(x @ W0 + b0)
    h = jax.nn.relu(h @ W1 + b1)
    return h @ W2 + b2


def w2(data, steps):
    x, y = data["x"], data["y"]
    n_batches = len(y) // BATCH_W2
    batches = [(jnp.asarray(x[i * BATCH_W2:(i + 1) * BATCH_W2]),
                jnp.asarray(y[i * BATCH_W2:(i + 1) * BATCH_W2])) for i in range(n_batches)]
    state = {"p": _params(data, 3)}

    def loss_func(params, xb, yb):
        logp = jax.nn.log_softmax(_mlp(params, xb))
        return -jnp.mean(jnp.take_along_axis(logp, yb[:, None], axis=1))

    value_and_grad = jax.value_and_grad(loss_func)

    def run():
        params, loss = state["p"], None
        for step in range(steps):
            loss, grads = value_and_grad(params, *batches[step % n_batches])
            params = [v - LR_W2 * g for v, g in zip(params, grads, strict=True)]
        state["p"] = params
        return float(loss)

    return run


def w3(data, steps):
    x, y = jnp.asarray(data["x"]), jnp.asarray(data["y"])
    state = {"p": _params(data, 3)}

    def loss_func(params):
        return jnp.mean(jnp.square(_mlp(params, x) - y))

    value_and_grad = jax.value_and_grad(loss_func)

    def run():
        params, loss = state["p"], None
        for _ in range(steps):
            loss, grads = value_and_grad(params)
            params = [v - LR_W3 * g for v, g in zip(params, grads, strict=True)]
        state["p"] = params
        return float(loss)

    return run


def w5(data, steps):
    W, x, v = jnp.asarray(data["W"]), jnp.asarray(data["x"]), jnp.asarray(data["v"])

    def f(x):
        return jnp.sum(jnp.square(jnp.tanh(W @ x)))

    grad = jax.grad(f)

    def run():
        hv = None
        for _ in range(steps):
            _, vjp = jax.vjp(grad, x)
            (hv,) = vjp(v)
        return float(jnp.sum(hv))

    return run


def micro(timer):
    ns = {"jax": jax, "x": jnp.float32(2.0), "y": jnp.float32(3.0),
          "g": jax.grad(lambda x, y: x * y)}
    ns["x"], ns["y"] = jnp.asarray(ns["x"]), jnp.asarray(ns["y"])
    return {"op_no_tape": timer("x * y", ns),
            "step_1op": timer("g(x, y)", ns)}
