"""Gradient checks by float64 central differences, for the tests (not a public API).

``f`` takes Tensors and returns one Tensor. First order: the tape's vector-Jacobian product
for a random cotangent ``u``, dotted with a random direction ``v``, must equal
``<u, (f(x + eps v) - f(x - eps v)) / 2 eps>``; for small inputs the whole Jacobian is
compared element by element by the shipped ``tf.test.compute_gradient``. Second order
applies the same first-order check to ``G(x) = <VJP_u(x), w>``, whose gradient needs nested
tapes.

Each check returns the op types recorded on the tapes it used, so a test can tell which
primitives it exercised.
"""
import numpy as np

import tapeflow as tf

EPS = 1e-6
RTOL = 1e-7
ATOL = 1e-8



def _dense(grads):
    """Gradients as dense tensors: tf.gather's IndexedSlices become Tensors, as
    ``tf.convert_to_tensor`` makes them in TensorFlow."""
    if isinstance(grads, tf.IndexedSlices):
        return tf.convert_to_tensor(grads)
    if isinstance(grads, list):
        return [_dense(g) for g in grads]
    return grads

def _np(t):
    return np.asarray(t.numpy(), dtype=np.float64)


def _call(f, arrays):
    return _np(f(*[tf.constant(a) for a in arrays]))


def _ops(tape):
    return {e.prim.name for e in tape._tape.entries}


def _assert_close(analytic, numeric, rtol, atol, what):
    analytic = np.asarray(analytic, dtype=np.float64)
    numeric = np.asarray(numeric, dtype=np.float64)
    scale = max(1.0, float(np.max(np.abs(numeric), initial=0.0)))
    err = float(np.max(np.abs(analytic - numeric), initial=0.0))
    assert err <= atol + rtol * scale, (
        f"{what}: tape gives {analytic!r}, finite differences {numeric!r} (error {err:.3g})")


def check_vjp(f, args, rng, eps=EPS, rtol=RTOL, atol=ATOL):
    """One random-direction check of ``f``'s reverse-mode derivative at ``args``.

    Args:
        f: a function of ``len(args)`` Tensors returning a Tensor.
        args: float64 NumPy arrays (or scalars).
        rng: a ``np.random.Generator``.

    Returns:
        The set of op types the tape recorded.
    """
    args = [np.asarray(a, dtype=np.float64) for a in args]
    xs = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    recorded = _ops(tape)
    u = rng.standard_normal(np.shape(y.numpy()))
    grads = _dense(tape.gradient(y, xs, output_gradients=tf.constant(u)))
    for g, a in zip(grads, args, strict=True):
        if g is not None:
            assert g.dtype == tf.float64 and tuple(g.shape) == a.shape, (g, a.shape)
    vs = [rng.standard_normal(a.shape) for a in args]
    analytic = sum(float(np.sum(_np(g) * v))
                   for g, v in zip(grads, vs, strict=True) if g is not None)
    plus = _call(f, [a + eps * v for a, v in zip(args, vs, strict=True)])
    minus = _call(f, [a - eps * v for a, v in zip(args, vs, strict=True)])
    numeric = float(np.sum(u * (plus - minus))) / (2 * eps)
    _assert_close(analytic, numeric, rtol, atol, "<VJP(u), v> vs <u, JVP(v)>")
    return recorded


def check_jacobian(f, args, eps=EPS, rtol=RTOL, atol=ATOL):
    """Compare ``tape.jacobian`` with the element-by-element finite-difference Jacobian, by
    the shipped checker ``tf.test.compute_gradient`` (float64 central differences, step
    ``eps``); the Jacobians' shapes are checked too (``y.shape + x.shape``)."""
    args = [np.asarray(a, dtype=np.float64) for a in args]
    xs = [tf.constant(a) for a in args]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = f(*xs)
    y_shape = np.shape(y.numpy())
    for jac, a in zip(tape.jacobian(y, xs), args, strict=True):
        assert jac is None or tuple(jac.shape) == y_shape + a.shape
    theoretical, numerical = tf.test.compute_gradient(f, args, delta=eps)
    for i, (got, want) in enumerate(zip(theoretical, numerical, strict=True)):
        _assert_close(got, want, rtol, atol, f"Jacobian {i}")


def vjp_dot(f, u, ws):
    """``G(*xs) = sum_i <VJP_u(xs)_i, w_i>``: a scalar whose gradient is second order."""

    def G(*xs):
        with tf.GradientTape() as inner:
            inner.watch(list(xs))
            y = f(*xs)
        grads = _dense(inner.gradient(y, list(xs), output_gradients=tf.constant(u)))
        total = tf.constant(0.0, dtype=tf.float64)
        for g, w in zip(grads, ws, strict=True):
            if g is not None:
                total = total + tf.reduce_sum(g * tf.constant(w))
        return total

    return G


def check_second_order(f, args, rng, eps=1e-5, rtol=1e-6, atol=1e-7):
    """The first-order check of ``vjp_dot(f, u, w)`` for random ``u`` and ``w``."""
    args = [np.asarray(a, dtype=np.float64) for a in args]
    u = rng.standard_normal(np.shape(_call(f, args)))
    ws = [rng.standard_normal(a.shape) for a in args]
    return check_vjp(vjp_dot(f, u, ws), args, rng, eps=eps, rtol=rtol, atol=atol)
