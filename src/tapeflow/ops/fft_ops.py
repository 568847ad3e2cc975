"""Discrete Fourier transforms (``tf.signal.fft``, ``rfft``, ``irfft``, their 2-D, 3-D and N-D
forms, ``fftshift``).

Each transform is one primitive named by TensorFlow's op type (``FFT``, ``IRFFT2D``, ...) over
the innermost ``k`` axes, computed by NumPy's pocketfft in the input's precision. The rules
follow TensorFlow's convention for complex gradients (``dL/dRe + i dL/dIm``):

- ``FFT``: the adjoint of the unnormalised DFT is ``n * IFFT``; ``IFFT``'s is ``FFT / n``
  (``n`` the number of transformed points).
- ``RFFT`` (real to half spectrum, length ``m // 2 + 1`` on the last axis): the gradient is
  ``Re(n * IFFT(g))`` with ``g`` zero-filled to the full length, then cut or zero-padded back
  to the input's extent (the forward crops or pads the input to ``fft_length``).
- ``IRFFT``: ``RFFT(g) * w / n`` with ``w = 1`` on the DC term (and on the Nyquist term for an
  even length) and ``2`` elsewhere, since every other bin stands for a conjugate pair.
Derivation: write the transform as a real-linear map and take its transpose, e.g. Oppenheim &
Schafer, *Discrete-Time Signal Processing*, ch. 8. Every rule is written with these public ops,
so higher orders come free; the transforms are linear, so forward mode applies the op to the
tangent.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defjvp, defvjp, primitive
from .._core.tensor import _TensorLike, convert_to_tensor
from . import array_ops as _a
from . import manip_ops as _manip
from ._helpers import tf_type_name

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "fftnd", "ifftnd",
           "rfft", "irfft", "rfft2d", "irfft2d", "rfft3d", "irfft3d", "rfftnd", "irfftnd",
           "fftshift", "ifftshift"]

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}
_SUFFIX = {1: "", 2: "2D", 3: "3D"}


def _const(value, dtype):
    """A constant of ``dtype`` made from the exact Python/NumPy value (not through float32)."""
    return convert_to_tensor(np.asarray(value, _dt.as_dtype(dtype)._np))


# ------------------------------------------------------------------ complex to complex
def _c2c_forward(inverse):
    fn = np.fft.ifftn if inverse else np.fft.fftn

    def forward(x, axes):
        if 0 in [x.shape[a] for a in axes]:   # NumPy refuses; TF returns the empty result
            return np.zeros(x.shape, x.dtype)
        return fn(x, axes=axes).astype(x.dtype, copy=False)
    return forward


def _c2c(name, inverse):
    prim = primitive(name, _c2c_forward(inverse), save_inputs=False)

    def rule(g, y, x_shape, axes):
        # FFT's adjoint n * IFFT(g) is conj(FFT(conj(g))), IFFT's FFT(g) / n is
        # conj(IFFT(conj(g))): no size constant, so a relaxed trace stays shape-generic.
        return _a.conj(_c2c_call(_a.conj(g), axes, inverse))

    defvjp(prim, rule)
    defjvp(prim, lambda ts, y, x_shape, axes: None if ts[0] is None
           else _c2c_call(ts[0], axes, inverse))
    return prim


_C2C = {}
for _k in (1, 2, 3):
    _C2C[(_k, False)] = _c2c("FFT" + _SUFFIX[_k], False)
    _C2C[(_k, True)] = _c2c("IFFT" + _SUFFIX[_k], True)


def _to_end(x, axes):
    """``x`` with ``axes`` moved last (in order), and the permutation that undoes it."""
    nd = x._value.ndim
    pos = [a % nd for a in axes]
    perm = [i for i in range(nd) if i not in pos] + pos
    if perm == list(range(nd)):
        return x, None
    return _a.transpose(x, perm), [perm.index(i) for i in range(nd)]


def _c2c_call(x, axes, inverse):
    """The DFT over ``axes``: the FFT/FFT2D/FFT3D primitive over innermost axes; other axes
    are moved last first, and more than three are done three at a time (the DFT is
    separable)."""
    k = len(axes)
    if k == 0:
        return x
    if k <= 3 and tuple(axes) == tuple(range(-k, 0)):
        return apply(_C2C[(k, inverse)], (x,), {"axes": tuple(axes)})
    y, back = _to_end(x, axes)
    done = 0
    while done < k:
        step = min(3, k - done)
        inner = tuple(range(-done - step, -done)) if done else tuple(range(-step, 0))
        y = _c2c_call(y, inner, inverse)
        done += step
    return y if back is None else _a.transpose(y, back)


def _check_complex(x, op_name):
    if x.dtype not in (_dt.complex64, _dt.complex128):
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Value for attr 'Tcomplex' of {tf_type_name(x._value.dtype)} is not in the list of "
            f"allowed values: complex64, complex128\n\t; NodeDef: {{{{node {op_name}}}}}",
            op_name)


def _check_rank(x, k, op_name):
    if x._value.ndim < k:
        dims = ",".join(str(d) for d in x._value.shape)
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Input must have rank of at least {k} but got: [{dims}]",
                              op_name)


def _transform(input, k, inverse):  # noqa: A002 - TensorFlow's name
    x = input if isinstance(input, _TensorLike) else convert_to_tensor(input)
    op_name = ("IFFT" if inverse else "FFT") + _SUFFIX[k]
    _check_complex(x, op_name)
    _check_rank(x, k, op_name)
    return _c2c_call(x, tuple(range(-k, 0)), inverse)


def fft(input, name=None):  # noqa: A002 - TensorFlow's name
    """The discrete Fourier transform over the innermost axis (``tf.signal.fft``).

    ``y[..., k] = sum_n x[..., n] * exp(-2 pi i k n / N)``, unnormalised.

    Args:
        input: a complex64 or complex128 tensor of rank >= 1.
        name: TensorFlow's op name; unused.

    Returns:
        A tensor of ``input``'s shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a real or integer dtype, or a scalar.
    """
    return _transform(input, 1, False)


def ifft(input, name=None):  # noqa: A002 - TensorFlow's name
    """The inverse DFT over the innermost axis, scaled by ``1/N`` (``tf.signal.ifft``).

    Args:
        input: a complex64 or complex128 tensor of rank >= 1.

    Returns:
        A tensor of ``input``'s shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a real or integer dtype, or a scalar.
    """
    return _transform(input, 1, True)


def fft2d(input, name=None):  # noqa: A002 - TensorFlow's name
    """The 2-D DFT over the two innermost axes (``tf.signal.fft2d``).

    Args:
        input: a complex64 or complex128 tensor of rank >= 2.

    Raises:
        tf.errors.InvalidArgumentError: for a non-complex dtype or rank < 2.
    """
    return _transform(input, 2, False)


def ifft2d(input, name=None):  # noqa: A002 - TensorFlow's name
    """The inverse 2-D DFT over the two innermost axes (``tf.signal.ifft2d``).

    Raises:
        tf.errors.InvalidArgumentError: for a non-complex dtype or rank < 2.
    """
    return _transform(input, 2, True)


def fft3d(input, name=None):  # noqa: A002 - TensorFlow's name
    """The 3-D DFT over the three innermost axes (``tf.signal.fft3d``).

    Raises:
        tf.errors.InvalidArgumentError: for a non-complex dtype or rank < 3.
    """
    return _transform(input, 3, False)


def ifft3d(input, name=None):  # noqa: A002 - TensorFlow's name
    """The inverse 3-D DFT over the three innermost axes (``tf.signal.ifft3d``).

    Raises:
        tf.errors.InvalidArgumentError: for a non-complex dtype or rank < 3.
    """
    return _transform(input, 3, True)


# ------------------------------------------------------------------ real <-> half spectrum
def _resolve(fft_length, shape, axes, inverse):
    """The transform lengths: ``fft_length``, or (None) the input's own sizes on ``axes``
    (for the inverse, ``2 * (m - 1)`` on the last). Resolved when the forward runs, so a
    program traced with relaxed shapes does not keep the traced sizes."""
    if fft_length is not None:
        return tuple(fft_length)
    n = [shape[a] for a in axes]
    if inverse:
        # no bins at all: TF's inferred -2 points give an empty signal, not an error
        n[-1] = max(2 * (n[-1] - 1), 0)
    return tuple(n)


def _r2c_forward(x, axes, fft_length):
    fft_length = _resolve(fft_length, x.shape, axes, False)
    out_shape = list(x.shape)
    for a, n in zip(axes, fft_length):
        out_shape[a] = n
    # A zero last length keeps zero bins (TF's shape), not ``0 // 2 + 1``.
    out_shape[axes[-1]] = fft_length[-1] // 2 + 1 if fft_length[-1] else 0
    cdt = _COMPLEX_OF[x.dtype]
    if 0 in fft_length or 0 in [x.shape[a] for a in axes]:
        return _fit_array(x.astype(cdt), axes, out_shape)
    return np.fft.rfftn(x, s=fft_length, axes=axes).astype(cdt, copy=False)


def _c2r_forward(y, axes, fft_length):
    fft_length = _resolve(fft_length, y.shape, axes, True)
    rdt = np.dtype(np.float32) if y.dtype == np.complex64 else np.dtype(np.float64)
    if 0 in fft_length:
        shape = list(y.shape)
        for a, n in zip(axes, fft_length):
            shape[a] = n
        return np.zeros(shape, rdt)
    used = list(fft_length[:-1]) + [fft_length[-1] // 2 + 1]
    if 0 in [y.shape[a] for a in axes]:
        y = _fit_array(y, axes, [y.shape[i] if i - y.ndim not in axes else
                                 used[axes.index(i - y.ndim)] for i in range(y.ndim)])
    return np.fft.irfftn(y, s=fft_length, axes=axes).astype(rdt, copy=False)


def _r2c_adjoint(g, x, axes, fft_length):
    """RFFT's gradient: ``Re(n * IFFT(g))`` with ``g`` zero-filled to the full length, cut or
    padded back to the input ``x``'s extent (``x`` is read for its shape and dtype only)."""
    n = _resolve(fft_length, x.shape, axes, False)
    full = list(g.shape)
    full[axes[-1]] = n[-1]
    g = _fit_array(g, axes, full)
    if 0 in g.shape:
        out = np.zeros(g.shape, x.dtype)
    else:
        out = np.fft.ifftn(g, axes=axes).real * float(np.prod(n))
    return _fit_array(out, axes, list(x.shape)).astype(x.dtype, copy=False)


def _c2r_adjoint(g, y, axes, fft_length):
    """IRFFT's gradient: ``RFFT(g) * w / n`` (``w`` 1 on DC and an even length's Nyquist bin,
    2 elsewhere), cut or padded back to the input ``y``'s extent."""
    n = _resolve(fft_length, y.shape, axes, True)
    if 0 in n or 0 in g.shape:
        spec = np.zeros(list(g.shape[:-1]) + [n[-1] // 2 + 1], y.dtype)
    else:
        spec = np.fft.rfftn(g, s=n, axes=axes) * (_half_mask(n[-1], np.float64)
                                                    / float(np.prod(n)))
    return _fit_array(spec, axes, list(y.shape)).astype(y.dtype, copy=False)


def _fit_array(x, axes, shape):
    """``x`` cut or zero-padded to ``shape`` on ``axes`` (NumPy arrays)."""
    pads = [(0, 0)] * x.ndim
    index = [slice(None)] * x.ndim
    for a in axes:
        want, have = shape[a], x.shape[a]
        if want < have:
            index[a] = slice(0, want)
        elif want > have:
            pads[a] = (0, want - have)
    return np.pad(x[tuple(index)], pads)


def _fit(t, axes, shape):
    """Tensor ``t`` cut or zero-padded to ``shape`` on ``axes`` (differentiable)."""
    nd = t._value.ndim
    begin, size, pads, cut, pad = [0] * nd, list(t._value.shape), [[0, 0]] * nd, False, False
    for a in axes:
        want, have = shape[a], t._value.shape[a]
        if want < have:
            size[a % nd], cut = want, True
        elif want > have:
            pads[a % nd], pad = [0, want - have], True
    if cut:
        t = t[tuple(slice(b, b + s) for b, s in zip(begin, size))]
    if pad:
        t = _manip.pad(t, pads)
    return t


def _half_mask(n, dtype):
    """Weights of the half spectrum's bins: 1 for DC (and Nyquist of an even n), 2 else."""
    w = np.full(n // 2 + 1, 2.0)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    return w.astype(dtype)


def _real_transform_prim(name, forward, adjoint_forward):
    """The primitive ``name`` (RFFT* or IRFFT*) and its adjoint ``name + "Grad"``, which
    reads the transform's input for its shape only. Both are linear: forward mode applies
    each to the tangent, and each one's VJP is the other (the adjoint's adjoint is the
    transform; ``fft_length`` None means the shape's own lengths on both sides)."""
    prim = primitive(name, forward)
    adjoint = primitive(name + "Grad", adjoint_forward, shape_inputs=(1,))

    def run(p, inputs, axes, fft_length):
        return apply(p, inputs, {"axes": axes, "fft_length": fft_length})

    defvjp(prim, lambda g, y, x, axes, fft_length: run(adjoint, (g, x), axes, fft_length))
    defjvp(prim, lambda ts, y, x, axes, fft_length: None if ts[0] is None
           else run(prim, (ts[0],), axes, fft_length))
    defvjp(adjoint, lambda gg, y, g, x, axes, fft_length: run(prim, (gg,), axes, fft_length),
           None)
    defjvp(adjoint, lambda ts, y, g, x, axes, fft_length: None if ts[0] is None
           else run(adjoint, (ts[0], x), axes, fft_length))
    return prim


_R2C = {k: _real_transform_prim("RFFT" + _SUFFIX[k], _r2c_forward, _r2c_adjoint)
        for k in (1, 2, 3)}


def _rfft_tangent_as_tf(t, axes, fft_length):
    """Forward mode of a 1-D RFFT as TensorFlow computes it, the transpose of its gradient
    (``0.5 * (irfft(g) * n + Re(g[0] + g[-1] * (-1)^k))``, differentiated again): the
    RFFT of ``0.5 * t * n`` times ``mask / n`` in complex products, plus ``0.5 * t``'s sum on
    the DC bin and its alternating sum times ``is_even`` on the last bin. Equal to
    ``rfft(t)`` up to rounding; at a nan or inf of the tangent its complex products
    (``x * (w + 0j)``) leave nan in both parts of each bin that meets it."""
    from . import complex_ops as _c
    from . import math_ops as _m
    from . import reduction_ops as _r
    n = t._value.shape[-1]
    rdt = t._value.dtype
    cdt = _COMPLEX_OF[np.dtype(rdt)]
    half = _m.multiply(t, _const(0.5, rdt))
    spec = apply(_R2C[1], (_m.multiply(half, _const(float(n), rdt)),),
                 {"axes": axes, "fft_length": fft_length})
    w = (np.float64(1.0) / n) if rdt == np.float64 else np.float32(1.0) / np.float32(n)
    weights = (w * _half_mask(n, rdt)).astype(rdt)
    spec = _m._cmul(spec, _const(weights.astype(cdt), cdt))
    g = _c.complex(half, _a.zeros_like(half))
    bins = n // 2 + 1
    lead = [[0, 0]] * (t._value.ndim - 1)
    spec = _m.add(spec, _manip.pad(_r.reduce_sum(g, -1, keepdims=True),
                                   lead + [[0, bins - 1]]))
    # the Nyquist term is there for odd n too, times is_even = 0 (0 * inf is nan)
    sign = (1 - 2 * (np.arange(n) % 2)).astype(cdt)
    ym = _r.reduce_sum(_m._cmul(g, _const(sign, cdt)), -1, keepdims=True)
    ym = _m._cmul(ym, _const(np.asarray(1 - n % 2, cdt), cdt))
    return _m.add(spec, _manip.pad(ym, lead + [[bins - 1, 0]]))


def _rfft_jvp(ts, y, x, axes, fft_length):
    t = ts[0]
    if t is None:
        return None
    have = x._value.shape[-1:]
    if (fft_length is None or fft_length[0] >= have[0]) and t._value.size \
            and not np.isfinite(t._value).all():
        if fft_length is not None and fft_length[0] > have[0]:
            # TF's wrapper pads the signal to fft_length before the op (the tangent too)
            t = _fit(t, (-1,), t._value.shape[:-1] + tuple(fft_length))
        return _rfft_tangent_as_tf(t, axes, fft_length)
    return apply(_R2C[1], (t,), {"axes": axes, "fft_length": fft_length})


defjvp(_R2C[1], _rfft_jvp)
_C2R = {k: _real_transform_prim("IRFFT" + _SUFFIX[k], _c2r_forward, _c2r_adjoint)
        for k in (1, 2, 3)}


def _lengths(fft_length, k):
    if isinstance(fft_length, _TensorLike):
        fft_length = fft_length.numpy()
    out = tuple(int(n) for n in np.reshape(np.asarray(fft_length), [-1]))
    if len(out) != k:
        raise ValueError(f"Shape ({len(out)},) must have rank {k}" if k > 1 else
                         f"Shapes must be equal rank, but are {len(out)} and {k}")
    return out


def _check_empty_lengths(x, fft_length, op_name, inverse=False):
    """TF pads a short input to ``fft_length`` before its kernel, except a size-0 one: the
    kernel then needs each transformed axis to be 0 or at least the length (the inverse's
    innermost: ``length // 2 + 1``)."""
    shape = x._value.shape
    for i, n in enumerate(fft_length):
        if inverse and i == len(fft_length) - 1:
            n = n // 2 + 1
        idx = len(shape) - len(fft_length) + i
        if 0 < shape[idx] < n:
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"Input dimension {idx} must have length of at least {n} but got: "
                f"{shape[idx]}", op_name)


def _real_transform(input_tensor, fft_length, k, inverse, axes=None):
    x = input_tensor if isinstance(input_tensor, _TensorLike) else convert_to_tensor(
        input_tensor, None if inverse else _dt.float32)
    op_name = ("IRFFT" if inverse else "RFFT") + _SUFFIX.get(k, "ND")
    if inverse:
        if x.dtype not in (_dt.complex64, _dt.complex128):
            raise ValueError(f"{op_name} requires tf.complex64 or tf.complex128 inputs, got: "
                             f"{str(x)}")
    elif x.dtype not in (_dt.float32, _dt.float64):
        raise ValueError(f"{op_name} requires tf.float32 or tf.float64 inputs, got: {str(x)}")
    if x._value.ndim < (k or 0):
        raise ValueError(f"Shape {x.shape} must have rank at least {k}")
    if axes is None:
        axes = tuple(range(-k, 0))
    if fft_length is not None:
        fft_length = _lengths(fft_length, len(axes))
        if k and 0 in x._value.shape:
            _check_empty_lengths(x, fft_length, op_name, inverse)
    if len(axes) <= 3 and tuple(axes) == tuple(range(-len(axes), 0)):
        table = _C2R if inverse else _R2C
        return apply(table[len(axes)], (x,), {"axes": tuple(axes), "fft_length": fft_length})
    fft_length = _resolve(fft_length, x._value.shape, axes, inverse)
    # Other axes: the half-spectrum transform on the last of them, a full DFT on the rest.
    rest, last = tuple(axes[:-1]), axes[-1]
    x = _fit(x, rest, _sized(x, rest, fft_length[:-1]))
    if inverse:
        x = _c2c_call(x, rest, True)
    y, back = _to_end(x, (last,))
    table = _C2R if inverse else _R2C
    y = apply(table[1], (y,), {"axes": (-1,), "fft_length": (fft_length[-1],)})
    y = y if back is None else _a.transpose(y, back)
    return y if inverse else _c2c_call(y, rest, False)


def rfft(input_tensor, fft_length=None, name=None):
    """The DFT of a real signal over the innermost axis, keeping the ``fft_length // 2 + 1``
    non-redundant bins (``tf.signal.rfft``).

    Args:
        input_tensor: a float32 or float64 tensor of rank >= 1.
        fft_length: a 1-element list/tensor: the transform length; the innermost axis is
            cut or zero-padded to it. Default: that axis's size.
        name: TensorFlow's op name; unused.

    Returns:
        complex64 (from float32) or complex128 (from float64), innermost axis
        ``fft_length // 2 + 1``.

    Raises:
        ValueError: for a non-float dtype (TF's message) or a scalar.
    """
    return _real_transform(input_tensor, fft_length, 1, False)


def irfft(input_tensor, fft_length=None, name=None):
    """The inverse of ``rfft``: a real signal of ``fft_length`` samples from its half
    spectrum (``tf.signal.irfft``).

    Args:
        input_tensor: a complex64 or complex128 tensor of rank >= 1.
        fft_length: a 1-element list/tensor; default ``2 * (m - 1)`` for ``m`` input bins.
            The input's innermost axis is cut or zero-padded to ``fft_length // 2 + 1``.

    Returns:
        float32 (from complex64) or float64, innermost axis ``fft_length``.

    Raises:
        ValueError: for a non-complex dtype or a scalar.
    """
    return _real_transform(input_tensor, fft_length, 1, True)


def rfft2d(input_tensor, fft_length=None, name=None):
    """``rfft`` over the two innermost axes (``tf.signal.rfft2d``); ``fft_length`` has 2
    entries.

    Raises:
        ValueError: for a non-float dtype or rank < 2.
    """
    return _real_transform(input_tensor, fft_length, 2, False)


def irfft2d(input_tensor, fft_length=None, name=None):
    """``irfft`` over the two innermost axes (``tf.signal.irfft2d``).

    Raises:
        ValueError: for a non-complex dtype or rank < 2.
    """
    return _real_transform(input_tensor, fft_length, 2, True)


def rfft3d(input_tensor, fft_length=None, name=None):
    """``rfft`` over the three innermost axes (``tf.signal.rfft3d``).

    Raises:
        ValueError: for a non-float dtype or rank < 3.
    """
    return _real_transform(input_tensor, fft_length, 3, False)


def irfft3d(input_tensor, fft_length=None, name=None):
    """``irfft`` over the three innermost axes (``tf.signal.irfft3d``).

    Raises:
        ValueError: for a non-complex dtype or rank < 3.
    """
    return _real_transform(input_tensor, fft_length, 3, True)


# ------------------------------------------------------------------ N-D over chosen axes
def _nd_axes(x, fft_length, axes):
    nd = x._value.ndim
    if axes is None:
        axes = tuple(range(-(len(fft_length) if fft_length is not None else nd), 0))
    axes = tuple(int(a) - nd if int(a) >= 0 else int(a) for a in np.reshape(
        np.asarray(axes.numpy() if isinstance(axes, _TensorLike) else axes), [-1]))
    return axes


def _check_norm(norm):
    if norm not in (None, "backward"):
        raise ValueError(f"Unsupported norm: {norm!r}; TensorFlow 2.21 supports only the "
                         "default ('backward') normalisation")


def fftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The DFT over ``axes`` (default: the innermost ``len(fft_length)`` axes, or all)
    (``tf.signal.fftnd``). TensorFlow 2.21 registers this op on GPU only (its CPU build
    raises NotFoundError); tapeflow computes it (docs/ops.md).

    Args:
        input_tensor: a complex64 or complex128 tensor.
        fft_length: per axis the transform length (cut or zero-pad); default the sizes.
        axes: the axes to transform.
        norm: only the default normalisation.
    """
    x = input_tensor if isinstance(input_tensor, _TensorLike) else convert_to_tensor(
        input_tensor)
    _check_complex(x, "FFTND")
    _check_norm(norm)
    ax = _nd_axes(x, fft_length, axes)
    if fft_length is not None:
        x = _fit(x, ax, _sized(x, ax, _lengths(fft_length, len(ax))))
    return _c2c_call(x, ax, False)


def ifftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The inverse DFT over ``axes`` (``tf.signal.ifftnd``); as ``fftnd``."""
    x = input_tensor if isinstance(input_tensor, _TensorLike) else convert_to_tensor(
        input_tensor)
    _check_complex(x, "IFFTND")
    _check_norm(norm)
    ax = _nd_axes(x, fft_length, axes)
    if fft_length is not None:
        x = _fit(x, ax, _sized(x, ax, _lengths(fft_length, len(ax))))
    return _c2c_call(x, ax, True)


def _sized(x, axes, lengths):
    shape = list(x._value.shape)
    for a, n in zip(axes, lengths):
        shape[a] = n
    return shape


def rfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """``rfft`` over ``axes``, the half spectrum on the last of them (``tf.signal.rfftnd``);
    GPU-only in TensorFlow 2.21, computed here.

    Raises:
        ValueError: for a non-float dtype.
    """
    _check_norm(norm)
    x = input_tensor if isinstance(input_tensor, _TensorLike) else convert_to_tensor(
        input_tensor, _dt.float32)
    return _real_transform(x, fft_length, None, False, _nd_axes(x, fft_length, axes))


def irfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """``irfft`` over ``axes`` (``tf.signal.irfftnd``); GPU-only in TensorFlow 2.21.

    Raises:
        ValueError: for a non-complex dtype.
    """
    _check_norm(norm)
    x = input_tensor if isinstance(input_tensor, _TensorLike) else convert_to_tensor(
        input_tensor)
    return _real_transform(x, fft_length, None, True, _nd_axes(x, fft_length, axes))


# ------------------------------------------------------------------ shifts
def _shift(x, axes, sign):
    x = x if isinstance(x, _TensorLike) else convert_to_tensor(x)
    nd = x._value.ndim
    if axes is None:
        if nd == 0:
            # TF rolls over ``tuple(range(0))``, an empty float axis list Roll refuses
            raise errors.op_error(
                errors.InvalidArgumentError,
                "Value for attr 'Taxis' of float is not in the list of allowed values: "
                "int32, int64", "Roll")
        axes = list(range(nd))
    elif isinstance(axes, int) or np.ndim(axes) == 0:
        if not -nd <= int(axes) < max(nd, 1) or nd == 0:
            # TF reads ``shape(x)[axes]``
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"slice index {int(axes)} of dimension 0 out of bounds.", "StridedSlice")
        axes = [int(axes)]
    else:
        axes = [int(a) for a in axes]
    if not axes:
        return x
    shifts = [sign * (x._value.shape[a] // 2) for a in axes]
    return _manip.roll(x, shifts, axes)


def fftshift(x, axes=None, name=None):
    """Move the zero-frequency bin to the centre of ``axes`` (``tf.signal.fftshift``):
    a roll by ``n // 2`` on each axis (all axes by default)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None, name=None):
    """The inverse of ``fftshift`` (``tf.signal.ifftshift``): a roll by ``-(n // 2)``."""
    return _shift(x, axes, -1)
