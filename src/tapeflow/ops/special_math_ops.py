"""Special functions of ``tf.math``: erf, erfc, lgamma, digamma, polygamma and lbeta, with
their derivatives. NumPy has none of them; the forms here are accurate to a few ulps in
float64 (sources beside each), which the float64 finite-difference tests need.

The op names stay public in ``math_ops`` too (re-exported at its end).
"""
import builtins

from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive
from .._core.tensor import Tensor
from . import _kernels
from ._helpers import _err, _int_list, _show, check_kind, kind_of, pair, to_tensor
from .array_ops import broadcast_to, ones_like, reshape
from .array_ops import conj as _conj
from .math_ops import _broadcast_error, _float_unary, add, exp, multiply, negative, square, subtract
from .reduction_ops import reduce_sum

__all__ = [
    "erf", "erfc", "lgamma", "digamma", "polygamma", "lbeta",
]


# W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23
# (1969): erf on |x| <= 0.46875, erfc on (0.46875, 4] and beyond 4, near float64 precision.
_CODY_A = (3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02,
           3.20937758913846947e03, 1.85777706184603153e-1)
_CODY_B = (2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
           2.84423683343917062e03)
_CODY_C = (5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
           2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03,
           2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8)
_CODY_D = (1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
           1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
           3.43936767414372164e03, 1.23033935480374942e03)
_CODY_P = (3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
           1.60837851487422766e-2, 6.58749161529837803e-4, 1.63153871373020978e-2)
_CODY_Q = (2.56852019228982242e00, 1.87295284992346725e00, 5.27905102951428412e-1,
           6.05183413124413191e-2, 2.33520497626869185e-3)
_INV_SQRT_PI = 5.6418958354775628695e-1


def _exp_neg_square(y):
    # exp(-y^2) with y^2 split into an exact part and a small rest, for relative accuracy.
    head = np.trunc(y * 16) / 16
    return np.exp(-head * head) * np.exp(-(y - head) * (y + head))


def _erf_small(x):
    z = x * x
    num, den = _CODY_A[4] * z, z
    for a, b in zip(_CODY_A[:3], _CODY_B[:3], strict=True):
        num, den = (num + a) * z, (den + b) * z
    return x * (num + _CODY_A[3]) / (den + _CODY_B[3])


def _erfc_mid(y):
    num, den = _CODY_C[8] * y, y
    for c, d in zip(_CODY_C[:7], _CODY_D[:7], strict=True):
        num, den = (num + c) * y, (den + d) * y
    return _exp_neg_square(y) * (num + _CODY_C[7]) / (den + _CODY_D[7])


def _erfc_big(y):
    z = 1.0 / (y * y)
    num, den = _CODY_P[5] * z, z
    for p, q in zip(_CODY_P[:4], _CODY_Q[:4], strict=True):
        num, den = (num + p) * z, (den + q) * z
    return _exp_neg_square(y) * (_INV_SQRT_PI - z * (num + _CODY_P[4]) / (den + _CODY_Q[4])) / y


def _erf_parts(x):
    """(erf(x), erfc(x)) in float64 for a float array (Cody 1969); each range computed
    only on its own elements."""
    x = np.asarray(x, np.float64)
    y = np.abs(x)
    erf_ = np.empty_like(x)
    erfc_ = np.empty_like(x)
    small = y <= 0.46875
    mid = (y > 0.46875) & (y <= 4.0)
    big = ~(small | mid)  # includes NaN, which stays NaN
    e = _erf_small(x[small])
    erf_[small] = e
    erfc_[small] = 1.0 - e
    for mask, part in ((mid, _erfc_mid), (big, _erfc_big)):
        xs = x[mask]
        with np.errstate(invalid="ignore", divide="ignore"):
            c = part(np.abs(xs))
        c = np.where(np.isinf(xs), 0.0, c)
        erf_[mask] = np.sign(xs) * (1.0 - c)
        erfc_[mask] = np.where(xs < 0, 2.0 - c, c)
    return erf_, erfc_


# TF's float64 Erf (Eigen) squares x exactly as a hi + lo pair, hi being x rounded to its top
# 26 bits (Veltkamp): from this |x| on hi rounds up to 2**512, hi * hi overflows and the
# result is nan (at +-inf too); float16/32 give +-1 there
_ERF64_NAN_FROM = float.fromhex("0x1.ffffffcp+511")


def _erf_forward(x):
    x = np.asarray(x)
    out = _erf_parts(x)[0].astype(x.dtype)
    if x.dtype == np.float64:
        big = np.abs(x) >= _ERF64_NAN_FROM
        if big.any():
            out = np.where(big, np.nan, out)
    return out[()]


def _erfc_forward(x):
    return _erf_parts(x)[1].astype(np.asarray(x).dtype)[()]


_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028,
            771.32342877765313, -176.61502916214059, 12.507343278686905,
            -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7)


def _lgamma64(x):
    # Lanczos (g=7, n=9) for x >= 0.5, the reflection formula below it.
    x = np.asarray(x, np.float64)
    reflect = x < 0.5
    z = np.where(reflect, 1.0 - x, x) - 1.0
    a = np.full_like(z, _LANCZOS[0])
    for i in builtins.range(1, 9):
        a = a + _LANCZOS[i] / (z + i)
    t = z + 7.5
    lg = 0.5 * np.log(2 * np.pi) + (z + 0.5) * np.log(t) - t + np.log(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.abs(np.sin(np.pi * x))
        refl = np.log(np.pi / s) - lg
    out = np.where(reflect, refl, lg)
    out = np.where(reflect & (x == np.floor(x)), np.inf, out)  # poles at 0, -1, -2, ...
    return np.where(np.isinf(x), np.inf, out)


# Bernoulli numbers B_2k, k = 1..8, for the asymptotic series of the polygamma functions.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def _digamma64(x):
    x = np.asarray(x, np.float64)
    reflect = x < 0.5
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(reflect, 1.0 - x, x)
        acc = np.zeros_like(z)
        for _ in builtins.range(10):
            low = z < 10
            acc = acc - np.where(low, 1.0 / z, 0.0)
            z = np.where(low, z + 1, z)
        inv2 = 1.0 / (z * z)
        series = 0.0
        p = inv2
        for k, b in enumerate(_BERNOULLI, 1):
            series = series + b / (2 * k) * p
            p = p * inv2
        psi = np.log(z) - 0.5 / z - series + acc
        refl = psi - np.pi / np.tan(np.pi * x)
        out = np.where(reflect, refl, psi)
        out = np.where(reflect & (x == np.floor(x)), np.nan, out)
    return out


# Euler-Maclaurin coefficients (2k)! / B_2k of the Hurwitz zeta tail, k = 1..12.
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)
_ZETA_STEPS = 1 << 17


def _zeta64(s, q, dt=np.float64):
    # Hurwitz zeta(s, q) for an integer s >= 2 and finite q off the poles, as TensorFlow's
    # kernel computes it in the dtype ``dt``: the terms (q + k)^-s summed directly (from a
    # negative q too), each element stopping once a term is below the rounding of its sum,
    # for 9 terms (float32) or until k >= 9 and q + k > 9 (float64), then, unless the last
    # term is 0 (underflow, an infinite order), the Euler-Maclaurin tail.
    dt = np.dtype(dt)
    wide = dt == np.float64
    eps = dt.type(np.finfo(dt).eps / 2)
    q = np.asarray(q, dt)
    s = dt.type(s)
    one = dt.type(1)
    with np.errstate(all="ignore"):
        total = q ** -s
        a = q.copy()
        b = np.zeros_like(q)
        live = np.ones(q.shape, bool)
        i = 0

        def more(a):
            return (i < 9) | (a <= 9.0) if wide else i < 9

        while live.any() and i < _ZETA_STEPS:
            step = live & more(a)
            if not step.any():
                break
            i += 1
            a = np.where(step, a + one, a)
            b = np.where(step, a ** -s, b)
            total = np.where(step, total + b, total)
            live &= ~(step & (np.abs(b / total) < eps))
        tail = live & ~more(a) & (b != 0)
        use_tail = tail.copy()
        w = a
        t_sum = total + b * w / (s - one) - dt.type(0.5) * b
        c = np.ones_like(q)
        k = dt.type(0)
        for coef in _ZETA_A:
            c = c * (s + k)
            b = b / w
            t = c * b / dt.type(coef)
            t_sum = np.where(tail, t_sum + t, t_sum)
            tail &= ~(np.abs(t / t_sum) < eps)
            k += one
            c = c * (s + k)
            b = b / w
            k += one
        total = np.where(use_tail, t_sum, total)
        # an element still summing when the step limit ran out (|q| beyond 2^17): nan
        total = np.where(live & more(a), np.nan, total)
    return total


def _polygamma64(n, x, dt=np.float64):
    # psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for integer n >= 1, TensorFlow's formula
    # evaluated as its kernel does in the input dtype ``dt``: n + 1 rounded to ``dt`` (so
    # the sign is +1 once n + 1 is too large to be odd), n! = exp(lgamma(n + 1)) overflowing
    # to inf (then inf * a zeta that underflowed to 0 is nan), the product rounded.
    # At a pole (an integer x <= 0, or -inf) zeta is inf for an even n + 1, nan otherwise.
    if n == 0:
        return _digamma64(x)
    x = np.asarray(x, np.float64)
    dt = np.dtype(dt)
    nplus = dt.type(n) + dt.type(1)
    sgn = dt.type(1.0 if np.floor(nplus / 2) * 2 == nplus else -1.0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        fact = np.exp(dt.type(_lgamma64(np.float64(nplus))))
        pole = (x <= 0) & (x == np.floor(x))
        finite = np.isfinite(x) & ~pole
        zeta = np.full(x.shape, np.nan)
        if finite.any():
            zeta[finite] = _zeta64(nplus, x[finite], dt)
        zeta = np.where(x == np.inf, 0.0, zeta)
        zeta = np.where(pole, np.inf if np.floor(nplus / 2) * 2 == nplus else np.nan, zeta)
        out = sgn * fact * zeta.astype(dt)
    return out.astype(np.float64)


def _lgamma_forward(x):
    return _lgamma64(x).astype(np.asarray(x).dtype)[()]


def _digamma_forward(x):
    x = np.asarray(x)
    out = _digamma64(x).astype(x.dtype)
    if x.dtype in (np.float32, np.float64):
        # TF's threads treat subnormal inputs as zero (denormals-are-zero): Eigen's digamma
        # then meets its pole at 0, nan (float16 is computed in float32: no subnormal there)
        sub = (x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny)
        if sub.any():
            out = np.where(sub, np.nan, out).astype(x.dtype)
    return out[()]


def _polygamma_forward(a, x):
    a = np.asarray(a)
    x = np.asarray(x)
    a, xb = np.broadcast_arrays(a, x)
    out = np.full(xb.shape, np.nan)  # a NaN order matches no unique value: stays NaN
    for n in np.unique(a):
        m = a == n
        if n < 0 or n != np.floor(n):
            out[m] = np.nan
        else:
            out[m] = _polygamma64(n, xb[m], x.dtype)
    return out.astype(x.dtype)[()]


_ERF = primitive("Erf", _erf_forward)
_ERFC = primitive("Erfc", _erfc_forward)
_LGAMMA = primitive("Lgamma", _lgamma_forward)
_DIGAMMA = primitive("Digamma", _digamma_forward)
_POLYGAMMA = primitive("Polygamma", _polygamma_forward, error=_broadcast_error)
_TWO_OVER_SQRT_PI = 1.1283791670955126

erf = _float_unary(_ERF, "erf", "The error function of ``x``, element-wise", complex_ok=False)
erfc = _float_unary(_ERFC, "erfc",
                    "``1 - erf(x)``, accurate where ``erf(x)`` is near 1, element-wise",
                    complex_ok=False)
# (TensorFlow declares bfloat16 for both but has no CPU kernel: NotFoundError)
lgamma = _float_unary(_LGAMMA, "lgamma", "``log(|gamma(x)|)``, element-wise", complex_ok=False,
                      not_found="V")
digamma = _float_unary(_DIGAMMA, "digamma",
                       "The derivative of ``lgamma`` at ``x``, element-wise", complex_ok=False,
                       not_found="V")

defvjp(_ERF, lambda g, y, x: multiply(g, multiply(exp(negative(square(x))),
                                                  _TWO_OVER_SQRT_PI)))
defvjp(_ERFC, lambda g, y, x: multiply(g, multiply(exp(negative(square(x))),
                                                   -_TWO_OVER_SQRT_PI)))
defvjp(_LGAMMA, lambda g, y, x: multiply(g, digamma(x)))
defvjp(_DIGAMMA, lambda g, y, x: multiply(g, polygamma(ones_like(x), x)))
defvjp(_POLYGAMMA, None, lambda g, y, a, x: multiply(g, polygamma(add(a, 1), x)))


def polygamma(a, x, name=None):
    """The ``a``-th derivative of the digamma function (``tf.math.polygamma``).

    Args:
        a: a float tensor of non-negative integer values (the order).
        x: a float32 or float64 tensor of ``a``'s dtype; shapes broadcast.

    Returns:
        ``psi^(a)(x)``; NaN where ``a`` is not a non-negative integer, inf (odd ``a``) or
        NaN (even ``a``) at a pole ``x = 0, -1, -2, ...``.
        The gradient with respect to ``x`` is ``polygamma(a + 1, x)``; ``a`` has none.
    """
    a, x = pair(a, x, "Polygamma")
    # float and double only: half precision refused too (check_kind takes bfloat16 as float)
    check_kind(x, "f" if x._value.dtype.itemsize >= 4 else "", "Polygamma", "float, double")
    return apply(_POLYGAMMA, (a, x))


erf.__doc__ = """The error function ``2/sqrt(pi) * integral_0^x exp(-t^2) dt`` (``tf.math.erf``).

Computed with W. J. Cody's rational Chebyshev approximations (Math. Comp. 23, 1969).
"""
lgamma.__doc__ = "``log|Gamma(x)|`` by Lanczos' approximation (``tf.math.lgamma``)."
digamma.__doc__ = "``d/dx lgamma(x)`` by recurrence and asymptotic series (``tf.math.digamma``)."


def lbeta(x, name=None):
    """``log|B(x)|`` of the multivariate beta function over the last axis (``tf.math.lbeta``).

    ``sum(lgamma(x), -1) - lgamma(sum(x, -1))``.
    """
    x = to_tensor(x)
    return subtract(reduce_sum(lgamma(x), -1), lgamma(reduce_sum(x, -1)))


def _declare_batch_safe():
    # Element-wise rules: they broadcast over a leading batch of cotangents, so the
    # vectorised jacobian can run them as they are.
    from .._core.jacobians import batch_safe
    batch_safe(_ERF, _ERFC, _LGAMMA, _DIGAMMA, _POLYGAMMA)


_declare_batch_safe()


# ----------------------------------------------------------------------------- einsum


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _parse_einsum(equation, shapes):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs, out = eq, None
    ins = lhs.split(",")
    if len(ins) != len(shapes):
        raise ValueError(f"Got {len(shapes)} inputs for equation \"{equation}\", expecting "
                         f"{len(ins)}")
    used = set(eq)
    spare = [c for c in _LETTERS if c not in used]
    ell = None
    fixed = []
    for spec, shp in zip(ins, shapes, strict=True):
        if "..." in spec:
            n = len(shp) - (len(spec) - 3)
            if ell is None or n > len(ell):
                ell = "".join(spare[:n])
            spec = spec.replace("...", ell[len(ell) - n:] if n else "")
        fixed.append(spec)
    if out is None:
        counts = {}
        for s in fixed:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        letters = sorted(c for c, k in counts.items() if k == 1 and c not in (ell or ""))
        out = (ell or "") + "".join(letters)
    else:
        out = out.replace("...", ell or "")
    return fixed, out


def _einsum_forward(*xs, ins, out):
    if xs and xs[0].dtype.kind == "V":  # bfloat16: NumPy's einsum has no loop for it
        wide = [x.astype(np.float32) for x in xs]
        return np.einsum(",".join(ins) + "->" + out, *wide).astype(xs[0].dtype)
    y = np.einsum(",".join(ins) + "->" + out, *xs)
    if y.dtype.kind == "c" and len(xs) == 2 and not np.isfinite(y).all():
        y = _complex_contraction(xs, ins, out, y)
    return y


def _complex_contraction(xs, ins, out, y):
    """A two-operand complex contraction holding inf or nan as TF runs it: a batched matmul
    of the operands reshaped to [batch, free, contracted] and [batch, contracted, free], so
    Eigen's complex kernel forms its inf and nan (see ``math_ops``)."""
    (a, b), (la, lb) = xs, ins
    if len(set(la)) != len(la) or len(set(lb)) != len(lb) or set(la + lb) != set(la) | set(
            lb) or not set(out) <= set(la + lb):
        return y
    batch = [c for c in out if c in la and c in lb]
    contract = [c for c in la if c in lb and c not in out]
    if any(c not in out and c not in contract for c in la + lb):
        return y  # a label summed within one operand: not a plain matmul
    free_a = [c for c in out if c in la and c not in lb]
    free_b = [c for c in out if c in lb and c not in la]
    size = {c: n for lab, x in ((la, a), (lb, b)) for c, n in zip(lab, x.shape)}

    def prod(cs):
        return int(np.prod([size[c] for c in cs])) if cs else 1

    a2 = np.transpose(a, [la.index(c) for c in batch + free_a + contract]).reshape(
        (prod(batch), prod(free_a), prod(contract)))
    b2 = np.transpose(b, [lb.index(c) for c in batch + contract + free_b]).reshape(
        (prod(batch), prod(contract), prod(free_b)))
    r = _kernels.complex_matmul(a2, b2).reshape(
        [size[c] for c in batch + free_a + free_b])
    order = batch + free_a + free_b
    return np.transpose(r, [order.index(c) for c in out]).astype(y.dtype, copy=False)


_EINSUM = primitive("Einsum", _einsum_forward,
                    error=lambda v, a, e: (errors.InvalidArgumentError, str(e)))


def _einsum_rule(k):
    def rule(g, y, *xs, ins, out):
        target = ins[k]
        others = [ins[j] for j in builtins.range(len(ins)) if j != k]
        # The rule is linear in each other operand: for complex ones TensorFlow's convention
        # (g times the conjugate derivative) conjugates them.
        conj = xs[k]._value.dtype.kind == "c"
        operands = [g] + [_conj(xs[j]) if conj else xs[j]
                          for j in builtins.range(len(ins)) if j != k]
        avail = set(out).union(*others) if others else set(out)
        unique = "".join(dict.fromkeys(target))
        kept = "".join(c for c in unique if c in avail)
        # Letters only in this operand (summed away) come back by broadcasting; letters
        # broadcast from 1 in this operand are summed by the engine.
        gk = einsum(",".join([out] + others) + "->" + kept, *operands)
        shape = dict(zip(target, xs[k]._value.shape, strict=True))
        if kept != unique:
            gk = reshape(gk, [shape[c] if c in avail else 1 for c in unique])
            gk = broadcast_to(gk, [shape[c] for c in unique])
        if unique != target:
            # A repeated letter (a diagonal): put the gradient back on that diagonal by
            # multiplying with identity matrices, one per repeat.
            spare = iter(c for c in _LETTERS if c not in target)
            full, eyes, specs = [], [], []
            seen = set()
            for c in target:
                if c in seen:
                    d = next(spare)
                    full.append(d)
                    specs.append(c + d)
                    eyes.append(Tensor(np.eye(shape[c], dtype=g._value.dtype)))
                else:
                    seen.add(c)
                    full.append(c)
            gk = einsum(",".join([unique] + specs) + "->" + "".join(full), gk, *eyes)
        return gk
    return rule


def einsum(equation, *inputs, **kwargs):
    """Sum of products over index letters, as NumPy's einsum (``tf.einsum``).

    Args:
        equation: e.g. ``'ij,jk->ik'``, ``'bij,bjk->bik'``, ``'...ij,...j->...i'``; an
            implicit output (no ``->``) lists the letters used once, sorted.
        *inputs: tensors of one dtype.

    Returns:
        A tensor of the output subscripts' shape; gradients flow to every operand
        (a repeated letter, a diagonal, gets its gradient on that diagonal).

    Raises:
        ValueError: if the number of inputs does not match the equation.
        tf.errors.InvalidArgumentError: for mismatched dimensions.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> print(tf.einsum('ij,jk->ik', a, a).numpy())
        [[ 7. 10.]
         [15. 22.]]
        >>> print(tf.einsum('ii', a).numpy())
        5.0
    """
    xs = [to_tensor(x) for x in inputs]
    if xs and kind_of(xs[0]._value.dtype) not in "fiuc":
        dt = xs[0].dtype.name.upper()
        raise errors.op_error(
            errors.NotFoundError, f"Could not find device for node: {{{{node Einsum}}}} = "
            f"Einsum[N={len(xs)}, T=DT_{dt}, equation=\"{equation}\"]", "Einsum")
    for j, t in enumerate(xs[1:], 1):
        if t._value.dtype is not xs[0]._value.dtype:
            from ._helpers import dtype_mismatch
            raise dtype_mismatch("Einsum", j, xs[0]._value.dtype, t._value.dtype)
    ins, out = _parse_einsum(equation, [t._value.shape for t in xs])
    sizes = {}
    for spec, t in zip(ins, xs, strict=True):
        for axis, (c, d) in enumerate(zip(spec, t._value.shape, strict=True)):
            # Only the dimensions of an ellipsis (letters not in the equation) broadcast.
            if sizes.setdefault(c, d) != d and (c in equation or 1 not in (d, sizes[c])):
                raise _err(f"Expected dimension {sizes[c]} at axis {axis} of the input shaped "
                           f"{_show(t._value.shape)} but got dimension {d}", "Einsum")
    if len(_EINSUM.vjps) < len(xs):
        _EINSUM.vjps = tuple(_einsum_rule(k) for k in builtins.range(len(xs)))
    return apply(_EINSUM, xs, {"ins": tuple(ins), "out": out})


def tensordot(a, b, axes, name=None):
    """Contract ``a`` and ``b`` over the given axes (``tf.tensordot``).

    Args:
        a, b: tensors of one dtype.
        axes: an int N (last N of ``a`` with first N of ``b``) or a pair of axis lists.

    Raises:
        ValueError: for axes that do not match.
    """
    a = to_tensor(a)
    b = to_tensor(b)
    if a._value.dtype.kind not in "fiuc":  # TensorFlow contracts with MatMul
        check_kind(a, "fiuc", "MatMul", "bfloat16, half, float, double, int32, int64, uint8, "
                   "uint16, uint32, uint64, complex64, complex128")
    na, nb = a._value.ndim, b._value.ndim
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n > na or n > nb or n < 0:
            raise ValueError(f"'axes' must not be larger than the number of dimensions of "
                             f"tensor {a if n > na else b}.")
        ax_a, ax_b = list(builtins.range(na - n, na)), list(builtins.range(n))
    else:
        ax_a, ax_b = axes
        ax_a = [int(v) % na for v in _int_list(ax_a)]
        ax_b = [int(v) % nb for v in _int_list(ax_b)]
        if len(ax_a) != len(ax_b):
            raise ValueError(f"Different number of contraction axes 'a' and 'b', "
                             f"{len(ax_a)} != {len(ax_b)}.")
    letters = iter(_LETTERS)
    sa = [next(letters) for _ in builtins.range(na)]
    sb = [next(letters) for _ in builtins.range(nb)]
    sha, shb = a._value.shape, b._value.shape
    if builtins.any(sha[i] != shb[j] for i, j in zip(ax_a, ax_b, strict=True)):
        # TensorFlow contracts by a matmul of the reshaped operands and fails there.
        def _mat(shape, contract, first):
            free = int(np.prod([d for k, d in enumerate(shape) if k not in contract]))
            inner = int(np.prod([shape[k] for k in contract]))
            return [free, inner] if first else [inner, free]
        raise errors.static_shape(_err(
            f"Matrix size-incompatible: In[0]: {_show(_mat(sha, ax_a, True))}, "
            f"In[1]: {_show(_mat(shb, ax_b, False))}", "MatMul"))
    for i, j in zip(ax_a, ax_b, strict=True):
        sb[j] = sa[i]
    out = [c for i, c in enumerate(sa) if i not in ax_a] + \
          [c for j, c in enumerate(sb) if j not in ax_b]
    return einsum("".join(sa) + "," + "".join(sb) + "->" + "".join(out), a, b)



