"""``tf.signal`` against TensorFlow 2.21's recorded answers (tools/record_signal.py ->
tests/fixtures/ops/signal.json): values, dtypes, shapes, first and second gradients, error
classes and messages. Where TF's own gradient fails (RFFT3D/IRFFT3D have none; RFFT with a
shorter ``fft_length`` and IRFFT2D with a mixed crop/pad raise shape errors), tapeflow's
gradient is checked against central differences in float64 instead (docs/ops.md)."""
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from tests.ops import signal_cases

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops" / "signal.json"
RECORDED = json.loads(FIXTURE.read_text())["cases"]
CASES = {c[0]: c for c in signal_cases.CASES}


def decode(rec):
    if rec is None:
        return None
    if "re" in rec:
        a = np.array(rec["re"]) + 1j * np.array(rec["im"])
    else:
        a = np.array(rec["values"])
    return a.astype(rec["dtype"]).reshape(rec["shape"])


def close(got, want, what):
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    single = want.dtype in (np.float32, np.complex64)
    scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1.0)
    np.testing.assert_allclose(got, want, rtol=2e-5 if single else 1e-10,
                               atol=(2e-5 if single else 1e-10) * scale, err_msg=what)


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("key", sorted(CASES))
def test_case_matches_tensorflow(key):
    want = RECORDED[key]
    got = signal_cases.run(tf, CASES[key])
    if "error" in want:
        assert got.get("error") == want["error"], got
        assert got["message"] == want["message"]
        return
    assert "error" not in got, got
    close(got["value"], decode(want["value"]), "value")
    if "grad_error" in want:
        return  # TF's own gradient fails: test_gradient_where_tensorflow_fails checks ours
    if "grad" in want:
        close(got["grad"], decode(want["grad"]), "gradient")
        assert (got["grad2"] is None) == (want["grad2"] is None)
        if want["grad2"] is not None:
            close(got["grad2"], decode(want["grad2"]), "second derivative")


def _numeric_gradient(key):
    """Central differences in float64 of the case's seeded loss w.r.t. its first argument."""
    _, fn, args, kwargs, _ = CASES[key]
    f = getattr(tf.signal, fn)
    x0 = np.asarray(args[0])
    wide = np.complex128 if x0.dtype.kind == "c" else np.float64
    base = x0.astype(wide)

    def value(x):
        return float(signal_cases.loss(tf, f(tf.constant(x), *args[1:], **kwargs)).numpy())

    grad = np.zeros_like(base)
    for i in range(base.size):
        for unit in ((1.0, 1j) if base.dtype.kind == "c" else (1.0,)):
            step = np.zeros(base.size, wide)
            step[i] = unit
            step = step.reshape(base.shape)
            d = (value(base + step) - value(base - step)) / 2.0  # the loss is linear
            grad.flat[i] += d if unit == 1.0 else 1j * d
    return grad


@pytest.mark.parametrize("key", sorted(k for k, v in RECORDED.items() if "grad_error" in v))
def test_gradient_where_tensorflow_fails(key):
    got = signal_cases.run(tf, CASES[key])
    assert "grad_error" not in got, got
    want = _numeric_gradient(key)
    np.testing.assert_allclose(got["grad"], want.astype(got["grad"].dtype),
                               rtol=1e-4, atol=1e-4 * max(1.0, np.max(np.abs(want))))


@pytest.mark.parametrize("key", ["rfft_float64", "irfft_odd", "fft2d_complex128",
                                 "rfft_pad_float64", "irfft2d_len", "stft_nowindow"])
def test_gradient_equals_central_differences(key):
    got = signal_cases.run(tf, CASES[key])
    want = _numeric_gradient(key)
    np.testing.assert_allclose(got["grad"], want.astype(got["grad"].dtype), rtol=1e-5,
                               atol=1e-5 * max(1.0, np.max(np.abs(want))))


@pytest.mark.parametrize("key", ["rfft_crop_float32", "irfft_pad", "fft3d_complex64", "stft",
                                 "dct2_ortho", "inverse_mdct", "frame_axis0"])
def test_traced_equals_eager(key):
    _, fn, args, kwargs, _ = CASES[key]
    f = getattr(tf.signal, fn)
    traced = tf.function(lambda x: f(x, *args[1:], **kwargs))
    x = tf.constant(args[0])
    np.testing.assert_array_equal(traced(x).numpy(), f(x, *args[1:], **kwargs).numpy())


def test_forward_mode_applies_the_linear_map_to_the_tangent():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    t = tf.constant(np.linspace(-1.0, 1.0, 6).reshape(2, 3))
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.signal.rfft(x, [5])
    np.testing.assert_allclose(acc.jvp(y).numpy(), np.fft.rfft(t.numpy(), 5), atol=1e-12)


def test_fftnd_computes_what_tensorflow_leaves_to_gpu():
    # TF 2.21's CPU build has no FFTND kernel (NotFoundError); tapeflow computes it.
    z = (np.arange(24).reshape(2, 3, 4) * (1 + 0.5j)).astype(np.complex128)
    got = tf.signal.fftnd(tf.constant(z), axes=[0, 2]).numpy()
    np.testing.assert_allclose(got, np.fft.fftn(z, axes=(0, 2)), atol=1e-9)
    back = tf.signal.ifftnd(tf.signal.fftnd(tf.constant(z))).numpy()
    np.testing.assert_allclose(back, z, atol=1e-9)
    r = np.arange(12.0).reshape(3, 4)
    spec = tf.signal.rfftnd(tf.constant(r), fft_length=[3, 6], axes=[-2, -1])
    np.testing.assert_allclose(spec.numpy(), np.fft.rfftn(r, s=(3, 6), axes=(0, 1)), atol=1e-9)
    want = np.fft.irfftn(np.fft.rfftn(r, s=(3, 6), axes=(0, 1)), s=(3, 6), axes=(0, 1))
    np.testing.assert_allclose(tf.signal.irfftnd(spec, fft_length=[3, 6]).numpy(), want,
                               atol=1e-9)
    # Non-trailing and more than three axes go through transposes and separable passes.
    z4 = np.random.default_rng(1).standard_normal((2, 3, 2, 2, 3)) + 0j
    np.testing.assert_allclose(tf.signal.fftnd(tf.constant(z4), axes=[0, 1, 3, 4]).numpy(),
                               np.fft.fftn(z4, axes=(0, 1, 3, 4)), atol=1e-9)
    r3 = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_allclose(tf.signal.rfftnd(tf.constant(r3), axes=[0, 1]).numpy(),
                               np.fft.rfftn(r3, axes=(0, 1)), atol=1e-9)


def test_perfect_reconstruction_with_the_inverse_window():
    x = tf.constant(np.random.default_rng(0).standard_normal(64))
    s = tf.signal.stft(x, 16, 4)
    back = tf.signal.inverse_stft(s, 16, 4,
                                  window_fn=tf.signal.inverse_stft_window_fn(4)).numpy()
    np.testing.assert_allclose(back[12:-12], x.numpy()[12:len(back) - 12], atol=1e-12)


def test_irfft_of_no_bins_is_empty_as_tf():
    # TF 2.21 (run by hand): with no bins and no fft_length, irfft/irfft2d return an empty
    # signal ([4, 1, 0] -> [4, 1, 0]; [2, 0, 0] -> [2, 0, 0]) instead of failing on the
    # inferred 2 * (0 - 1) points
    import tapeflow as tf
    for fn in (tf.signal.irfft, tf.signal.irfft2d):
        for shape in ([4, 1, 0], [2, 0, 0]):
            y = fn(tf.zeros(shape, tf.complex64))
            assert y.dtype == tf.float32 and y.shape == tuple(shape)
