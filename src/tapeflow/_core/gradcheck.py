"""``tf.test``'s engine: ``compute_gradient``, a ``check_gradients`` of any order, the
finite-difference checks the test suite runs, and the GPU probes (no GPU: tapeflow runs on
NumPy).

Every finite-difference check of tapeflow's own tests goes through this module, so the
library tests the checker it ships. Besides the public ``compute_gradient`` (TensorFlow's
contract: the theoretical and numerical Jacobians) and ``check_gradients``, the private
checkers are, for a function ``f`` of tensors at float64 or complex128 arrays ``args``:

* :func:`_check_vjp`: the tape's vector-Jacobian product for a random cotangent ``u``,
  dotted with a random direction ``v``, against ``<u, (f(x + eps v) - f(x - eps v)) / 2 eps>``;
* :func:`_check_jvp`: ``ForwardAccumulator``'s Jacobian-vector product along ``v``, element
  by element, against the same central difference;
* :func:`_check_jacobian`: every element of ``tape.jacobian`` against the numerical Jacobian
  (:func:`compute_gradient`), and the Jacobians' shapes;
* :func:`_check_second_order`: :func:`_check_vjp` applied to
  ``G(x) = <VJP_u(x), w>`` (:func:`_vjp_dot`), whose gradient needs nested tapes.

Complex arguments and outputs follow TensorFlow's convention: the gradient of a real loss
``L`` with respect to ``z`` is ``dL/d re(z) + i dL/d im(z)``, so a direction ``v`` moves
``L`` by ``re(<g, v>)``, and a cotangent ``u`` of a complex ``y`` stands for the real loss
``re(<u, y>)`` (``<a, b> = sum(conj(a) * b)``).
"""
from . import nest
from .backend import np
from .engine_ops import OPS
from .indexed_slices import IndexedSlices
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
        ``[y.size, x_i.size]`` in ``x_i``'s real dtype: entry ``[j, k]`` is
        ``d y_j / d x_k``. A complex tensor counts as twice as many reals (real and
        imaginary part of each element, interleaved), as in TensorFlow.

    Raises:
        ValueError: if ``x`` is not a list or tuple.

    Example:
        >>> import tapeflow as tf
        >>> theoretical, numerical = tf.test.compute_gradient(tf.square, [tf.constant(3.0)])
        >>> print(theoretical[0], numerical[0])
        [[6.]] [[6.]]
    """
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"`x` must be a list or tuple of values convertible to a Tensor "
                         f"(arguments to `f`), not a {type(x)}")
    theoretical, numerical, _, _ = _jacobians(f, x, 1.0 / 1024 if delta is None else delta)
    return theoretical, numerical


def _real(dtype):
    return np.empty(0, dtype).real.dtype


def _flat_real(a):
    """An array as a flat real vector (complex: real and imaginary parts interleaved)."""
    a = np.ascontiguousarray(a).reshape(-1)
    return a.view(_real(a.dtype)) if a.dtype.kind == "c" else a


def _dense(g):
    """A gradient as a dense tensor: tf.gather's IndexedSlices become one, as
    ``tf.convert_to_tensor`` makes them in TensorFlow."""
    return convert_to_tensor(g) if isinstance(g, IndexedSlices) else g


def _jacobians(f, x, delta):
    """``(theoretical, numerical, shapes, y_shape)``: :func:`compute_gradient`'s two tuples,
    the shape ``tape.jacobian`` gave each theoretical Jacobian (``None`` where it was built
    row by row, for complex ``y`` or ``x``) and the shape of ``y``."""
    from .tape import GradientTape
    xs = [convert_to_tensor(v) for v in x]
    with GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = convert_to_tensor(f(*xs))
    yv = np.asarray(y._value)
    ysize = _flat_real(yv).size
    sizes = [_flat_real(v._value).size for v in xs]
    reals = [_real(v._value.dtype) for v in xs]
    if yv.dtype.kind == "c" or any(v._value.dtype.kind == "c" for v in xs):
        # One reverse sweep per real component of y, as TensorFlow builds it.
        theoretical = [np.zeros((ysize, n), r) for n, r in zip(sizes, reals)]
        for row in range(ysize):
            dy = np.zeros(yv.shape, yv.dtype)
            dy.reshape(-1).view(_real(yv.dtype))[row] = 1
            grads = tape.gradient(y, xs, output_gradients=Tensor(dy),
                                  unconnected_gradients="zero")
            for jac, g in zip(theoretical, grads):
                jac[row] = _flat_real(_dense(g)._value)
        shapes = [None] * len(xs)
    else:
        jacs = tape.jacobian(y, xs, unconnected_gradients="zero")
        shapes = [tuple(j._value.shape) for j in jacs]
        theoretical = [np.asarray(j.numpy(), r).reshape(ysize, n)
                       for j, n, r in zip(jacs, sizes, reals)]
    del tape
    numerical = []
    ydt = _real(yv.dtype)
    scale = np.asarray(2 * delta, ydt)
    for i, v in enumerate(xs):
        base = np.array(v._value)
        jac = np.zeros((ysize, sizes[i]), reals[i])
        for k in range(sizes[i]):
            vals = []
            for sign in (1, -1):
                moved = base.copy()
                moved.reshape(-1).view(reals[i])[k] += reals[i].type(sign * delta)
                args = list(xs)
                args[i] = Tensor(moved)
                vals.append(_flat_real(np.asarray(convert_to_tensor(f(*args))._value)))
            jac[:, k] = (vals[0] - vals[1]) / scale
        numerical.append(jac)
    return tuple(theoretical), tuple(numerical), shapes, yv.shape


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


# ------------------------------------------------------------ the test suite's checkers


def _arrays(args):
    """Arguments as float64 arrays (complex ones as complex128)."""
    out = []
    for a in args:
        a = np.asarray(a._value if isinstance(a, _TensorLike) else a)
        out.append(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    return out


def _direction(rng, shape, complex_):
    d = rng.standard_normal(shape)
    return d + 1j * rng.standard_normal(shape) if complex_ else d


def _directions(rng, args, skip=()):
    """A random direction per argument (zeros for the indices in ``skip``)."""
    return [np.zeros_like(a) if i in skip else _direction(rng, a.shape, a.dtype.kind == "c")
            for i, a in enumerate(args)]


def _inner(a, b):
    """``re(<a, b>) = re(sum(conj(a) * b))``."""
    return float(np.real(np.vdot(np.asarray(a), np.asarray(b))))


def _evaluate(f, arrays):
    return np.asarray(convert_to_tensor(f(*[Tensor(a) for a in arrays]))._value)


def _recorded(tape):
    return set() if tape._tape is None else {e.prim.name for e in tape._tape.entries}


def _assert_close(got, want, rtol, atol, what, floor=1.0):
    """``|got - want| <= atol + rtol * max(floor, |want|)`` element by element (NaN equals
    NaN). ``floor=1`` scales small values as 1 (the directional checks); ``floor=0`` is
    ``numpy.testing.assert_allclose``'s rule.

    Raises:
        AssertionError: naming ``what``, both values and the largest error.
    """
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, finite differences {want.shape}"
    err = np.abs(got - want)
    bound = atol + rtol * np.maximum(floor, np.abs(want))
    bad = ~(err <= bound) & ~(np.isnan(got) & np.isnan(want))
    if bad.any():
        worst = float(np.max(np.where(bad, err, 0.0), initial=0.0))
        raise AssertionError(f"{what}: tapeflow gives {got!r}, finite differences {want!r} "
                             f"({int(bad.sum())} of {bad.size} off, largest error "
                             f"{worst:.3g}; rtol {rtol:g}, atol {atol:g})")


def _check_vjp(f, args, rng, eps=1e-6, rtol=1e-7, atol=1e-8, skip=(), what="VJP"):
    """One random-direction check of ``f``'s reverse-mode derivative at ``args``:
    ``re(<VJP(u), v>)`` against ``re(<u, (f(x + eps v) - f(x - eps v)) / 2 eps>)``.

    Args:
        f: a function of ``len(args)`` tensors returning one tensor.
        args: arrays or tensors; computed in float64 (complex: complex128).
        rng: a ``np.random.Generator`` (draws ``u``, then ``v``).
        eps: the central-difference step.
        rtol, atol: ``|tape - fd| <= atol + rtol * max(1, |fd|)``.
        skip: indices of arguments not moved (their direction is zero).
        what: the name in the error message.

    Returns:
        The set of op types the tape recorded.

    Raises:
        AssertionError: if they disagree, or a gradient's dtype or shape is not its
            argument's.
    """
    from .tape import GradientTape
    args = _arrays(args)
    xs = [Tensor(a) for a in args]
    with GradientTape() as tape:
        tape.watch(xs)
        y = convert_to_tensor(f(*xs))
    recorded = _recorded(tape)
    yv = np.asarray(y._value)
    u = _direction(rng, yv.shape, yv.dtype.kind == "c")
    grads = [_dense(g) for g in tape.gradient(y, xs, output_gradients=Tensor(u))]
    for i, (g, a) in enumerate(zip(grads, args)):
        if g is not None:
            assert g._value.dtype == a.dtype and g._value.shape == a.shape, (
                f"{what}: gradient {i} is {g._value.dtype}{list(g._value.shape)}, its "
                f"argument {a.dtype}{list(a.shape)}")
    vs = _directions(rng, args, skip)
    analytic = sum(_inner(g._value, v) for g, v in zip(grads, vs) if g is not None)
    plus = _evaluate(f, [a + eps * v for a, v in zip(args, vs)])
    minus = _evaluate(f, [a - eps * v for a, v in zip(args, vs)])
    numeric = _inner(u, plus - minus) / (2 * eps)
    _assert_close(analytic, numeric, rtol, atol, f"{what}: <VJP(u), v> vs <u, JVP(v)>")
    return recorded


def _floats(out):
    """The float and complex tensors of a result (a tensor or a nest of them)."""
    return [t for t in nest.flatten(out)
            if isinstance(t, _TensorLike) and (t.dtype.is_floating or t.dtype.is_complex)]


def _check_jvp(f, args, rng, eps=1e-6, rtol=1e-5, atol=1e-6, skip=(), what="JVP"):
    """``ForwardAccumulator``'s tangent of each float output of ``f`` along a random
    direction, element by element, against central differences of step ``eps``
    (``numpy.testing.assert_allclose``'s rule). ``f`` may return a nest of tensors; its
    int and bool outputs are left out. Returns the op types recorded."""
    from .forwardprop import ForwardAccumulator
    args = _arrays(args)
    vs = _directions(rng, args, skip)
    xs = [Tensor(a) for a in args]
    with ForwardAccumulator(xs, [Tensor(v) for v in vs]) as acc:
        outs = _floats(f(*xs))
    plus = _floats(f(*[Tensor(a + eps * v) for a, v in zip(args, vs)]))
    minus = _floats(f(*[Tensor(a - eps * v) for a, v in zip(args, vs)]))
    for k, o in enumerate(outs):
        jvp = acc.jvp(o)
        got = np.zeros(o._value.shape, o._value.dtype) if jvp is None else jvp._value
        fd = (np.asarray(plus[k]._value) - np.asarray(minus[k]._value)) / (2 * eps)
        _assert_close(got, fd, rtol, atol, f"{what}: tangent of output {k}", floor=0.0)


def _check_jacobian(f, args, eps=1e-6, rtol=1e-7, atol=1e-8, what="Jacobian"):
    """Every element of ``tape.jacobian`` against the finite-difference Jacobian, both from
    :func:`compute_gradient` with step ``eps`` (``numpy.testing.assert_allclose``'s rule),
    and the shape of each ``tape.jacobian``: ``y.shape + x.shape``."""
    args = _arrays(args)
    theoretical, numerical, shapes, y_shape = _jacobians(f, args, eps)
    for i, (got, want, shape) in enumerate(zip(theoretical, numerical, shapes)):
        assert shape is None or shape == y_shape + args[i].shape, (
            f"{what} {i}: tape.jacobian has shape {shape}, not {y_shape + args[i].shape}")
        _assert_close(got, want, rtol, atol,
                      f"{what} {i} (rows: output elements, columns: argument {i}'s)",
                      floor=0.0)


def _vjp_dot(f, u, ws):
    """``G(*xs) = sum_i re(<VJP_u(xs)_i, w_i>)`` (complex ``G`` if any ``w_i`` is complex,
    whose real part is that sum): a scalar whose gradient is second order."""
    from .tape import GradientTape

    def G(*xs):
        with GradientTape() as inner:
            inner.watch(list(xs))
            y = f(*xs)
        grads = inner.gradient(y, list(xs), output_gradients=Tensor(u))
        terms = []
        for g, w in zip(grads, ws):
            if g is not None and np.any(w):
                g = _dense(g)
                terms.append(OPS.reduce_sum(OPS.multiply(g, Tensor(np.conj(w).astype(
                    g._value.dtype)))))
        if not terms:
            return Tensor(np.float64(0.0))
        if any(t.dtype.is_complex for t in terms):
            terms = [t if t.dtype.is_complex else OPS.cast(t, "complex128") for t in terms]
        total = terms[0]
        for t in terms[1:]:
            total = OPS.add(total, t)
        return total

    return G


def _check_second_order(f, args, rng, eps=1e-5, rtol=1e-6, atol=1e-7, skip=(),
                        what="second order"):
    """:func:`_check_vjp` of :func:`_vjp_dot` ``(f, u, w)`` for a random cotangent ``u`` and
    random ``w`` (zero for the indices in ``skip``): reverse over reverse. Returns the op
    types the outer tape recorded (the rules' ops)."""
    args = _arrays(args)
    y = _evaluate(f, args)
    u = _direction(rng, y.shape, y.dtype.kind == "c")
    ws = _directions(rng, args, skip)
    return _check_vjp(_vjp_dot(f, u, ws), args, rng, eps=eps, rtol=rtol, atol=atol,
                      skip=skip, what=what)


def is_built_with_cuda() -> bool:
    """False: tapeflow runs on NumPy (``tf.test.is_built_with_cuda``)."""
    return False


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None) -> bool:
    """False: no GPU device (``tf.test.is_gpu_available``)."""
    return False
