"""The op table: one row per public op, shared by tapeflow's tests and the TF recorder.

Each row names the op as TensorFlow does (``"math.sin"`` is ``tf.math.sin``), says how to
call it (``fn(tf, *args, **kwargs)`` where ``tf`` is either tapeflow or TensorFlow), and
gives sample inputs drawn from the op's domain: NumPy arrays (float64 ones are cast to the
dtype under test and differentiated; int and bool ones are passed as they are), lists of
arrays, or plain Python values. Binary element-wise ops get a same-shape, a broadcasting
and a scalar sample. Flags say whether the op is differentiable and to which order, and
how the finite-difference checks run (steps, tolerances, full Jacobian, strict xfails).
The ``grad.*`` rows of the last section (``tf_fixture=False``) have no TensorFlow
recording: each differentiable op once more per case, checked by finite differences only,
to tighter tolerances; and the ops without a gradient.

This module imports NumPy only: ``tools/record_ops.py`` runs it under TensorFlow.
"""
import functools
import zlib
from dataclasses import dataclass, field

import numpy as np

F32_64 = ("float32", "float64")
F16_32_64 = ("float16", "float32", "float64")


@dataclass
class Sample:
    args: tuple
    kwargs: dict = field(default_factory=dict)


@dataclass
class OpInfo:
    """One op of the table.

    Attributes:
        name: TensorFlow's path below ``tf`` (``"nn.conv2d"``); unique, the fixture key.
        samples: ``samples(gen) -> [Sample]`` with ``gen`` a seeded :class:`Gen`.
        fn: ``fn(tf, *args, **kwargs)``; default: the op at ``name`` called directly.
        dtypes: float dtypes the forward is checked in (float16 forward only).
        grad: differentiable (else: must record nothing on a tape).
        grad2: second derivatives are checked too.
        rtol, atol: float32 tolerances against TensorFlow (float64: ``rtol64``, ``atol64``).
        fd: run the finite-difference checks (False where the output is infinite).
        fd_eps: the central-difference steps of the first- and second-order checks.
        fd_rtol, fd_atol: first-order tolerances: the random-direction check passes when
            ``|tape - fd| <= fd_atol + fd_rtol * max(1, |fd|)``.
        jac_tol: ``(rtol, atol)`` of the full Jacobian and of the forward-mode tangents,
            element by element (``|tape - fd| <= atol + rtol * |fd|``); default
            ``(fd_rtol, 1e-6)`` and ``(max(fd_rtol, 1e-5), 1e-6)``.
        tol2: ``(rtol, atol)`` of the second-order check (rule of the first order);
            default ``(max(fd_rtol, 1e-4), fd_atol)``.
        full_jacobian: check the full Jacobian of every sample, whatever its size (else
            only samples with tiny inputs and outputs).
        fd_skip: indices of float inputs not differentiated (e.g. polygamma's order).
        xfail: check name (``"second_order"``, ...) -> reason: that check is a strict
            xfail for this row (a known defect, said in the reason).
        tf_grad: compare the gradient with TensorFlow's (False where TF differs on
            purpose; the reason is in ``note``).
        tf_fixture: TensorFlow's answers are recorded for this row (False: the gradient
            rows of the last section, checked by finite differences only; the recorder
            leaves them out).
        seed: the key of the row's input generator (default: ``name``).
        note: why the row is special.
    """

    name: str
    samples: object
    fn: object = None
    dtypes: tuple = F32_64
    grad: bool = True
    grad2: bool = True
    rtol: float = 1e-5
    atol: float = 1e-6
    rtol64: float = 1e-9
    atol64: float = 1e-12
    fd: bool = True
    fd_eps: tuple = (1e-6, 1e-5)
    fd_rtol: float = 1e-5
    fd_atol: float = 1e-8
    jac_tol: tuple = None
    tol2: tuple = None
    full_jacobian: bool = False
    fd_skip: tuple = ()
    xfail: dict = field(default_factory=dict)
    tf_grad: bool = True
    tf_fixture: bool = True
    seed: str = ""
    note: str = ""

    def call(self, tf, *args, **kwargs):
        if self.fn is not None:
            return self.fn(tf, *args, **kwargs)
        return resolve(tf, self.name)(*args, **kwargs)

    def make_samples(self):
        return self.samples(Gen(self.seed or self.name))

    def tol(self, check):
        """``(rtol, atol)`` of a finite-difference check: ``"first_order"``,
        ``"jacobian"``, ``"jvp"`` or ``"second_order"``."""
        if check == "first_order":
            return self.fd_rtol, self.fd_atol
        if check == "jacobian":
            return self.jac_tol or (self.fd_rtol, 1e-6)
        if check == "jvp":
            return self.jac_tol or (max(self.fd_rtol, 1e-5), 1e-6)
        if check == "second_order":
            return self.tol2 or (max(self.fd_rtol, 1e-4), self.fd_atol)
        raise ValueError(f"unknown check {check!r}")


def resolve(tf, path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


class Gen:
    """Seeded input makers: the same arrays for the same op name on every machine."""

    def __init__(self, name):
        self.rng = np.random.default_rng(zlib.crc32(name.encode()))

    def normal(self, *shape):
        return self.rng.standard_normal(shape)

    def uniform(self, lo, hi, *shape):
        return self.rng.uniform(lo, hi, shape)

    def away(self, *shape, lo=0.3, hi=1.5):
        """Either sign, but |x| >= lo: keeps clear of kinks at zero."""
        mag = self.rng.uniform(lo, hi, shape)
        return np.where(self.rng.random(shape) < 0.5, -mag, mag)

    def positive(self, *shape, lo=0.5, hi=2.0):
        return self.rng.uniform(lo, hi, shape)

    def distinct(self, *shape):
        """Values with gaps >= 0.1 between any two: no ties for max, sort, top_k."""
        n = int(np.prod(shape)) if shape else 1
        vals = (self.rng.permutation(n) * 0.37 + self.rng.uniform(0, 0.05, n)) - n * 0.15
        return vals.reshape(shape)

    def ints(self, lo, hi, *shape, dtype=np.int32):
        return self.rng.integers(lo, hi, shape).astype(dtype)

    def bools(self, *shape):
        return self.rng.random(shape) < 0.5

    def spd(self, *shape):
        """Symmetric positive-definite matrices of shape ``[..., n, n]``."""
        a = self.rng.standard_normal(shape)
        n = shape[-1]
        return a @ np.swapaxes(a, -1, -2) / n + np.eye(n)

    def well_conditioned(self, *shape):
        n = shape[-1]
        return self.rng.standard_normal(shape) * 0.3 + np.eye(n) * 1.5


# ------------------------------------------------------------------------ sample shapes

UNARY_SHAPES = [(3, 4), (), (2, 1, 3)]
BINARY_SHAPES = [((3, 4), (3, 4)), ((2, 1, 4), (3, 1)), ((), (3,))]


def unary_samples(make, **kwargs):
    return lambda g: [Sample((make(g, s),), dict(kwargs)) for s in UNARY_SHAPES]


def binary_samples(make_x, make_y=None, **kwargs):
    make_y = make_y or make_x
    return lambda g: [Sample((make_x(g, a), make_y(g, b)), dict(kwargs))
                      for a, b in BINARY_SHAPES]


def normal(g, s):
    return g.normal(*s)


def away(g, s):
    return g.away(*s)


def positive(g, s):
    return g.positive(*s)


def in_unit(g, s):
    return g.uniform(-0.8, 0.8, *s)


def above_one(g, s):
    return g.uniform(1.3, 3.0, *s)


def distinct(g, s):
    return g.distinct(*s)


ROWS = []  # the table: every row, in order (OPS, at the end: the rows TF is recorded for)


def op(name, samples, **kw):
    ROWS.append(OpInfo(name, samples, **kw))


def unary(name, make=normal, dtypes=F16_32_64, **kw):
    op(name, unary_samples(make), dtypes=dtypes, **kw)


def binary(name, make_x=normal, make_y=None, dtypes=F32_64, **kw):
    op(name, binary_samples(make_x, make_y), dtypes=dtypes, **kw)


def _tapeflow_module(tf, name):
    import importlib
    return importlib.import_module(f"{tf.__name__}.{name}")


def _tapeflow_nn_ops(tf):
    return _tapeflow_module(tf, "ops.nn_ops")


def _bool_pair_fixed(g):
    return [Sample((g.bools(3, 4), g.bools(3, 4)))]


def _off_six(x):
    """Move values within 0.3 of relu6's upper kink at 6 away from it."""
    return np.where(np.abs(x - 6) < 0.3, x + 0.7, x)


# ------------------------------------------------------------- integer ops (no gradients)


def _int_row(name, fn, samples):
    op(name, samples, fn=fn, grad=False, dtypes=("float32",),
       note="integer tensors: values and dtypes as TensorFlow's, no gradient")


def _ints(g, *shape):
    return g.ints(-5, 6, *shape)


_INT_BINARY = lambda g: [Sample((_ints(g, 3, 4), _ints(g, 3, 4))),  # noqa: E731
                         Sample((_ints(g, 2, 1, 4), _ints(g, 3, 1))),
                         Sample((np.int32(3), _ints(g, 3)))]
_int_row("int.add", lambda tf, x, y: tf.math.add(x, y), _INT_BINARY)
_int_row("int.subtract", lambda tf, x, y: x - y, _INT_BINARY)
_int_row("int.multiply", lambda tf, x, y: x * y, _INT_BINARY)
_int_row("int.maximum", lambda tf, x, y: tf.math.maximum(x, y), _INT_BINARY)
_int_row("int.minimum", lambda tf, x, y: tf.math.minimum(x, y), _INT_BINARY)
_int_row("int.squared_difference", lambda tf, x, y: tf.math.squared_difference(x, y),
         _INT_BINARY)
_int_row("int.pow", lambda tf, x, y: tf.math.pow(x, y), lambda g: [
    Sample((_ints(g, 3, 4), g.ints(0, 4, 3, 4)))])
_int_row("int.abs_negative_square_sign", lambda tf, x: [tf.abs(x), -x, tf.square(x),
                                                        tf.sign(x)],
         lambda g: [Sample((_ints(g, 3, 4),)), Sample((g.ints(-9, 9, 5, dtype=np.int64),))])
_int_row("int.reductions", lambda tf, x: [tf.reduce_sum(x, 1), tf.reduce_max(x),
                                          tf.reduce_min(x, 0), tf.reduce_prod(x, 1),
                                          tf.reduce_mean(x, 1), tf.argmax(x, 1),
                                          tf.math.cumsum(x, 1), tf.math.cumprod(x, 0)],
         lambda g: [Sample((_ints(g, 3, 4),)), Sample((g.ints(-3, 4, 2, 3, dtype=np.int64),))])
_int_row("int.matmul", lambda tf, a, b: tf.linalg.matmul(a, b), lambda g: [
    Sample((_ints(g, 2, 3), _ints(g, 3, 4)))])
_int_row("int.sort_top_k", lambda tf, x: [tf.sort(x), tf.math.top_k(x, 2).values,
                                          tf.argsort(x, direction="DESCENDING")],
         lambda g: [Sample((np.array([[4, -1, 7, 0], [2, 9, -3, 5]], np.int32),))])
_int_row("int.array_ops", lambda tf, x: [tf.concat([x, x], 0), tf.reverse(x, [1]),
                                         tf.roll(x, 1, 1), tf.pad(x, [[1, 0], [0, 2]]),
                                         tf.gather(x, [1, 0]), tf.transpose(x),
                                         tf.tile(x, [2, 1]), tf.boolean_mask(x, x > 0)],
         lambda g: [Sample((_ints(g, 2, 3),))])
_int_row("bool.ops", lambda tf, x, y: [tf.logical_and(x, y), tf.reduce_any(x, 0),
                                       tf.reduce_all(y), tf.where(x), tf.math.count_nonzero(y),
                                       tf.cast(x, tf.int32)], _bool_pair_fixed)

# --------------------------------------------------------------------- math: element-wise

unary("math.negative")
unary("math.abs", away)
unary("math.square")
unary("math.sqrt", positive)
unary("math.rsqrt", positive)
unary("math.reciprocal", away)
unary("math.exp")
unary("math.expm1")
unary("math.log", positive)
unary("math.log1p", positive)
unary("math.sin")
unary("math.cos")
unary("math.tan", in_unit)
unary("math.asin", in_unit)
unary("math.acos", in_unit)
unary("math.atan")
unary("math.sinh")
unary("math.cosh")
unary("math.asinh")
unary("math.acosh", above_one)
unary("math.atanh", in_unit)
unary("math.tanh")
unary("math.sigmoid")
unary("math.log_sigmoid")
unary("math.softplus")
unary("math.softsign", away)
unary("math.erf", rtol=2e-5)
unary("math.erfc", rtol=2e-5)
unary("math.lgamma", lambda g, s: g.uniform(0.3, 4.0, *s), rtol=2e-5, rtol64=1e-8)
unary("math.digamma", lambda g, s: g.uniform(0.5, 4.0, *s), rtol=2e-5, rtol64=1e-8,
      atol64=1e-10)
unary("math.sign", away, note="zero gradient (not None), as TensorFlow")
unary("math.round", away, grad=False)
unary("math.floor", away, grad=False)
unary("math.ceil", away, grad=False)
unary("math.rint", away, grad=False, dtypes=F32_64)
unary("math.is_nan", grad=False)
unary("math.is_finite", grad=False)
unary("math.is_inf", grad=False)
unary("math.reciprocal_no_nan", away)
unary("nn.relu", away)
unary("nn.relu6", lambda g, s: _off_six(g.away(*s, hi=8.0)))
unary("nn.elu", away)
unary("nn.selu", away)
unary("nn.silu")
unary("nn.swish")
unary("nn.softsign", away)
op("nn.leaky_relu", lambda g: [Sample((g.away(3, 4),)), Sample((g.away(5),), {"alpha": 0.1}),
                               Sample((g.away(),))])
op("keras.activations.hard_sigmoid", lambda g: [
    Sample((np.array([-4.1, -2.9, -1.0, 0.3, 2.2, 3.4]),)), Sample((g.uniform(-2.5, 2.5, 3, 4),))],
   fn=lambda tf, x: (tf.keras.activations.hard_sigmoid(x) if tf.__name__ == "tensorflow"
                     else _tapeflow_nn_ops(tf).hard_sigmoid(x)),
   note="Keras' function; tapeflow keeps it in ops.nn_ops for its Keras layer")
op("nn.gelu", lambda g: [Sample((g.normal(3, 4),)), Sample((g.normal(5),),
                                                           {"approximate": True}),
                         Sample((g.normal(),), {"approximate": False})], rtol=2e-5,
   rtol64=1e-6, note="TF's float64 gelu rounds its constants to float32 (~1e-9 relative "
   "off); tapeflow keeps them exact")

# ----------------------------------------------------------------------- math: binary

binary("math.add", dtypes=F16_32_64)
binary("math.subtract", dtypes=F16_32_64)
binary("math.multiply", dtypes=F16_32_64)
binary("math.divide", normal, away, dtypes=F16_32_64)
binary("math.truediv", normal, away)
binary("math.maximum", distinct, distinct, note="inputs never tie", dtypes=F16_32_64)
binary("math.minimum", distinct, distinct, dtypes=F16_32_64)
binary("math.squared_difference", dtypes=F16_32_64)
binary("math.pow", positive, normal, dtypes=F16_32_64)
op("math.pow_negative_base", lambda g: [
    Sample((-g.positive(3, 4), np.array([[2.0], [3.0], [-1.0]]))),
    Sample((g.away(4), np.float64(2.0)))],
   fn=lambda tf, x, y: tf.math.pow(x, y), grad2=True, fd_skip=(1,),
   note="negative bases with integral exponents; d/dy is 0 where x <= 0, as TF")
binary("math.atan2", away, away)
binary("math.divide_no_nan", normal, away)
op("math.divide_no_nan_zeros", lambda g: [Sample((g.normal(2, 3),
                                                  np.array([[0.0, 1.5, -2.0]] * 2)))],
   fn=lambda tf, x, y: tf.math.divide_no_nan(x, y), grad2=False, fd_skip=(1,),
   note="y == 0 entries give 0 and gradients 0")
binary("math.xlogy", normal, positive)
binary("math.xdivy", normal, away)
binary("math.xlog1py", normal, positive)
binary("math.floormod", lambda g, s: g.uniform(0.1, 0.9, *s) + g.ints(-3, 3, *s),
       lambda g, s: g.uniform(1.1, 2.0, *s), grad2=True, fd_rtol=1e-4)
binary("math.floordiv", normal, away, grad=False)
binary("math.truncatemod", lambda g, s: g.uniform(0.1, 0.9, *s) + g.ints(0, 3, *s),
       lambda g, s: g.uniform(1.1, 2.0, *s), fn=lambda tf, x, y: tf.truncatemod(x, y),
       tf_grad=False, note="TF registers no gradient for TruncateMod (LookupError); "
       "tapeflow gives d/dx = 1, d/dy = -truncatediv(x, y), like FloorMod's")
op("math.polygamma", lambda g: [Sample((np.array([1.0, 2.0, 0.0, 3.0]),
                                        g.uniform(0.5, 3.0, 4))),
                                Sample((np.float64(1.0), g.uniform(0.5, 3.0, 2, 3)))],
   rtol=5e-5, rtol64=1e-8, atol64=1e-10, tf_grad=False, fd_skip=(0,),
   note="TF has no gradient for the order a; both sides give x's gradient")
binary("math.equal", lambda g, s: g.ints(0, 3, *s).astype(float),
       lambda g, s: g.ints(0, 3, *s).astype(float), grad=False)
binary("math.not_equal", lambda g, s: g.ints(0, 3, *s).astype(float),
       lambda g, s: g.ints(0, 3, *s).astype(float), grad=False)
binary("math.less", distinct, distinct, grad=False)
binary("math.less_equal", distinct, distinct, grad=False)
binary("math.greater", distinct, distinct, grad=False)
binary("math.greater_equal", distinct, distinct, grad=False)


def _bool_pair(g):
    return [Sample((g.bools(3, 4), g.bools(3, 4))), Sample((g.bools(2, 1, 4), g.bools(3, 1))),
            Sample((np.bool_(True), g.bools(3)))]


op("math.logical_and", _bool_pair, grad=False, dtypes=("float32",))
op("math.logical_or", _bool_pair, grad=False, dtypes=("float32",))
op("math.logical_xor", _bool_pair, grad=False, dtypes=("float32",))
op("math.logical_not", lambda g: [Sample((g.bools(3, 4),)), Sample((np.bool_(False),))],
   grad=False, dtypes=("float32",))


def _int_pair(g):
    return [Sample((g.ints(-9, 9, 8), np.array([2, -2, 3, -3, 4, -4, 5, 7], np.int32))),
            Sample((g.ints(-20, 20, 2, 3, dtype=np.int64), np.int64(3)))]


op("math.floordiv_int", _int_pair, fn=lambda tf, x, y: tf.math.floordiv(x, y), grad=False,
   dtypes=("float32",), note="floor semantics for negative operands")
op("math.floormod_int", _int_pair, fn=lambda tf, x, y: tf.math.floormod(x, y), grad=False,
   dtypes=("float32",))
op("truncatediv", _int_pair, grad=False, dtypes=("float32",))
op("truncatemod_int", _int_pair, fn=lambda tf, x, y: tf.truncatemod(x, y), grad=False,
   dtypes=("float32",))
op("math.divide_int", _int_pair, fn=lambda tf, x, y: tf.math.divide(x, y), grad=False,
   dtypes=("float32",), note="int32/int64 divide to float64")

op("math.add_n", lambda g: [Sample(([g.normal(3, 2), g.normal(3, 2), g.normal(3, 2)],)),
                            Sample(([g.normal()],))])
op("clip_by_value", lambda g: [Sample((g.distinct(3, 4), -0.42, 0.53)),
                               Sample((g.distinct(5), np.float64(-0.1), np.float64(0.7)))],
   note="values never equal the bounds")
op("clip_by_norm", lambda g: [Sample((g.normal(3, 4), 1.5)), Sample((g.normal(3, 4), 100.0)),
                              Sample((g.normal(2, 3), 0.7), {"axes": [1]})])
op("clip_by_global_norm", lambda g: [Sample(([g.normal(3, 2), g.normal(4)], 1.0)),
                                     Sample(([g.normal(2), g.normal(2, 2)], 50.0))])
op("math.polyval", lambda g: [Sample(([g.normal(3), g.normal(3), g.normal(3)], g.normal(3))),
                              Sample(([g.normal(), g.normal()], g.normal(2, 2)))])
op("math.l2_normalize", lambda g: [Sample((g.normal(3, 4),), {"axis": 1}),
                                   Sample((g.normal(5),))])

# ------------------------------------------------------------------------- reductions


def _reduce(name, make=normal, scalar=True, **kw):
    op(name, lambda g: [Sample((make(g, (3, 4)),)),
                        Sample((make(g, (2, 3, 4)),), {"axis": 1}),
                        Sample((make(g, (2, 3, 4)),), {"axis": [0, 2], "keepdims": True})]
       + ([Sample((make(g, ()),))] if scalar else []), **kw)


_reduce("math.reduce_sum", dtypes=F16_32_64)
_reduce("math.reduce_mean", dtypes=F16_32_64)
_reduce("math.reduce_max", distinct, dtypes=F16_32_64)
_reduce("math.reduce_min", distinct)
_reduce("math.reduce_prod", away)
_reduce("math.reduce_logsumexp")
_reduce("math.reduce_variance", rtol=1e-4, atol=1e-5)
_reduce("math.reduce_std", scalar=False, rtol=1e-4, atol=1e-5,
        note="no scalar sample: the gradient of sqrt at a zero variance is NaN, as TF's")
_reduce("math.reduce_euclidean_norm", away)
op("math.reduce_all", lambda g: [Sample((g.bools(3, 4),), {"axis": 1}),
                                 Sample((g.bools(3, 4),))], grad=False, dtypes=("float32",))
op("math.reduce_any", lambda g: [Sample((g.bools(3, 4),), {"axis": 0}),
                                 Sample((g.bools(3, 4),))], grad=False, dtypes=("float32",))
op("math.count_nonzero", lambda g: [Sample((g.ints(0, 2, 3, 4).astype(float),),
                                           {"axis": 1}),
                                    Sample((g.ints(0, 2, 5).astype(float),))], grad=False)
op("norm", lambda g: [Sample((g.away(3, 4),)), Sample((g.away(3, 4),), {"ord": 1, "axis": 1}),
                      Sample((np.diag([3.0, 2.0, 1.0]) + 0.2 * g.normal(3, 3),),
                             {"ord": 2, "axis": [0, 1]}),
                      Sample((g.away(2, 3),), {"ord": np.inf, "axis": [-2, -1],
                                              "keepdims": True}),
                      Sample((g.away(3, 4),), {"ord": np.inf, "axis": 0}),
                      Sample((g.away(2, 3, 4),), {"ord": "fro", "axis": [1, 2]}),
                      Sample((g.away(5),), {"ord": 3})], rtol=2e-5)
op("math.cumsum", lambda g: [Sample((g.normal(3, 4),), {"axis": 1}),
                             Sample((g.normal(5),), {"exclusive": True, "reverse": True})])
op("math.cumprod", lambda g: [Sample((g.away(3, 4),), {"axis": 1}),
                              Sample((g.away(5),), {"exclusive": True}),
                              Sample((g.away(4),), {"reverse": True})])
op("math.argmax", lambda g: [Sample((g.distinct(3, 4),), {"axis": 1}),
                             Sample((g.distinct(5),))], grad=False)
op("math.argmin", lambda g: [Sample((g.distinct(3, 4),), {"axis": 0}),
                             Sample((g.distinct(5),))], grad=False)
op("math.top_k", lambda g: [Sample((g.distinct(3, 5),), {"k": 2}),
                            Sample((g.distinct(6),), {"k": 6})])
op("sort", lambda g: [Sample((g.distinct(3, 5),)),
                      Sample((g.distinct(4, 3),), {"axis": 0, "direction": "DESCENDING"})])
op("argsort", lambda g: [Sample((g.distinct(3, 5),)),
                         Sample((g.distinct(4, 3),), {"axis": 0, "direction": "DESCENDING"})],
   grad=False)
op("unique", lambda g: [Sample((np.array([4, 1, 4, 2, 1, 7], np.int32),)),
                        Sample((np.array([0.5, 0.5, -1.0, 2.0]),))], grad=False)
op("math.bincount", lambda g: [Sample((np.array([1, 1, 3, 0, 5, 3, 3], np.int32),)),
                               Sample((np.array([2, 0, 2], np.int32),), {"minlength": 5})],
   grad=False, dtypes=("float32",))
op("math.segment_sum", lambda g: [Sample((g.normal(5, 3), np.array([0, 0, 1, 3, 3],
                                                                    np.int32))),
                                  Sample((g.normal(4), np.array([0, 1, 1, 2], np.int32)))])
op("math.unsorted_segment_sum", lambda g: [
    Sample((g.normal(5, 3), np.array([2, 0, 2, 1, 0], np.int32), 4)),
    Sample((g.normal(2, 3), np.array([[0, 1, 0], [1, 1, 2]], np.int32), 3))])
op("math.segment_mean", lambda g: [Sample((g.normal(5, 2), np.array([0, 0, 1, 2, 2],
                                                                     np.int32)))])
op("math.confusion_matrix", lambda g: [
    Sample((np.array([0, 1, 2, 1, 0], np.int32), np.array([0, 2, 2, 1, 1], np.int32))),
    Sample((np.array([1, 3], np.int32), np.array([1, 0], np.int32)), {"num_classes": 5})],
   grad=False, dtypes=("float32",))
op("math.in_top_k", lambda g: [Sample((np.array([0, 2, 1], np.int32), g.distinct(3, 4), 2))],
   fn=lambda tf, t, p, k: tf.math.in_top_k(t, tf.cast(p, tf.float32), k), grad=False,
   dtypes=("float32",))

op("math.scalar_mul", lambda g: [Sample((np.float64(1.5), g.normal(3, 2)))])
op("math.multiply_no_nan", lambda g: [Sample((g.normal(2, 3), np.array([0.0, 1.5, -2.0]))),
                                      Sample((g.normal(3), g.normal(2, 3)))])
op("math.unsorted_segment_mean", lambda g: [
    Sample((g.normal(5, 2), np.array([2, 0, 2, 2, 0], np.int32), 4))])
op("math.unsorted_segment_sqrt_n", lambda g: [
    Sample((g.normal(5, 2), np.array([2, 0, 2, 2, 0], np.int32), 3))])
op("math.unsorted_segment_max", lambda g: [
    Sample((g.distinct(5, 2), np.array([1, 0, 1, 1, 0], np.int32), 2))])
op("math.unsorted_segment_max_empty", lambda g: [
    Sample((g.distinct(4), np.array([0, 2, 0, 0], np.int32), 3))],
   fn=lambda tf, *a: tf.math.unsorted_segment_max(*a), fd=False,
   note="an empty segment holds the dtype's lowest value (forward only: it overflows "
        "finite differences)")
op("math.unsorted_segment_min", lambda g: [
    Sample((g.distinct(5, 2), np.array([1, 0, 1, 1, 0], np.int32), 2))])
op("math.segment_max", lambda g: [Sample((g.distinct(5), np.array([0, 0, 2, 2, 3], np.int32)))],
   xfail={"jvp": "segment 1 is empty: TF's forward mode (its gradient transposed) gives its "
                 "tangent as 0 / 0 = nan, and tapeflow with it (sweep cases math.segment_max"
                 "|0|48 and others), where finite differences give 0"})
op("math.segment_min", lambda g: [Sample((g.distinct(4, 2), np.array([0, 1, 1, 1], np.int32)))])
op("math.cumulative_logsumexp", lambda g: [Sample((g.normal(3, 4),), {"axis": 1}),
                                           Sample((g.normal(5),), {"reverse": True})],
   rtol=2e-5)
op("math.cumulative_logsumexp_exclusive", lambda g: [Sample((g.normal(4),), {"exclusive": True})],
   fn=lambda tf, *a, **k: tf.math.cumulative_logsumexp(*a, **k), fd=False,
   note="starts at -inf (forward only: the weighted loss is -inf)")
op("math.lbeta", lambda g: [Sample((g.uniform(0.5, 3.0, 2, 3),)),
                            Sample((g.uniform(0.5, 3.0, 4),))], rtol=5e-5, rtol64=1e-8)
op("math.invert_permutation", lambda g: [Sample((np.array([2, 0, 3, 1], np.int32),))],
   grad=False, dtypes=("float32",))
op("math.is_non_decreasing", lambda g: [Sample((np.array([1, 2, 2, 5], np.int32),)),
                                        Sample((np.array([3.0, 1.0]),))], grad=False)
op("math.is_strictly_increasing", lambda g: [Sample((np.array([1, 2, 2, 5], np.int32),)),
                                             Sample((np.array([1.0, 3.0]),))], grad=False)
op("math.softmax", lambda g: [Sample((g.normal(3, 4),))])
op("math.log_softmax", lambda g: [Sample((g.normal(3, 4),), {"axis": 0})])

# ------------------------------------------------------------------------------ nn

op("nn.softmax", lambda g: [Sample((g.normal(3, 4),)), Sample((g.normal(3, 4),), {"axis": 0}),
                            Sample((g.normal(2, 3, 4),), {"axis": 1})], dtypes=F16_32_64)
op("nn.log_softmax", lambda g: [Sample((g.normal(3, 4),)),
                                Sample((g.normal(3, 4),), {"axis": 0})])
op("nn.sigmoid_cross_entropy_with_logits", lambda g: [
    Sample((), {"labels": g.uniform(0, 1, 3, 4), "logits": g.normal(3, 4)})])
op("nn.weighted_cross_entropy_with_logits", lambda g: [
    Sample((), {"labels": g.uniform(0, 1, 3, 4), "logits": g.normal(3, 4),
                "pos_weight": 2.5})])
op("nn.softmax_cross_entropy_with_logits", lambda g: [
    Sample((), {"labels": np.eye(4)[[0, 2, 3]] * 0.7 + 0.075, "logits": g.normal(3, 4)})])
op("nn.softmax_cross_entropy_with_logits_axis0", lambda g: [
    Sample((), {"labels": np.full((4, 2), 0.5), "logits": g.normal(4, 2), "axis": 0})],
   fn=lambda tf, **kw: tf.nn.softmax_cross_entropy_with_logits(**kw), tf_grad=False,
   note="TF 2.21's logits gradient is wrong for axis != -1 (rows and columns mixed up; "
        "finite differences disagree with it); tapeflow's passes the FD checks")
op("nn.sparse_softmax_cross_entropy_with_logits", lambda g: [
    Sample((), {"labels": np.array([0, 3, 1], np.int32), "logits": g.normal(3, 4)})])
op("nn.l2_loss", lambda g: [Sample((g.normal(3, 4),)), Sample((g.normal(),))])
op("nn.bias_add", lambda g: [Sample((g.normal(2, 3, 4), g.normal(4))),
                             Sample((g.normal(2, 3), g.normal(3)))])
op("nn.moments", lambda g: [Sample((g.normal(4, 3), [0])),
                            Sample((g.normal(2, 3, 4), [0, 1]), {"keepdims": True})],
   rtol=1e-4, atol=1e-5, note="no stop_gradient on the mean: exact second order")
op("nn.batch_normalization", lambda g: [
    Sample((g.normal(4, 3), g.normal(3), g.positive(3), g.normal(3), g.positive(3), 1e-3)),
    Sample((g.normal(2, 3), g.normal(3), g.positive(3), None, None, 1e-3))])
op("nn.embedding_lookup", lambda g: [Sample((g.normal(5, 3), np.array([[0, 4], [2, 2]],
                                                                       np.int32)))])
op("nn.log_poisson_loss", lambda g: [Sample((g.positive(3, 4), g.normal(3, 4))),
                                     Sample((g.uniform(1.5, 3, 5), g.normal(5)),
                                            {"compute_full_loss": True})])
op("nn.crelu", lambda g: [Sample((g.away(3, 4),))])
op("nn.compute_average_loss", lambda g: [Sample((g.normal(4),)),
                                         Sample((g.normal(4),), {"global_batch_size": 8})])
op("nn.normalize_moments", lambda g: [Sample((np.float64(4.0), g.normal(3), g.positive(3) + 5,
                                              None))])

# conv / pool: NHWC.


def _conv_samples(g):
    return [
        Sample((g.normal(2, 5, 6, 3), g.normal(3, 3, 3, 4), 1, "SAME")),
        Sample((g.normal(1, 7, 6, 2), g.normal(3, 2, 2, 3), [1, 2, 2, 1], "VALID")),
        Sample((g.normal(1, 6, 7, 2), g.normal(2, 3, 2, 2), 2, "SAME")),
        Sample((g.normal(1, 7, 7, 2), g.normal(3, 3, 2, 2), 1, "SAME"), {"dilations": 2}),
        Sample((g.normal(1, 3, 3, 1), g.normal(2, 2, 1, 2), 1, "SAME")),
    ]


op("nn.conv2d", _conv_samples, rtol=1e-4, atol=1e-5)
op("nn.conv2d_nchw", lambda g: [Sample((g.normal(1, 2, 5, 4), g.normal(2, 2, 2, 3),
                                        [1, 1, 2, 1], "VALID"), {"data_format": "NCHW"}),
                                Sample((g.normal(1, 1, 3, 3), g.normal(2, 2, 1, 1), 1,
                                        "SAME"), {"data_format": "NCHW"})],
   fn=lambda tf, *a, **k: tf.nn.conv2d(*a, **k), dtypes=("float32",), rtol=1e-4, atol=1e-5,
   note="TF runs NCHW on CPU only through oneDNN (float32; float64 raises "
        "UnimplementedError); tapeflow transposes to NHWC for every dtype")
op("nn.conv2d_window_too_large", lambda g: [Sample((g.normal(1, 2, 2, 1), g.normal(3, 3, 1, 2),
                                                    1, "VALID"))],
   fn=lambda tf, *a: tf.nn.conv2d(*a), dtypes=("float64",), tf_grad=False,
   note="an empty output, as TF's reference kernel (float64); its oneDNN float32 kernel "
        "returns a non-empty tensor instead. TF's filter gradient here holds uninitialised "
        "memory; tapeflow's is zeros (the finite differences agree)")
op("nn.conv1d", lambda g: [Sample((g.normal(2, 8, 3), g.normal(3, 3, 4), 1, "SAME")),
                           Sample((g.normal(1, 9, 2), g.normal(4, 2, 3), 2, "VALID")),
                           Sample((g.normal(1, 9, 2), g.normal(2, 2, 2), 1, "VALID"),
                                  {"dilations": 3}),
                           Sample((g.normal(1, 5, 1), g.normal(3, 1, 2), 2, "SAME"))],
   rtol=1e-4, atol=1e-5)
op("nn.conv2d_transpose", lambda g: [
    Sample((g.normal(2, 3, 3, 4), g.normal(3, 3, 2, 4), [2, 6, 6, 2], 2, "SAME")),
    Sample((g.normal(1, 3, 2, 3), g.normal(2, 3, 2, 3), [1, 6, 6, 2], 2, "VALID")),
    Sample((g.normal(1, 4, 4, 2), g.normal(3, 3, 3, 2), [1, 4, 4, 3], 1, "SAME")),
    Sample((g.normal(1, 2, 2, 1), g.normal(2, 2, 1, 1), [1, 4, 4, 1], 2, "SAME"))],
   rtol=1e-4, atol=1e-5)
op("nn.depthwise_conv2d", lambda g: [
    Sample((g.normal(2, 5, 5, 3), g.normal(3, 3, 3, 2), [1, 1, 1, 1], "SAME")),
    Sample((g.normal(1, 6, 6, 2), g.normal(2, 2, 2, 1), [1, 2, 2, 1], "VALID")),
    Sample((g.normal(1, 3, 2, 2), g.normal(2, 2, 2, 1), [1, 1, 1, 1], "VALID"))],
   rtol=1e-4, atol=1e-5)
op("nn.max_pool2d", lambda g: [Sample((g.distinct(2, 5, 6, 3), 2, 2, "VALID")),
                               Sample((g.distinct(1, 5, 5, 2), 3, 2, "SAME")),
                               Sample((g.distinct(1, 4, 6, 1), [2, 3], [1, 2], "SAME"))])
op("nn.avg_pool2d", lambda g: [Sample((g.normal(2, 5, 6, 3), 2, 2, "VALID")),
                               Sample((g.normal(1, 5, 5, 2), 3, 2, "SAME")),
                               Sample((g.normal(1, 4, 6, 1), [2, 3], [1, 2], "SAME"))])
op("nn.max_pool1d", lambda g: [Sample((g.distinct(2, 7, 3), 2, 2, "VALID")),
                               Sample((g.distinct(1, 7, 2), 3, 2, "SAME"))])
op("nn.avg_pool1d", lambda g: [Sample((g.normal(2, 7, 3), 2, 2, "VALID")),
                               Sample((g.normal(1, 7, 2), 3, 2, "SAME"))])

op("nn.max_pool", lambda g: [Sample((g.distinct(1, 4, 4, 2), 2, 2, "VALID")),
                             Sample((g.distinct(2, 5, 2), 2, 1, "SAME"))])
op("nn.avg_pool", lambda g: [Sample((g.normal(1, 4, 4, 2), 2, 2, "VALID")),
                             Sample((g.normal(2, 5, 2), 3, 2, "SAME"))])
op("nn.convolution", lambda g: [Sample((g.normal(1, 5, 5, 2), g.normal(3, 3, 2, 2)),
                                       {"padding": "SAME"}),
                                Sample((g.normal(2, 6, 2), g.normal(2, 2, 3)),
                                       {"strides": 2}),
                                Sample((g.normal(1, 5, 1), g.normal(2, 1, 2)))],
   rtol=1e-4, atol=1e-5)
op("nn.conv1d_transpose", lambda g: [Sample((g.normal(2, 3, 4), g.normal(3, 2, 4), [2, 6, 2],
                                             2, "SAME")),
                                     Sample((g.normal(1, 3, 2), g.normal(2, 1, 2), [1, 6, 1],
                                             2, "VALID"))], rtol=1e-4, atol=1e-5)
op("nn.dropout", lambda g: [Sample((g.normal(3, 4), 0.0))],
   note="rate 0 only: the random mask differs from TF's stream (tests/ops/test_op_properties.py)")
op("image.extract_patches", lambda g: [
    Sample((g.normal(1, 5, 5, 2), [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")),
    Sample((g.normal(2, 4, 3, 1), [1, 3, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"))])
op("nn.separable_conv2d", lambda g: [
    Sample((g.normal(1, 5, 5, 2), g.normal(3, 3, 2, 2), g.normal(1, 1, 4, 3), [1, 1, 1, 1],
            "SAME")),
    Sample((g.normal(1, 3, 3, 1), g.normal(2, 2, 1, 2), g.normal(1, 1, 2, 1), [1, 1, 1, 1],
            "VALID"))], rtol=1e-4, atol=1e-5)
op("nn.atrous_conv2d", lambda g: [Sample((g.normal(1, 6, 6, 2), g.normal(2, 2, 2, 3), 2,
                                          "SAME")),
                                  Sample((g.normal(1, 4, 4, 1), g.normal(2, 2, 1, 1), 2,
                                          "VALID"))],
   dtypes=("float32",), rtol=1e-4, atol=1e-5,
   note="float32 only: TF's CPU kernels lack the float64 dilated gradient")
op("nn.space_to_depth", lambda g: [Sample((g.normal(1, 4, 6, 2), 2)),
                                   Sample((g.normal(1, 2, 4, 2), 2))])
op("nn.depth_to_space", lambda g: [Sample((g.normal(1, 2, 3, 8), 2)),
                                   Sample((g.normal(1, 1, 2, 8), 2))])
op("nn.sufficient_statistics", lambda g: [Sample((g.normal(4, 3), [0])),
                                          Sample((g.normal(2, 3), [0, 1]), {"keepdims": True})])
op("nn.scale_regularization_loss", lambda g: [Sample((g.normal(3),))])

# ------------------------------------------------------------------------------ array

op("concat", lambda g: [Sample(([g.normal(2, 3), g.normal(1, 3)], 0)),
                        Sample(([g.normal(2, 1), g.normal(2, 2), g.normal(2, 3)], -1))])
op("stack", lambda g: [Sample(([g.normal(2, 3), g.normal(2, 3)],)),
                       Sample(([g.normal(3), g.normal(3), g.normal(3)],), {"axis": 1})])
op("unstack", lambda g: [Sample((g.normal(3, 2),)), Sample((g.normal(2, 3),), {"axis": 1})])
op("split", lambda g: [Sample((g.normal(6, 2), 3)), Sample((g.normal(2, 6), [1, -1, 2], 1))])
op("image.resize", lambda g: [Sample((g.normal(1, 3, 4, 2), [5, 7])),
                              Sample((g.normal(3, 5, 1), [2, 3])),
                              Sample((g.normal(2, 3, 4, 1), [4, 9]), {"method": "nearest"}),
                              Sample((g.normal(1, 4, 5, 2), [7, 3]), {"method": "bicubic"}),
                              Sample((g.normal(2, 5, 3, 1), [3, 6]),
                                     {"method": "lanczos3"}),
                              Sample((g.normal(1, 6, 4, 2), [3, 5]),
                                     {"method": "bilinear", "antialias": True})],
   dtypes=("float32",), grad2=False, fd=False, rtol=1e-4, atol=1e-5,
   note="TensorFlow's bilinear resize computes in float32 whatever the input: no float64 "
        "finite differences; gradients are checked against TensorFlow's")
op("image.per_image_standardization", lambda g: [Sample((g.normal(2, 3, 3, 2),))],
   dtypes=("float32",), fd=False, rtol=1e-4, atol=1e-5,
   note="float32 whatever the input, as in TensorFlow: checked against TensorFlow's")
op("image.flip_left_right", lambda g: [Sample((g.normal(2, 3, 4, 1),))])
op("image.flip_up_down", lambda g: [Sample((g.normal(3, 4, 2),))])
op("image.rot90", lambda g: [Sample((g.normal(3, 4, 2),)), Sample((g.normal(2, 3, 4, 1), 3))])
op("image.central_crop", lambda g: [Sample((g.normal(5, 6, 2), 0.5)),
                                    Sample((g.normal(3, 4, 1), 0.5))])
op("image.adjust_brightness", lambda g: [Sample((g.normal(2, 3, 1), 0.3))],
   dtypes=("float32",), fd=False,
   note="a float64 image is adjusted in float32, as in TensorFlow: checked against TF's")
op("sparse.sparse_dense_matmul", lambda g: [Sample((g.normal(3, 2),))],
   fn=lambda tf, b: tf.sparse.sparse_dense_matmul(
       tf.sparse.SparseTensor([[0, 0], [1, 2], [2, 1]], tf.constant([1.5, -2.0, 0.5], b.dtype),
                              [3, 3]), b))
op("random.stateless_normal", lambda g: [Sample((g.normal(2, 3), g.normal(2, 3)))],
   fn=lambda tf, mean, std: tf.random.stateless_normal([2, 3], [1, 2], mean, std,
                                                       dtype=mean.dtype))
op("tile", lambda g: [Sample((g.normal(2, 3), [2, 1])), Sample((g.normal(3), [3]))])
op("pad", lambda g: [Sample((g.normal(2, 3), [[1, 0], [2, 1]])),
                     Sample((g.normal(3, 4), [[1, 2], [2, 1]], "REFLECT")),
                     Sample((g.normal(3, 4), [[2, 1], [0, 3]], "SYMMETRIC")),
                     Sample((g.normal(3), [[1, 1]]), {"constant_values": 2.5})])
op("expand_dims", lambda g: [Sample((g.normal(2, 3), 1)), Sample((g.normal(), 0))])
op("squeeze", lambda g: [Sample((g.normal(2, 1, 3, 1),)), Sample((g.normal(1, 3, 1), [0]))])
op("reshape", lambda g: [Sample((g.normal(2, 6), [3, -1])), Sample((g.normal(4), [2, 2]))])
op("transpose", lambda g: [Sample((g.normal(2, 3),)), Sample((g.normal(2, 3, 4), [1, 2, 0]))])
op("gather", lambda g: [Sample((g.normal(5, 3), np.array([4, 0, 4], np.int32))),
                        Sample((g.normal(2, 5, 3), np.array([[1, 2], [0, 0]], np.int32)),
                               {"axis": 1}),
                        Sample((g.normal(2, 4, 3), np.array([[3, 0], [1, 1]], np.int32)),
                               {"axis": 1, "batch_dims": 1}),
                        Sample((g.normal(2, 2, 3, 2), np.array([[2, 0, 2], [1, 1, 0]],
                                                               np.int32)),
                               {"axis": 2, "batch_dims": 1}),
                        Sample((g.normal(2, 3, 4), np.array([[[1], [3], [0]], [[2], [2], [1]]],
                                                            np.int32)),
                               {"axis": 2, "batch_dims": -1})])
op("gather_nd", lambda g: [Sample((g.normal(3, 4), np.array([[0, 1], [2, 3], [0, 1]],
                                                             np.int32))),
                           Sample((g.normal(3, 4, 2), np.array([[2], [0]], np.int32))),
                           Sample((g.normal(2, 3, 4), np.array([[[1], [2]], [[0], [0]]],
                                                               np.int32)),
                                  {"batch_dims": 1})])
op("scatter_nd", lambda g: [Sample((np.array([[0], [3], [0]], np.int32), g.normal(3, 2),
                                    [4, 2])),
                            Sample((np.array([[1, 1], [0, 2]], np.int32), g.normal(2),
                                    [2, 3]))])
op("tensor_scatter_nd_update", lambda g: [
    Sample((g.normal(4, 2), np.array([[0], [3]], np.int32), g.normal(2, 2))),
    Sample((g.normal(2, 3), np.array([[1, 1], [0, 2]], np.int32), g.normal(2)))])
op("tensor_scatter_nd_add", lambda g: [
    Sample((g.normal(4, 2), np.array([[0], [3], [0]], np.int32), g.normal(3, 2))),
    Sample((g.normal(2, 3), np.array([[1, 1], [0, 2]], np.int32), g.normal(2)))])
op("tensor_scatter_nd_sub", lambda g: [
    Sample((g.normal(4, 2), np.array([[0], [3], [0]], np.int32), g.normal(3, 2)))])
# Distinct values keep away from ties, where the extremum's gradient is split.
op("tensor_scatter_nd_max", lambda g: [
    Sample((np.array([0.5, -1.0, 2.0, 0.1]), np.array([[0], [2], [3]], np.int32),
            np.array([1.5, 1.0, -0.7]))),
    Sample((g.normal(2, 3), np.array([[1], [0]], np.int32), g.normal(2, 3)))])
op("tensor_scatter_nd_min", lambda g: [
    Sample((np.array([0.5, -1.0, 2.0, 0.1]), np.array([[0], [2], [3]], np.int32),
            np.array([1.5, 1.0, -0.7]))),
    Sample((g.normal(2, 3), np.array([[1], [0]], np.int32), g.normal(2, 3)))])
op("boolean_mask", lambda g: [Sample((g.normal(4, 3), np.array([True, False, True, True]))),
                              Sample((g.normal(2, 3, 2), np.array([[True, False, True],
                                                                    [False, True, True]]))),
                              Sample((g.normal(2, 3), np.array([False, True, True])),
                                     {"axis": 1})])
op("slice", lambda g: [Sample((g.normal(3, 4), [1, 0], [2, 3])),
                       Sample((g.normal(4, 3, 2), [1, 1, 0], [-1, 2, 1]))])
op("strided_slice", lambda g: [
    Sample((g.normal(5, 4), [1, 0], [5, 4], [2, 1])),
    Sample((g.normal(5, 4), [4, 3], [0, 0], [-1, -2]), {"end_mask": 1}),
    Sample((g.normal(3, 4, 2), [1, 0], [2, 3], [1, 1]), {"shrink_axis_mask": 1})])
op("tensor_getitem", lambda g: [Sample((g.normal(4, 5, 3),)), Sample((g.normal(3, 4, 2),))],
   fn=lambda tf, x: x[1:3, ::-2, 1])
op("reverse", lambda g: [Sample((g.normal(3, 4), [1])), Sample((g.normal(2, 3, 2), [0, -1]))])
op("roll", lambda g: [Sample((g.normal(5,), 2, 0)), Sample((g.normal(3, 4), [1, -1], [0, 1]))])
op("broadcast_to", lambda g: [Sample((g.normal(3, 1), [2, 3, 4])), Sample((g.normal(), [3]))])
op("repeat", lambda g: [Sample((g.normal(3, 2), 2), {"axis": 0}),
                        Sample((g.normal(2, 3), [1, 0, 2]), {"axis": 1}),
                        Sample((g.normal(2, 2), 2))])
op("meshgrid", lambda g: [Sample((g.normal(3), g.normal(2))),
                          Sample((g.normal(3), g.normal(2), g.normal(2)), {"indexing": "ij"})])
op("linspace", lambda g: [Sample((g.normal(), g.normal(), 5)),
                          Sample((g.normal(2), g.normal(2), 4), {"axis": 1})])
op("eye", lambda g: [Sample((3,)), Sample((2, 3), {"batch_shape": [2]})], grad=False)
op("identity", lambda g: [Sample((g.normal(2, 3),)), Sample((g.normal(),))])
op("shape", lambda g: [Sample((g.normal(2, 3),)), Sample((g.normal(),))], grad=False)
op("size", lambda g: [Sample((g.normal(2, 3),))], grad=False)
op("rank", lambda g: [Sample((g.normal(2, 3, 1),))], grad=False)
op("one_hot", lambda g: [Sample((np.array([0, 2, 5, 1], np.int32), 4)),
                         Sample((np.array([[1], [0]], np.int32), 3), {"axis": 0})],
   grad=False, dtypes=("float32",))
op("sequence_mask", lambda g: [Sample((np.array([1, 3, 0], np.int32),)),
                               Sample((np.array([[2], [4]], np.int32), 5))],
   grad=False, dtypes=("float32",))
op("where", lambda g: [Sample((g.bools(3, 4), g.normal(3, 4), g.normal(3, 4))),
                       Sample((g.bools(3, 1), g.normal(3, 4), g.normal(4)))])
op("fill", lambda g: [Sample(([2, 3], np.float64(1.5)))])
op("zeros_like", lambda g: [Sample((g.normal(2, 3),))], grad=False)
op("ones_like", lambda g: [Sample((g.normal(2, 3),))], grad=False)
op("stop_gradient", lambda g: [Sample((g.normal(2, 3),))], grad=False)
op("reverse_sequence", lambda g: [Sample((g.normal(3, 4, 2), np.array([2, 4, 1], np.int32)),
                                         {"seq_axis": 1, "batch_axis": 0})])
op("cast", lambda g: [Sample((g.normal(3, 4),), {"dtype": "float64"})],
   fn=lambda tf, x, dtype: tf.cast(tf.cast(x, dtype), x.dtype))
op("einsum", lambda g: [Sample(("ij,jk->ik", g.normal(2, 3), g.normal(3, 4))),
                        Sample(("bij,bjk->bik", g.normal(2, 2, 3), g.normal(2, 3, 2))),
                        Sample(("ij->ji", g.normal(2, 3))),
                        Sample(("ij->i", g.normal(2, 3))),
                        Sample(("i,j->ij", g.normal(3), g.normal(2))),
                        Sample(("...ij,...j->...i", g.normal(2, 3, 4), g.normal(2, 4))),
                        Sample(("ij,ij", g.normal(2, 3), g.normal(2, 3))),
                        Sample(("bi,bi->b", g.normal(4, 3), g.normal(4, 3))),
                        Sample(("ii->i", g.normal(3, 3))),
                        Sample(("ii", g.normal(3, 3))),
                        Sample(("bii,bj->bij", g.normal(2, 2, 2), g.normal(2, 3)))],
   rtol=1e-4, atol=1e-5)
op("tensordot", lambda g: [Sample((g.normal(2, 3), g.normal(3, 4), 1)),
                           Sample((g.normal(2, 3, 4), g.normal(4, 3, 2), [[1, 2], [1, 0]])),
                           Sample((g.normal(2), g.normal(3), 0))],
   rtol=1e-4, atol=1e-5)

# ---------------------------------------------------------------------------- complex

C64_128 = ("complex64", "complex128")


def _cplx(g, *shape):
    return g.normal(*shape) + 1j * g.normal(*shape)


def _cplx_away(g, *shape):
    return g.away(*shape) * np.exp(1j * g.uniform(-3, 3, *shape))


def complex_row(name, fn, samples, **kw):
    op(name, samples, fn=fn, dtypes=C64_128, rtol=1e-4, atol=1e-5, **kw)


_C_UNARY = lambda make: lambda g: [Sample((make(g, 3, 2),)), Sample((make(g),))]  # noqa
_C_BINARY = lambda mx, my: lambda g: [Sample((mx(g, 3, 2), my(g, 3, 2))),  # noqa
                                      Sample((mx(g, 2, 1), my(g, 3))),
                                      Sample((mx(g), my(g, 2)))]

complex_row("complex.add", lambda tf, x, y: tf.math.add(x, y), _C_BINARY(_cplx, _cplx))
complex_row("complex.subtract", lambda tf, x, y: x - y, _C_BINARY(_cplx, _cplx))
complex_row("complex.multiply", lambda tf, x, y: x * y, _C_BINARY(_cplx, _cplx))
complex_row("complex.divide", lambda tf, x, y: x / y, _C_BINARY(_cplx, _cplx_away))
complex_row("complex.exp", lambda tf, x: tf.math.exp(x), _C_UNARY(_cplx))
complex_row("complex.log", lambda tf, x: tf.math.log(x), _C_UNARY(_cplx_away))
complex_row("complex.sin", lambda tf, x: tf.math.sin(x), _C_UNARY(_cplx))
complex_row("complex.cos", lambda tf, x: tf.math.cos(x), _C_UNARY(_cplx))
complex_row("complex.tanh", lambda tf, x: tf.math.tanh(x), _C_UNARY(
    lambda g, *s: 0.5 * _cplx(g, *s)))
complex_row("complex.square", lambda tf, x: tf.math.square(x), _C_UNARY(_cplx))
complex_row("complex.sqrt", lambda tf, x: tf.math.sqrt(x), _C_UNARY(
    lambda g, *s: g.positive(*s) * np.exp(1j * g.uniform(-2, 2, *s))))
complex_row("complex.reciprocal", lambda tf, x: tf.math.reciprocal(x), _C_UNARY(_cplx_away))
complex_row("complex.abs", lambda tf, x: tf.math.abs(x), _C_UNARY(_cplx_away))
complex_row("complex.conj", lambda tf, x: tf.math.conj(x), _C_UNARY(_cplx))
complex_row("complex.real", lambda tf, x: tf.math.real(x), _C_UNARY(_cplx))
complex_row("complex.imag", lambda tf, x: tf.math.imag(x), _C_UNARY(_cplx))
complex_row("math.angle", lambda tf, x: tf.math.angle(x), _C_UNARY(_cplx_away))
op("complex", lambda g: [Sample((g.normal(3, 2), g.normal(3, 2))),
                         Sample((g.normal(2, 1), g.normal(3)))],
   fn=lambda tf, x, y: tf.math.real(tf.complex(x, y) * tf.complex(y, x)) + tf.math.imag(
       tf.complex(x, y) ** 2))
complex_row("complex.reduce_sum", lambda tf, x: tf.reduce_sum(x, axis=0), lambda g: [
    Sample((_cplx(g, 3, 2),))])
complex_row("complex.reduce_mean", lambda tf, x: tf.reduce_mean(x), lambda g: [
    Sample((_cplx(g, 3, 2),))])
complex_row("complex.matmul", lambda tf, a, b: tf.linalg.matmul(a, b), lambda g: [
    Sample((_cplx(g, 2, 3), _cplx(g, 3, 2))), Sample((_cplx(g, 2, 2, 3), _cplx(g, 3, 1)))])
complex_row("complex.matmul_adjoint", lambda tf, a, b: tf.linalg.matmul(
    a, b, adjoint_a=True, transpose_b=True), lambda g: [Sample((_cplx(g, 3, 2),
                                                                _cplx(g, 2, 3)))])
complex_row("complex.transpose_reshape", lambda tf, x: tf.reshape(tf.transpose(x), [-1]),
            lambda g: [Sample((_cplx(g, 3, 2),))])

# ----------------------------------------------------------------------------- linalg


def _sym(tf, x):
    return (x + tf.linalg.matrix_transpose(x)) * 0.5


op("linalg.matmul", lambda g: [
    Sample((g.normal(2, 3), g.normal(3, 4))),
    Sample((g.normal(3, 2), g.normal(3, 4)), {"transpose_a": True}),
    Sample((g.normal(2, 3), g.normal(4, 3)), {"transpose_b": True}),
    Sample((g.normal(3, 2), g.normal(4, 3)), {"adjoint_a": True, "adjoint_b": True}),
    Sample((g.normal(2, 2, 3), g.normal(1, 3, 4))),
    Sample((g.normal(4, 2, 3), g.normal(3, 2)))], rtol=1e-4, atol=1e-5)
op("linalg.matvec", lambda g: [Sample((g.normal(2, 3), g.normal(3))),
                               Sample((g.normal(2, 2, 3), g.normal(2, 2)),
                                      {"transpose_a": True})], rtol=1e-4, atol=1e-5)
op("linalg.diag_part", lambda g: [Sample((g.normal(3, 3),)), Sample((g.normal(2, 3, 4),))])
op("linalg.diag", lambda g: [Sample((g.normal(3),)), Sample((g.normal(2, 2),))])
op("linalg.set_diag", lambda g: [Sample((g.normal(3, 3), g.normal(3)))])
op("linalg.band_part", lambda g: [Sample((g.normal(4, 4), 1, 0)), Sample((g.normal(2, 3, 4),
                                                                           -1, 1))])
op("linalg.trace", lambda g: [Sample((g.normal(3, 3),)), Sample((g.normal(2, 3, 3),))])
op("linalg.matrix_transpose", lambda g: [Sample((g.normal(2, 3, 4),))])
op("linalg.inv", lambda g: [Sample((g.well_conditioned(3, 3),)),
                            Sample((g.well_conditioned(2, 2, 2),), {"adjoint": True})],
   rtol=1e-4, atol=1e-5)
op("linalg.det", lambda g: [Sample((g.well_conditioned(3, 3),)),
                            Sample((g.well_conditioned(2, 2, 2),))], rtol=1e-4, atol=1e-5)
op("linalg.slogdet", lambda g: [Sample((g.well_conditioned(3, 3),)),
                                Sample((-g.well_conditioned(2, 3, 3),))], rtol=1e-4, atol=1e-5)
op("linalg.logdet", lambda g: [Sample((g.spd(3, 3),)), Sample((g.spd(2, 2, 2),))],
   fn=lambda tf, x: tf.linalg.logdet(_sym(tf, x)), rtol=1e-4, atol=1e-5)
op("linalg.cholesky", lambda g: [Sample((g.spd(3, 3),)), Sample((g.spd(2, 2, 2),))],
   fn=lambda tf, x: tf.linalg.cholesky(_sym(tf, x)), rtol=1e-4, atol=1e-5,
   note="checked through a symmetrisation: TF's gradient is symmetric, its kernel reads "
        "the lower triangle")
op("linalg.solve", lambda g: [Sample((g.well_conditioned(3, 3), g.normal(3, 2))),
                              Sample((g.well_conditioned(2, 3, 3), g.normal(2, 3, 1)),
                                     {"adjoint": True})], rtol=1e-4, atol=1e-5)
op("linalg.triangular_solve", lambda g: [
    Sample((g.well_conditioned(3, 3), g.normal(3, 2))),
    Sample((g.well_conditioned(3, 3), g.normal(3, 2)), {"lower": False}),
    Sample((g.well_conditioned(2, 3, 3), g.normal(2, 3, 1)), {"adjoint": True})],
   rtol=1e-4, atol=1e-5)
op("linalg.cholesky_solve", lambda g: [Sample((g.spd(3, 3), g.normal(3, 2)))],
   fn=lambda tf, a, b: tf.linalg.cholesky_solve(tf.linalg.cholesky(_sym(tf, a)), b),
   rtol=1e-4, atol=1e-5)
op("linalg.qr", lambda g: [Sample((g.well_conditioned(3, 3),)),
                           Sample((g.normal(4, 3) + np.eye(4, 3),))],
   fn=lambda tf, x: _qr_canonical(tf, x), rtol=1e-4, atol=1e-5)
op("linalg.svd", lambda g: [Sample((np.diag([3.0, 2.0, 1.0]) + 0.2 * g.normal(3, 3),)),
                            Sample((np.eye(4, 3) * [3.0, 2.0, 1.0] + 0.2 * g.normal(4, 3),))],
   fn=lambda tf, x: tf.linalg.svd(x, compute_uv=False), rtol=1e-4, atol=1e-5,
   note="singular values only (distinct, non-zero)")
op("linalg.svd_uv", lambda g: [Sample((np.diag([3.0, 2.0, 1.0]) + 0.2 * g.normal(3, 3),)),
                               Sample((np.eye(4, 3) * [3.0, 2.0, 1.0] + 0.2 * g.normal(4, 3),)),
                               Sample((np.eye(2, 4) * [[3.0], [1.0]] + 0.2 * g.normal(2, 4),))],
   fn=lambda tf, x: _svd_canonical(tf, x), rtol=1e-4, atol=1e-5,
   note="with singular vectors, their signs fixed (LAPACK builds may flip them)")
op("linalg.adjoint", lambda g: [Sample((g.normal(2, 3, 4),))])
op("linalg.adjoint_complex", lambda g: [Sample((_cplx(g, 2, 3),))],
   fn=lambda tf, x: tf.linalg.adjoint(x), dtypes=C64_128, rtol=1e-4, atol=1e-5)
op("linalg.lstsq", lambda g: [Sample((g.normal(5, 3) + np.eye(5, 3), g.normal(5, 2))),
                              Sample((g.normal(4, 2) + np.eye(4, 2), g.normal(4, 1)),
                                     {"l2_regularizer": 0.5})], rtol=1e-3, atol=1e-4,
   rtol64=1e-7, atol64=1e-9)
op("linalg.pinv", lambda g: [Sample((np.eye(4, 3) * [3.0, 2.0, 1.0] + 0.2 * g.normal(4, 3),)),
                             Sample((np.eye(2, 3) * [[2.0], [1.0]] + 0.2 * g.normal(2, 3),))],
   rtol=1e-4, atol=1e-5, rtol64=1e-8, atol64=1e-10)
op("linalg.eigh", lambda g: [Sample((np.diag([3.0, 1.0, -1.5]) + 0.3 * g.normal(3, 3),)),
                             Sample((np.diag([2.0, 0.5]) + 0.3 * g.normal(2, 2, 2),))],
   fn=lambda tf, x: _eigh_canonical(tf, _sym(tf, x)), rtol=1e-4, atol=1e-5,
   note="symmetrised input, eigenvector signs fixed (LAPACK builds may flip them)")
op("linalg.eigvalsh", lambda g: [Sample((np.diag([3.0, 1.0, -1.5]) + 0.3 * g.normal(3, 3),))],
   fn=lambda tf, x: tf.linalg.eigvalsh(_sym(tf, x)), rtol=1e-4, atol=1e-5)
op("linalg.expm", lambda g: [Sample((g.normal(3, 3),)), Sample((3.0 * g.normal(2, 2, 2),))],
   rtol=1e-4, atol=1e-5, rtol64=1e-8, atol64=1e-10)
op("linalg.cross", lambda g: [Sample((g.normal(3), g.normal(3))),
                              Sample((g.normal(2, 3), g.normal(2, 3)))])
op("linalg.normalize", lambda g: [Sample((g.away(3, 4),), {"axis": 1}),
                                  Sample((g.away(4),), {"ord": 1})])
op("linalg.matrix_rank", lambda g: [Sample((np.array([[1.0, 2.0], [2.0, 4.0]]),)),
                                    Sample((g.well_conditioned(2, 3, 3),))], grad=False)
op("linalg.norm", lambda g: [Sample((g.away(3, 4),)), Sample((g.away(2, 3, 3),),
                                                              {"axis": [-2, -1]})])
op("linalg.global_norm", lambda g: [Sample(([g.normal(3, 2), g.normal(4)],))])


# ------------------------------------------------------------------------ tf.signal (FFTs)
_NO_TF_3D_GRAD = "TF 2.21 registers no gradient for RFFT3D/IRFFT3D (LookupError): ours is " \
    "checked by finite differences (docs/ops.md)"


def _parts(tf, z):
    """A complex result as its real and imaginary parts (the Jacobian checks take floats)."""
    return tf.math.real(z), tf.math.imag(z)


for _name, _shapes in (("fft", [(6,), (2, 5)]), ("ifft", [(5,), (3, 4)]),
                       ("fft2d", [(3, 4), (2, 2, 3)]), ("ifft2d", [(2, 5)]),
                       ("fft3d", [(2, 3, 2)]), ("ifft3d", [(2, 2, 2, 3)])):
    op(f"signal.{_name}", lambda g, _s=_shapes: [Sample((_cplx(g, *s),)) for s in _s],
       dtypes=C64_128, rtol=1e-4, atol=1e-5)
op("signal.rfft", lambda g: [Sample((g.normal(7),)), Sample((g.normal(2, 6),)),
                             Sample((g.normal(5),), {"fft_length": [8]})],
   fn=lambda tf, x, **kw: _parts(tf, tf.signal.rfft(x, **kw)), rtol=1e-4, atol=1e-5)
op("signal.irfft", lambda g: [Sample((_cplx(g, 5),)), Sample((_cplx(g, 2, 4),),
                                                              {"fft_length": [7]})],
   dtypes=C64_128, rtol=1e-4, atol=1e-5)
op("signal.rfft2d", lambda g: [Sample((g.normal(3, 5),)), Sample((g.normal(2, 4, 4),))],
   fn=lambda tf, x: _parts(tf, tf.signal.rfft2d(x)), rtol=1e-4, atol=1e-5)
op("signal.irfft2d", lambda g: [Sample((_cplx(g, 3, 4),))], dtypes=C64_128, rtol=1e-4,
   atol=1e-5)
op("signal.rfft3d", lambda g: [Sample((g.normal(2, 3, 4),))],
   fn=lambda tf, x: _parts(tf, tf.signal.rfft3d(x)), rtol=1e-4, atol=1e-5,
   tf_grad=False, note=_NO_TF_3D_GRAD)
op("signal.irfft3d", lambda g: [Sample((_cplx(g, 2, 2, 3),))], dtypes=C64_128, rtol=1e-4,
   atol=1e-5, tf_grad=False, note=_NO_TF_3D_GRAD)


def _qr_canonical(tf, x):
    # Signs of QR factors are not unique (LAPACK builds differ); fix diag(r) > 0.
    q, r = tf.linalg.qr(x)
    s = tf.sign(tf.linalg.diag_part(r))
    return q * s[..., None, :], r * s[..., :, None]


# ------------------------------------------------------------------ gradient rows (no TF)
#
# Every differentiable op once more, one row per case, checked by float64 finite differences
# only (``tf_fixture=False``: the recorder leaves them out): binary element-wise ops on a
# same-shape, two broadcasting and three scalar pairs of shapes, unary ones on a matrix and
# a scalar, reductions over every kind of axis, matmul in every transposition and batch
# broadcast, shapes and slicing, losses, convolution and pooling. The checks are tighter
# than the rows above (first order ``rtol 1e-7, atol 1e-8`` at step 1e-6, the full Jacobian
# of every row, second order ten times looser), and the float32 gradients must agree with
# the float64 ones. Each row's inputs come from its own domain (away from poles, kinks and
# ties), drawn from a generator seeded by the case name.


def _d_normal(shape):
    return lambda rng: rng.standard_normal(shape)


def _d_positive(shape, low=0.5, high=2.0):
    return lambda rng: rng.uniform(low, high, shape)


def _d_away(shape, low=0.3, high=1.5):
    return lambda rng: rng.choice([-1.0, 1.0], shape) * rng.uniform(low, high, shape)


def _d_lattice(shape, offset=0.0):
    # Values 0.5 apart (plus jitter): two lattices with offsets 0 and 0.25 never tie.
    return lambda rng: (0.5 * rng.integers(-4, 5, shape) + offset
                        + rng.uniform(-0.05, 0.05, shape))


def _d_distinct(shape):
    # Distinct values with gaps of at least 0.2: reduce_max/min have no ties.
    n = int(np.prod(shape))
    return lambda rng: (rng.permutation(n) * 0.3 - 1.0 + rng.uniform(-0.05, 0.05, n)).reshape(
        shape)


def _floormod_pair(x_shape, y_shape):
    # |y| within 2.5% of 2 and x = 2 (k + f) with f in [0.3, 0.7]: every x / y stays 0.2
    # away from an integer, where floor(x / y) is constant, whatever the broadcasting.
    def gen(rng):
        y = rng.choice([-1.0, 1.0], y_shape) * rng.uniform(1.95, 2.05, y_shape)
        x = 2.0 * (rng.integers(-3, 3, x_shape) + rng.uniform(0.3, 0.7, x_shape))
        return [x, y]
    return gen


def grad_row(case, fn, *domains, gen=None, eps=1e-6, rtol=1e-7, second_xfail=None):
    """A gradient row ``grad.<case>``: ``fn(tf, *tensors)`` at inputs drawn from
    ``domains`` (one ``rng -> array`` per input) or ``gen`` (``rng -> [arrays]``), with
    first-order step ``eps`` and tolerance ``rtol`` (second order: both ten times larger)."""
    def samples(g):
        arrays = gen(g.rng) if gen is not None else [d(g.rng) for d in domains]
        return [Sample(tuple(np.asarray(a, np.float64) for a in arrays))]

    op(f"grad.{case}", samples, fn=fn, tf_fixture=False, seed=case,
       fd_eps=(eps, 10 * eps), fd_rtol=rtol, fd_atol=1e-8, jac_tol=(rtol, 1e-8),
       tol2=(10 * rtol, 1e-7), full_jacobian=True,
       xfail={} if second_xfail is None else {"second_order": second_xfail})


def _public(path):
    """``fn(tf, *args)`` calling ``tf.<path>``."""
    return lambda tf, *a: resolve(tf, path)(*a)


_G_BINARY = {
    "add": ("add", _d_normal, _d_normal),
    "subtract": ("subtract", _d_normal, _d_normal),
    "multiply": ("multiply", _d_normal, _d_normal),
    "divide": ("divide", _d_normal, _d_away),
    "truediv": ("math.truediv", _d_normal, _d_away),
    "pow": ("pow", _d_positive, _d_normal),
    "squared_difference": ("math.squared_difference", _d_normal, _d_normal),
    "maximum": ("maximum", _d_lattice, lambda s: _d_lattice(s, 0.25)),
    "minimum": ("minimum", _d_lattice, lambda s: _d_lattice(s, 0.25)),
    "operator+": (lambda tf, x, y: x + y, _d_normal, _d_normal),
    "operator-": (lambda tf, x, y: x - y, _d_normal, _d_normal),
    "operator*": (lambda tf, x, y: x * y, _d_normal, _d_normal),
    "operator/": (lambda tf, x, y: x / y, _d_normal, _d_away),
    "operator**": (lambda tf, x, y: x ** y, _d_positive, _d_normal),
}
_G_SHAPE_PAIRS = {
    "same": ((2, 3), (2, 3)),
    "broadcast": ((3, 1), (1, 4)),
    "broadcast_rank": ((2, 3), (3,)),
    "scalar_left": ((), (2, 3)),
    "scalar_right": ((2, 3), ()),
    "scalars": ((), ()),
}
for _name, (_fn, _dx, _dy) in _G_BINARY.items():
    for _label, (_sx, _sy) in _G_SHAPE_PAIRS.items():
        grad_row(f"{_name}-{_label}", _public(_fn) if isinstance(_fn, str) else _fn,
                 _dx(_sx), _dy(_sy))

for _label, (_sx, _sy) in _G_SHAPE_PAIRS.items():
    grad_row(f"floormod-{_label}", _public("math.floormod"), gen=_floormod_pair(_sx, _sy))
grad_row("operator%", lambda tf, x, y: x % y, gen=_floormod_pair((2, 3), (3,)))
grad_row("mod", _public("math.mod"), gen=_floormod_pair((3,), (3,)))
grad_row("pow-python-exponent", lambda tf, x: x ** 3, _d_normal((2, 3)))
grad_row("pow-square-root", lambda tf, x: tf.pow(x, 0.5), _d_positive((4,)))
grad_row("rpow", lambda tf, y: 2.0 ** y, _d_normal((3,)))

_G_UNARY = {
    "negative": ("negative", _d_normal),
    "operator-neg": (lambda tf, x: -x, _d_normal),
    "abs": ("abs", _d_away),
    "square": ("square", _d_normal),
    "sqrt": ("sqrt", _d_positive),
    "rsqrt": ("math.rsqrt", _d_positive),
    "exp": ("exp", _d_normal),
    "log": ("math.log", _d_positive),
    "log1p": ("math.log1p", lambda s: _d_positive(s, -0.5, 2.0)),
    "expm1": ("math.expm1", _d_normal),
    "tanh": ("tanh", _d_normal),
    "sigmoid": ("sigmoid", _d_normal),
    "reciprocal": ("math.reciprocal", _d_away),
    "sin": ("sin", _d_normal),
    "cos": ("cos", _d_normal),
    "softplus": ("math.softplus", _d_normal),
    "relu": ("nn.relu", _d_away),
    "relu6": ("nn.relu6", lambda s: lambda rng: _d_away(s)(rng) * 3.0),
    "elu": ("nn.elu", _d_away),
    "selu": ("nn.selu", _d_away),
    "leaky_relu": ("nn.leaky_relu", _d_away),
    "silu": ("nn.silu", _d_normal),
    "swish": ("nn.swish", _d_normal),
    "sign": (lambda tf, x: tf.sign(x) * x, _d_away),
    "identity": ("identity", _d_normal),
    "l2_loss": ("nn.l2_loss", _d_normal),
}
for _name, (_fn, _d) in _G_UNARY.items():
    _fn = _public(_fn) if isinstance(_fn, str) else _fn
    grad_row(_name, _fn, _d((2, 3)))
    grad_row(f"{_name}-scalar", _fn, _d(()))

grad_row("clip_by_value", lambda tf, x: tf.clip_by_value(x, -0.5, 0.5), _d_lattice((2, 4), 0.25))
grad_row("softmax", _public("nn.softmax"), _d_normal((2, 4)))
grad_row("softmax-axis0", lambda tf, x: tf.nn.softmax(x, axis=0), _d_normal((3, 2)))
grad_row("log_softmax", _public("nn.log_softmax"), _d_normal((2, 4)))
grad_row("log_softmax-axis0", lambda tf, x: tf.nn.log_softmax(x, axis=0), _d_normal((3, 2)))
grad_row("cast-f32-round-trip", lambda tf, x: tf.cast(tf.cast(x, tf.float32) * 2.0, x.dtype),
         _d_normal((3,)), eps=1e-2, rtol=1e-4)

for _rname, _dom in [("reduce_sum", _d_normal), ("reduce_mean", _d_normal),
                     ("reduce_max", _d_distinct), ("reduce_min", _d_distinct),
                     ("reduce_prod", _d_away)]:
    grad_row(f"{_rname}-all", _public(_rname), _dom((2, 3, 2)))
    grad_row(f"{_rname}-axis1", lambda tf, x, r=_rname: resolve(tf, r)(x, axis=1),
             _dom((2, 3, 2)))
    grad_row(f"{_rname}-axes02-keepdims",
             lambda tf, x, r=_rname: resolve(tf, r)(x, axis=[0, 2], keepdims=True),
             _dom((2, 3, 2)))
    grad_row(f"{_rname}-negative-axis", lambda tf, x, r=_rname: resolve(tf, r)(x, axis=-1),
             _dom((3, 2)))
    grad_row(f"{_rname}-scalar", _public(_rname), _dom(()))

_PROD_ZERO = ("second derivative of reduce_prod at an exact zero: its rule goes through "
              "Cumprod's, which divides by x (as TensorFlow's, which gives 0 there, also "
              "not the true value)")


def _with_zero_at(shape, index):
    def gen(rng):
        x = _d_away(shape)(rng)
        x[index] = 0.0
        return [x]
    return gen


grad_row("reduce_prod-with-one-zero", lambda tf, x: tf.reduce_prod(x, axis=0),
         gen=_with_zero_at((2, 3), (0, 1)), second_xfail=_PROD_ZERO)
grad_row("reduce_prod-with-zero-all", _public("reduce_prod"), gen=_with_zero_at((4,), 1),
         second_xfail=_PROD_ZERO)
grad_row("reduce_prod-with-two-zeros", lambda tf, x: tf.reduce_prod(x, axis=1),
         gen=_with_zero_at((2, 3), (0, slice(0, 2))), second_xfail=_PROD_ZERO)
grad_row("reduce_max-ties-split", lambda tf, x: tf.reduce_max(tf.stack([x, x])),
         _d_distinct((3,)))
for _excl in (False, True):
    for _rev in (False, True):
        _tag = f"{'-exclusive' if _excl else ''}{'-reverse' if _rev else ''}"
        grad_row(f"cumsum{_tag}", lambda tf, x, e=_excl, r=_rev: tf.math.cumsum(
            x, axis=1, exclusive=e, reverse=r), _d_normal((2, 4)))
        grad_row(f"cumprod{_tag}", lambda tf, x, e=_excl, r=_rev: tf.math.cumprod(
            x, axis=0, exclusive=e, reverse=r), _d_away((3, 2)))
grad_row("add_n", lambda tf, a, b, c: tf.add_n([a, b, c]), _d_normal((2, 2)), _d_normal((2, 2)),
         _d_normal((2, 2)))
grad_row("add_n-single", lambda tf, a: tf.add_n([a]), _d_normal((3,)))

grad_row("matmul", _public("matmul"), _d_normal((2, 3)), _d_normal((3, 4)))
grad_row("matmul-transpose_a", lambda tf, a, b: tf.matmul(a, b, transpose_a=True),
         _d_normal((3, 2)), _d_normal((3, 4)))
grad_row("matmul-transpose_b", lambda tf, a, b: tf.matmul(a, b, transpose_b=True),
         _d_normal((2, 3)), _d_normal((4, 3)))
grad_row("matmul-transpose_both", lambda tf, a, b: tf.matmul(a, b, transpose_a=True,
                                                             transpose_b=True),
         _d_normal((3, 2)), _d_normal((4, 3)))
grad_row("matmul-operator", lambda tf, a, b: a @ b, _d_normal((2, 2)), _d_normal((2, 3)))
grad_row("matmul-batch", _public("matmul"), _d_normal((2, 2, 3)), _d_normal((2, 3, 2)))
grad_row("matmul-batch-broadcast", _public("matmul"), _d_normal((2, 2, 3)), _d_normal((3, 2)))
grad_row("matmul-batch-broadcast-both", _public("matmul"), _d_normal((2, 1, 2, 3)),
         _d_normal((3, 3, 1)))
grad_row("matmul-batch-transpose", lambda tf, a, b: tf.matmul(a, b, transpose_a=True,
                                                              transpose_b=True),
         _d_normal((2, 3, 2)), _d_normal((2, 2, 3)))
grad_row("matmul-1x1", _public("matmul"), _d_normal((1, 1)), _d_normal((1, 1)))
grad_row("matvec", _public("linalg.matvec"), _d_normal((2, 3)), _d_normal((3,)))
grad_row("matvec-transpose_a", lambda tf, a, b: tf.linalg.matvec(a, b, transpose_a=True),
         _d_normal((3, 2)), _d_normal((3,)))
grad_row("matvec-batch", _public("linalg.matvec"), _d_normal((2, 2, 3)), _d_normal((2, 3)))
grad_row("matvec-batch-broadcast", _public("linalg.matvec"), _d_normal((2, 3)),
         _d_normal((4, 3)))

grad_row("reshape", lambda tf, x: tf.reshape(x, (3, 2)) * tf.constant([[1.0, 2.0]] * 3, x.dtype),
         _d_normal((2, 3)))
grad_row("reshape-minus-one", lambda tf, x: tf.reshape(x, (-1,)), _d_normal((2, 2)))
grad_row("broadcast_to", lambda tf, x: tf.broadcast_to(x, (2, 3, 3)), _d_normal((3, 1)))
grad_row("transpose", lambda tf, x: tf.transpose(x), _d_normal((2, 3)))
grad_row("transpose-perm", lambda tf, x: tf.transpose(x, [1, 2, 0]), _d_normal((2, 3, 2)))
grad_row("expand_dims", lambda tf, x: tf.expand_dims(x, 1) * tf.constant([[[1.0], [2.0]]],
                                                                         x.dtype),
         _d_normal((3, 2)))
grad_row("squeeze", lambda tf, x: tf.squeeze(x, axis=1), _d_normal((2, 1, 3)))
grad_row("concat", lambda tf, a, b, c: tf.concat([a, b, c], axis=1), _d_normal((2, 1)),
         _d_normal((2, 3)), _d_normal((2, 2)))
grad_row("concat-axis0", lambda tf, a, b: tf.concat([a, b], axis=0), _d_normal((1, 2)),
         _d_normal((2, 2)))
grad_row("stack", lambda tf, a, b: tf.stack([a, b], axis=1), _d_normal((2, 3)),
         _d_normal((2, 3)))
grad_row("stack-axis0", lambda tf, a, b, c: tf.stack([a, b, c]), _d_normal((2,)),
         _d_normal((2,)), _d_normal((2,)))
grad_row("unstack", lambda tf, x: tf.add_n([u * float(k + 1)
                                            for k, u in enumerate(tf.unstack(x))]),
         _d_normal((3, 2)))
grad_row("tile", lambda tf, x: tf.tile(x, [2, 3]), _d_normal((2, 2)))
# (TF's values, gradients and errors: tests/ops/test_space_to_batch.py's recorded fixture)
grad_row("space_to_batch_nd", lambda tf, x: tf.space_to_batch_nd(x, [2, 3], [[1, 0], [1, 2]]),
         _d_normal((1, 3, 3, 2)))
grad_row("space_to_batch", lambda tf, x: tf.space_to_batch(x, [2], [[0, 1]]) ** 2,
         _d_normal((2, 3, 2)))
grad_row("batch_to_space", lambda tf, x: tf.batch_to_space(x, [2, 2], [[1, 0], [0, 1]]) ** 2,
         _d_normal((4, 2, 2, 1)))
grad_row("gather", lambda tf, x: tf.gather(x, [2, 0, 2]), _d_normal((3, 2)))
grad_row("gather-squared", lambda tf, x: tf.gather(x, [2, 0, 2]) ** 2, _d_normal((3, 2)))
grad_row("gather-axis1-squared", lambda tf, x: tf.square(
    tf.gather(x, tf.constant([[1, 1], [0, 2]]), axis=1)), _d_normal((2, 3)))
grad_row("gather-axis1", lambda tf, x: tf.gather(x, tf.constant([[1, 1], [0, 2]]), axis=1),
         _d_normal((2, 3)))
grad_row("where", lambda tf, x, y: tf.where(
    tf.constant([[True, False, True], [False, False, True]]), x, y),
    _d_normal((2, 3)), _d_normal((2, 3)))
grad_row("where-broadcast", lambda tf, x, y: tf.where(tf.constant([True, False, True]), x, y),
         _d_normal((2, 3)), _d_normal(()))
grad_row("getitem-int", lambda tf, x: x[1], _d_normal((3, 2)))
grad_row("getitem-slice", lambda tf, x: x[1:, :1], _d_normal((3, 2)))
grad_row("getitem-stride", lambda tf, x: x[::2], _d_normal((5,)))
grad_row("getitem-negative-stride", lambda tf, x: x[::-2, 1], _d_normal((4, 2)))
grad_row("getitem-newaxis-ellipsis", lambda tf, x: x[None, ..., 0], _d_normal((2, 3, 2)))
grad_row("getitem-tensor-index", lambda tf, x: x[tf.constant(1)] * x[0], _d_normal((2, 2)))
grad_row("iterate-rows", lambda tf, x: tf.add_n([r * r for r in x]), _d_normal((3, 2)))
grad_row("bias_add", _public("nn.bias_add"), _d_normal((2, 3)), _d_normal((3,)))
grad_row("fill", lambda tf, v: tf.fill([2, 3], v) * tf.constant([1.0, 2.0, 3.0], v.dtype),
         _d_normal(()))


def _d_probs(shape):
    def gen(rng):
        p = rng.uniform(0.1, 1.0, shape)
        return p / p.sum(-1, keepdims=True)
    return gen


grad_row("sigmoid_cross_entropy_with_logits",
         lambda tf, z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
         _d_positive((2, 3), 0.05, 0.95), _d_away((2, 3)))
grad_row("softmax_cross_entropy_with_logits",
         lambda tf, p, x: tf.nn.softmax_cross_entropy_with_logits(labels=p, logits=x),
         _d_probs((2, 3)), _d_normal((2, 3)))
grad_row("sparse_softmax_cross_entropy_with_logits",
         lambda tf, x: tf.nn.sparse_softmax_cross_entropy_with_logits(
             labels=tf.constant([2, 0]), logits=x), _d_normal((2, 3)))
grad_row("composite-mlp-loss", lambda tf, w, b, x: tf.reduce_mean(
    tf.nn.softmax_cross_entropy_with_logits(
        labels=tf.constant([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]], w.dtype),
        logits=tf.tanh(tf.matmul(x, w) + b))), _d_normal((3, 2)), _d_normal((2,)),
    _d_normal((3, 3)))

grad_row("conv2d-same-stride2", lambda tf, x, f: tf.nn.conv2d(x, f, 2, "SAME"),
         _d_normal((1, 5, 4, 2)), _d_normal((2, 3, 2, 3)))
grad_row("conv2d-valid", lambda tf, x, f: tf.nn.conv2d(x, f, 1, "VALID"),
         _d_normal((2, 4, 4, 1)), _d_normal((3, 2, 1, 2)))
grad_row("max_pool2d-same", lambda tf, x: tf.nn.max_pool2d(x, 2, 2, "SAME"),
         _d_distinct((1, 3, 5, 2)))
grad_row("avg_pool2d-same", lambda tf, x: tf.nn.avg_pool2d(x, 3, 2, "SAME"),
         _d_normal((1, 5, 4, 2)))
# 3-D: values against TensorFlow in tests/keras/test_layers_extra.py (layers_extra.json).
grad_row("conv3d-same-stride2", lambda tf, x, f: tf.nn.conv3d(x, f, [1, 2, 1, 2, 1], "SAME"),
         _d_normal((1, 3, 2, 3, 2)), _d_normal((2, 2, 2, 2, 2)))
# values against TensorFlow in tests/keras/test_layers_kconv.py (kconv.json)
grad_row("conv3d_transpose-same-stride2", lambda tf, x, f: tf.nn.conv3d_transpose(
    x, f, [1, 4, 3, 4, 2], [1, 2, 1, 2, 1], "SAME"),
         _d_normal((1, 2, 3, 2, 3)), _d_normal((2, 2, 3, 2, 3)))
grad_row("conv3d_transpose-valid", lambda tf, x, f: tf.nn.conv3d_transpose(
    x, f, [2, 4, 3, 3, 1], 1, "VALID"),
         _d_normal((2, 3, 2, 2, 2)), _d_normal((2, 2, 2, 1, 2)))
grad_row("max_pool3d-same", lambda tf, x: tf.nn.max_pool3d(x, 2, 2, "SAME"),
         _d_distinct((1, 3, 3, 2, 2)))
grad_row("avg_pool3d-same", lambda tf, x: tf.nn.avg_pool3d(x, 2, [1, 2, 1, 2, 1], "SAME"),
         _d_normal((1, 3, 2, 3, 1)))

# Ops without a gradient: nothing recorded, the gradient is None.
_NO_GRADIENT = {
    "equal": lambda tf, x: tf.equal(x, 1.0),
    "not_equal": lambda tf, x: tf.not_equal(x, 1.0),
    "less": lambda tf, x: x < 0.5,
    "less_equal": lambda tf, x: x <= 0.5,
    "greater": lambda tf, x: tf.greater(x, 0.5),
    "greater_equal": lambda tf, x: x >= 0.5,
    "argmax": lambda tf, x: tf.argmax(x),
    "argmin": lambda tf, x: tf.argmin(x, axis=0),
    "cast-to-int": lambda tf, x: tf.cast(x, tf.int32),
    "cast-to-bool": lambda tf, x: tf.cast(x, tf.bool),
    "stop_gradient": lambda tf, x: tf.stop_gradient(x),
    "round": lambda tf, x: tf.round(x),
    "floor": lambda tf, x: tf.floor(x),
    "ceil": lambda tf, x: tf.math.ceil(x),
    "is_nan": lambda tf, x: tf.math.is_nan(x),
    "is_finite": lambda tf, x: tf.math.is_finite(x),
    "where-indices": lambda tf, x: tf.where(x > 0.0),
    "one_hot": lambda tf, x: tf.one_hot(tf.argmax(x), 3),
    "logical_and": lambda tf, x: tf.logical_and(x > 0.0, x < 1.0),
    "logical_or": lambda tf, x: tf.logical_or(x > 0.0, x < 1.0),
    "logical_xor": lambda tf, x: tf.math.logical_xor(x > 0.0, x < 1.0),
    "logical_not": lambda tf, x: tf.logical_not(x > 0.0),
    "reduce_all": lambda tf, x: tf.reduce_all(x > 0.0),
    "reduce_any": lambda tf, x: tf.reduce_any(x > 0.0),
    "is_inf": lambda tf, x: tf.math.is_inf(x),
    "zeros_like": lambda tf, x: tf.zeros_like(x),
    "ones_like": lambda tf, x: tf.ones_like(x),
    "shape": lambda tf, x: tf.shape(x),
    "size": lambda tf, x: tf.size(x),
    "rank": lambda tf, x: tf.rank(x),
}
for _name, _fn in _NO_GRADIENT.items():
    op(f"grad.{_name}", lambda g: [Sample((np.array([0.25, 1.5, -2.0]),))], fn=_fn,
       grad=False, dtypes=("float64",), tf_fixture=False)
op("grad.range", lambda g: [Sample((np.array(0.25),))], grad=False, dtypes=("float64",),
   tf_fixture=False, fn=lambda tf, x: tf.range(x, 3.0, dtype=x.dtype))


# ----------------------------------------------------------- running a row (both libraries)


def is_source(a):
    return isinstance(a, (np.ndarray, np.generic)) and np.asarray(a).dtype.kind in "fc"


def convert(tf, sample, dtype, values=None, variables=False):
    """``(args, kwargs, sources)``: arrays made tensors (floats in ``dtype``), and the list
    of float tensors to differentiate, in argument order (kwargs by sorted key).

    ``values`` replaces the float arrays, in that order (for finite differences); a tensor
    among them is used as it is (``tf.test.compute_gradient``'s watched arguments);
    ``variables`` makes them ``tf.Variable``s instead of constants."""
    sources = []

    def one(a):
        if isinstance(a, list):
            return [one(b) for b in a]
        if isinstance(a, (np.ndarray, np.generic)):
            arr = np.asarray(a)
            if arr.dtype.kind in "fc":
                if values is not None:
                    if isinstance(values[len(sources)], tf.Tensor):
                        sources.append(values[len(sources)])
                        return sources[-1]
                    arr = np.asarray(values[len(sources)])
                t = (tf.Variable if variables else tf.constant)(arr.astype(dtype))
                sources.append(t)
                return t
            return tf.constant(arr)
        return a

    args = tuple(one(a) for a in sample.args)
    kwargs = {k: one(sample.kwargs[k]) for k in sorted(sample.kwargs)}
    return args, kwargs, sources


def flatten(out):
    """An op's result (tensor, tuple, list, nested) as a flat list of tensors."""
    if isinstance(out, (list, tuple)):
        flat = []
        for o in out:
            flat.extend(flatten(o))
        return flat
    return [] if out is None else [out]


def loss_weights(shape, k):
    """Fixed, non-symmetric cotangent for output ``k``: the loss is sum(out_k * w_k).
    (One read-only array per shape and ``k``: the finite-difference checks ask often.)"""
    return _loss_weights(tuple(shape), k)


@functools.lru_cache(maxsize=None)
def _loss_weights(shape, k):
    n = int(np.prod(shape)) if shape else 1
    w = (1.0 + 0.5 * np.cos(np.arange(n) * 1.3 + 0.7 * k)).reshape(shape)
    w.setflags(write=False)
    return w


# ------------------------------------------------------------------------- error cases


@dataclass
class ErrorCase:
    """A call that must fail with TensorFlow's exception class and first message line.

    ``fn(tf)`` builds its own inputs. ``match`` is ``"line"`` (class and first line),
    ``"class"`` (class only) or ``"raises"`` (both raise, classes differ); ``note`` says why.
    """

    name: str
    fn: object
    match: str = "line"
    note: str = ""


ERRORS = []


def err(name, fn, **kw):
    ERRORS.append(ErrorCase(name, fn, **kw))


def _c(tf, *shape, dtype="float32"):
    return tf.constant(np.arange(int(np.prod(shape)) if shape else 1, dtype=dtype).reshape(
        shape) if shape else np.array(1, dtype=dtype))


err("add_shapes", lambda tf: tf.math.add(_c(tf, 2, 3), _c(tf, 4)))
err("multiply_mixed_dtypes", lambda tf: tf.math.multiply(_c(tf, 3), _c(tf, 3, dtype="float64")))
err("atan2_shapes", lambda tf: tf.math.atan2(_c(tf, 2, 3), _c(tf, 2)))
err("xlogy_mixed_dtypes", lambda tf: tf.math.xlogy(_c(tf, 3), _c(tf, 3, dtype="float64")))
err("divide_no_nan_int", lambda tf: tf.math.divide_no_nan(_c(tf, 3, dtype="int32"),
                                                          _c(tf, 3, dtype="int32")))
err("floordiv_int_zero", lambda tf: tf.math.floordiv(tf.constant([4, 5]), tf.constant([2, 0])))
err("floormod_int_zero", lambda tf: tf.math.floormod(tf.constant([4, 5]), tf.constant([0, 1])))
err("erf_int", lambda tf: tf.math.erf(_c(tf, 3, dtype="int32")))
err("lgamma_int", lambda tf: tf.math.lgamma(_c(tf, 3, dtype="int32")))
err("reduce_sum_axis", lambda tf: tf.math.reduce_sum(_c(tf, 2, 3), axis=2))
err("reduce_logsumexp_axis", lambda tf: tf.math.reduce_logsumexp(_c(tf, 2, 3), axis=-3))
err("argmax_axis", lambda tf: tf.math.argmax(_c(tf, 2, 3), axis=2))
err("top_k_too_big", lambda tf: tf.math.top_k(_c(tf, 2, 3), k=4))
err("top_k_negative", lambda tf: tf.math.top_k(_c(tf, 3), k=-1))
err("matmul_inner", lambda tf: tf.linalg.matmul(_c(tf, 2, 3), _c(tf, 2, 3)))
err("matmul_rank1", lambda tf: tf.linalg.matmul(_c(tf, 3), _c(tf, 3)))
err("matmul_mixed", lambda tf: tf.linalg.matmul(_c(tf, 2, 2), _c(tf, 2, 2, dtype="float64")),
    match="class", note="TF's line names its oneDNN kernel (_MklMatMul); tapeflow says MatMul")
err("gather_out_of_range", lambda tf: tf.gather(_c(tf, 3, 2), tf.constant([0, 3])))
err("gather_out_of_range_2d", lambda tf: tf.gather(_c(tf, 3, 2), tf.constant([[0, 1], [7, 0]])))
err("gather_nd_out_of_range", lambda tf: tf.gather_nd(_c(tf, 3, 2), tf.constant([[0, 1],
                                                                                [3, 0]])))
err("scatter_nd_out_of_range", lambda tf: tf.scatter_nd(tf.constant([[5]]),
                                                         _c(tf, 1, 2), [4, 2]))
err("tensor_scatter_update_shapes", lambda tf: tf.tensor_scatter_nd_update(
    _c(tf, 4, 2), tf.constant([[0], [1]]), _c(tf, 2, 3)))
err("concat_shapes", lambda tf: tf.concat([_c(tf, 2, 3), _c(tf, 2, 2)], 0))
err("concat_mixed", lambda tf: tf.concat([_c(tf, 2, 3), _c(tf, 2, 3, dtype="float64")], 0))
err("stack_shapes", lambda tf: tf.stack([_c(tf, 2, 3), _c(tf, 3, 2)]))
err("split_uneven", lambda tf: tf.split(_c(tf, 5, 2), 2))
err("split_sizes", lambda tf: tf.split(_c(tf, 5, 2), [2, 2]))
err("reshape_count", lambda tf: tf.reshape(_c(tf, 2, 3), [4, 2]))
err("tile_length", lambda tf: tf.tile(_c(tf, 2, 3), [2]))
err("pad_rank", lambda tf: tf.pad(_c(tf, 2, 3), [[1, 1]]))
err("pad_reflect_too_wide", lambda tf: tf.pad(_c(tf, 2, 3), [[2, 0], [0, 0]], "REFLECT"))
err("pad_mode", lambda tf: tf.pad(_c(tf, 2, 3), [[1, 1], [0, 0]], "EDGE"))
err("slice_size", lambda tf: tf.slice(_c(tf, 3, 4), [1, 0], [3, 2]))
err("squeeze_not_one", lambda tf: tf.squeeze(_c(tf, 2, 3), [0]))
err("expand_dims_axis", lambda tf: tf.expand_dims(_c(tf, 2, 3), 4))
err("transpose_perm", lambda tf: tf.transpose(_c(tf, 2, 3), [1, 0, 2]))
err("broadcast_to_shapes", lambda tf: tf.broadcast_to(_c(tf, 2, 3), [4, 3]))
err("getitem_out_of_range", lambda tf: _c(tf, 2, 3)[5])
err("softmax_scalar", lambda tf: tf.nn.softmax(_c(tf)))
err("sparse_ce_label", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
    labels=tf.constant([0, 4]), logits=_c(tf, 2, 3)))
err("sparse_ce_rank", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
    labels=tf.constant([[0, 1]]), logits=_c(tf, 2, 3)))
err("sigmoid_ce_shapes", lambda tf: tf.nn.sigmoid_cross_entropy_with_logits(
    labels=_c(tf, 2, 3), logits=_c(tf, 3, 2)))
err("conv2d_channels", lambda tf: tf.nn.conv2d(_c(tf, 1, 4, 4, 3), _c(tf, 2, 2, 2, 1), 1,
                                               "SAME"))
err("conv2d_mixed", lambda tf: tf.nn.conv2d(_c(tf, 1, 4, 4, 2),
                                            _c(tf, 2, 2, 2, 1, dtype="float64"), 1, "SAME"),
    match="class", note="TF's line names its oneDNN kernel (_MklNativeConv2D)")
err("max_pool_rank", lambda tf: tf.nn.max_pool2d(_c(tf, 4, 4, 2), 2, 2, "VALID"))
err("inv_not_square", lambda tf: tf.linalg.inv(_c(tf, 2, 3)))
err("inv_singular", lambda tf: tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]])))
err("cholesky_not_pd", lambda tf: tf.linalg.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]])))
err("solve_rows", lambda tf: tf.linalg.solve(_c(tf, 3, 3) + tf.eye(3), _c(tf, 2, 1)))
err("det_int", lambda tf: tf.linalg.det(_c(tf, 2, 2, dtype="int32")))
err("one_hot_float_indices", lambda tf: tf.one_hot(_c(tf, 3), 3), match="class",
    note="TF rejects float indices while building the op")
err("range_delta_zero", lambda tf: tf.range(0, 5, 0))
err("unique_2d", lambda tf: tf.unique(_c(tf, 2, 2)))
err("bincount_negative", lambda tf: tf.math.bincount(tf.constant([1, -1])))
err("einsum_inputs", lambda tf: tf.einsum("ij,jk->ik", _c(tf, 2, 3)))
err("sort_direction", lambda tf: tf.sort(_c(tf, 3), direction="UP"))
err("conv2d_padding", lambda tf: tf.nn.conv2d(_c(tf, 1, 4, 4, 2), _c(tf, 2, 2, 2, 1), 1,
                                              "FULL"))
err("conv2d_transpose_shape", lambda tf: tf.nn.conv2d_transpose(
    _c(tf, 1, 3, 3, 2), _c(tf, 3, 3, 1, 2), [1, 8, 8, 1], 2, "SAME"), match="raises",
    note="TF's oneDNN kernel fails with AbortedError and an internal message; tapeflow raises "
         "InvalidArgumentError with the message of TF's reference kernel")
err("avg_pool_window", lambda tf: tf.nn.avg_pool2d(_c(tf, 1, 2, 2, 1), 3, 1, "VALID"))
err("gather_batch_dims", lambda tf: tf.gather(_c(tf, 2, 3), tf.constant([[0], [1], [0]]),
                                              batch_dims=1))
err("boolean_mask_shape", lambda tf: tf.boolean_mask(_c(tf, 3, 2), tf.constant([True, False])))
err("einsum_dims", lambda tf: tf.einsum("ij,jk->ik", _c(tf, 2, 3), _c(tf, 2, 3)))
err("tensordot_dims", lambda tf: tf.tensordot(_c(tf, 2, 3), _c(tf, 2, 3), 1))
err("reverse_axis", lambda tf: tf.reverse(_c(tf, 2, 3), [2]))
err("roll_sizes", lambda tf: tf.roll(_c(tf, 4), [1, 2], [0]))
err("linspace_num", lambda tf: tf.linspace(0.0, 1.0, 0))
err("atan2_int", lambda tf: tf.math.atan2(_c(tf, 2, dtype="int32"), _c(tf, 2, dtype="int32")))
err("segment_sum_unsorted", lambda tf: tf.math.segment_sum(_c(tf, 3), tf.constant([1, 0, 1])))
err("unsorted_segment_shape", lambda tf: tf.math.unsorted_segment_sum(
    _c(tf, 3, 2), tf.constant([0, 1]), 2))
err("scatter_nd_updates_shape", lambda tf: tf.scatter_nd(tf.constant([[0], [1]]),
                                                         _c(tf, 3, 2), [4, 2]))
err("triangular_solve_shapes", lambda tf: tf.linalg.triangular_solve(_c(tf, 3, 3) + tf.eye(3),
                                                                     _c(tf, 2, 1)))
err("cholesky_not_square", lambda tf: tf.linalg.cholesky(_c(tf, 2, 3)))
err("qr_rank1", lambda tf: tf.linalg.qr(_c(tf, 3)))
err("diag_part_rank1", lambda tf: tf.linalg.diag_part(_c(tf, 3)))
err("band_part_too_wide", lambda tf: tf.linalg.band_part(_c(tf, 2, 2), 3, 0))
err("top_k_scalar", lambda tf: tf.math.top_k(_c(tf), 1))
err("moments_axis", lambda tf: tf.nn.moments(_c(tf, 2, 3), [2]))
err("l2_loss_int", lambda tf: tf.nn.l2_loss(_c(tf, 3, dtype="int32")), match="class",
    note="TF's message carries its NodeDef dump after the first line")
err("depthwise_channels", lambda tf: tf.nn.depthwise_conv2d(
    _c(tf, 1, 4, 4, 3), _c(tf, 2, 2, 2, 1), [1, 1, 1, 1], "SAME"))
err("bias_add_size", lambda tf: tf.nn.bias_add(_c(tf, 2, 3), _c(tf, 2)))
err("split_axis", lambda tf: tf.split(_c(tf, 4, 2), 2, axis=2))
err("sort_scalar", lambda tf: tf.sort(_c(tf)))
err("sort_axis", lambda tf: tf.sort(_c(tf, 2), axis=1))
err("argsort_axis", lambda tf: tf.argsort(_c(tf, 2), axis=-2))
err("norm_ord", lambda tf: tf.norm(_c(tf, 2, 2), ord=-1))
err("top_k_float_k", lambda tf: tf.math.top_k(_c(tf, 3), k=2.5))
err("clip_by_global_norm_tensor", lambda tf: tf.clip_by_global_norm(_c(tf, 2), 1.0),
    match="class", note="the message names the library's tensor class")
err("polyval_tensor", lambda tf: tf.math.polyval(_c(tf, 2), 1.0), match="class",
    note="the message names the library's tensor class")
err("repeat_sizes", lambda tf: tf.repeat(_c(tf, 3), [1, 2], axis=0))
err("meshgrid_indexing", lambda tf: tf.meshgrid(_c(tf, 2), indexing="ab"))
err("gather_batch_dims_rank", lambda tf: tf.gather(_c(tf, 2, 3), [[0]], batch_dims=2))
err("matvec_inner", lambda tf: tf.linalg.matvec(_c(tf, 2, 3), _c(tf, 2)))
err("band_part_rank", lambda tf: tf.linalg.band_part(_c(tf, 2), 1, 1))
err("unstack_axis", lambda tf: tf.unstack(_c(tf, 2, 3), axis=2))
err("dropout_rate_one", lambda tf: tf.nn.dropout(_c(tf, 2), 1.0))
err("moments_duplicate_axes", lambda tf: tf.nn.moments(_c(tf, 2, 3), axes=[0, 0]))
err("confusion_out_of_bound", lambda tf: tf.math.confusion_matrix([0, 3], [1, 1],
                                                                  num_classes=2))
err("one_hot_depth", lambda tf: tf.one_hot([0, 1], -1))
err("eye_negative", lambda tf: tf.eye(-1))
err("segment_sum_size", lambda tf: tf.math.segment_sum(_c(tf, 3), [0, 0]))
err("gather_nd_depth", lambda tf: tf.gather_nd(_c(tf, 2), [[0, 0]]))
err("tile_negative", lambda tf: tf.tile(_c(tf, 2), [-1]))
err("sequence_mask_float", lambda tf: tf.sequence_mask(_c(tf, 3)), match="class",
    note="both refuse float lengths; TF words it through its internal ops")


def weighted_loss(tf, outs):
    """``sum_k sum(out_k * w_k)`` over the float outputs, as a float64 scalar (or None).

    Complex outputs contribute ``sum(real(out_k * w_k * (1 + 0.3i)))``."""
    loss = None
    for k, o in enumerate(outs):
        if not (o.dtype.is_complex or o.dtype.is_floating):
            continue
        shape = o.shape.as_list()
        if None in shape:
            # a trace with relaxed shapes (static sizes unknown, as in TF): the same weights
            # made per call from the run's shape
            n = tf.cast(tf.range(tf.size(o)), tf.float64)
            w = tf.reshape(1.0 + 0.5 * tf.cos(n * 1.3 + 0.7 * k), tf.shape(o))
            w = tf.cast(w, tf.complex128) * (1 + 0.3j) if o.dtype.is_complex else w
            w = tf.cast(w, o.dtype)
        else:
            w = loss_weights(shape, k)
            w = tf.constant(w * (1 + 0.3j) if o.dtype.is_complex else w, o.dtype)
        if o.dtype.is_complex:
            term = tf.reduce_sum(tf.math.real(o * w))
        else:
            term = tf.reduce_sum(o * w)
        term = tf.cast(term, tf.float64)
        loss = term if loss is None else loss + term
    return loss


def _eigh_canonical(tf, x):
    e, v = tf.linalg.eigh(x)
    return e, v * tf.sign(v[..., :1, :])


def _svd_canonical(tf, x):
    s, u, v = tf.linalg.svd(x)
    sign = tf.sign(v[..., :1, :])  # first row of v positive
    return s, u * sign, v * sign


def by_name():
    return {o.name: o for o in ROWS}


assert len(by_name()) == len(ROWS), "duplicate op names"

# The rows with TensorFlow fixtures: what tools/record_ops.py records, and what
# tests/function/test_ops_traced.py runs under tf.function (the grad.* rows repeat their ops).
OPS = [o for o in ROWS if o.tf_fixture]
