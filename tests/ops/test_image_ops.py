"""``tf.image`` against TensorFlow 2.21's recorded answers (tools/record_image.py ->
tests/fixtures/ops/image.json): values, dtypes, shapes, gradients, error classes and
messages, for the cases of tests/ops/image_cases.py."""
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from tests.ops import image_cases

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops" / "image.json"
RECORDED = json.loads(FIXTURE.read_text())["cases"]
CASES = {c[0]: c for c in image_cases.CASES}
# Cases whose values are compared with a wider tolerance, and why.
# float64 images that TensorFlow's kernels compute in float32 (1-ulp float32 differences):
LOOSE = {"adjust_gamma_f64": 1e-6, "adjust_hue_f64": 1e-6, "adjust_saturation_f64": 1e-6}

# JPEG pixels: TensorFlow's default decoder uses libjpeg's fast integer DCT, tapeflow's the
# accurate one; its encoder is Pillow's libjpeg: largest level difference allowed (uint8 or
# float in [0, 1]) where TensorFlow's bytes or DCT differ (docs/ops.md).
LEVELS = {"decode_and_crop_jpeg_default": 3, "decode_webp_of_jpeg": 3,
          "adjust_jpeg_quality_uint8": 3,
          "adjust_jpeg_quality_float": 3, "adjust_jpeg_quality_gray": 3,
          "adjust_jpeg_quality_noise": 8, "stateless_random_jpeg_quality": 3}


def decode(rec):
    if rec is None:
        return None
    if rec["dtype"] == "bytes":
        return np.array([v.encode("latin-1") for v in rec["values"]],
                        dtype=object).reshape(rec["shape"])
    return np.array(rec["values"], dtype=rec["dtype"]).reshape(rec["shape"])


def close(got, want, what, key):
    if want.dtype == object:
        assert got.tolist() == want.tolist(), what
        return
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    if key in LEVELS:
        levels = np.float64(LEVELS[key]) / (255 if want.dtype.kind == "f" else 1)
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        assert diff.max() <= levels + 1e-6, (what, diff.max())
        return
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    # float32 tolerance as the op table uses (tests/ops/op_db.py), scaled by magnitude
    single = want.dtype in (np.float32, np.float16)
    tol = LOOSE.get(key, 1e-5 if single else 1e-10)
    finite = want[np.isfinite(want)]
    scale = max(float(np.max(np.abs(finite))) if finite.size else 0.0, 1.0)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)

# TensorFlow has no float64 kernel for ScaleAndTranslateGrad (its gradient of a float64
# image raises InvalidArgumentError); tapeflow gives the gradient, checked below as the
# adjoint of the resize (docs/ops.md).
TF_LACKS_GRADIENT = {f"resize_st_{m}_float64" for m in (
    "lanczos3", "lanczos5", "gaussian", "mitchellcubic", "bilinear", "bicubic")}


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("key", sorted(CASES))
def test_case_matches_tensorflow(key):
    want = RECORDED[key]
    got = image_cases.run(tf, CASES[key])
    if "error" in want:
        assert got.get("error") == want["error"], got
        assert got["message"] == want["message"]
        return
    assert "error" not in got, got
    assert len(got["value"]) == len(want["value"])
    for i, (g, w) in enumerate(zip(got["value"], want["value"])):
        close(g, decode(w), f"value {i}", key)
    if key in TF_LACKS_GRADIENT:
        assert want.get("grad_error") == "InvalidArgumentError" and got["grad"] is not None
        return
    if "grad_error" in want:
        assert (got.get("grad_error"), got.get("grad_message")) == (
            want["grad_error"], want["grad_message"])
    if "grad" in want:
        w = decode(want["grad"])
        assert (got["grad"] is None) == (w is None)
        if w is not None:
            close(got["grad"], w, "gradient", key)


@pytest.mark.parametrize("stateless", [False, True])
def test_sample_distorted_bounding_box_meets_its_constraints(stateless):
    """TensorFlow's draws are not reproduced (docs/ops.md): the crops are checked against
    the constraints the kernel guarantees, and the stateless crop is a function of the seed."""
    boxes = tf.constant([[[0.1, 0.2, 0.5, 0.7], [0.6, 0.6, 0.9, 0.95]]])
    kw = {"min_object_covered": 0.5, "aspect_ratio_range": (0.6, 1.6),
          "area_range": (0.1, 0.9)}
    crops = set()
    for k in range(40):
        if stateless:
            begin, size, bbox = tf.image.stateless_sample_distorted_bounding_box(
                [40, 50, 3], boxes, seed=[k, 7], **kw)
            again = tf.image.stateless_sample_distorted_bounding_box(
                [40, 50, 3], boxes, seed=[k, 7], **kw)
            assert [t.numpy().tolist() for t in again] == [
                t.numpy().tolist() for t in (begin, size, bbox)]
        else:
            begin, size, bbox = tf.image.sample_distorted_bounding_box([40, 50, 3], boxes,
                                                                       **kw)
        (y, x, c0), (h, w, c1) = begin.numpy().tolist(), size.numpy().tolist()
        assert (c0, c1) == (0, -1) and begin.dtype == tf.int32 and bbox.dtype == tf.float32
        assert 0 <= y and 0 <= x and y + h <= 40 and x + w <= 50
        crops.add((y, x, h, w))
        if (h, w) == (40, 50):
            continue  # no draw met the constraints: the whole image, as TensorFlow
        assert 0.1 * 2000 <= h * w <= 0.9 * 2000
        np.testing.assert_allclose(bbox.numpy(), [[[y / 40, x / 50, (y + h) / 40,
                                                    (x + w) / 50]]], rtol=1e-6)
        covered = []
        for b in ((4, 10, 20, 35), (24, 30, 36, 47)):
            iy = max(0, min(y + h, b[2]) - max(y, b[0]))
            ix = max(0, min(x + w, b[3]) - max(x, b[1]))
            covered.append(iy * ix / ((b[2] - b[0]) * (b[3] - b[1])))
        assert max(covered) >= 0.5
    assert len(crops) > 5


def _examples():
    import doctest  # noqa: F401 - used by the test below
    import inspect

    from tapeflow.ops import (
        image_boxes_ops,
        image_color_ops,
        image_geometry_ops,
        image_jpeg_ops,
        image_metrics_ops,
    )
    for module in (image_geometry_ops, image_metrics_ops, image_color_ops, image_boxes_ops,
                   image_jpeg_ops):
        for name in sorted(module.__all__):
            fn = getattr(module, name)
            if inspect.isfunction(fn) and fn.__doc__ and ">>>" in fn.__doc__:
                yield pytest.param(fn, id=f"{module.__name__.rsplit('.', 1)[1]}.{name}")


@pytest.mark.parametrize("fn", list(_examples()))
def test_docstring_example_runs(fn):
    """The ``>>>`` examples of the new image modules run and print what they show (as
    tests/ops/test_op_docs.py does for the older op modules)."""
    import doctest
    if fn.__module__.endswith("image_jpeg_ops"):
        pytest.importorskip("PIL")
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(fn, fn.__name__, globs={}):
        assert runner.run(test).failed == 0, fn.__name__


def test_traced_programs_follow_their_arguments():
    """Under ``tf.function`` tensor arguments are not baked into the program: offsets,
    boxes and random factors change with each call as they do eagerly."""
    x = tf.reshape(tf.range(25.0), (5, 5, 1))
    crop = tf.function(lambda x, o: tf.image.crop_to_bounding_box(x, o, 1, 2, 2))
    for o in (0, 2, 3):
        np.testing.assert_array_equal(crop(x, tf.constant(o)).numpy(),
                                      tf.image.crop_to_bounding_box(x, o, 1, 2, 2).numpy())
    img = tf.constant(np.random.default_rng(3).uniform(size=(2, 6, 7, 3)).astype(np.float32))
    car = tf.function(lambda b: tf.image.crop_and_resize(img, b, [0, 1], [3, 4]))
    for b in ([[0.1, 0.2, 0.8, 0.7], [0.5, 0.1, 0.2, 0.9]],
              [[0.3, -0.1, 0.6, 1.2], [0.9, 0.1, 0.2, 0.5]]):
        b = tf.constant(b)
        np.testing.assert_allclose(car(b).numpy(),
                                   tf.image.crop_and_resize(img, b, [0, 1], [3, 4]).numpy(),
                                   rtol=1e-6, atol=1e-6)
    hue = tf.function(lambda x, d: tf.image.adjust_hue(x, d))
    c = tf.constant(np.random.default_rng(4).uniform(size=(2, 3, 3)).astype(np.float32))
    for d in (0.1, -0.4):
        np.testing.assert_array_equal(hue(c, tf.constant(d)).numpy(),
                                      tf.image.adjust_hue(c, d).numpy())


@pytest.mark.parametrize("method", ["lanczos3", "gaussian", "mitchellcubic", "bilinear",
                                    "bicubic"])
@pytest.mark.parametrize("size", [(3, 9), (11, 2)])
def test_scale_and_translate_gradient_is_the_adjoint(method, size):
    """<resize(x), u> == <x, dL/dx> for L = sum(resize(x) * u): the float64 gradient TF
    cannot take is the transpose of the (linear) resize, to float32 rounding."""
    rng = np.random.default_rng(7)
    x = tf.Variable(rng.normal(size=(2, 5, 7, 3)))
    u = rng.normal(size=(2,) + size + (3,))
    with tf.GradientTape() as tape:
        y = tf.image.resize(x, size, method=method, antialias=True)
        loss = tf.reduce_sum(tf.cast(y, tf.float64) * u)
    g = tape.gradient(loss, x)
    assert g.dtype == tf.float64
    np.testing.assert_allclose(np.sum(x.numpy() * g.numpy()), loss.numpy(), rtol=1e-5)
    y32 = tf.image.resize(tf.cast(x, tf.float32), size, method=method, antialias=True)
    np.testing.assert_array_equal(y.numpy(), y32.numpy())


@pytest.mark.parametrize("method,antialias", [("bicubic", False), ("lanczos5", False),
                                              ("bilinear", True)])
def test_resize_second_derivative_is_the_resize(method, antialias):
    """The gradient op (ResizeBicubicGrad, ScaleAndTranslateGrad) is linear in the upstream
    gradient; its own gradient is the forward resize: d<grad(u), v>/du == resize(v)."""
    rng = np.random.default_rng(3)
    x = tf.constant(rng.normal(size=(1, 6, 5, 2)).astype(np.float32))
    u = tf.Variable(rng.normal(size=(1, 4, 9, 2)).astype(np.float32))
    v = tf.constant(rng.normal(size=(1, 6, 5, 2)).astype(np.float32))
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.image.resize(x, [4, 9], method=method, antialias=antialias)
            loss = tf.reduce_sum(y * u)
        g = inner.gradient(loss, x)
        second = tf.reduce_sum(g * v)
    gu = outer.gradient(second, u)
    want = tf.image.resize(v, [4, 9], method=method, antialias=antialias)
    np.testing.assert_allclose(gu.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)
