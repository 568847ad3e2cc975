"""``keras.ops`` against Keras 3.15 on TensorFlow 2.21 (tools/record_keras_ops.py).

Every recorded call runs through ``tapeflow.keras.ops`` and must give Keras's values, dtype
and shape, the same gradient of ``sum(out * w)`` for its float inputs, or the same exception
class; the name lists of ``keras.ops`` and its submodules must match Keras's but for the
names of ``MISSING``.
"""
import hashlib
import json
import math
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.keras import ops

HERE = pathlib.Path(__file__).parents[1] / "fixtures" / "keras"
NAMES = json.loads((HERE / "ops_names.json").read_text())
VALUES = json.loads((HERE / "ops_values.json").read_text())

# Keras names tapeflow's keras.ops does not have yet, by module, and why (strict: a name
# that appears must leave this table). Every name of Keras 3.15 exists now.
MISSING = {module: {} for module in NAMES}

# Recorded calls tapeflow answers differently, and why (strict xfail: a fixed call fails
# the test until its line goes).
_KERAS_BUG = "Keras 3.15 on TensorFlow is wrong here; tapeflow gives NumPy's answer " \
    "(test_keras_bugs_answer_as_numpy checks it): "
_AFFINE_GRAD = "Keras 3.15 on TensorFlow is wrong here: TF's ImageProjectiveTransformV3 " \
    "gradient resamples the upstream gradient through the inverse transform, not the adjoint; " \
    "tapeflow's is the exact adjoint (test_affine_transform_gradient_is_the_adjoint)"
_OPFIX = "a tapeflow op differs from TensorFlow's (reported to helper opfix): "
XFAIL = {
    "sinc-6897b5b7": _KERAS_BUG + "its gradient at x = 0 is NaN (it divides before it "
                     "selects); the derivative there is 0",
    "hypot-be27858a": _KERAS_BUG + "at |x1| == |x2| its gradient is doubled",
    "hypot-3e19c300": _KERAS_BUG + "at |x1| == |x2| its gradient is doubled",
    "ldexp-e66b47b9": _KERAS_BUG + "its gradient at x1 == 0 lacks the factor 2 ** x2",
    "sparsemax-d43c3570": _KERAS_BUG + "its gradient is not the sparsemax Jacobian "
                          "diag(s) - s s^T / |S| on the support",
    "nanmedian-f3829175": _KERAS_BUG + "it fails on an int tensor with an axis",
    "concatenate-e618df26": _KERAS_BUG + "it refuses axis=None with mixed dtypes",
    "rot90-b53f530d": _KERAS_BUG + "k=2 scrambles a non-square matrix",
    "pad-4cbe3ba9": _KERAS_BUG + "it refuses an int pad_width",
    "image.affine_transform-e29a5eab": _AFFINE_GRAD,
    "image.affine_transform-694206c6": _AFFINE_GRAD,
    "image.affine_transform-716e362a": _AFFINE_GRAD,
    "image.affine_transform-815ca782": _AFFINE_GRAD,
    "image.affine_transform-7931e5ff": _AFFINE_GRAD,
    "image.affine_transform-6d6f3d9b": _AFFINE_GRAD,
    "image.perspective_transform-1da3f929": _AFFINE_GRAD,
    "image.perspective_transform-16414852": _AFFINE_GRAD,
    "image.scale_and_translate-ce716793": _KERAS_BUG + "it fails on integer images (a uint8 "
                                          "clip bound against float values)",
    "image.hsv_to_rgb-d4cfe612": _KERAS_BUG + "TensorFlow's HSVToRGB has no gradient; "
                                 "tapeflow's binding is differentiable",
    "image.rgb_to_hsv-618a65d0": _KERAS_BUG + "TensorFlow's RGBToHSV gradient is not the "
                                 "derivative (test_rgb_to_hsv_gradient_is_the_derivative)",
    "image.rgb_to_hsv-db48a87d": _KERAS_BUG + "TensorFlow's RGBToHSV gradient is not the "
                                 "derivative (test_rgb_to_hsv_gradient_is_the_derivative)",
}


def _public(module):
    return sorted(set(getattr(module, "__all__", [n for n in dir(module)
                                                  if not n.startswith("_")])))


@pytest.mark.parametrize("module", sorted(NAMES))
def test_names_match_keras_but_for_the_missing_table(module):
    mod = ops if module == "ops" else getattr(ops, module)
    ours = set(_public(mod))
    keras = set(NAMES[module])
    assert sorted(ours - keras) == [], "names Keras does not have"
    assert sorted(keras - ours) == sorted(MISSING.get(module, {})), \
        "missing names differ from the MISSING table"


def test_tf_keras_ops_is_the_package():
    assert tf.keras.ops is ops
    assert ops.numpy.add is ops.add and ops.nn.relu is ops.relu


# ----------------------------------------------------------------------------- values


def _unjson(x):
    if isinstance(x, str) and x in ("nan", "inf", "-inf"):
        return float(x)
    if isinstance(x, list):
        return [_unjson(v) for v in x]
    return x


def decode(x):
    if isinstance(x, dict) and "T" in x:
        return tf.constant(np.asarray(_unjson(x["T"]), dtype=x["dtype"]))
    if isinstance(x, dict) and "tuple" in x:
        return tuple(decode(v) for v in x["tuple"])
    if isinstance(x, list):
        return [decode(v) for v in x]
    if isinstance(x, dict):
        return {k: decode(v) for k, v in x.items()}
    return x


def _float_leaves(tree, out):
    if isinstance(tree, tf.Tensor) and tree.dtype.is_floating:
        out.append(tree)
    elif isinstance(tree, (list, tuple)):
        for v in tree:
            _float_leaves(v, out)
    elif isinstance(tree, dict):
        for v in tree.values():
            _float_leaves(v, out)
    return out


def _weights(shape):
    n = int(np.prod(shape)) if shape else 1
    return np.cos(np.arange(n) + 0.5).reshape(shape)


def _tol(dtype):
    return {"float16": (2e-3, 2e-3), "bfloat16": (2e-2, 2e-2), "float32": (2e-5, 2e-5),
            "float64": (1e-9, 1e-12)}.get(dtype, (0, 0))


# Keras computes these in float32 whatever the input, so float64 answers carry float32 rounding
_FLOAT32_INSIDE = {"ctc_loss"}


def check(got, want, where):
    if "T" in want or "C" in want:
        assert tf.is_tensor(got) or isinstance(got, np.ndarray), f"{where}: not a tensor"
        a = np.asarray(got)
        assert list(a.shape) == want["shape"], f"{where}: shape"
        if "C" in want:
            assert a.dtype == np.dtype(want["dtype"]), f"{where}: dtype"
            expect = np.asarray(_unjson(want["C"][0])) + 1j * np.asarray(_unjson(want["C"][1]))
            np.testing.assert_allclose(a, expect, rtol=2e-5, atol=2e-5, err_msg=where)
            return
        assert got.dtype.name == want["dtype"], f"{where}: dtype {got.dtype.name}"
        expect = np.asarray(_unjson(want["T"]), dtype=want["dtype"]).astype(np.float64) \
            if want["dtype"] != "bool" else np.asarray(want["T"], bool)
        rtol, atol = _tol("float32" if where.split(" ")[0] in _FLOAT32_INSIDE
                          else want["dtype"])
        if want["dtype"] == "bool":
            np.testing.assert_array_equal(a, expect, err_msg=where)
        else:
            np.testing.assert_allclose(a.astype(np.float64), expect, rtol=rtol, atol=atol,
                                       equal_nan=True, err_msg=where)
        return
    if "tuple" in want or "list" in want:
        items = want.get("tuple", want.get("list"))
        assert isinstance(got, (tuple, list)), f"{where}: not a sequence"
        assert len(got) == len(items), f"{where}: length"
        for i, (g, w) in enumerate(zip(got, items)):
            check(g, w, f"{where}[{i}]")
        return
    assert type(got).__name__ == want["type"], f"{where}: type {type(got).__name__}"
    assert got == want["py"], f"{where}: value"


def _case_id(entry):
    digest = hashlib.sha1(json.dumps(entry["call"]).encode()).hexdigest()[:8]
    return f"{entry['call'][0]}-{digest}"


def _params():
    out = []
    for e in VALUES:
        cid = _case_id(e)
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[cid])] if cid in XFAIL else []
        out.append(pytest.param(e, id=cid, marks=marks))
    return out


@pytest.mark.parametrize("entry", _params())
def test_call_matches_keras(entry):
    name, args, kwargs = entry["call"]
    fn = ops
    for part in name.split("."):
        fn = getattr(fn, part)
    a, k = decode(args), decode(kwargs)
    sources = _float_leaves([a, k], [])
    if "error" in entry:
        with pytest.raises(Exception) as info:  # noqa: PT011 - the class is compared below
            fn(*a, **k)
        names = [c.__name__ for c in type(info.value).__mro__]
        assert entry["error"] in names, f"raised {type(info.value).__name__}: {info.value}"
        return
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(sources)
        out = fn(*a, **k)
        flat = [o for o in tf.nest.flatten(out)
                if isinstance(o, tf.Tensor) and o.dtype.is_floating]
        if "grads" in entry:
            loss = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64)
                                           * _weights(o.shape.as_list())) for o in flat])
    check(out, entry["out"], name)
    if "grads" not in entry:
        return
    grads = tape.gradient(loss, sources)
    for i, (g, w) in enumerate(zip(grads, entry["grads"])):
        if w is None:
            assert g is None or not np.any(np.asarray(g)), f"gradient {i}: expected none"
            continue
        if g is None:  # no gradient is a zero gradient
            assert not np.any(np.asarray(_unjson(w["T"]))), f"gradient {i}: None"
            continue
        check(tf.convert_to_tensor(g), w, f"{name} gradient {i}")


# ----------------------------------------------------------------------------- beyond values


def test_result_type_follows_keras_lattice():
    from tapeflow.keras.ops._dtypes import result_type
    assert result_type("int32", "float32") == "float32"
    assert result_type("int8", int) == "int8"
    assert result_type("int32", float) == "float32"
    assert result_type("uint8", "int8") == "int16"
    assert result_type("float16", "bfloat16") == "float32"
    assert result_type(int, float) == "float32"
    assert result_type("int64", "uint64") == "float32"
    assert result_type("bool", int) == "int32"
    with pytest.raises(ValueError, match="not|no"):
        result_type("float8_e4m3fn", "float32")


def test_bindings_trace_in_tf_function_and_differentiate():
    x = tf.Variable([[0.5, -1.0], [2.0, 0.25]])

    @tf.function
    def loss():
        with tf.GradientTape() as tape:
            y = ops.sum(ops.square(ops.matmul(x, ops.transpose(x))) * ops.sigmoid(x[0]))
            y = y + ops.mean(ops.relu(ops.reshape(x, (4,))))
        return y, tape.gradient(y, x)

    y, g = loss()
    with tf.GradientTape() as tape:
        want = tf.reduce_sum(tf.square(tf.matmul(x, tf.transpose(x))) * tf.sigmoid(x[0])) + \
            tf.reduce_mean(tf.nn.relu(tf.reshape(x, [4])))
    np.testing.assert_allclose(y.numpy(), want.numpy(), rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), tape.gradient(want, x).numpy(), rtol=1e-5)


def test_control_flow_ops():
    assert int(ops.fori_loop(0, 5, lambda i, v: v + i, tf.constant(0))) == 10
    assert int(ops.while_loop(lambda v: v < 10, lambda v: v * 2, tf.constant(1))) == 16
    a, b = ops.while_loop(lambda a, b: a < 3, lambda a, b: (a + 1, b * 2),
                          (tf.constant(0), tf.constant(1)))
    assert (int(a), int(b)) == (3, 8)
    carry, ys = ops.scan(lambda c, x: (c + x, c * x), tf.constant(0.0),
                         tf.constant([1.0, 2.0, 3.0]))
    assert float(carry) == 6.0 and ys.numpy().tolist() == [0.0, 2.0, 9.0]
    assert float(ops.cond(tf.constant(True), lambda: 1.0, lambda: 2.0)) == 1.0
    assert float(ops.switch(5, [lambda v: v, lambda v: v * 3], tf.constant(2.0))) == 6.0
    sq = ops.vectorized_map(lambda r: ops.sum(r * r), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert sq.numpy().tolist() == [5.0, 25.0]
    cs = ops.associative_scan(lambda a, b: a + b, tf.constant([1, 2, 3, 4]))
    assert cs.numpy().tolist() == [1, 3, 6, 10]


def test_custom_gradient_and_stop_gradient():
    @ops.custom_gradient
    def clipped(x):
        def grad(g):
            return g * 0.5
        return x * 3.0, grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(clipped(x)) + ops.sum(ops.stop_gradient(x) * x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.5, 2.5])


def test_gradient_matches_finite_differences_in_float64():
    # a few composed bindings (built here from tapeflow ops) against central differences
    fns = [ops.cbrt, ops.sinc, ops.i0, lambda v: ops.log2(v * v + 1.0),
           lambda v: ops.logaddexp(v, v * 0.5),
           lambda v: ops.hypot(v, 2.0), ops.nn.sparsemax, ops.erfinv]
    x0 = np.array([0.3, -0.45, 0.7], np.float64)
    for fn in fns:
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = ops.sum(fn(x) * np.array([1.0, -2.0, 0.5]))
        g = tape.gradient(y, x).numpy()
        num = []
        for i in range(3):
            e = np.zeros(3)
            e[i] = 1e-6
            hi = float(ops.sum(fn(tf.constant(x0 + e)) * np.array([1.0, -2.0, 0.5])))
            lo = float(ops.sum(fn(tf.constant(x0 - e)) * np.array([1.0, -2.0, 0.5])))
            num.append((hi - lo) / 2e-6)
        np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-7, err_msg=str(fn))


def test_keras_shape_is_a_tuple_of_ints():
    s = ops.shape(tf.zeros([2, 3]))
    assert s == (2, 3) and isinstance(s, tuple) and all(type(d) is int for d in s)
    assert not math.isnan(float(ops.convert_to_numpy(ops.ones((1,)))[0]))


def test_keras_bugs_answer_as_numpy():
    a = np.array([[-1.5, -0.25, 0.0], [0.5, 1.0, 2.0]], np.float32)
    np.testing.assert_array_equal(ops.rot90(tf.constant(a), k=2).numpy(), np.rot90(a, 2))
    np.testing.assert_array_equal(ops.pad(tf.constant(a), 1).numpy(), np.pad(a, 1))
    mixed = ops.concatenate([tf.constant(a), tf.constant(a.astype(np.float16))], axis=None)
    assert mixed.dtype.name == "float32"
    np.testing.assert_array_equal(mixed.numpy(), np.concatenate([a, a], axis=None))
    ints = np.array([[-2, 0, 1], [3, 4, -5]], np.int32)
    np.testing.assert_allclose(ops.nanmedian(tf.constant(ints), axis=0).numpy(),
                               np.median(ints, axis=0))
    x = tf.constant([0.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(ops.sinc(x))
    assert tape.gradient(y, x).numpy()[0] == 0.0


def test_rgb_to_hsv_gradient_is_the_derivative():
    x0 = np.array([[[[0.0, 0.025, 0.05], [0.7, 0.2, 0.4], [0.3, 0.9, 0.6]]]])
    w = np.array([0.3, -0.7, 0.5])

    def f(v):
        return float(ops.sum(ops.image.rgb_to_hsv(tf.constant(v)) * w))
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(ops.image.rgb_to_hsv(x) * w)
    g = tape.gradient(y, x).numpy().ravel()
    num = []
    for i in range(x0.size):
        e = np.zeros(x0.size)
        e[i] = 1e-7
        e = e.reshape(x0.shape)
        num.append((f(x0 + e) - f(x0 - e)) / 2e-7)
    np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-6)


# Calls that need concrete values, so they run eagerly only (strict: a call that traces must
# leave the table).
_NUMPY = "computed by NumPy/SciPy on concrete values (not differentiable, eager only)"
EAGER_ONLY = {"eig": _NUMPY, "lu_factor": _NUMPY, "view": _NUMPY}
# Python values out (a tuple of ints, a dtype name, a bool, an int): a tf.function returns
# them as tensors, as TensorFlow does, so they are compared eagerly only.
_PYTHON_OUT = {"shape", "ndim", "dtype", "is_tensor"}


def _traced_params():
    out = []
    for e in VALUES:
        cid = _case_id(e)
        if "error" in e or cid in XFAIL or e["call"][0] in _PYTHON_OUT:
            continue
        marks = [pytest.mark.xfail(strict=True, reason=EAGER_ONLY[e["call"][0]])] \
            if e["call"][0] in EAGER_ONLY else []
        out.append(pytest.param(e, id=cid, marks=marks))
    return out


@pytest.mark.parametrize("entry", _traced_params())
def test_call_traces_in_tf_function(entry):
    name, args, kwargs = entry["call"]
    fn = ops
    for part in name.split("."):
        fn = getattr(fn, part)
    a, k = decode(args), decode(kwargs)
    traced = tf.function(lambda: fn(*a, **k))
    check(traced(), entry["out"], name + " (traced)")


def test_affine_transform_gradient_is_the_adjoint():
    # the resampling is linear in the image: its gradient must be the exact adjoint
    rng = np.random.default_rng(3)
    img = rng.standard_normal((1, 4, 5, 2))
    w = rng.standard_normal((1, 4, 5, 2))
    t = [1.1, 0.2, -1.5, 0.1, 0.9, 1.7, 0.0, 0.0]
    for mode in ("constant", "reflect", "wrap", "nearest"):
        x = tf.constant(img)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = ops.sum(ops.image.affine_transform(x, tf.constant(t), fill_mode=mode) * w)
        g = tape.gradient(y, x).numpy().ravel()
        basis = np.eye(img.size).reshape((img.size,) + img.shape)
        want = [float(ops.sum(ops.image.affine_transform(tf.constant(e), tf.constant(t),
                                                         fill_mode=mode) * w))
                for e in basis]
        np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6, err_msg=mode)


def test_keras_gradient_bugs_have_the_true_derivative_here():
    x1 = tf.constant([0.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x1)
        ld = ops.sum(ops.ldexp(x1, tf.constant([3, 1])))
        hy = ops.sum(ops.hypot(x1, tf.constant([1.0, 3.0])))
    np.testing.assert_allclose(tape.gradient(ld, x1).numpy(), [8.0, 2.0])
    np.testing.assert_allclose(tape.gradient(hy, x1).numpy(), [0.0, 2 ** -0.5], rtol=1e-6)
    img = tf.constant(np.arange(12, dtype=np.uint8).reshape(3, 4))
    got = ops.image.scale_and_translate(img, (5, 2), tf.constant([1.5, 0.5]),
                                        tf.constant([0.0, 0.0]), (0, 1), "linear")
    ref = ops.image.scale_and_translate(ops.cast(img, "float32"), (5, 2),
                                        tf.constant([1.5, 0.5]), tf.constant([0.0, 0.0]),
                                        (0, 1), "linear")
    assert got.dtype.name == "uint8"
    np.testing.assert_array_equal(got.numpy(), np.clip(np.round(ref.numpy()), 0, 11))
