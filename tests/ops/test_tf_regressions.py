"""The op differences from TensorFlow of issue 19, replayed against TF 2.21's recorded answers.

Each case of ``tests/fixtures/ops/regressions.json`` (written by
``tools/record_op_regressions.py``) is a few lines of a TF program; here they run with ``tf``
bound to tapeflow and must give TensorFlow's dtypes, shapes and values (nan and inf where TF
has them), its gradients and second derivatives, or its exception class. Cases where
TensorFlow is itself wrong keep the better answer (``docs/ops.md`` lists them).
"""
import json
import math
import os

import numpy as np
import pytest

import tapeflow as tf

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "ops", "regressions.json")
with open(FIXTURE) as _f:
    DATA = json.load(_f)
CASES = DATA["cases"]

# Relative tolerances by dtype: a kernel may round differently from Eigen's in the last bits;
# a composite op in half precision rounds after each step, as TensorFlow's, but not always at
# the same steps (a few units in the last place).
RTOL = {"float16": 5e-3, "bfloat16": 4e-2, "float32": 2e-5, "complex64": 2e-5,
        "float64": 1e-10, "complex128": 1e-10}


def _decode(x):
    if isinstance(x, list):
        return complex(_decode(x[0]), _decode(x[1]))
    if isinstance(x, str):
        return float(x)
    return x


def _run(src):
    env = {"tf": tf, "np": np}
    exec(DATA["prelude"], env)  # noqa: S102 - the fixture's own case text
    exec(src, env)  # noqa: S102
    return env["out"]


def _compare(got, want, where):
    if want is None or isinstance(want, (bool, str)):
        assert got == want, f"{where}: {got!r} != {want!r}"
        return
    if isinstance(want, list):
        assert isinstance(got, (list, tuple)), f"{where}: {type(got).__name__} is no list"
        assert len(got) == len(want), f"{where}: {len(got)} values, TF has {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{where}[{i}]")
        return
    if "py" in want:
        assert type(got).__name__ == want["py"], f"{where}: {type(got).__name__}"
        assert got == _decode(want["value"]), f"{where}: {got!r} != {want['value']!r}"
        return
    assert got is not None, f"{where}: None where TF has a {want['dtype']} tensor"
    if isinstance(got, tf.IndexedSlices):
        got = tf.convert_to_tensor(got)
    assert got.dtype.name == want["dtype"], f"{where}: dtype {got.dtype.name}"
    a = np.asarray(got.numpy())
    if want["dtype"] == "bfloat16":
        a = a.astype(np.float32)
    assert list(a.shape) == want["shape"], f"{where}: shape {list(a.shape)}"
    expect = np.array([_decode(v) for v in want["value"]],
                      dtype=a.dtype if a.dtype.kind in "biuc" else np.float64)
    if a.dtype.kind in "fc":
        actual = a.reshape(-1).astype(np.complex128 if a.dtype.kind == "c" else np.float64)
        for part in ((np.real, np.imag) if a.dtype.kind == "c" else (lambda v: v,)):
            w, g = part(expect), part(actual)
            assert np.array_equal(np.isnan(g), np.isnan(w)), f"{where}: nan at {g} vs {w}"
            finite = np.isfinite(w)
            assert np.array_equal(g[~finite & ~np.isnan(w)], w[~finite & ~np.isnan(w)]), \
                f"{where}: inf {g} vs {w}"
            np.testing.assert_allclose(g[finite], w[finite], rtol=RTOL[want["dtype"]],
                                       atol=want.get("atol", RTOL[want["dtype"]] * 1e-2),
                                       err_msg=where)
    else:
        assert a.reshape(-1).tolist() == expect.tolist(), f"{where}: {a} vs {expect}"


# Cases whose TF program checks a replay of TF's kernel that tapeflow runs only inside a
# composite op: ``solve`` replays Eigen's LU (TF's bits) in ``expm``, where the squarings
# amplify the last bits, while ``tf.linalg.solve`` itself keeps LAPACK (10-100x faster on
# small systems, within rounding of TF's). The case runs with ``tf.linalg.solve`` bound to
# the replay.
def _replayed_solve(matrix, rhs, adjoint=False, name=None):
    from tapeflow.ops import linalg_ops
    return linalg_ops._solve_again(tf.convert_to_tensor(matrix), tf.convert_to_tensor(rhs),
                                   bool(adjoint), True)


_REPLAYED = {"solve_small_complex_as_eigen": ("solve", _replayed_solve)}


@pytest.fixture(autouse=True)
def _replays(request, monkeypatch):
    case = request.node.callspec.params.get("case") if hasattr(request.node, "callspec") \
        else None
    name = case["name"] if isinstance(case, dict) else \
        (request.node.callspec.params.get("name") if hasattr(request.node, "callspec") else None)
    if name in _REPLAYED:
        attr, fn = _REPLAYED[name]
        monkeypatch.setattr(tf.linalg, attr, fn)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_tensorflow(case):
    if "error" in case:
        cls, _ = case["error"]
        with pytest.raises(Exception) as info:
            _run(case["src"])
        assert type(info.value).__name__ == cls, f"{type(info.value).__name__}: {info.value}"
        if case.get("message"):
            assert case["error"][1] in str(info.value)
        return
    _compare(_run(case["src"]), case["out"], case["name"])
    if "tf" in case:  # TensorFlow is wrong here (docs/ops.md): tapeflow must not agree with it
        with pytest.raises(AssertionError):
            _compare(_run(case["src"]), case["tf"], case["name"])


def test_fixture_holds_every_kind_of_issue_19():
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
    for prefix in ("grad_complex_", "grad2_", "bool_", "int_", "complex_", "reduce_max_empty"):
        assert any(n.startswith(prefix) for n in names), prefix
    assert math.isfinite(len(CASES)) and len(CASES) > 100


# ------------------------------------------------------------------ sweepla (session 9)
# Gradients TensorFlow 2.21 cannot take (known.py kind "tf lacks gradient") or takes wrongly
# ("tf wrong"), checked here by central differences in float64 (docs/ops.md).


def _fd_gradient(f, x, h=1e-6):
    """d/dx of the real loss ``f(x)`` by central differences, element by element."""
    g = np.zeros_like(x)
    flat = g.reshape(-1)
    for i in range(x.size):
        hi, lo = x.copy(), x.copy()
        hi.reshape(-1)[i] += h
        lo.reshape(-1)[i] -= h
        flat[i] = (f(hi) - f(lo)) / (2 * h)
    return g


def _tape_gradient(f, x):
    x = tf.constant(x)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    return t.gradient(y, x).numpy()


@pytest.mark.parametrize("fn,shape,fft_length", [
    ("rfft", [5, 4], [3]), ("rfft", [4, 3, 4], [1]), ("rfft", [5], [1]), ("rfft", [2, 0], [3]),
    ("rfft2d", [2, 4, 5], [0, 2]), ("rfft2d", [2, 4], [6, 2]), ("rfft2d", [3, 2, 5], [5, 3]),
    ("rfft2d", [1, 2, 5], [1, 4]), ("rfft2d", [4, 3], [3, 1])])
def test_rfft_gradient_with_cropping_fft_length(fn, shape, fft_length):
    # TF's RFFT/RFFT2D gradient adds terms of the input's length to the irfft of
    # fft_length's: it raises InvalidArgumentError, or (a length-1 last axis) broadcasts.
    rng = np.random.default_rng(7)
    x = rng.normal(size=shape)
    n_out = list(shape[:len(shape) - len(fft_length)]) + list(fft_length)
    n_out[-1] = fft_length[-1] // 2 + 1 if fft_length[-1] else 0
    a, b = rng.normal(size=n_out), rng.normal(size=n_out)
    axes = tuple(range(-len(fft_length), 0))

    def loss_np(v):
        if 0 in v.shape:
            return 0.0
        y = np.fft.rfftn(v, s=fft_length, axes=axes) if 0 not in fft_length else \
            np.zeros(n_out, complex)
        return float(np.sum(y.real * a + y.imag * b))

    def loss_tf(v):
        y = getattr(tf.signal, fn)(v, fft_length=fft_length)
        return tf.reduce_sum(tf.math.real(y) * a + tf.math.imag(y) * b)

    got = _tape_gradient(loss_tf, x)
    assert got.shape == x.shape and got.dtype == np.float64
    np.testing.assert_allclose(got, _fd_gradient(loss_np, x), rtol=1e-7, atol=1e-7)


def test_float32_conv_with_filter_longer_than_input_is_empty_as_float64():
    # TF's float32 (oneDNN) kernel returns an uninitialised tensor of the input's spatial
    # shape here; its float64 and float16 kernels give the empty result (case
    # sweepla_conv_valid_filter_longer_than_input_eigen); tapeflow gives it for every dtype.
    for dt in (tf.float32, tf.float64):
        x, w = tf.ones([2, 4, 1, 1], dt), tf.ones([2, 2, 1, 1], dt)
        assert tf.nn.convolution(x, w, 1, "VALID").shape == (2, 3, 0, 1)
        assert tf.nn.conv1d(tf.ones([2, 2, 1], dt), tf.ones([3, 1, 1], dt), 1,
                            "VALID").shape == (2, 0, 1)
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.nn.convolution(x, w, 1, "VALID")
        assert np.array_equal(t.gradient(y, x).numpy(), np.zeros([2, 4, 1, 1]))


# sweepmath (session 10): forward mode where TF raises on an empty result (known.py, kind
# 'tf lacks gradient'; the same error in a fresh TF process): tapeflow's tangent is the
# output's empty shape and dtype, as the float64 central differences of the op give.
_EMPTY_FWD = [
    ("max_pool", lambda x: tf.nn.max_pool(x, 2, 2, "VALID"), (2, 4, 1, 1)),
    ("avg_pool", lambda x: tf.nn.avg_pool(x, 3, 1, "VALID"), (1, 2, 4, 2)),
    ("convolution", lambda x: tf.nn.convolution(x, tf.ones([3, 2, 2, 1], tf.float64), 1,
                                                "VALID"), (2, 2, 5, 2)),
    ("sort", lambda x: tf.sort(x), (0,)),
    ("dct", lambda x: tf.signal.dct(x), (3, 2, 0)),
    ("idct", lambda x: tf.signal.idct(x, type=3), (2, 2, 0)),
    ("rfft", lambda x: tf.math.real(tf.signal.rfft(x)), (3, 0)),
]


@pytest.mark.parametrize("name,f,shape", _EMPTY_FWD, ids=[c[0] for c in _EMPTY_FWD])
def test_forward_mode_of_an_empty_result(name, f, shape):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal(shape))
    t = tf.constant(rng.standard_normal(shape))
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = f(x)
    jvp = acc.jvp(y)
    h = 1e-6
    fd = (f(x + h * t).numpy() - f(x - h * t).numpy()) / (2 * h)
    assert y.shape.num_elements() == 0
    assert jvp is not None and jvp.dtype == y.dtype and tuple(jvp.shape) == tuple(y.shape)
    assert fd.shape == tuple(jvp.shape)


# sweepnn2 (session 10): TF's gradient of a size-0 stft raises (signal.stft|2|19 of the
# sweep); tapeflow's is the empty gradient of the signal's shape and dtype
@pytest.mark.parametrize("shape", [(0, 0), (0, 6), (2, 0)])
def test_stft_gradient_of_an_empty_signal(shape):
    x = tf.constant(np.zeros(shape))
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.signal.stft(x, 4, 2, fft_length=4)
        s = tf.reduce_sum(tf.abs(y))
    g = t.gradient(s, x)
    assert y.shape.num_elements() == 0 and float(s) == 0.0
    assert g is not None and g.dtype == tf.float64 and tuple(g.shape) == shape


# sweepexpm (session 12): TF's bits, not only its values to rounding. ``expm``'s products
# (MatMulEigen) and its complex ``solve`` up to 8 rows replay Eigen's kernels; these outputs of
# the two cases (not the forward-mode tangents nor the complex128 residuals, which go
# through tf.matmul) must equal TF's exactly: nan where TF's is, zeros signed as TF's.
_BITS = {"expm_overflowing_squarings_as_eigen": (0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 14, 15),
         "solve_small_complex_as_eigen": tuple(i for i in range(35) if i >= 25 or i % 5 in
                                               (0, 2, 4))}


@pytest.mark.parametrize("name", sorted(_BITS))
def test_bit_for_bit_as_tensorflow(name):
    case = next(c for c in CASES if c["name"] == name)
    got = _run(case["src"])
    assert len(got) == len(case["out"]) == max(_BITS[name]) + 1
    for i in _BITS[name]:
        a = np.asarray(got[i].numpy()).reshape(-1)
        want = np.array([_decode(v) for v in case["out"][i]["value"]], dtype=a.dtype)
        for g, w in ((a.real, want.real), (a.imag, want.imag)) if a.dtype.kind == "c" else \
                ((a, want),):
            assert np.array_equal(np.isnan(g), np.isnan(w)), f"{name}[{i}]: nan"
            same = np.isnan(w) | ((g == w) & (np.signbit(g) == np.signbit(w)))
            assert same.all(), f"{name}[{i}]: {g[~same][:3]} vs TF {w[~same][:3]}"
