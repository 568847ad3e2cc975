"""``tf.test``'s engine: compute_gradient, a check_gradients of any order, and the GPU probes
(no GPU: tapeflow runs on NumPy)."""
from . import nest
from .backend import np
from .engine_ops import OPS
from .tensor import Tensor, _TensorLike, convert_to_tensor

__all__ = ["compute_gradient", "check_gradients", "is_built_with_cuda", "is_gpu_available"]


def compute_gradient(f, x, delta=None):
    """Theoretical and numerical Jacobians of ``f`` at ``x`` (``tf.test.compute_gradient``).

    Args:
        f: a function of ``len(x)`` tensors returning one tensor ``y``.
        x: a list or tuple of tensors or values (the arguments of ``f``).
        delta: the step of the central differences (default ``1/1024``), taken in each
            argument's own dtype.

    Returns:
        ``(theoretical, numerical)``: two tuples with one NumPy array per argument, of shape
        ``[y.size, x_i.size]``: entry ``[j, k]`` is ``d y_j / d x_k``.

    Raises:
        ValueError: if ``x`` is not a list or tuple.

    Example:
        >>> import tapeflow as tf
        >>> theoretical, numerical = tf.test.compute_gradient(tf.square, [tf.constant(3.0)])
        >>> print(theoretical[0], numerical[0])
        [[6.]] [[6.]]
    """
    from .tape import GradientTape
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"`x` must be a list or tuple of values convertible to a Tensor "
                         f"(arguments to `f`), not a {type(x)}")
    delta = 1.0 / 1024 if delta is None else delta
    xs = [convert_to_tensor(v) for v in x]
    with GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = convert_to_tensor(f(*xs))
    jacs = tape.jacobian(y, xs, unconnected_gradients="zero")
    ysize = y._value.size
    theoretical = tuple(j.numpy().reshape(ysize, v._value.size) for j, v in zip(jacs, xs))
    numerical = []
    ydt = y._value.dtype
    for i, v in enumerate(xs):
        base = np.array(v._value)
        jac = np.zeros((ysize, base.size), ydt)
        for k in range(base.size):
            vals = []
            for sign in (1, -1):
                moved = base.copy()
                moved.reshape(-1)[k] += base.dtype.type(sign * delta)
                args = list(xs)
                args[i] = Tensor(moved)
                vals.append(np.asarray(convert_to_tensor(f(*args))._value, ydt).reshape(-1))
            jac[:, k] = (vals[0] - vals[1]) / np.asarray(2 * delta, ydt)
        numerical.append(jac)
    return theoretical, tuple(numerical)


def check_gradients(f, args, order=2, modes=("rev", "fwd"), eps=1e-6, rtol=1e-5,
                    atol=1e-6, seed=0):
    """Check ``f``'s derivatives up to ``order`` against central differences in float64.

    For each mode, a random input direction ``v`` and output weighting ``u``: ``"rev"``
    compares ``<u, J v>`` from ``tape.gradient`` with the numerical directional derivative,
    ``"fwd"`` the same from ``ForwardAccumulator.jvp``; then, while ``order > 1``, the same
    check runs on the derivative itself (the function ``x -> J^T u`` or ``x -> J v``), so
    second order covers reverse-over-reverse and forward-over-forward.
    After HIPS/autograd's ``check_grads``.

    Args:
        f: a function of tensors returning one tensor.
        args: a list of arrays or tensors; they are cast to float64.
        order: the highest derivative order to check (>= 1).
        modes: a subset of ``("rev", "fwd")``.
        eps, rtol, atol: the central-difference step and the tolerances.
        seed: the seed of the random directions.

    Raises:
        AssertionError: naming the mode and order where the derivatives disagree.
        ValueError: for an unknown mode.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> tf.test.check_gradients(lambda x: tf.tanh(x) * x, [np.array([0.5, -1.0])])
    """
    for mode in modes:
        if mode not in ("rev", "fwd"):
            raise ValueError(f"Unknown mode {mode!r}: use 'rev' and/or 'fwd'.")
    xs = [np.array(_value(a), np.float64) for a in args]
    rng = np.random.default_rng(seed)
    for mode in modes:
        _check(f, xs, order, mode, eps, rtol, atol, rng, 1)


def _value(a):
    return a._value if isinstance(a, _TensorLike) else a


def _check(f, xs, order, mode, eps, rtol, atol, rng, level):
    from .forwardprop import ForwardAccumulator
    from .tape import GradientTape
    ts = [Tensor(x) for x in xs]
    vs = [rng.normal(size=x.shape) for x in xs]
    y = f(*ts)
    u = rng.normal(size=np.shape(y._value))

    def weighted(*a):
        return float(np.sum(u * np.asarray(f(*a)._value)))

    moved = [[Tensor(x + s * eps * v) for x, v in zip(xs, vs)] for s in (1, -1)]
    numeric = (weighted(*moved[0]) - weighted(*moved[1])) / (2 * eps)
    if mode == "rev":
        def deriv(*a):
            with GradientTape() as tape:
                tape.watch(list(a))
                out = f(*a)
            grads = tape.gradient(out, list(a), output_gradients=Tensor(u),
                                  unconnected_gradients="zero")
            return _concat(grads)
        exact = float(np.dot(deriv(*ts)._value, _concat_np(vs)))
    else:
        def deriv(*a):
            with ForwardAccumulator(list(a), [Tensor(v) for v in vs]) as acc:
                out = f(*a)
            return acc.jvp(out, unconnected_gradients="zero")
        exact = float(np.sum(u * deriv(*ts)._value))
    if not np.isclose(exact, numeric, rtol=rtol, atol=atol):
        raise AssertionError(f"{mode}-mode derivative of order {level} is wrong: "
                             f"{exact!r} (tapeflow) vs {numeric!r} (central differences)")
    if order > 1:
        _check(deriv, xs, order - 1, mode, eps, rtol, atol, rng, level + 1)


def _concat(grads):
    return OPS.concat([OPS.reshape(g, (-1,)) for g in nest.flatten(grads)], 0)


def _concat_np(vs):
    return np.concatenate([v.reshape(-1) for v in vs])


def is_built_with_cuda() -> bool:
    """False: tapeflow runs on NumPy (``tf.test.is_built_with_cuda``)."""
    return False


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None) -> bool:
    """False: no GPU device (``tf.test.is_gpu_available``)."""
    return False
