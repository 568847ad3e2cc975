"""The op table (tests/ops/op_db.py) against TensorFlow's recorded numbers and finite differences.

For every row: forward values, shapes and output dtypes equal TensorFlow 2.21's (recorded by
tools/record_ops.py into tests/fixtures/ops/), and so do gradients of a fixed
weighted sum of the outputs. Differentiable rows pass first- and second-order float64
central-difference checks (a random direction always; every element for tiny inputs);
non-differentiable rows record nothing on a tape. Error cases raise TensorFlow's class with
its first message line. TensorFlow itself is never imported.
"""
import functools
import json
import os
import re
import zlib

import numpy as np
import pytest

import tapeflow as tf
from tests.ops import op_db

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "ops")

with open(os.path.join(FIX, "ops.json")) as _f:
    META = json.load(_f)
_VALUES = np.load(os.path.join(FIX, "ops.npz"))["values"]

OPS = op_db.OPS
GRAD_OPS = [o for o in OPS if o.grad]
FD_OPS = [o for o in GRAD_OPS if o.fd]
GRAD2_OPS = [o for o in FD_OPS if o.grad2]
NOGRAD_OPS = [o for o in OPS if not o.grad]
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
    assert len(OPS) >= 150
    assert len({o.name for o in OPS}) == len(OPS)


def test_every_row_has_tensorflow_fixtures():
    assert set(META["ops"]) == {o.name for o in OPS}
    assert META["tensorflow"] == "2.21.0"
    assert set(META["errors"]) == {c.name for c in op_db.ERRORS}


@pytest.mark.parametrize("info", OPS, ids=IDS)
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


@pytest.mark.parametrize("info", OPS, ids=IDS)
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


EPS = 1e-6


def _rng(name, salt):
    return np.random.default_rng(zlib.crc32(f"{name}/{salt}".encode()))


def fd_dtype(info):
    return "complex128" if "complex128" in info.dtypes else "float64"


def _direction(rng, a):
    d = rng.standard_normal(np.shape(a))
    if np.iscomplexobj(a):
        d = d + 1j * rng.standard_normal(np.shape(a))
    return d


def loss_value(info, sample, values):
    outs, _ = run(info, sample, fd_dtype(info), values)
    loss = weighted_loss(outs)
    return float(loss.numpy())


def loss_and_grad(info, sample, values):
    with tf.GradientTape() as tape:
        args, kwargs, sources = op_db.convert(tf, sample, fd_dtype(info), values)
        for s in sources:
            tape.watch(s)
        loss = weighted_loss(op_db.flatten(info.call(tf, *args, **kwargs)))
    grads = _dense(tape.gradient(loss, sources))
    return float(loss.numpy()), [np.zeros(s.shape) if g is None else g.numpy()
                                 for g, s in zip(grads, sources, strict=True)]


def _check(info, got, want, what, rtol=None):
    rtol = rtol or info.fd_rtol
    scale = 1.0 + abs(want)
    assert abs(got - want) <= rtol * scale + 1e-8, f"{info.name} {what}: {got} vs FD {want}"


@pytest.mark.parametrize("info", FD_OPS, ids=IDS)
def test_first_order_matches_finite_differences(info):
    for j, sample in enumerate(info.make_samples()):
        x = _float_arrays(sample)
        if not x:
            continue
        _, grads = loss_and_grad(info, sample, x)
        rng = _rng(info.name, j)
        v = [np.zeros_like(a) if i in info.fd_skip else _direction(rng, a)
             for i, a in enumerate(x)]
        plus = loss_value(info, sample, [a + EPS * d for a, d in zip(x, v, strict=True)])
        minus = loss_value(info, sample, [a - EPS * d for a, d in zip(x, v, strict=True)])
        fd = (plus - minus) / (2 * EPS)
        ad = sum(float(np.real(np.sum(np.conj(g) * d))) for g, d in zip(grads, v, strict=True))
        _check(info, ad, fd, f"sample {j}: directional derivative")
        if sum(np.size(a) for a in x) <= 12 and not any(np.iscomplexobj(a) for a in x):
            # every element, by the shipped checker tf.test.compute_gradient
            free = [i for i in range(len(x)) if i not in info.fd_skip]

            def loss(*ts, free=free, x=x, sample=sample):
                values = list(x)
                for i, t in zip(free, ts, strict=True):
                    values[i] = t
                return weighted_loss(run(info, sample, fd_dtype(info), values)[0])

            theoretical, numerical = tf.test.compute_gradient(
                loss, [np.asarray(x[i], np.float64) for i in free], delta=EPS)
            for i, jac, fds in zip(free, theoretical, numerical, strict=True):
                for flat, idx in enumerate(np.ndindex(np.shape(x[i]))):
                    _check(info, float(jac[0, flat]), float(fds[0, flat]),
                           f"sample {j}: d/dx{i}{list(idx)}")
                    _check(info, float(grads[i][idx]), float(fds[0, flat]),
                           f"sample {j}: d/dx{i}{list(idx)} (tape.gradient)")


def _outputs64(info, sample, values):
    outs, _ = run(info, sample, "float64", values)
    return [o.numpy() for o in outs if o.dtype.is_floating]


def _tiny(x, outs):
    return sum(np.size(a) for a in x) <= 24 and sum(np.size(o) for o in outs) <= 64


@pytest.mark.parametrize("info", [o for o in FD_OPS if "complex128" not in o.dtypes],
                         ids=IDS)
def test_full_jacobian_matches_finite_differences_for_tiny_inputs(info):
    """Every element of every float output's Jacobian, by the shipped checker
    ``tf.test.compute_gradient`` (``tape.jacobian`` against float64 central differences of
    step ``EPS``), so the library's own checker runs over the whole op table."""
    checked = 0
    for j, sample in enumerate(info.make_samples()):
        x = _float_arrays(sample)
        if not x or any(np.iscomplexobj(a) for a in x):
            continue
        base = _outputs64(info, sample, x)
        if not _tiny(x, base):
            continue
        free = [i for i in range(len(x)) if i not in info.fd_skip]

        def output(*ts, k, free=free, x=x, sample=sample):
            values = list(x)
            for i, t in zip(free, ts, strict=True):
                values[i] = t
            outs, _ = run(info, sample, "float64", values)
            return [o for o in outs if o.dtype.is_floating][k]

        for k in range(len(base)):
            theoretical, numerical = tf.test.compute_gradient(
                functools.partial(output, k=k), [np.asarray(x[i], np.float64) for i in free],
                delta=EPS)
            for i, got, want in zip(free, theoretical, numerical, strict=True):
                np.testing.assert_allclose(
                    got, want, rtol=info.fd_rtol, atol=1e-6,
                    err_msg=f"{info.name} sample {j}: d out{k} / d x{i} "
                            f"(rows: out{k} elements, columns: x{i} elements)")
                checked += np.size(x[i])
    assert checked, "no sample small enough for the full Jacobian"


@pytest.mark.parametrize("info", [o for o in FD_OPS if "complex128" not in o.dtypes],
                         ids=IDS)
def test_forward_mode_jvp_matches_finite_differences(info):
    """``tf.autodiff.ForwardAccumulator`` along a random direction, per float output."""
    for j, sample in enumerate(info.make_samples()):
        x = _float_arrays(sample)
        if not x:
            continue
        rng = _rng(info.name, f"jvp/{j}")
        v = [np.zeros_like(a) if i in info.fd_skip else _direction(rng, a)
             for i, a in enumerate(x)]
        args, kwargs, sources = op_db.convert(tf, sample, "float64", x)
        with tf.autodiff.ForwardAccumulator(sources, [tf.constant(d) for d in v]) as acc:
            outs = [o for o in op_db.flatten(info.call(tf, *args, **kwargs))
                    if o.dtype.is_floating]
        plus = _outputs64(info, sample, [a + EPS * d for a, d in zip(x, v, strict=True)])
        minus = _outputs64(info, sample, [a - EPS * d for a, d in zip(x, v, strict=True)])
        for k, o in enumerate(outs):
            jvp = acc.jvp(o)
            got = np.zeros(o.shape) if jvp is None else jvp.numpy()
            np.testing.assert_allclose(got, (plus[k] - minus[k]) / (2 * EPS),
                                       rtol=max(info.fd_rtol, 1e-5), atol=1e-6,
                                       err_msg=f"{info.name} sample {j}: jvp of out{k}")


def hvp_scalar(info, sample, values, u):
    """``h(x) = <grad loss(x), u>`` and its gradient, by nested tapes."""
    with tf.GradientTape() as outer:
        args, kwargs, sources = op_db.convert(tf, sample, fd_dtype(info), values)
        for s in sources:
            outer.watch(s)
        with tf.GradientTape() as inner:
            for s in sources:
                inner.watch(s)
            loss = weighted_loss(op_db.flatten(info.call(tf, *args, **kwargs)))
        grads = _dense(inner.gradient(loss, sources))
        h = None
        for g, ui in zip(grads, u, strict=True):
            if g is None:
                continue
            term = tf.reduce_sum(tf.math.real(tf.math.conj(g) * tf.constant(ui, g.dtype)))
            h = term if h is None else h + term
    if h is None:
        return 0.0, [np.zeros(np.shape(a)) for a in values]
    hv = _dense(outer.gradient(h, sources))
    return float(np.real(h.numpy())), [np.zeros(s.shape) if g is None else g.numpy()
                              for g, s in zip(hv, sources, strict=True)]


@pytest.mark.parametrize("info", GRAD2_OPS, ids=IDS)
def test_second_order_matches_finite_differences(info):
    eps = 1e-5
    for j, sample in enumerate(info.make_samples()):
        x = _float_arrays(sample)
        if not x:
            continue
        rng = _rng(info.name, f"2/{j}")
        mask = [0.0 if i in info.fd_skip else 1.0 for i in range(len(x))]
        u = [m * _direction(rng, a) for m, a in zip(mask, x, strict=True)]
        v = [m * _direction(rng, a) for m, a in zip(mask, x, strict=True)]
        _, hv = hvp_scalar(info, sample, x, u)
        plus, _ = hvp_scalar(info, sample, [a + eps * d for a, d in zip(x, v, strict=True)], u)
        minus, _ = hvp_scalar(info, sample, [a - eps * d for a, d in zip(x, v, strict=True)], u)
        fd = (plus - minus) / (2 * eps)
        ad = sum(float(np.real(np.sum(np.conj(g) * d))) for g, d in zip(hv, v, strict=True))
        _check(info, ad, fd, f"sample {j}: second directional derivative",
               rtol=max(info.fd_rtol, 1e-4))


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
            floats = [o for o in outs if o.dtype.is_floating]
            for o in floats:
                assert all(g is None for g in tape.gradient(o, sources)), info.name
            rec = META["ops"][info.name][j][dtype]
            if sources:
                assert rec["nograd"] == [True] * len(sources)


# TensorFlow registers no gradient for these: the tape raises LookupError (checked against
# TF's text in test_tensor_types.py), so no row differentiates them.
NO_REGISTERED_GRADIENT = frozenset({"AdjustContrastv2"})


@functools.lru_cache(maxsize=None)
def reached_primitives():
    """The op types the table's rows run: forward ops and the ops of their rules."""
    reached = set()
    for info in FD_OPS:
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
    """Public function names some row of the table calls."""
    return {o.name.rsplit(".", 1)[-1] for o in OPS}


def test_the_table_reaches_every_differentiable_primitive():
    from tapeflow._core.registry import PRIMITIVES

    reached = reached_primitives()
    wanted = {name for name, p in PRIMITIVES.items() if p.differentiable}
    wanted -= NO_REGISTERED_GRADIENT
    missing = sorted(wanted - reached)
    assert not missing, f"no op-table row reaches {missing}"
