# ruff: noqa: E501 - tables of expressions, one case per string
"""Record ``tf.experimental.numpy`` answers from TF 2.21 (run under the TF venv).

Writes ``tests/fixtures/experimental/tnp.json``: for each expression (evaluated with ``tf`` and
``tnp`` bound) its dtype, shape and value, or the exception class it raises.  The cases in
``NUMPY_BEHAVIOR`` run after ``tnp.experimental_enable_numpy_behavior()``.
Usage: TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_tnp.py
"""
import json
import pathlib

import numpy as np

A = "tnp.asarray([[1., 2., 3.], [4., 5., 6.]])"
R = "tnp.arange(6)"
DEFAULT = [
    "tnp.asarray([1., 2.])", "tnp.asarray([1, 2])", "tnp.asarray(3.5)", "tnp.asarray(True)",
    "tnp.asarray([1., 2.], dtype=tnp.float32)", "tnp.asarray(tf.constant([1., 2.]))",
    "tnp.array(1)", "tnp.array([[1, 2], [3, 4]], dtype=tnp.float32)", "tnp.array([1.5, 2], ndmin=3)",
    "tnp.copy(tnp.asarray([1., 2.]))", "tnp.asanyarray([1, 2])",
    "tnp.ones((2,))", "tnp.ones((2, 3), dtype=tnp.int32)", "tnp.ones(3, dtype='float32')",
    "tnp.zeros(2, dtype=tnp.int32)", "tnp.zeros((2, 2))", "tnp.empty((2,))",
    "tnp.full((2, 2), 7)", "tnp.full(3, 1.5)", "tnp.ones_like(tnp.arange(3))",
    "tnp.zeros_like(tf.constant([1., 2.]))", "tnp.full_like(tnp.arange(3), 2.5)",
    "tnp.eye(3)", "tnp.eye(2, 3, k=1, dtype=tnp.int32)", "tnp.identity(2)",
    "tnp.arange(3)", "tnp.arange(1, 7, 2)", "tnp.arange(0., 1., 0.25)", "tnp.arange(5, dtype=tnp.float32)",
    "tnp.linspace(0, 1, 3)", "tnp.linspace(0., 1., 4, endpoint=False)", "tnp.logspace(0, 2, 3)",
    "tnp.geomspace(1, 100, 3)", "tnp.tri(3)", "tnp.tril(tnp.ones((3, 3)))", "tnp.triu(tnp.ones((3, 3)), 1)",
    "tnp.diag(tnp.asarray([1, 2]))", "tnp.diag(tnp.ones((3, 3)))", "tnp.diagonal(tnp.ones((2, 3)))",
    "tnp.add(tnp.ones(2), tf.constant([1., 2.], tf.float32))", "tnp.add(tnp.ones(2), 1)",
    "tnp.add(tf.constant([1., 2.]), 1.5)", "tnp.add(tf.constant([1, 2]), 1.5)",
    "tnp.add(tf.constant([1, 2]), tf.constant([1., 2.]))", "tnp.add(1, 2)", "tnp.add(1., 2)",
    "tnp.subtract(tnp.arange(3), 1)", "tnp.multiply(tnp.arange(3), 2.)",
    "tnp.divide(tnp.arange(3), 2)", "tnp.true_divide(tf.constant([1, 2], tf.int32), 2)",
    "tnp.floor_divide(tnp.arange(5), 2)", "tnp.mod(tnp.arange(-3, 3), 2)", "tnp.remainder(5., 3)",
    "tnp.power(tnp.arange(3), 2)", "tnp.power(2., tnp.arange(3))", "tnp.float_power(2, 3)",
    "tnp.maximum(tnp.ones(2), 3)", "tnp.minimum(tnp.arange(4), 2)", "tnp.maximum(tf.constant([1., 5.]), tf.constant([3., 2.]))",
    "tnp.square(2)", "tnp.square(tnp.arange(3))", "tnp.square(tf.constant([1.5], tf.float32))",
    "tnp.sqrt(tnp.asarray([1., 4.]))", "tnp.sqrt(tf.constant([4.], tf.float32))", "tnp.sqrt(4.)",
    "tnp.exp(1.)", "tnp.exp(tnp.asarray([0., 1.]))", "tnp.exp(tf.constant([1.], tf.float32))",
    "tnp.log(tnp.asarray([1., 2.]))", "tnp.log10(100.)", "tnp.log2(8.)", "tnp.log1p(0.5)", "tnp.expm1(0.5)",
    "tnp.exp2(3.)", "tnp.sin(0.5)", "tnp.cos(0.5)", "tnp.tan(0.5)", "tnp.arcsin(0.5)", "tnp.arccos(0.5)",
    "tnp.arctan(0.5)", "tnp.arctan2(1., 2.)", "tnp.sinh(0.5)", "tnp.cosh(0.5)", "tnp.tanh(0.5)",
    "tnp.arcsinh(0.5)", "tnp.arccosh(1.5)", "tnp.arctanh(0.5)", "tnp.hypot(3., 4.)",
    "tnp.abs(tnp.asarray([-1, 2]))", "tnp.absolute(-2.5)", "tnp.fabs(tnp.asarray([-1.5]))",
    "tnp.negative(tnp.arange(3))", "tnp.positive(tnp.arange(3))", "tnp.sign(tnp.asarray([-2., 0., 3.]))",
    "tnp.reciprocal(tnp.asarray([2., 4.]))", "tnp.floor(tnp.asarray([1.5, -1.5]))",
    "tnp.ceil(tnp.asarray([1.5, -1.5]))", "tnp.round(tnp.asarray([0.5, 1.5, 2.567]))",
    "tnp.around(tnp.asarray([2.567]), 2)", "tnp.fix(tnp.asarray([-1.5, 1.5]))", "tnp.cbrt(27.)",
    "tnp.clip(tnp.arange(6), 1, 4)", "tnp.logaddexp(1., 2.)", "tnp.deg2rad(180.)", "tnp.rad2deg(1.)",
    "tnp.isnan(tnp.asarray([1., float('nan')]))", "tnp.isinf(tnp.asarray([1., float('inf')]))",
    "tnp.isfinite(tnp.asarray([1., float('inf')]))", "tnp.heaviside(tnp.asarray([-1., 0., 2.]), 0.5)",
    "tnp.gcd(12, 18)", "tnp.lcm(4, 6)", "tnp.sinc(0.5)", "tnp.signbit(tnp.asarray([-1., 1.]))",
    "tnp.equal(tnp.arange(3), 1)", "tnp.not_equal(tnp.arange(3), 1)", "tnp.less(tnp.arange(3), 1)",
    "tnp.greater(tnp.arange(3), 1)", "tnp.less_equal(tnp.arange(3), 1.)", "tnp.greater_equal(tnp.arange(3), 1)",
    "tnp.logical_and(True, tnp.asarray([True, False]))", "tnp.logical_or(False, tnp.asarray([True, False]))",
    "tnp.logical_not(tnp.asarray([True, False]))", "tnp.logical_xor(True, tnp.asarray([True, False]))",
    "tnp.bitwise_and(6, 3)", "tnp.bitwise_or(6, 3)", "tnp.bitwise_xor(6, 3)", "tnp.bitwise_not(tnp.asarray([1]))",
    "tnp.allclose(tnp.ones(2), 1.)", "tnp.isclose(tnp.asarray([1., 2.]), 1.)", "tnp.array_equal(tnp.ones(2), tnp.ones(2))",
    "tnp.sum(tnp.arange(4))", "tnp.sum(%s)" % A, "tnp.sum(%s, axis=0)" % A, "tnp.sum(%s, axis=1, keepdims=True)" % A,
    "tnp.sum(tf.constant([1, 2], tf.int32))", "tnp.sum(tnp.asarray([True, True]))", "tnp.sum(%s, dtype=tnp.float32)" % A,
    "tnp.mean(tnp.arange(4))", "tnp.mean(%s, axis=0)" % A, "tnp.mean(tf.constant([1., 2.]))",
    "tnp.mean(tf.constant([1, 2], tf.int32))", "tnp.average(%s, axis=1)" % A,
    "tnp.average(tnp.arange(3), weights=tnp.asarray([1., 1., 2.]))",
    "tnp.prod(tnp.arange(1, 5))", "tnp.max(%s)" % A, "tnp.amax(%s, axis=1)" % A, "tnp.min(%s, axis=0)" % A,
    "tnp.amin(tnp.arange(3))", "tnp.ptp(%s, axis=1)" % A, "tnp.std(%s)" % A, "tnp.var(%s, axis=0)" % A,
    "tnp.std(tnp.arange(4))", "tnp.var(tnp.arange(4), ddof=1)",
    "tnp.all(tnp.asarray([True, False]))", "tnp.any(tnp.asarray([True, False]))", "tnp.all(%s > 0, axis=0)" % A,
    "tnp.argmax(%s)" % A, "tnp.argmax(%s, axis=1)" % A, "tnp.argmin(tnp.asarray([3, 1, 2]))",
    "tnp.cumsum(tnp.arange(4))", "tnp.cumsum(%s, axis=1)" % A, "tnp.cumprod(tnp.arange(1, 5))",
    "tnp.nansum(tnp.asarray([1., float('nan')]))", "tnp.nanmean(tnp.asarray([1., float('nan'), 3.]))",
    "tnp.nanprod(tnp.asarray([2., float('nan')]))", "tnp.count_nonzero(tnp.asarray([0, 1, 2]))",
    "tnp.count_nonzero(%s, axis=0)" % A,
    "tnp.matmul(tnp.ones((2, 2)), tnp.ones((2, 1)))", "tnp.matmul(tf.constant([[1., 2.]]), tnp.ones((2, 1)))",
    "tnp.dot(tnp.arange(3), tnp.arange(3))", "tnp.dot(%s, tnp.ones(3))" % A, "tnp.vdot(tnp.arange(3), tnp.arange(3))",
    "tnp.inner(tnp.arange(3), tnp.arange(3))", "tnp.outer(tnp.arange(2), tnp.arange(3))",
    "tnp.cross(tnp.asarray([1., 0., 0.]), tnp.asarray([0., 1., 0.]))", "tnp.kron(tnp.eye(2), tnp.ones((1, 2)))",
    "tnp.tensordot(%s, tnp.ones((3, 2)), axes=1)" % A, "tnp.einsum('ij,j->i', %s, tnp.ones(3))" % A,
    "tnp.trace(tnp.eye(3))", "tnp.reshape(%s, (3, 2))" % R, "tnp.reshape(%s, (-1, 3))" % R,
    "tnp.ravel(%s)" % A, "tnp.transpose(%s)" % A, "tnp.swapaxes(%s, 0, 1)" % A,
    "tnp.moveaxis(tnp.ones((2, 3, 4)), 0, -1)", "tnp.expand_dims(tnp.arange(3), 0)",
    "tnp.expand_dims(tnp.arange(3), axis=-1)", "tnp.squeeze(tnp.ones((1, 3, 1)))", "tnp.squeeze(tnp.ones((1, 3, 1)), axis=0)",
    "tnp.atleast_1d(1.)", "tnp.atleast_2d(tnp.arange(3))", "tnp.atleast_3d(tnp.arange(3))",
    "tnp.concatenate([tnp.arange(2), tnp.arange(3)])", "tnp.concatenate([%s, %s], axis=1)" % (A, A),
    "tnp.stack([tnp.arange(2), tnp.arange(2)])", "tnp.stack([tnp.arange(2), tnp.arange(2)], axis=1)",
    "tnp.hstack([tnp.arange(2), tnp.arange(3)])", "tnp.vstack([tnp.arange(2), tnp.arange(2)])",
    "tnp.dstack([tnp.arange(2), tnp.arange(2)])", "tnp.append(tnp.arange(2), 5)",
    "tnp.split(tnp.arange(6), 3)", "tnp.split(tnp.arange(6), [1, 4])", "tnp.hsplit(%s, 3)" % A, "tnp.vsplit(%s, 2)" % A,
    "tnp.tile(tnp.arange(2), 2)", "tnp.tile(tnp.arange(2), (2, 1))", "tnp.repeat(tnp.arange(3), 2)",
    "tnp.repeat(%s, 2, axis=0)" % A, "tnp.flip(tnp.arange(3))", "tnp.fliplr(%s)" % A, "tnp.flipud(%s)" % A,
    "tnp.roll(tnp.arange(5), 2)", "tnp.rot90(%s)" % A, "tnp.pad(tnp.arange(3), 1)",
    "tnp.pad(tnp.arange(3), (1, 2), constant_values=9)", "tnp.broadcast_to(tnp.arange(3), (2, 3))",
    "tnp.broadcast_arrays(tnp.arange(3), tnp.ones((2, 1)))", "tnp.where(tnp.arange(4) > 1, 1., 0.)",
    "tnp.where(tnp.asarray([True, False]), tnp.arange(2), tnp.ones(2))", "tnp.nonzero(tnp.asarray([0, 1, 0, 2]))",
    "tnp.take(tnp.arange(5), [0, 3])", "tnp.take(%s, [2, 0], axis=1)" % A,
    "tnp.take_along_axis(%s, tnp.asarray([[0], [2]]), 1)" % A, "tnp.sort(tnp.asarray([3, 1, 2]))",
    "tnp.argsort(tnp.asarray([3., 1., 2.]))", "tnp.diff(tnp.asarray([1, 4, 9, 16]))", "tnp.compress([True, False, True], tnp.arange(3))",
    "tnp.select([tnp.arange(3) < 1, tnp.arange(3) > 1], [tnp.arange(3), tnp.ones(3)], 7)",
    "tnp.meshgrid(tnp.arange(2), tnp.arange(3))", "tnp.vander(tnp.asarray([1, 2, 3]))",
    "tnp.polyval([1., 2.], 3.)", "tnp.ravel(tnp.eye(2))",
    "tnp.shape(%s)" % A, "tnp.ndim(%s)" % A, "tnp.size(%s)" % A, "tnp.isscalar(1.)",
    "tnp.real(tnp.asarray([1+2j]))", "tnp.imag(tnp.asarray([1+2j]))", "tnp.conj(tnp.asarray([1+2j]))",
    "tnp.angle(tnp.asarray([1j]))", "tnp.iscomplexobj(tnp.asarray([1j]))", "tnp.isrealobj(tnp.ones(2))",
    "tnp.result_type(tnp.int32, tnp.float32)", "tnp.result_type(tnp.int64, 1.5)",
    "tnp.promote_types(tnp.int8, tnp.uint8)", "tnp.issubdtype(tnp.float32, tnp.inexact)",
    "tnp.finfo(tnp.float32).eps", "tnp.iinfo(tnp.int8).max", "tnp.pi", "tnp.e", "tnp.newaxis", "tnp.inf",
    "tnp.float32", "tnp.float64", "tnp.int32", "tnp.int64", "tnp.bool_", "tnp.ndarray is tf.Tensor",
    "tnp.arange(6)[tnp.newaxis, :]", "isinstance(tnp.ones(2), tnp.ndarray)",
    "tnp.sum(tnp.ones((2, 3)), axis=(0, 1))", "tnp.mean(tnp.ones((2, 3)), (0,))",
    "tnp.sqrt(tnp.arange(4))", "tnp.reshape(tnp.arange(6), 4)", "tnp.matmul(tnp.ones((2, 3)), tnp.ones((2, 3)))",
    "tnp.asarray([1, 'a'])",
]
RANDOM = [
    "tnp.random.randn(2)", "tnp.random.randn(2, 3)", "tnp.random.randint(0, 5, size=(3,))",
    "tnp.random.randint(5)", "tnp.random.randint(0, 5, size=4, dtype=tnp.int32)", "tnp.random.uniform(size=(2,))",
    "tnp.random.uniform(1., 2., size=3)", "tnp.random.rand(2, 2)", "tnp.random.random((2,))",
    "tnp.random.standard_normal((3,))", "tnp.random.standard_normal()", "tnp.random.poisson(2., size=(3,))",
]
NUMPY_BEHAVIOR = [
    "tnp.ones(2)", "tnp.asarray([1., 2.])", "tf.constant([1., 2.]).T", "tf.constant([[1., 2.]]).T",
    "tf.constant([1, 2]).astype(tnp.float32)", "tf.constant([1., 2., 3., 4.]).reshape(2, 2)",
    "tf.constant([1., 2., 3., 4.]).reshape((4, 1))", "tf.constant([[1, 2], [3, 4]]).ravel()",
    "tf.constant([[1., 2.]]).mean()", "tf.constant([[1, 2]]).sum(axis=1)", "tf.constant([[1., 2.]]).max()",
    "tf.constant([[1., 2.]]).ndim", "tf.constant([[1., 2.]]).size", "tf.constant([[1., 2.]]).transpose()",
    "tf.constant([[1., 2.]]).squeeze()", "tf.constant([[3., 1., 2.]]).argmax()", "tf.constant([1., 2.]).clip(0., 1.5)",
    "tf.constant([1., 2.]) + tf.constant([1, 2])", "tf.constant([1., 2.]) + tnp.ones(2)",
    "tf.constant([1, 2]) * 1.5", "tf.constant([1, 2], tf.int32) + tf.constant([1, 2], tf.int64)",
    "tf.add(tf.constant([1., 2.]), tf.constant([1, 2]))", "tnp.sqrt(tnp.arange(4))", "tnp.mean(tnp.arange(4))",
    "tf.constant([1., 2.]) / tf.constant([2, 2])", "tf.constant(1.5) * tnp.arange(3)",
    "tf.constant([[1., 2.]]).tolist()", "tf.constant([1, 2]).copy()",
]
PREFER_F32 = ["tnp.ones(2)", "tnp.asarray([1., 2.])", "tnp.asarray(1.5)", "tnp.arange(0., 1., 0.5)",
              "tnp.linspace(0, 1, 3)", "tnp.mean(tnp.arange(4))", "tnp.random.randn(2)", "tnp.zeros(3)",
              "tnp.full(2, 1.5)", "tnp.add(tnp.arange(2), 0.5)", "tnp.sqrt(tnp.arange(4))"]


def describe(v):
    import tensorflow as tf
    if isinstance(v, (list, tuple)):
        return {"seq": type(v).__name__, "items": [describe(x) for x in v]}
    if isinstance(v, tf.Tensor):
        a = v.numpy()
        return {"dtype": v.dtype.name, "shape": list(a.shape), "value": a.tolist()
                if a.dtype.kind != "c" else [a.real.tolist(), a.imag.tolist()]}
    if isinstance(v, tf.dtypes.DType):
        return {"tfdtype": v.name}
    if isinstance(v, type) or isinstance(v, np.dtype):
        return {"npdtype": np.dtype(v).name}
    if isinstance(v, (np.generic, np.ndarray)):
        return {"np": np.asarray(v).tolist(), "npdtype_of": np.asarray(v).dtype.name}
    if isinstance(v, (bool, int, float, str, type(None))):
        return {"py": v, "type": type(v).__name__}
    return {"repr": repr(v), "type": type(v).__name__}


def run(exprs, env, **kw):
    out = []
    for e in exprs:
        try:
            rec = describe(eval(e, env))
        except Exception as exc:  # noqa: BLE001 - the class is the record
            rec = {"error": type(exc).__name__, "message": str(exc)[:200]}
        rec.update(expr=e, **kw)
        out.append(rec)
    return out


def main():
    import subprocess
    import sys
    if len(sys.argv) > 1:   # one mode per process: numpy behaviour cannot be switched off
        import tensorflow as tf
        tnp = tf.experimental.numpy
        env = {"tf": tf, "tnp": tnp}
        mode = sys.argv[1]
        if mode == "default":
            recs = run(DEFAULT, env) + run(RANDOM, env, random=True)
        elif mode == "numpy":
            tnp.experimental_enable_numpy_behavior()
            recs = run(NUMPY_BEHAVIOR, env) + run(DEFAULT, env, also=True)
        else:
            tnp.experimental_enable_numpy_behavior(prefer_float32=True)
            recs = run(PREFER_F32, env)
        print(json.dumps(recs))
        return
    data = {}
    for mode in ("default", "numpy", "prefer_float32"):
        res = subprocess.run([sys.executable, __file__, mode], capture_output=True, text=True, check=True)
        data[mode] = json.loads(res.stdout.strip().splitlines()[-1])
    path = pathlib.Path(__file__).resolve().parent.parent / "tests/fixtures/experimental/tnp.json"
    path.write_text(json.dumps(data, indent=0) + "\n")
    print(path, {k: len(v) for k, v in data.items()})


if __name__ == "__main__":
    main()
