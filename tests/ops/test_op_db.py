"""The op table (tests/ops/op_db.py) against TensorFlow's recorded numbers and finite differences.

For every row with TensorFlow fixtures: forward values, shapes and output dtypes equal
TensorFlow 2.21's (recorded by tools/record_ops.py into tests/fixtures/ops/), and so do
gradients of a fixed weighted sum of the outputs. Every differentiable row passes float64
(complex128) central-difference checks, all through the shipped checker
(tapeflow/_core/gradcheck.py, behind ``tf.test.compute_gradient``): a random-direction VJP,
the full Jacobian (tiny inputs, or every sample for the rows that ask), forward-mode JVPs and
a second-order check; the gradient rows without fixtures also give float32 gradients that
agree with the float64 ones. Non-differentiable rows record nothing on a tape. Error cases
raise TensorFlow's class with its first message line. TensorFlow itself is never imported.
"""
import functools
import json
import os
import re
import zlib

import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core import gradcheck as gc
from tests.ops import op_db

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "ops")

with open(os.path.join(FIX, "ops.json")) as _f:
    META = json.load(_f)
_VALUES = np.load(os.path.join(FIX, "ops.npz"))["values"]

ROWS = op_db.ROWS  # the whole table
FIX_OPS = op_db.OPS  # its rows with TensorFlow fixtures
GRAD_OPS = [o for o in FIX_OPS if o.grad]
FD_OPS = [o for o in ROWS if o.grad and o.fd]
NOGRAD_OPS = [o for o in ROWS if not o.grad]
IDS = lambda o: o.name  # noqa: E731



def _dense(grads):
    """Gradients as dense tensors: tf.gather's IndexedSlices become Tensors, as
    ``tf.convert_to_tensor`` makes them in TensorFlow."""
    if isinstance(grads, tf.IndexedSlices):
        return tf.convert_to_tensor(grads)
    if isinstance(grads, list):
        return [_dense(g) for g in grads]
    return grads

def fixture(key):
    offset, shape, dtype = META["arrays"][key]
    n = int(np.prod(shape)) if shape else 1
    if np.dtype(dtype).kind == "c":
        return _VALUES[offset:offset + 2 * n].view(np.complex128).reshape(shape).astype(dtype)
    return _VALUES[offset:offset + n].reshape(shape).astype(dtype)


def run(info, sample, dtype, values=None):
    args, kwargs, sources = op_db.convert(tf, sample, dtype, values)
    return op_db.flatten(info.call(tf, *args, **kwargs)), sources


def weighted_loss(outs):
    return op_db.weighted_loss(tf, outs)


def tolerances(info, dtype):
    if dtype in ("float64", "complex128"):
        return info.rtol64, info.atol64
    if dtype == "float16":
        return 1e-2, 1e-2
    return info.rtol, info.atol


def assert_close(got, want, rtol, atol, what):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        kind = np.complex128 if "c" in (got.dtype.kind, want.dtype.kind) else np.float64
        np.testing.assert_allclose(got.astype(kind), want.astype(kind),
                                   rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")


def first_line(exc):
    text = str(exc).strip("\n")
    return _PREFIX.sub("", text.split("\n")[0] if text else "")


# ---------------------------------------------------------------------------- the table


def test_table_holds_at_least_150_ops_with_unique_names():
    assert len(FIX_OPS) >= 150
    assert len({o.name for o in ROWS}) == len(ROWS)


def test_every_row_has_tensorflow_fixtures():
    assert set(META["ops"]) == {o.name for o in FIX_OPS}
    assert META["tensorflow"] == "2.21.0"
    assert set(META["errors"]) == {c.name for c in op_db.ERRORS}


@pytest.mark.parametrize("info", FIX_OPS, ids=IDS)
def test_fixture_inputs_are_the_tables_inputs(info):
    for j, sample in enumerate(info.make_samples()):
        dtype = info.dtypes[0]
        _, sources = run_sources_only(sample, dtype)
        for i, s in enumerate(sources):
            np.testing.assert_array_equal(s, fixture(f"{info.name}/{j}/{dtype}/in{i}"))


def run_sources_only(sample, dtype):
    return None, [np.asarray(a, dtype) for a in _float_arrays(sample)]


def _float_arrays(sample):
    out = []

    def walk(a):
        if isinstance(a, list):
            for b in a:
                walk(b)
        elif op_db.is_source(a):
            out.append(np.asarray(a))

    for a in sample.args:
        walk(a)
    for k in sorted(sample.kwargs):
        walk(sample.kwargs[k])
    return out


# ---------------------------------------------------------------- against TensorFlow


@pytest.mark.parametrize("info", FIX_OPS, ids=IDS)
def test_forward_values_and_dtypes_match_tensorflow(info):
    for j, sample in enumerate(info.make_samples()):
        for dtype in info.dtypes:
            rec = META["ops"][info.name][j][dtype]
            key = f"{info.name}/{j}/{dtype}"
            if "error" in rec:
                with pytest.raises(Exception) as exc:
                    run(info, sample, dtype)
                assert [type(exc.value).__name__, first_line(exc.value)] == rec["error"], key
                continue
            outs, _ = run(info, sample, dtype)
            assert [o.dtype.name for o in outs] == rec["dtypes"], key
            rtol, atol = tolerances(info, dtype)
            for k, o in enumerate(outs):
                assert_close(o.numpy(), fixture(f"{key}/out{k}"), rtol, atol, f"{key}/out{k}")


@pytest.mark.parametrize("info", [o for o in GRAD_OPS if o.tf_grad], ids=IDS)
def test_gradients_match_tensorflow(info):
    for j, sample in enumerate(info.make_samples()):
        for dtype in info.dtypes:
            if dtype == "float16":
                continue
            rec = META["ops"][info.name][j][dtype]
            key = f"{info.name}/{j}/{dtype}"
            if "grad_error" in rec:
                # TF's CPU kernels lack this gradient (dilated conv in float64): tapeflow
                # has it, and the finite-difference tests check it.
                assert "dilation" in rec["grad_error"][1], key
                continue
            with tf.GradientTape() as tape:
                args, kwargs, sources = op_db.convert(tf, sample, dtype)
                for s in sources:
                    tape.watch(s)
                loss = weighted_loss(op_db.flatten(info.call(tf, *args, **kwargs)))
            grads = _dense(tape.gradient(loss, sources))
            rtol, atol = tolerances(info, dtype)
            for i, (g, want) in enumerate(zip(grads, rec["grads"], strict=True)):
                if want is None:
                    assert g is None, f"{key}/grad{i}: TF gives None"
                    continue
                assert g is not None, f"{key}/grad{i}: TF gives a gradient"
                assert g.dtype.name == want, key
                assert_close(g.numpy(), fixture(f"{key}/grad{i}"), rtol, atol * 10,
                             f"{key}/grad{i}")


@pytest.mark.parametrize("info", [o for o in GRAD_OPS if o.tf_grad and "float32" in o.dtypes],
                         ids=IDS)
def test_variables_as_inputs_are_watched_and_match_tensorflow(info):
    """Model code passes Variables: the tape watches them on read, gradients as for tensors."""
    sample = info.make_samples()[0]
    rec = META["ops"][info.name][0]["float32"]
    if "grads" not in rec:
        pytest.skip("TensorFlow recorded no gradient for this sample")
    with tf.GradientTape() as tape:
        args, kwargs, sources = op_db.convert(tf, sample, "float32", variables=True)
        loss = weighted_loss(op_db.flatten(info.call(tf, *args, **kwargs)))
    grads = _dense(tape.gradient(loss, sources))
    for i, (g, want) in enumerate(zip(grads, rec["grads"], strict=True)):
        if want is None:
            assert g is None
            continue
        assert_close(g.numpy(), fixture(f"{info.name}/0/float32/grad{i}"), info.rtol,
                     info.atol * 10, f"{info.name}: variable {i}")


@pytest.mark.parametrize("case", op_db.ERRORS, ids=lambda c: c.name)
def test_errors_match_tensorflow(case):
    want = META["errors"][case.name]
    if want is None:
        case.fn(tf)  # TensorFlow does not raise here; neither may tapeflow
        return
    with pytest.raises(Exception) as exc:
        case.fn(tf)
    if case.match == "raises":
        assert isinstance(exc.value, tf.errors.OpError), case.note
        return
    assert type(exc.value).__name__ == want[0], first_line(exc.value)
    if case.match == "line":
        assert first_line(exc.value) == want[1]


# ------------------------------------------------------------- finite differences
# All through the shipped checker, tapeflow/_core/gradcheck.py.


def _rng(name, salt):
    return np.random.default_rng(zlib.crc32(f"{name}/{salt}".encode()))


def fd_dtype(info):
    return "complex128" if "complex128" in info.dtypes else "float64"


def _free(info, x):
    return [i for i in range(len(x)) if i not in info.fd_skip]


def _loss_of(info, sample, x, free=None):
    """The weighted loss as a function of the float inputs (of those in ``free`` only, the
    others fixed at ``x``)."""
    free = range(len(x)) if free is None else free

    def loss(*ts):
        values = list(x)
        for i, t in zip(free, ts, strict=True):
            values[i] = t
        return weighted_loss(run(info, sample, fd_dtype(info), values)[0])

    return loss


def _outputs_of(info, sample, x, free=None, k=None):
    """The float outputs (or the ``k``-th) as a function of the float inputs."""
    free = range(len(x)) if free is None else free

    def outputs(*ts):
        values = list(x)
        for i, t in zip(free, ts, strict=True):
            values[i] = t
        outs = [o for o in run(info, sample, fd_dtype(info), values)[0]
                if o.dtype.is_floating or o.dtype.is_complex]
        return outs if k is None else outs[k]

    return outputs


def _fd_params(check, rows):
    out = []
    for o in rows:
        marks = ()
        if check in o.xfail:
            marks = pytest.mark.xfail(reason=o.xfail[check], strict=True)
        out.append(pytest.param(o, id=o.name, marks=marks))
    return out


def loss_and_grad(info, sample, values):
    with tf.GradientTape() as tape:
        args, kwargs, sources = op_db.convert(tf, sample, fd_dtype(info), values)
        for s in sources:
            tape.watch(s)
        loss = weighted_loss(op_db.flatten(info.call(tf, *args, **kwargs)))
    grads = _dense(tape.gradient(loss, sources))
    return float(loss.numpy()), [np.zeros(s.shape) if g is None else g.numpy()
                                 for g, s in zip(grads, sources, strict=True)]


@pytest.mark.parametrize("info", _fd_params("first_order", FD_OPS))
def test_first_order_matches_finite_differences(info):
    """A random-direction VJP of the weighted loss; for tiny real inputs also every element
    of its gradient, both ``tape.gradient``'s and ``tf.test.compute_gradient``'s (but for
    ``full_jacobian`` rows, whose every output's Jacobian is checked element by element)."""
    rtol, atol = info.tol("first_order")
    eps = info.fd_eps[0]
    for j, sample in enumerate(info.make_samples()):
        x = _float_arrays(sample)
        if not x:
            continue
        gc._check_vjp(_loss_of(info, sample, x), x, _rng(info.name, j), eps=eps, rtol=rtol,
                      atol=atol, skip=info.fd_skip, what=f"{info.name} sample {j}")
        if (not info.full_jacobian and sum(np.size(a) for a in x) <= 12
                and not any(np.iscomplexobj(a) for a in x)):
            free = _free(info, x)
            _, grads = loss_and_grad(info, sample, x)
            theoretical, numerical = tf.test.compute_gradient(
                _loss_of(info, sample, x, free), [np.asarray(x[i], np.float64) for i in free],
                delta=eps)
            for i, jac, fds in zip(free, theoretical, numerical, strict=True):
                what = f"{info.name} sample {j}: d/dx{i}"
                gc._assert_close(jac[0], fds[0], rtol, atol, what)
                gc._assert_close(grads[i].reshape(-1), fds[0], rtol, atol,
                                 what + " (tape.gradient)")


def _tiny(x, outs):
    return sum(np.size(a) for a in x) <= 24 and sum(np.size(o) for o in outs) <= 64


@pytest.mark.parametrize("info", _fd_params("jacobian", FD_OPS))
def test_full_jacobian_matches_finite_differences(info):
    """Every element of every float output's Jacobian, by the shipped checker
    (``tape.jacobian`` against the central differences of ``tf.test.compute_gradient``),
    for samples with tiny inputs, or every sample of a ``full_jacobian`` row."""
    rtol, atol = info.tol("jacobian")
    checked = 0
    for j, sample in enumerate(info.make_samples()):
        x = _float_arrays(sample)
        if not x:
            continue
        base = _outputs_of(info, sample, x)(*x)
        if not (info.full_jacobian or _tiny(x, [o.numpy() for o in base])):
            continue
        free = _free(info, x)
        for k in range(len(base)):
            gc._check_jacobian(_outputs_of(info, sample, x, free, k), [x[i] for i in free],
                               eps=info.fd_eps[0], rtol=rtol, atol=atol,
                               what=f"{info.name} sample {j}: d out{k} / d x")
            checked += sum(np.size(x[i]) for i in free)
    assert checked, "no sample small enough for the full Jacobian"


@pytest.mark.parametrize("info", _fd_params("jvp", FD_OPS))
def test_forward_mode_jvp_matches_finite_differences(info):
    """``tf.autodiff.ForwardAccumulator`` along a random direction, per float output."""
    rtol, atol = info.tol("jvp")
    for j, sample in enumerate(info.make_samples()):
        x = _float_arrays(sample)
        if not x:
            continue
        gc._check_jvp(_outputs_of(info, sample, x), x, _rng(info.name, f"jvp/{j}"),
                      eps=info.fd_eps[0], rtol=rtol, atol=atol, skip=info.fd_skip,
                      what=f"{info.name} sample {j}")


@pytest.mark.parametrize("info", _fd_params("second_order", [o for o in FD_OPS if o.grad2]))
def test_second_order_matches_finite_differences(info):
    """Reverse over reverse: the gradient of ``<grad loss(x), w>`` along a random direction."""
    rtol, atol = info.tol("second_order")
    for j, sample in enumerate(info.make_samples()):
        x = _float_arrays(sample)
        if not x:
            continue
        gc._check_second_order(_loss_of(info, sample, x), x, _rng(info.name, f"2/{j}"),
                               eps=info.fd_eps[1], rtol=rtol, atol=atol, skip=info.fd_skip,
                               what=f"{info.name} sample {j}: second order")


@pytest.mark.parametrize("info", [o for o in FD_OPS if not o.tf_fixture
                                  and "float32" in o.dtypes], ids=IDS)
def test_float32_gradients_keep_dtype_and_shape_and_agree_with_float64(info):
    """The rows without TensorFlow fixtures: float32 gradients as the float64 ones."""
    for sample in info.make_samples():
        grads = {}
        for dtype in ("float32", "float64"):
            with tf.GradientTape() as tape:
                args, kwargs, sources = op_db.convert(tf, sample, dtype)
                for s in sources:
                    tape.watch(s)
                loss = weighted_loss(op_db.flatten(info.call(tf, *args, **kwargs)))
            grads[dtype] = _dense(tape.gradient(loss, sources))
        for g32, g64, a in zip(grads["float32"], grads["float64"], _float_arrays(sample),
                               strict=True):
            assert (g32 is None) == (g64 is None)
            if g32 is not None:
                assert g32.dtype == tf.float32 and tuple(g32.shape) == np.shape(a)
                np.testing.assert_allclose(g32.numpy(), g64.numpy(), rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("info", NOGRAD_OPS, ids=IDS)
def test_nondifferentiable_ops_record_nothing(info):
    for j, sample in enumerate(info.make_samples()):
        for dtype in info.dtypes:
            if dtype == "float16":
                continue
            with tf.GradientTape(persistent=True) as tape:
                args, kwargs, sources = op_db.convert(tf, sample, dtype)
                for s in sources:
                    tape.watch(s)
                outs = op_db.flatten(info.call(tf, *args, **kwargs))
            assert tape._tape is None or not tape._tape.entries, (
                f"{info.name} recorded {[e.prim.name for e in tape._tape.entries]}")
            for o in outs:
                assert tape._tape is None or o._id not in tape._tape.watched, info.name
                assert all(g is None for g in tape.gradient(o, sources)), info.name
            if info.tf_fixture and sources:
                assert META["ops"][info.name][j][dtype]["nograd"] == [True] * len(sources)


# TensorFlow registers no gradient for these: the tape raises LookupError (checked against
# TF's text in test_tensor_types.py), so no row differentiates them.
# TensorFlow registers no gradient for these (LookupError); AdjustHue and AdjustSaturation
# are checked against TensorFlow by tests/ops/test_image_ops.py.
NO_REGISTERED_GRADIENT = frozenset({"AdjustContrastv2", "AdjustHue", "AdjustSaturation",
                                    "ResizeArea"})
# float32 kernels whatever the input (no float64 finite differences): their gradients are
# checked against TensorFlow's recorded ones (the image.resize row, tests/ops/
# test_image_ops.py) and their gradient ops' gradients as adjoints there.
# BiasAdd / BiasAddGrad run for float16 only (tf.nn.bias_add of other dtypes is an Add): their
# gradients are checked against TF's recorded BiasAddGrad, to second order and in forward mode
# in tests/ops/test_half_matmul.py.
# OrderedSum / OrderedSumGrad (Keras dice's sums in TF's order; Sum's gradient): checked
# against TF's recorded value, gradients, second derivatives and forward mode in
# tests/ops/test_tf_regressions.py (keras_dice_sums_cancelling_at_1e30_in_eigens_order).
CHECKED_AGAINST_TF = frozenset({"ResizeBicubic", "ResizeBicubicGrad", "ScaleAndTranslate",
                                "ScaleAndTranslateGrad", "BiasAdd", "BiasAddGrad",
                                "OrderedSum", "OrderedSumGrad",
                                # tests/ops/test_space_to_batch.py
                                "SpaceToBatchND", "BatchToSpaceND",
                                # tf.ensure_shape (an identity): tests/function/
                                # static_shapes_cases.py ensure_shape_eager_and_gradient
                                "EnsureShape"})


@functools.lru_cache(maxsize=None)
def reached_primitives():
    """The op types the table's rows run: forward ops and the ops of their rules."""
    reached = set()
    for info in FD_OPS:
        if not info.tf_fixture:  # the grad.* rows repeat ops of the rows above
            continue
        for sample in info.make_samples():
            x = _float_arrays(sample)
            if not x:
                continue
            with tf.GradientTape(persistent=True) as outer:
                args, kwargs, sources = op_db.convert(tf, sample, fd_dtype(info), x)
                for s in sources:
                    outer.watch(s)
                with tf.GradientTape() as inner:
                    for s in sources:
                        inner.watch(s)
                    outs = op_db.flatten(info.call(tf, *args, **kwargs))
                    # Squares make the cotangents depend on the inputs, so the outer tape
                    # records the rules' ops too.
                    loss = weighted_loss([o * o if o.dtype.is_floating else o for o in outs])
                inner.gradient(loss, sources)
            reached |= {e.prim.name for e in outer._tape.entries}
    return frozenset(reached)


def tabled_functions():
    """Public function names some row of the table calls (a gradient row's name is
    ``grad.<function>-<variant>``)."""
    return {o.name.rsplit(".", 1)[-1].split("-")[0] for o in ROWS}


# Public functions that are not ops on tensors, or make tensors from no tensor input.
NOT_OPS = {"device", "executing_eagerly", "name_scope", "init_scope", "get_static_value",
           "zeros", "ones",
           # floordiv: tests/ops/test_gradient_conventions.py::test_floordiv_has_no_gradient
           "floordiv",
           # higher-order control flow: tests/function/cases.py (values and gradients vs TF)
           "cond", "case", "switch_case", "while_loop", "map_fn", "scan", "foldl", "foldr",
           "py_function", "numpy_function",
           # issue 22's names: tests/tfapi_cases.py (values, errors and gradients vs TF)
           "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "special", "ctc_loss",
           "ctc_greedy_decoder", "ctc_beam_search_decoder", "dynamic_partition",
           "dynamic_stitch", "edit_distance",
           "saturate_cast",
           # an identity with a shape check: tests/function/static_shapes_cases.py (values,
           # errors, gradient and static shapes vs TF)
           "ensure_shape"}


def test_every_public_op_function_is_in_the_table():
    import types

    public = {n for n, v in vars(tf).items() if isinstance(v, types.FunctionType)
              and v.__module__.startswith("tapeflow.ops")}
    public |= set(tf.math.__all__) | set(tf.nn.__all__) | set(tf.linalg.__all__)
    missing = public - tabled_functions() - NOT_OPS
    assert not missing, sorted(missing)


def test_the_table_reaches_every_differentiable_primitive():
    from tapeflow._core.registry import PRIMITIVES

    reached = reached_primitives()
    wanted = {name for name, p in PRIMITIVES.items() if p.differentiable}
    wanted -= NO_REGISTERED_GRADIENT | CHECKED_AGAINST_TF
    missing = sorted(wanted - reached)
    assert not missing, f"no op-table row reaches {missing}"
