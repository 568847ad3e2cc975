"""Where tapeflow differs from TensorFlow 2.21 today, by cause (issue 19's kinds).

Each :class:`Known` entry names an op, the checks that differ (``run.CHECKS``), the cases it
covers (a predicate over the case's inputs; None: every case of the op), the kind of
difference from issue 19 and the cause. ``test_difftest.py`` expects these cases to differ
(strictly: an entry whose cases all match TensorFlow now fails the test, so delete it when the
op is fixed; except an entry marked ``random=True``, where TF's answer is uninitialised
memory or rounding noise and may agree by chance). ``SKIP`` lists cases not run under
tapeflow at all (a hang), with the reason.

The table is regenerated from a replay by ``tools/difftest/triage.py`` (it prints the entries
for the differences no entry explains); the reasons were then written from the differences.
"""
from dataclasses import dataclass

import numpy as np

KINDS = {
    "wrong gradient": "a first or second derivative or forward-mode value that is not TF's",
    "numerics": "a forward value that is not TF's (nan/inf handling, overflow, precision)",
    "silent acceptance": "tapeflow computes where TF raises",
    "error class": "tapeflow raises a different class than TF (or crashes)",
    "rejects valid input": "tapeflow raises where TF computes",
    "empty tensors": "size-0 inputs",
    "dtype": "the output dtype or structure differs",
    "tf lacks gradient": "TF raises (LookupError: no gradient registered, or its own bug) "
                         "where tapeflow differentiates; tapeflow's answer is kept",
    "tf wrong": "TF's answer is itself wrong and tapeflow keeps the right one (the evidence "
                "is in docs/ops.md, 'Where tapeflow differs from TensorFlow on purpose')",
    "machine-dependent": "TF's own answer changes with the CPU it runs on (the kernel oneDNN "
                         "picks for the instruction set); tapeflow gives the answer TF gives "
                         "on another CPU (the evidence is in docs/ops.md)",
}


# ------------------------------------------------------------------------------ predicates


def _ts(case):
    return case.tensors()


def has_complex(case):
    return any(t.dtype.startswith("complex") for t in _ts(case))


def has_bool(case):
    return any(t.dtype == "bool" for t in _ts(case))


def has_string(case):
    return any(t.dtype == "string" for t in _ts(case))


def has_int(case):
    return any(t.dtype.startswith(("int", "uint")) for t in _ts(case))


def has_f16(case):
    return any(t.dtype == "float16" for t in _ts(case))


def has_empty(case):
    return any(np.size(t.value) == 0 for t in _ts(case))


def not_positive_definite(case):
    """The first input is square matrices of which one is not Hermitian positive definite
    (NumPy's float64/complex128 Cholesky of its lower triangle fails), or holds inf/nan."""
    v = np.asarray(case.tensors()[0].value) if case.tensors() else np.zeros(0)
    if v.ndim < 2 or v.shape[-1] != v.shape[-2] or v.size == 0 or v.dtype.kind not in "fc":
        return False
    m = v.astype(np.complex128 if v.dtype.kind == "c" else np.float64)
    m = m.reshape((-1,) + v.shape[-2:])
    if not np.isfinite(m).all():
        return True
    for a in m:
        try:
            np.linalg.cholesky(np.tril(a) + np.tril(a, -1).conj().T)
        except np.linalg.LinAlgError:
            return True
    return False


def has_posinf(case):
    return any(np.asarray(t.value).dtype.kind == "f" and np.isposinf(t.value).any()
               for t in _ts(case))


def has_nonfinite(case):
    for t in _ts(case):
        v = np.asarray(t.value)
        if v.dtype.kind in "fc" and not np.isfinite(v).all():
            return True
        if v.dtype.kind in "fc" and t.dtype in ("float16",) and (np.abs(v) > 65504).any():
            return True
        if v.dtype.kind in "fc" and t.dtype in ("float32", "complex64") and (
                np.abs(v) > 3.4e38).any():
            return True
    return False


def has_mixed_dtypes(case):
    return len({t.dtype for t in _ts(case)}) > 1


def has_int_extremes(case):
    for t in _ts(case):
        if t.dtype.startswith(("int", "uint")) and np.size(t.value):
            info = np.iinfo(t.dtype)
            if (np.abs(np.asarray(t.value, np.float64)) >= info.max - 1).any():
                return True
    return False


def fft_cut(case):
    """An rfft whose ``fft_length`` is shorter than the input on some axis (the kernel crops
    it), or differs from a size-0 input's (TF's Python pads only non-empty inputs): TF's RFFT
    gradient adds terms of the input's length to ones of ``fft_length``'s and raises (or,
    where they broadcast, gives wrong values); docs/ops.md."""
    fl = case.kwargs.get("fft_length")
    if fl is None or not case.args or not case.args[0].dtype.startswith("float"):
        return False
    shape = np.shape(case.args[0].value)
    inner = shape[len(shape) - len(fl):]
    if len(shape) < len(fl):
        return False
    return any(int(n) < s for n, s in zip(fl, inner)) or (
        0 in shape and any(int(n) != s for n, s in zip(fl, inner)))


def fft_cut_to_one(case):
    """``fft_cut`` with a last ``fft_length`` of 1 on a longer input: TF's terms broadcast."""
    fl = case.kwargs.get("fft_length")
    return fft_cut(case) and int(fl[-1]) == 1 and np.shape(case.args[0].value)[-1] > 1


def onednn_valid_empty(case):
    """A float32/float16 convolution with padding VALID whose output is empty on a spatial
    axis (the filter, dilated, is longer than the input): TF's float32 (oneDNN) kernel
    returns an uninitialised tensor of the input's spatial shape and its backprop raises
    AbortedError; in float16 the filter's gradient is uninitialised memory (float64 gives
    the empty result and zero gradients tapeflow gives); docs/ops.md."""
    if len(case.args) < 4 or case.args[-1] != "VALID" or case.args[0].dtype not in (
            "float32", "float16"):
        return False
    x, w = np.shape(case.args[0].value), np.shape(case.args[1].value)
    nd = len(x) - 2
    if nd < 1 or len(w) != nd + 2 or w[nd] != x[-1]:
        return False
    dil = int(case.kwargs.get("dilations", 1))
    return any(s < (k - 1) * dil + 1 for s, k in zip(x[1:-1], w[:nd]))


def f32_batch_padded_nonfinite_filter(case):
    """A float32 transposed 2-D convolution with SAME padding over two images or more whose
    filter holds inf or nan: whether TF's gradient multiplies the padded zeros by the filter
    (0 * inf = nan) depends on the kernel oneDNN picks for the CPU. On this machine
    (AVX-512) it does; with ``ONEDNN_MAX_CPU_ISA=AVX2`` TF 2.21 gives tapeflow's answer,
    every check equal (sweep ``nn.conv2d_transpose|2|25``; docs/ops.md)."""
    if len(case.args) < 5 or case.args[4] != "SAME" or case.args[0].dtype != "float32":
        return False
    x, w = np.asarray(case.args[0].value), np.asarray(case.args[1].value, np.float64)
    return x.ndim == 4 and x.shape[0] >= 2 and not np.isfinite(w).all()


def cosine_axis_of_one(case):
    """A float32 cosine similarity over an axis of size 1: each normalised entry is its sign,
    so the exact gradient is 0 and both TF's and tapeflow's are the rounding noise of
    ``x * rsqrt(x^2)``; TF's vectorised float32 Rsqrt is the CPU's approximate reciprocal
    square root with a Newton step (24% of values 1-2 ulp off the correctly rounded one),
    tapeflow's is correctly rounded; sweep ``keras.losses.cosine_similarity|5|72``, both
    gradients 1.2e-4 at most off the exact 0 (docs/ops.md)."""
    if len(case.args) < 2 or case.args[1].dtype != "float32":
        return False
    shape = np.shape(case.args[1].value)
    axis = case.kwargs.get("axis", -1)
    return bool(shape) and isinstance(axis, int) and -len(shape) <= axis < len(shape) \
        and shape[axis] == 1


def pool_empty_output(case):
    """A VALID pooling whose window is longer than the input on a spatial axis (an empty
    output): TF's forward mode raises ValueError on the empty JVP; the tangent is empty."""
    if len(case.args) < 4 or case.args[3] != "VALID" or not case.args[0].dtype.startswith(
            "float"):
        return False
    x = np.shape(case.args[0].value)
    k, s = int(case.args[1]), int(case.args[2])
    outs = [int((n - k + s) / s) for n in x[1:-1]]  # TF's size, truncated toward zero
    return min(outs) == 0 and all(o >= 0 for o in outs)


def valid_empty_output(case):
    """A VALID convolution (any float dtype) whose filter, dilated, is as long as the input
    plus one on a spatial axis: an empty output, whose forward-mode tangent TF cannot build."""
    if len(case.args) < 4 or case.args[-1] != "VALID" or not case.args[0].dtype.startswith(
            "float"):
        return False
    x, w = np.shape(case.args[0].value), np.shape(case.args[1].value)
    nd = len(x) - 2
    if nd < 1 or len(w) != nd + 2 or w[nd] != x[-1]:
        return False
    dil = int(case.kwargs.get("dilations", 1))
    outs = [s - (k - 1) * dil for s, k in zip(x[1:-1], w[:nd])]
    return min(outs) == 0  # (a negative size is TF's InvalidArgumentError, forward)


def glu_gate_near_one(case):
    """float32 glu whose gate half holds a value in (11, 16.6): sigmoid within 2^-16 of 1 but
    not 1, so one ulp of sigmoid is a few percent of 1 - sigmoid, which its derivatives
    scale by."""
    v = np.asarray(case.tensors()[0].value)
    if case.tensors()[0].dtype != "float32" or v.ndim < 1 or v.shape[-1] % 2:
        return False
    b = v[..., v.shape[-1] // 2:]
    return bool(((b > 11) & (b < 16.6)).any())


def _fwd_run(case):
    """The runner takes forward mode on even-numbered cases only."""
    return case.index % 2 == 0


def pool_empty_fwd(case):
    """``pool_empty_output`` on a case whose forward mode is taken."""
    return _fwd_run(case) and pool_empty_output(case)


def valid_empty_fwd(case):
    """``valid_empty_output`` in float64 (float32/float16: ``onednn_valid_empty``) on a case
    whose forward mode is taken."""
    return _fwd_run(case) and valid_empty_output(case) and case.args[0].dtype == "float64"


def empty_last_fwd(case):
    """An input whose last axis has size 0 (the transformed one), on a case whose forward
    mode is taken."""
    shape = np.shape(case.args[0].value)
    return _fwd_run(case) and bool(shape) and shape[-1] == 0


def onednn_max_pool_empty(case):
    """``pool_empty_output`` of a float32 max pool: TF's oneDNN kernel cannot build the
    empty pooling and raises AbortedError (float64 returns the empty result); docs/ops.md."""
    return pool_empty_output(case) and case.args[0].dtype == "float32"


def f64_strided_empty(case):
    """A float64 VALID convolution with stride > 1 whose filter, dilated, is longer than the
    input on a spatial axis, the output empty there (TF's size rounds up to 0): TF's filter
    gradient is uninitialised memory (two fresh processes differ); docs/ops.md."""
    if len(case.args) < 4 or case.args[3] != "VALID" or case.args[0].dtype != "float64":
        return False
    x, w = np.shape(case.args[0].value), np.shape(case.args[1].value)
    nd = len(x) - 2
    if nd < 1 or len(w) != nd + 2:
        return False
    st = case.args[2]
    st = [int(v) for v in st] if isinstance(st, (list, tuple)) else [int(st)] * nd
    dil = int(case.kwargs.get("dilations", 1))
    raw = [s - (k - 1) * dil for s, k in zip(x[1:-1], w[:nd])]
    return any(r < 0 and -((-r) // s) == 0 for r, s in zip(raw, st))


def stft_no_frames(case):
    """A size-0 signal shorter than one frame (no frames, an empty rfft batch): TF's gradient
    raises InvalidArgumentError."""
    x = np.shape(case.args[0].value)
    return (bool(x) and np.prod(x) == 0 and x[-1] < int(case.args[1])
            and not case.kwargs.get("pad_end", False))


def max_pool_empty(case):
    """``pool_empty_output`` of a max pool: TF's MaxPoolGrad leaves the input gradient
    uninitialised (float16, and float64 in the sweep's `nn.max_pool1d|5|59`: two fresh
    processes give different values; a case may agree by chance); docs/ops.md."""
    return pool_empty_output(case)


def conv_dilated_backprop(case):
    """A float16/float64 ``conv1d``/``conv2d`` with a dilation above 1: TF's CPU
    Conv2DBackpropInput raises InvalidArgumentError ("Current CPU implementations do not yet
    support dilation rates larger than 1"), so the recorded case has no gradient, hence no
    second derivative, and its forward-mode tangents were drawn from the runner's generator
    without the second-derivative draws tapeflow's run makes (other tangents): docs/ops.md."""
    if len(case.args) < 2 or case.args[0].dtype not in ("float16", "float64"):
        return False
    d = case.kwargs.get("dilations", 1)
    d = [int(v) for v in d] if isinstance(d, (list, tuple)) else [int(d)]
    return max(d) > 1


def conv_empty_output(case):
    """A float VALID convolution (``conv1d``/``conv2d``/``depthwise_conv2d``) whose output is
    empty on a spatial axis (TF's size ``(n - eff + s) / s`` truncated to 0), any stride."""
    if len(case.args) < 4 or case.args[3] != "VALID" or not case.args[0].dtype.startswith(
            "float"):
        return False
    x, w = np.shape(case.args[0].value), np.shape(case.args[1].value)
    nd = len(x) - 2
    if nd < 1 or len(w) != nd + 2:
        return False
    st = case.args[2]
    st = [int(v) for v in st] if isinstance(st, (list, tuple)) else [int(st)] * nd
    st = st[1:-1] if len(st) == nd + 2 else st * nd if len(st) == 1 else st
    dil = case.kwargs.get("dilations", 1)
    dil = [int(v) for v in dil] if isinstance(dil, (list, tuple)) else [int(dil)] * nd
    dil = dil * nd if len(dil) == 1 else dil
    outs = [int((n - (k - 1) * d - 1 + s) / s) for n, k, s, d in zip(x[1:-1], w[:nd], st, dil)]
    return min(outs) == 0 and all(o >= 0 for o in outs)


def conv_empty_f64(case):
    """``conv_empty_output`` in float64: TF's filter gradient (and so the second derivative)
    is uninitialised memory, two fresh processes differ (docs/ops.md, resB)."""
    return case.args[0].dtype == "float64" and conv_empty_output(case)


def conv_empty_fwd(case):
    """``conv_empty_output`` on a case whose forward mode is taken: TF's JVP builds a
    Conv2D of a negative size and raises ValueError."""
    return _fwd_run(case) and conv_empty_output(case)


def sort_axis_empty(case):
    """A float sort along a size-0 axis (TopKV2 with k = 0, whose gradient TF cannot take)."""
    x = case.args[0]
    if not x.dtype.startswith("float"):
        return False
    shape = np.shape(x.value)
    ax = int(case.kwargs.get("axis", -1))
    return bool(shape) and -len(shape) <= ax < len(shape) and shape[ax] == 0


def diag_empty_offset(case):
    """``linalg.diag`` of a size-0 diagonal with ``k != 0``: the output is a |k| x |k| zero
    matrix and TF's gradient (MatrixDiagPartV3 of it) raises."""
    return has_empty(case) and int(case.kwargs.get("k", 0) or 0) != 0


def f32_subnormal(case):
    """A float32 input holding a subnormal number (0 < |x| < 2^-126): TF's float32 kernels
    do not take it as a number: lgamma(1e-40) is 150 ln 2 (103.97, true 92.10) and
    digamma(1e-40) nan (its digamma of 0), where the true -1e40 overflows to -inf;
    docs/ops.md."""
    for t in _ts(case):
        v = np.asarray(t.value)
        if t.dtype == "float32" and v.dtype.kind == "f":
            a = np.abs(v.astype(np.float32))
            if ((a > 0) & (a < np.finfo(np.float32).tiny)).any():
                return True
    return False


def gram_beyond_eps_f64(case):
    """A float64 matrix (finite) whose Gram matrix ``A^H A`` has a condition number past
    1/eps while ``A``'s own is below it (``6.7e7 < cond(A) < 4.5e15``): the normal equations
    that ``lstsq`` solves (TF's composite and tapeflow alike) are numerically singular yet
    their Cholesky factor exists, and both gradients are off from mpmath by about 1e-5
    relative, 1e4 times the sweep's float64 tolerance; which of the two is nearer changes
    from element to element (docs/ops.md, sweeplsq). Past ``cond(A) = 1/eps`` both fail
    alike."""
    t = case.tensors()[0] if case.tensors() else None
    if t is None or t.dtype != "float64":
        return False
    a = np.asarray(t.value, np.float64)
    if a.ndim < 2 or 0 in a.shape or not np.isfinite(a).all():
        return False
    s = np.linalg.svd(a.reshape((-1,) + a.shape[-2:]), compute_uv=False)
    with np.errstate(divide="ignore"):
        cond = s[..., 0] / s[..., -1]
    eps = np.finfo(np.float64).eps
    return bool(((cond * cond * eps > 1) & (cond * eps < 1)).any())

def one_entry_beyond_eps(case):
    """A real float matrix (finite) in which one entry exceeds every other in magnitude by
    more than 1/eps of its dtype (1e30 among entries of 1 to 100): TF's SVD (Eigen's Jacobi
    after a column-pivoted QR) keeps only an absolute accuracy of eps * |A| for the other
    singular values and vectors, which are then wrong; tapeflow's are mpmath's to rounding
    (docs/ops.md, sweepdec)."""
    t = case.tensors()[0] if case.tensors() else None
    if t is None or t.dtype not in ("float32", "float64"):
        return False
    a = np.abs(np.asarray(t.value, np.float64))
    if a.ndim < 2 or min(a.shape[-2:]) < 2:  # one singular value: nothing else to lose
        return False
    eps = np.finfo(t.dtype).eps
    for m in a.reshape((-1,) + a.shape[-2:]):
        if not np.isfinite(m).all() or m.size < 2:
            continue
        top = np.sort(m.reshape(-1))
        if top[-2] > 0 and top[-1] * eps > top[-2]:
            return True
    return False


def dct3_empty(case):
    """A type-3 DCT of a float input whose last axis has size 0 (no ``n``): TF's gradient
    (its Fill of a negative dimension) raises InvalidArgumentError, in a fresh process
    too."""
    x = case.args[0]
    shape = np.shape(x.value)
    return (x.dtype.startswith("float") and bool(shape) and shape[-1] == 0
            and case.kwargs.get("type") == 3 and "n" not in case.kwargs)


def packet_reciprocal(case):
    """An input of 8 or more elements: TF's float32 Reciprocal runs Eigen's packet path there
    (the CPU's approximate reciprocal and one Newton step, not correctly rounded: about a
    third of the elements differ from 1 / x in the last bit on this machine; the tail past
    the last whole 8-wide packet is exact)."""
    return any(np.size(t.value) >= 8 for t in _ts(case))


def cast_out_of_range(case):
    """A float cast to an integer dtype with a value that dtype cannot hold (or nan/inf):
    C++ leaves the conversion undefined; TF's Eigen kernel saturates in its SIMD packets
    and wraps in the scalar tail, which elements fall where set by the packet width of the
    instruction set it was built for (docs/ops.md, "cast of out-of-range floats")."""
    x, dst = case.args[0], case.args[1]
    if not x.dtype.startswith(("float", "bfloat")) or not str(dst).startswith(("int", "uint")):
        return False
    v = np.asarray(x.value, np.float64)
    if not np.size(v):
        return False
    info = np.iinfo(str(dst))
    with np.errstate(invalid="ignore"):
        t = np.trunc(v)
        return bool((~np.isfinite(v)).any() or (t < info.min).any() or (t > info.max).any())


PREDICATES = {
    "packet_reciprocal": packet_reciprocal,
    "cast_out_of_range": cast_out_of_range,
    "f32_batch_padded_nonfinite_filter": f32_batch_padded_nonfinite_filter,
    "cosine_axis_of_one": cosine_axis_of_one,
    "f32_subnormal": f32_subnormal,
    "gram_beyond_eps_f64": gram_beyond_eps_f64,
    "one_entry_beyond_eps": one_entry_beyond_eps,
    "dct3_empty": dct3_empty,
    "diag_empty_offset": diag_empty_offset,
    "sort_axis_empty": sort_axis_empty,
    "pool_empty_output": pool_empty_output, "onednn_max_pool_empty": onednn_max_pool_empty,
    "max_pool_empty": max_pool_empty, "conv_dilated_backprop": conv_dilated_backprop,
    "conv_empty_output": conv_empty_output, "conv_empty_f64": conv_empty_f64,
    "conv_empty_fwd": conv_empty_fwd, "stft_no_frames": stft_no_frames,
    "f64_strided_empty": f64_strided_empty,
    "onednn_valid_empty": onednn_valid_empty, "valid_empty_output": valid_empty_output,
    "pool_empty_fwd": pool_empty_fwd, "valid_empty_fwd": valid_empty_fwd,
    "empty_last_fwd": empty_last_fwd,
    "glu_gate_near_one": glu_gate_near_one,
    "fft_cut": fft_cut, "fft_cut_to_one": fft_cut_to_one,
    "not_positive_definite": not_positive_definite,
    "empty": has_empty, "nonfinite": has_nonfinite, "posinf": has_posinf,
    "complex": has_complex, "bool": has_bool,
    "string": has_string, "mixed": has_mixed_dtypes, "int_extremes": has_int_extremes,
    "int": has_int, "f16": has_f16, "any": None,
}


@dataclass
class Known:
    op: str
    checks: tuple
    when_name: str
    kind: str
    reason: str
    # TF's answer is uninitialised memory (differs between fresh processes), or rounding
    # noise that equals tapeflow's on most cases: a case may agree by chance, so the entry
    # is never reported stale
    random: bool = False

    def matches(self, case):
        f = PREDICATES[self.when_name]
        return f is None or bool(f(case))


def K(op, checks, when, kind, reason, random=False):
    if isinstance(checks, str):
        checks = tuple(checks.split(","))
    return Known(op, tuple(checks), when, kind, reason, random)


# Cases not run under tapeflow at all (a hang or a crash that would kill the test process),
# as K(op, "error", class, kind, reason). None today: the SVD of a matrix holding inf/nan
# returns (tapeflow raises InvalidArgumentError/LinAlgError or gives nan) on these cases.
SKIP = []


def skipped(case):
    return any(e.op == case.op and e.matches(case) for e in SKIP)


def entries_for(op):
    return [e for e in KNOWN if e.op == op]


# ------------------------------------------------------------------------------ the table
# Generated by tools/difftest/triage.py from the replay of the recorded cases, one entry per
# (op, checks, case class); the kind and the cause are in the last two fields.

def _conv_entries(op):
    """The entries conv1d and conv2d share (one kernel underneath)."""
    return [
        K(op, 'grad,grad2,fwd', 'conv_dilated_backprop', 'tf lacks gradient',
          "float16/float64 with a dilation above 1: TF's Conv2DBackpropInput raises "
          "InvalidArgumentError (no dilated CPU kernel); so no grad2, and the runner's fwd "
          "tangents were drawn without the grad2 draws (other tangents; docs/ops.md)"),
        K(op, 'grad,grad2', 'conv_empty_f64', 'tf wrong',
          "float64 VALID with an empty output: TF's filter gradient is uninitialised memory "
          "(two fresh processes differ); tapeflow's zeros (docs/ops.md)", random=True),
        K(op, 'fwd', 'conv_empty_fwd', 'tf lacks gradient',
          "VALID with an empty output: TF's forward mode raises ValueError (a Conv2D of a "
          "negative size); tapeflow gives the empty tangent"),
    ]


KNOWN = [
    K('boolean_mask', 'fwd', 'empty', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the fwd on size-0 inputs; tapeflow computes'
      ' it [boolean_mask|0|56: 1 arrays, TF raised InvalidArgumentError]'),
    K('cast', 'value', 'cast_out_of_range', 'machine-dependent',
      "float to integer with values the integer dtype cannot hold (or nan/inf): undefined "
      "in C++; TF's Eigen cast saturates in SIMD packets and wraps in the scalar tail, split "
      "by the build's packet width; tapeflow wraps as NumPy (docs/ops.md)"),
    K('gather_nd', 'fwd', 'mixed', 'tf lacks gradient',
      'TF raises AttributeError computing the fwd with mixed dtypes; tapeflow computes it ['
      'gather_nd|0|12: 1 arrays, TF raised AttributeError]'),
    K('keras.activations.gelu', 'value', 'any', 'tf wrong',
      "TF's float64 gelu uses float32-rounded constants (docs/ops.md)"),
    K('keras.activations.gelu', 'grad,grad2,fwd', 'any', 'tf wrong',
      "TF's float64 gelu uses float32-rounded constants (docs/ops.md)"),
    K('keras.activations.glu', 'grad2', 'glu_gate_near_one', 'numerics',
      "tapeflow's float32 sigmoid is not TF's (Eigen's) to the last bit: on 200,001 points "
      "in [-20, 20] they differ by one ulp in 64% (TF's 8-wide packets) and 39% (its scalar "
      "tail); near 1 one ulp is 2% of 1 - sigmoid, which the second derivative scales by "
      "(the 9 other cases, SigmoidGrad's gradient order, are fixed) "
      "[keras.activations.glu|0|59: 0: max excess at 3: got 6.38003e-05"
      "+0j want 6.22813e-05+0j]"),
    K('keras.activations.softsign', 'grad2,fwd', 'any', 'tf lacks gradient',
      'TF raises LookupError computing the grad2; tapeflow computes it [keras.activations.s'
      'oftsign|0|0: 1 arrays, TF raised LookupError]'),
    K('keras.activations.sparsemax', 'grad,grad2,fwd', 'empty', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad on size-0 inputs (so it has no gr'
      'ad2 either); tapeflow computes both [keras.activations.sparsemax|0|22: 1 arrays, TF '
      'raised InvalidArgumentError]'),
    K('keras.losses.BinaryCrossentropy', 'grad,grad2', 'packet_reciprocal',
      'machine-dependent',
      "the loss runs in float32 (Keras's Loss dtype), its log gradient grad * reciprocal(x) "
      "as TF's, but TF's float32 Reciprocal on 8-wide packets is the CPU's VRCPPS and a "
      "Newton step (bit for bit on this AMD CPU; the vendor's table), so grads of float64 "
      "inputs differ in float32 last bits (docs/ops.md) [ker"
      'as.losses.BinaryCrossentropy|1|8: 0: max excess at 12: got -3.07641 want -3.07641]',
      random=True),
    K('keras.losses.CategoricalCrossentropy', 'grad,grad2', 'any', 'tf wrong',
      "from_logits: TF's logits gradient softmax - labels is wrong for labels not summing t"
      'o 1 (docs/ops.md)'),
    K('keras.losses.SparseCategoricalCrossentropy', 'grad', 'mixed', 'wrong gradient',
      "float64 probabilities (no tolerance: Keras's float32 loss): TF's kernel's float32 exp "
      "and log (glibc's on the scalar tail, Eigen's polynomials on 8-wide packets) are not "
      "NumPy's to the last bit (docs/ops.md) [keras.losses.SparseCategoricalCrossentropy|0|0"
      ': 0: max excess at 39: got -0.00417259+0j want -0.00417259+0j]'),
    K('keras.losses.SparseCategoricalCrossentropy', 'grad2', 'mixed', 'machine-dependent',
      "the same cases' second derivative runs oneDNN's Softmax, whose bits change with the "
      "instruction set (ONEDNN_MAX_CPU_ISA=SSE41 changes TF's own answer, docs/ops.md) "
      "[keras.losses.SparseCategoricalCrossentropy|0|0]"),
    K('linalg.cholesky', 'value', 'not_positive_definite', 'tf wrong',
      "an input that is not positive definite: TF's Cholesky kernel fails and returns "
      "uninitialised memory (other values in each run); tapeflow gives nan (docs/ops.md) "
      "[linalg.cholesky|0|16]", random=True),
    K('linalg.logdet', 'value', 'not_positive_definite', 'tf wrong',
      "an input that is not positive definite: TF's logdet reads the uninitialised memory "
      "its failed Cholesky returns (often zeros: -inf); tapeflow gives nan (docs/ops.md) "
      "[linalg.logdet|0|5]", random=True),
    # sweeplsq (session 12): float64 lstsq of a matrix with cond(A)^2 past 1/eps (mpmath)
    K('linalg.lstsq', 'grad,grad2', 'gram_beyond_eps_f64', 'tf wrong',
      "TF's float64 gradients are off from mpmath by 9e-6 relative (linalg.lstsq|1|42, "
      "cond(A) 1.5e9), as far as tapeflow's, nearer only in some elements (docs/ops.md)"),
    K('linalg.svd', 'grad,grad2,fwd', 'one_entry_beyond_eps', 'tf wrong',
      "TF's singular values/vectors below eps * |A| are wrong (Eigen's Jacobi SVD after a "
      "pivoted QR); tapeflow's gradients are mpmath's to rounding [linalg.svd|1|52, |3|48]"),
    K('math.bincount', 'grad,fwd', 'mixed', 'tf lacks gradient',
      'TF raises LookupError computing the grad with mixed dtypes; tapeflow computes it [ma'
      'th.bincount|0|4: 1 arrays, TF raised LookupError]'),
    K('math.digamma', 'grad,fwd', 'f16', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad in float16; tapeflow computes it ['
      'math.digamma|0|1: 1 arrays, TF raised InvalidArgumentError]'),
    K('math.reduce_euclidean_norm', 'grad,grad2,fwd', 'complex', 'tf wrong',
      'the norm is real-valued: TF multiplies z/|z| by the whole complex upstream gradient,'
      ' the gradient of Re(conj(v)|z|) is Re(v) z/|z| (docs/ops.md)'),
    K('math.softsign', 'grad2,fwd', 'any', 'tf lacks gradient',
      'TF raises LookupError computing the grad2; tapeflow computes it [math.softsign|0|0: '
      '1 arrays, TF raised LookupError]'),
    K('math.top_k', 'grad,grad2', 'empty', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad on size-0 inputs (so it has no second'
      ' derivative); tapeflow computes them [math.top_k|0|31: 1 arrays, TF raised InvalidArg'
      'umentError]'),
    K('math.lbeta', 'grad', 'f32_subnormal', 'tf wrong',
      'TF flushes a float32 subnormal to zero (DAZ): digamma(1e-40) is nan, the true value'
      ' -1e40 overflows to -inf as tapeflow gives [math.lbeta|5|73: 0: nan at different p'
      'laces, e.g. got (-inf+0j) want (nan+0j)]'),
    K('math.xdivy', 'grad,grad2,fwd', 'complex', 'tf wrong',
      "complex: TF's Xdivy gradient leaves out the conjugate (docs/ops.md)"),
    K('math.xlog1py', 'grad2', 'complex', 'tf wrong',
      "TF's Xlog1py gradient leaves out the conjugate (docs/ops.md)"),
    K('math.xlogy', 'grad,grad2,fwd', 'complex', 'tf wrong',
      "TF's Xlogy gradient leaves out the conjugate (docs/ops.md)"),
    K('nn.avg_pool1d', 'fwd', 'any', 'tf lacks gradient',
      'TF raises ValueError computing the fwd; tapeflow computes it [nn.avg_pool1d|0|8: 1 a'
      'rrays, TF raised ValueError]'),
    K('nn.avg_pool2d', 'fwd', 'any', 'tf lacks gradient',
      'TF raises ValueError computing the fwd; tapeflow computes it [nn.avg_pool2d|0|32: 1 '
      'arrays, TF raised ValueError]'),
    K('nn.conv1d', 'grad', 'any', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad; tapeflow computes it [nn.conv1d|0'
      '|27: 2 arrays, TF raised InvalidArgumentError]'),
    *_conv_entries('nn.conv1d'),
    K('nn.conv2d', 'grad,fwd', 'any', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad; tapeflow computes it [nn.conv2d|0'
      '|16: 2 arrays, TF raised InvalidArgumentError]'),
    *_conv_entries('nn.conv2d'),
    K('nn.convolution', 'grad2', 'any', 'tf lacks gradient',
      'TF raises AttributeError computing the grad2; tapeflow computes it [nn.convolution|0'
      '|0: 2 arrays, TF raised AttributeError]'),
    K('nn.depthwise_conv2d', 'grad,fwd', 'any', 'tf lacks gradient',
      'TF raises AbortedError computing the grad; tapeflow computes it [nn.depthwise_conv2d'
      '|0|10: 2 arrays, TF raised AbortedError]'),
    K('nn.depthwise_conv2d', 'grad,grad2', 'conv_empty_f64', 'tf wrong',
      "float64 VALID with an empty output: TF's filter gradient is uninitialised memory (two "
      "fresh processes differ); tapeflow's zeros (docs/ops.md)", random=True),
    K('nn.gelu', 'value', 'any', 'tf wrong',
      "TF's float64 gelu uses float32-rounded constants (docs/ops.md)"),
    K('nn.gelu', 'grad,grad2,fwd', 'any', 'tf wrong',
      "TF's float64 gelu uses float32-rounded constants (docs/ops.md)"),
    K('nn.max_pool', 'grad,grad2', 'max_pool_empty', 'tf wrong',
      "VALID max pool with an empty output: TF's MaxPoolGrad returns uninitialised memory "
      "for the input's gradient (two fresh processes differ); tapeflow's zeros (docs/ops.md)",
      random=True),
    K('nn.max_pool1d', 'error', 'onednn_max_pool_empty', 'tf wrong',
      "float32 VALID max pool with an empty output: TF's oneDNN kernel raises AbortedError; "
      "its float64 kernel and tapeflow return the empty result (docs/ops.md)"),
    K('nn.max_pool1d', 'fwd', 'any', 'tf lacks gradient',
      'TF raises ValueError computing the fwd; tapeflow computes it [nn.max_pool1d|0|32: 1 '
      'arrays, TF raised ValueError]'),
    K('nn.max_pool2d', 'error', 'onednn_max_pool_empty', 'tf wrong',
      "float32 VALID max pool with an empty output: TF's oneDNN kernel raises AbortedError; "
      "its float64 kernel and tapeflow return the empty result (docs/ops.md)"),
    K('nn.max_pool2d', 'fwd', 'f16', 'tf lacks gradient',
      'TF raises ValueError computing the fwd in float16; tapeflow computes it [nn.max_pool'
      '2d|0|12: 1 arrays, TF raised ValueError]'),
    K('nn.max_pool2d', 'grad,grad2', 'max_pool_empty', 'tf wrong',
      "VALID max pool with an empty output: TF's MaxPoolGrad returns uninitialised memory "
      "for the input's gradient (two fresh processes differ); tapeflow's zeros (docs/ops.md)",
      random=True),
    K('nn.moments', 'grad2,fwd', 'any', 'tf wrong',
      'TF stops the gradient through the mean inside the variance: its second derivative mi'
      'sses a term (docs/ops.md)'),
    K('nn.softmax_cross_entropy_with_logits', 'grad,grad2,fwd', 'any', 'tf wrong',
      "TF's logits gradient softmax - labels is wrong for labels not summing to 1, and so is"
      ' its forward mode, that gradient transposed (docs/ops.md)'),
    K('nn.softsign', 'grad2,fwd', 'any', 'tf lacks gradient',
      'TF raises LookupError computing the grad2; tapeflow computes it [nn.softsign|0|0: 1 '
      'arrays, TF raised LookupError]'),
    K('signal.idct', 'grad,grad2,fwd', 'empty', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad (and the fwd: sweep seeds 1-4, the '
      'same in a fresh TF process) on size-0 inputs, so it has no grad2 either; tapeflow co'
      'mputes them [signal.idct|0|9: 1 arrays, TF raised InvalidArgumentError]'),
    K('signal.irfft', 'grad,grad2,fwd', 'complex', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad on complex inputs (so it has no gr'
      'ad2 either); tapeflow computes both [signal.irfft|0|3: 1 arrays, TF raised InvalidAr'
      'gumentError]'),
    K('signal.rfft2d', 'grad,grad2,fwd', 'empty', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad on size-0 inputs (so it has no gr'
      'ad2 either); tapeflow computes both [signal.rfft2d|0|16: 1 arrays, TF raised Invali'
      'dArgumentError]'),
    K('sort', 'grad,grad2,fwd', 'sort_axis_empty', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad of a sort along a size-0 axis (its '
      'TopKV2 gradient, k = 0); tapeflow gives the empty gradient [sort|1|17: TF raised '
      'InvalidArgumentError]'),
    K('linalg.diag', 'grad,grad2', 'diag_empty_offset', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad of a size-0 diagonal placed off '
      'the main one; tapeflow gives the empty gradient [linalg.diag|1|7: TF raised '
      'InvalidArgumentError]'),
    K('nn.max_pool', 'error', 'onednn_max_pool_empty', 'tf wrong',
      "float32 VALID max pool with an empty output: TF's oneDNN kernel raises AbortedError; "
      "its float64 kernel and tapeflow return the empty result (docs/ops.md)"),
    K('nn.conv1d', 'dtype,shape,value,grad,grad2,fwd', 'onednn_valid_empty', 'tf wrong',
      "float32 VALID with a filter longer than the input: TF's oneDNN kernel returns an "
      "uninitialised input-shaped tensor, its gradient AbortedError (docs/ops.md)"),
    K('nn.convolution', 'dtype,shape,value,grad,grad2,fwd', 'onednn_valid_empty', 'tf wrong',
      "float32 VALID with a filter longer than the input: TF's oneDNN kernel returns an "
      "uninitialised input-shaped tensor, its gradient AbortedError (docs/ops.md)"),
    K('nn.depthwise_conv2d', 'dtype,shape,value,grad,grad2,fwd', 'onednn_valid_empty',
      'tf wrong',
      "float32 VALID with a filter longer than the input: TF's oneDNN kernel returns an "
      "uninitialised input-shaped tensor (docs/ops.md)"),
    # sweepla (session 9): TF's RFFT gradient cannot crop (tests/ops/test_tf_regressions.py
    # checks tapeflow's by float64 finite differences; docs/ops.md)
    K('signal.rfft', 'grad,grad2,fwd', 'fft_cut_to_one', 'tf wrong',
      "fft_length [1] on a longer input: TF's RFFT gradient broadcasts its length-1 irfft "
      "over the input's length (docs/ops.md)"),
    K('signal.rfft', 'grad,grad2,fwd', 'fft_cut', 'tf lacks gradient',
      "fft_length shorter than the input: TF's RFFT gradient adds terms of mismatched "
      "lengths and raises InvalidArgumentError (docs/ops.md)"),
    K('signal.rfft2d', 'grad,grad2,fwd', 'fft_cut_to_one', 'tf wrong',
      "fft_length [.., 1] on a longer input: TF's RFFT2D gradient broadcasts (docs/ops.md)"),
    K('signal.rfft2d', 'grad,grad2,fwd', 'fft_cut', 'tf lacks gradient',
      "fft_length shorter than the input: TF's RFFT2D gradient adds terms of mismatched "
      "lengths and raises InvalidArgumentError (docs/ops.md)"),
    K('unique', 'grad,fwd', 'any', 'tf lacks gradient',
      'TF raises LookupError computing the grad; tapeflow computes it [unique|0|0: 1 arrays'
      ', TF raised LookupError]'),
    K('math.top_k', 'fwd', 'empty', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the fwd on size-0 inputs; tapeflow computes'
      ' it [math.top_k|0|52: 1 arrays, TF raised InvalidArgumentError]'),
    K('nn.conv2d', 'dtype,shape,value,grad,grad2,fwd', 'onednn_valid_empty', 'tf wrong',
      "float32 VALID with a filter longer than the input: TF's oneDNN kernel returns an "
      "uninitialised input-shaped tensor, its gradient AbortedError (docs/ops.md)"),
    K('truncatemod', 'grad,grad2,fwd', 'any', 'tf lacks gradient',
      'TF raises LookupError computing the grad (so it has no second derivative either); '
      'tapeflow computes them [truncatemod|0|0: 2 arrays, TF raised LookupError]'),
    K('nn.max_pool2d', 'fwd', 'any', 'tf lacks gradient',
      'TF raises ValueError computing the fwd; tapeflow computes it [nn.max_pool2d|0|64: 1 '
      'arrays, TF raised ValueError]'),
    K('signal.irfft2d', 'grad,grad2,fwd', 'complex', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the grad on complex inputs (so it has no gr'
      'ad2 either); tapeflow computes both [signal.irfft2d|0|0: 1 arrays, TF raised Invalid'
      'ArgumentError]'),
    K('math.xlog1py', 'grad,fwd', 'complex', 'tf wrong',
      "TF's Xlog1py gradient leaves out the conjugate (docs/ops.md)"),
    K('linalg.qr', 'fwd', 'any', 'tf lacks gradient',
      'TF raises InvalidArgumentError computing the fwd; tapeflow computes it [linalg.qr|0|'
      '12: 2 arrays, TF raised InvalidArgumentError]'),
    # sweepmath (session 10): forward mode TF cannot take on an empty result, its error the
    # same in a fresh TF process (tools/record_difftest.py --rerecord-ids: not the recorder's
    # state); tapeflow's empty tangent is checked in tests/ops/test_tf_regressions.py
    # sweepnn2 (session 10)
    K('signal.stft', 'grad,grad2', 'stft_no_frames', 'tf lacks gradient',
      "size-0 signal shorter than a frame: TF's RFFT gradient raises InvalidArgumentError "
      "(a fresh process too); tapeflow's empty gradient (tests/ops/test_tf_regressions.py)"),
    K('nn.convolution', 'grad,grad2', 'f64_strided_empty', 'tf wrong',
      "float64 VALID, stride > 1, output empty (filter longer than the input): TF's filter "
      "gradient is uninitialised memory; tapeflow's zeros (docs/ops.md)"),
    K('nn.max_pool1d', 'grad,grad2', 'max_pool_empty', 'tf wrong',
      "VALID max pool with an empty output: TF's MaxPoolGrad returns uninitialised memory "
      "for the input's gradient (float16; float64 too); tapeflow's zeros (docs/ops.md)",
      random=True),
    K('nn.max_pool', 'fwd', 'pool_empty_fwd', 'tf lacks gradient',
      "VALID max pool with an empty output: TF's forward mode raises ValueError (its JVP "
      "through MaxPoolGradGrad of a negative size); tapeflow gives the empty tangent"),
    K('nn.avg_pool', 'fwd', 'pool_empty_fwd', 'tf lacks gradient',
      "VALID average pool with an empty output: TF's forward mode raises ValueError (AvgPool "
      "of the tangent, a negative size); tapeflow gives the empty tangent"),
    K('nn.convolution', 'fwd', 'valid_empty_fwd', 'tf lacks gradient',
      "VALID convolution with an empty output: TF's forward mode raises ValueError (Conv2D "
      "of the tangent, a negative size); tapeflow gives the empty tangent"),
    K('signal.dct', 'fwd', 'empty_last_fwd', 'tf lacks gradient',
      "size-0 input: TF's forward mode raises InvalidArgumentError (its irfft of ones); "
      "tapeflow gives the empty tangent"),
    K('signal.rfft', 'fwd', 'empty_last_fwd', 'tf lacks gradient',
      "size-0 input: TF's forward mode raises InvalidArgumentError (its irfft of ones); "
      "tapeflow gives the empty tangent"),
    # sweepmisc (session 11)
    K('signal.dct', 'grad,grad2', 'dct3_empty', 'tf lacks gradient',
      "type-3 DCT over a size-0 axis: TF's gradient raises InvalidArgumentError (Fill of "
      "dimension -2; a fresh process too), so it has no second derivative; tapeflow gives "
      "the empty gradient"),
    # session 12 (lead)
    K('nn.conv2d_transpose', 'grad', 'f32_batch_padded_nonfinite_filter', 'machine-dependent',
      "TF's gradient multiplies the padded zeros by an infinite filter (nan) or not "
      "depending on oneDNN's kernel for the CPU; with ONEDNN_MAX_CPU_ISA=AVX2 TF gives "
      "tapeflow's answer [nn.conv2d_transpose|2|25]"),
    K('keras.losses.cosine_similarity', 'grad', 'cosine_axis_of_one', 'tf wrong',
      "over an axis of size 1 the exact gradient is 0: TF's noise comes from its approximate "
      "float32 Rsqrt, tapeflow's from a correctly rounded one, both 1.2e-4 at most "
      "[keras.losses.cosine_similarity|5|72]", random=True),
]
