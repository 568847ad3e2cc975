"""Every differentiable op, first and second derivative, against float64 finite differences.

One row per case: a function of float64 Tensors and a generator of its inputs (each op's
input domain keeps away from poles and kinks). Binary element-wise ops get a same-shape,
a broadcasting and a scalar case. The one "reaches every differentiable
primitive" test is the op table's (tests/ops/test_op_db.py): the op table's rows alone reach
every differentiable primitive but AdjustContrastv2, which TensorFlow gives no gradient.
"""
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapeflow as tf
from tests.core.gradcheck import check_jacobian, check_second_order, check_vjp

F64 = tf.float64


# ----------------------------------------------------------------------- input domains



def _dense(grads):
    """Gradients as dense tensors: tf.gather's IndexedSlices become Tensors, as
    ``tf.convert_to_tensor`` makes them in TensorFlow."""
    if isinstance(grads, tf.IndexedSlices):
        return tf.convert_to_tensor(grads)
    if isinstance(grads, list):
        return [_dense(g) for g in grads]
    return grads

def normal(shape):
    return lambda rng: rng.standard_normal(shape)


def positive(shape, low=0.5, high=2.0):
    return lambda rng: rng.uniform(low, high, shape)


def away_from_zero(shape, low=0.3, high=1.5):
    return lambda rng: rng.choice([-1.0, 1.0], shape) * rng.uniform(low, high, shape)


def lattice(shape, offset=0.0):
    # Values 0.5 apart (plus jitter): two lattices with offsets 0 and 0.25 never tie.
    return lambda rng: (0.5 * rng.integers(-4, 5, shape) + offset
                        + rng.uniform(-0.05, 0.05, shape))


def distinct(shape):
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


class Case:
    def __init__(self, name, fn, *domains, gen=None, eps=None, rtol=None, second=True,
                 jacobian=True, second_xfail=None, float32=True):
        self.name = name
        self.fn = fn
        self.domains = domains
        self.gen = gen
        self.eps = eps
        self.rtol = rtol
        self.second = second
        self.jacobian = jacobian
        self.second_xfail = second_xfail
        self.float32 = float32

    def inputs(self):
        rng = np.random.default_rng(zlib.crc32(self.name.encode()))
        if self.gen is not None:
            return [np.asarray(a, np.float64) for a in self.gen(rng)], rng
        return [np.asarray(d(rng), np.float64) for d in self.domains], rng


CASES = []


def case(*args, **kwargs):
    CASES.append(Case(*args, **kwargs))


# ----------------------------------------------------------------------- binary element-wise

_BINARY = {
    "add": (tf.add, normal, normal),
    "subtract": (tf.subtract, normal, normal),
    "multiply": (tf.multiply, normal, normal),
    "divide": (tf.divide, normal, away_from_zero),
    "truediv": (tf.math.truediv, normal, away_from_zero),
    "pow": (tf.pow, positive, normal),
    "squared_difference": (tf.math.squared_difference, normal, normal),
    "maximum": (tf.maximum, lattice, lambda s: lattice(s, 0.25)),
    "minimum": (tf.minimum, lattice, lambda s: lattice(s, 0.25)),
    "operator+": (lambda x, y: x + y, normal, normal),
    "operator-": (lambda x, y: x - y, normal, normal),
    "operator*": (lambda x, y: x * y, normal, normal),
    "operator/": (lambda x, y: x / y, normal, away_from_zero),
    "operator**": (lambda x, y: x ** y, positive, normal),
}
_SHAPE_PAIRS = {
    "same": ((2, 3), (2, 3)),
    "broadcast": ((3, 1), (1, 4)),
    "broadcast_rank": ((2, 3), (3,)),
    "scalar_left": ((), (2, 3)),
    "scalar_right": ((2, 3), ()),
    "scalars": ((), ()),
}
for _name, (_fn, _dx, _dy) in _BINARY.items():
    for _label, (_sx, _sy) in _SHAPE_PAIRS.items():
        case(f"{_name}-{_label}", _fn, _dx(_sx), _dy(_sy))

for _label, (_sx, _sy) in _SHAPE_PAIRS.items():
    case(f"floormod-{_label}", tf.math.floormod, gen=_floormod_pair(_sx, _sy))
case("operator%", lambda x, y: x % y, gen=_floormod_pair((2, 3), (3,)))
case("mod", tf.math.mod, gen=_floormod_pair((3,), (3,)))
case("pow-python-exponent", lambda x: x ** 3, normal((2, 3)))
case("pow-square-root", lambda x: tf.pow(x, 0.5), positive((4,)))
case("rpow", lambda y: 2.0 ** y, normal((3,)))

# ----------------------------------------------------------------------- unary element-wise

_UNARY = {
    "negative": (tf.negative, normal),
    "operator-neg": (lambda x: -x, normal),
    "abs": (tf.abs, away_from_zero),
    "square": (tf.square, normal),
    "sqrt": (tf.sqrt, positive),
    "rsqrt": (tf.math.rsqrt, positive),
    "exp": (tf.exp, normal),
    "log": (tf.math.log, positive),
    "log1p": (tf.math.log1p, lambda s: positive(s, -0.5, 2.0)),
    "expm1": (tf.math.expm1, normal),
    "tanh": (tf.tanh, normal),
    "sigmoid": (tf.sigmoid, normal),
    "reciprocal": (tf.math.reciprocal, away_from_zero),
    "sin": (tf.sin, normal),
    "cos": (tf.cos, normal),
    "softplus": (tf.math.softplus, normal),
    "relu": (tf.nn.relu, away_from_zero),
    "relu6": (tf.nn.relu6, lambda s: lambda rng: away_from_zero(s)(rng) * 3.0),
    "elu": (tf.nn.elu, away_from_zero),
    "selu": (tf.nn.selu, away_from_zero),
    "leaky_relu": (tf.nn.leaky_relu, away_from_zero),
    "silu": (tf.nn.silu, normal),
    "swish": (tf.nn.swish, normal),
    "sign": (lambda x: tf.sign(x) * x, away_from_zero),
    "identity": (tf.identity, normal),
    "l2_loss": (tf.nn.l2_loss, normal),
}
for _name, (_fn, _d) in _UNARY.items():
    case(f"{_name}", _fn, _d((2, 3)))
    case(f"{_name}-scalar", _fn, _d(()))

case("clip_by_value", lambda x: tf.clip_by_value(x, -0.5, 0.5), lattice((2, 4), 0.25))
case("softmax", tf.nn.softmax, normal((2, 4)))
case("softmax-axis0", lambda x: tf.nn.softmax(x, axis=0), normal((3, 2)))
case("log_softmax", tf.nn.log_softmax, normal((2, 4)))
case("log_softmax-axis0", lambda x: tf.nn.log_softmax(x, axis=0), normal((3, 2)))
case("cast-f32-round-trip", lambda x: tf.cast(tf.cast(x, tf.float32) * 2.0, F64),
     normal((3,)), eps=1e-2, rtol=1e-4)

# ----------------------------------------------------------------------- reductions

for _rname, _rfn, _dom in [("reduce_sum", tf.reduce_sum, normal),
                           ("reduce_mean", tf.reduce_mean, normal),
                           ("reduce_max", tf.reduce_max, distinct),
                           ("reduce_min", tf.reduce_min, distinct),
                           ("reduce_prod", tf.reduce_prod, away_from_zero)]:
    case(f"{_rname}-all", _rfn, _dom((2, 3, 2)))
    case(f"{_rname}-axis1", lambda x, f=_rfn: f(x, axis=1), _dom((2, 3, 2)))
    case(f"{_rname}-axes02-keepdims", lambda x, f=_rfn: f(x, axis=[0, 2], keepdims=True),
         _dom((2, 3, 2)))
    case(f"{_rname}-negative-axis", lambda x, f=_rfn: f(x, axis=-1), _dom((3, 2)))
    case(f"{_rname}-scalar", _rfn, _dom(()))

_PROD_ZERO = ("second derivative of reduce_prod at an exact zero: its rule goes through "
              "Cumprod's, which divides by x (as TensorFlow's, which gives 0 there, also "
              "not the true value)")


def _with_zero_at(shape, index):
    def gen(rng):
        x = away_from_zero(shape)(rng)
        x[index] = 0.0
        return [x]
    return gen


case("reduce_prod-with-one-zero", lambda x: tf.reduce_prod(x, axis=0),
     gen=_with_zero_at((2, 3), (0, 1)), second_xfail=_PROD_ZERO)
case("reduce_prod-with-zero-all", tf.reduce_prod, gen=_with_zero_at((4,), 1),
     second_xfail=_PROD_ZERO)
case("reduce_prod-with-two-zeros", lambda x: tf.reduce_prod(x, axis=1),
     gen=_with_zero_at((2, 3), (0, slice(0, 2))), second_xfail=_PROD_ZERO)
case("reduce_max-ties-split", lambda x: tf.reduce_max(tf.stack([x, x])), distinct((3,)))
for _excl in (False, True):
    for _rev in (False, True):
        _tag = f"{'-exclusive' if _excl else ''}{'-reverse' if _rev else ''}"
        case(f"cumsum{_tag}", lambda x, e=_excl, r=_rev: tf.math.cumsum(
            x, axis=1, exclusive=e, reverse=r), normal((2, 4)))
        case(f"cumprod{_tag}", lambda x, e=_excl, r=_rev: tf.math.cumprod(
            x, axis=0, exclusive=e, reverse=r), away_from_zero((3, 2)))
case("add_n", lambda a, b, c: tf.add_n([a, b, c]), normal((2, 2)), normal((2, 2)),
     normal((2, 2)))
case("add_n-single", lambda a: tf.add_n([a]), normal((3,)))

# ----------------------------------------------------------------------- matmul

case("matmul", tf.matmul, normal((2, 3)), normal((3, 4)))
case("matmul-transpose_a", lambda a, b: tf.matmul(a, b, transpose_a=True), normal((3, 2)),
     normal((3, 4)))
case("matmul-transpose_b", lambda a, b: tf.matmul(a, b, transpose_b=True), normal((2, 3)),
     normal((4, 3)))
case("matmul-transpose_both", lambda a, b: tf.matmul(a, b, transpose_a=True,
                                                     transpose_b=True),
     normal((3, 2)), normal((4, 3)))
case("matmul-operator", lambda a, b: a @ b, normal((2, 2)), normal((2, 3)))
case("matmul-batch", tf.matmul, normal((2, 2, 3)), normal((2, 3, 2)))
case("matmul-batch-broadcast", tf.matmul, normal((2, 2, 3)), normal((3, 2)))
case("matmul-batch-broadcast-both", tf.matmul, normal((2, 1, 2, 3)), normal((3, 3, 1)))
case("matmul-batch-transpose", lambda a, b: tf.matmul(a, b, transpose_a=True,
                                                      transpose_b=True),
     normal((2, 3, 2)), normal((2, 2, 3)))
case("matmul-1x1", tf.matmul, normal((1, 1)), normal((1, 1)))
case("matvec", tf.linalg.matvec, normal((2, 3)), normal((3,)))
case("matvec-transpose_a", lambda a, b: tf.linalg.matvec(a, b, transpose_a=True),
     normal((3, 2)), normal((3,)))
case("matvec-batch", tf.linalg.matvec, normal((2, 2, 3)), normal((2, 3)))
case("matvec-batch-broadcast", tf.linalg.matvec, normal((2, 3)), normal((4, 3)))

# ----------------------------------------------------------------------- shapes and slicing

case("reshape", lambda x: tf.reshape(x, (3, 2)) * tf.constant([[1.0, 2.0]] * 3, x.dtype),
     normal((2, 3)))
case("reshape-minus-one", lambda x: tf.reshape(x, (-1,)), normal((2, 2)))
case("broadcast_to", lambda x: tf.broadcast_to(x, (2, 3, 3)), normal((3, 1)))
case("transpose", lambda x: tf.transpose(x), normal((2, 3)))
case("transpose-perm", lambda x: tf.transpose(x, [1, 2, 0]), normal((2, 3, 2)))
case("expand_dims", lambda x: tf.expand_dims(x, 1) * tf.constant([[[1.0], [2.0]]], x.dtype),
     normal((3, 2)))
case("squeeze", lambda x: tf.squeeze(x, axis=1), normal((2, 1, 3)))
case("concat", lambda a, b, c: tf.concat([a, b, c], axis=1), normal((2, 1)), normal((2, 3)),
     normal((2, 2)))
case("concat-axis0", lambda a, b: tf.concat([a, b], axis=0), normal((1, 2)), normal((2, 2)))
case("stack", lambda a, b: tf.stack([a, b], axis=1), normal((2, 3)), normal((2, 3)))
case("stack-axis0", lambda a, b, c: tf.stack([a, b, c]), normal((2,)), normal((2,)),
     normal((2,)))
case("unstack", lambda x: tf.add_n([u * float(k + 1) for k, u in enumerate(tf.unstack(x))]),
     normal((3, 2)))
case("tile", lambda x: tf.tile(x, [2, 3]), normal((2, 2)))
case("gather", lambda x: tf.gather(x, [2, 0, 2]), normal((3, 2)))
case("gather-squared", lambda x: tf.gather(x, [2, 0, 2]) ** 2, normal((3, 2)))
case("gather-axis1-squared", lambda x: tf.square(tf.gather(x, tf.constant([[1, 1], [0, 2]]),
                                                           axis=1)), normal((2, 3)))
case("gather-axis1", lambda x: tf.gather(x, tf.constant([[1, 1], [0, 2]]), axis=1),
     normal((2, 3)))
case("where", lambda x, y: tf.where(tf.constant([[True, False, True], [False, False, True]]),
                                    x, y), normal((2, 3)), normal((2, 3)))
case("where-broadcast", lambda x, y: tf.where(tf.constant([True, False, True]), x, y),
     normal((2, 3)), normal(()))
case("getitem-int", lambda x: x[1], normal((3, 2)))
case("getitem-slice", lambda x: x[1:, :1], normal((3, 2)))
case("getitem-stride", lambda x: x[::2], normal((5,)))
case("getitem-negative-stride", lambda x: x[::-2, 1], normal((4, 2)))
case("getitem-newaxis-ellipsis", lambda x: x[None, ..., 0], normal((2, 3, 2)))
case("getitem-tensor-index", lambda x: x[tf.constant(1)] * x[0], normal((2, 2)))
case("iterate-rows", lambda x: tf.add_n([r * r for r in x]), normal((3, 2)))
case("bias_add", tf.nn.bias_add, normal((2, 3)), normal((3,)))
case("fill", lambda v: tf.fill([2, 3], v) * tf.constant([1.0, 2.0, 3.0], v.dtype), normal(()))

# ----------------------------------------------------------------------- losses


def _probs(shape):
    def gen(rng):
        p = rng.uniform(0.1, 1.0, shape)
        return p / p.sum(-1, keepdims=True)
    return gen


case("sigmoid_cross_entropy_with_logits", lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(
    labels=z, logits=x), positive((2, 3), 0.05, 0.95), away_from_zero((2, 3)))
case("softmax_cross_entropy_with_logits", lambda p, x: tf.nn.softmax_cross_entropy_with_logits(
    labels=p, logits=x), _probs((2, 3)), normal((2, 3)))
case("sparse_softmax_cross_entropy_with_logits",
     lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(
         labels=tf.constant([2, 0]), logits=x), normal((2, 3)))
case("composite-mlp-loss", lambda w, b, x: tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
    labels=tf.constant([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]], w.dtype),
    logits=tf.tanh(tf.matmul(x, w) + b))), normal((3, 2)), normal((2,)), normal((3, 3)))

# ----------------------------------------------------------------------- convolution, pooling

case("conv2d-same-stride2", lambda x, f: tf.nn.conv2d(x, f, 2, "SAME"), normal((1, 5, 4, 2)),
     normal((2, 3, 2, 3)))
case("conv2d-valid", lambda x, f: tf.nn.conv2d(x, f, 1, "VALID"), normal((2, 4, 4, 1)),
     normal((3, 2, 1, 2)))
case("max_pool2d-same", lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME"), distinct((1, 3, 5, 2)))
case("avg_pool2d-same", lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"), normal((1, 5, 4, 2)))

CASE_IDS = [c.name for c in CASES]
assert len(set(CASE_IDS)) == len(CASE_IDS), "case names must be unique"


def _run(c, check):
    args, rng = c.inputs()
    kwargs = {}
    if c.eps is not None:
        kwargs["eps"] = c.eps
    if c.rtol is not None:
        kwargs["rtol"] = c.rtol
    return check(c.fn, args, rng, **kwargs)


@pytest.mark.parametrize("c", CASES, ids=CASE_IDS)
def test_first_derivative_matches_finite_differences(c):
    _run(c, check_vjp)


@pytest.mark.parametrize("c", [c for c in CASES if c.jacobian], ids=lambda c: c.name)
def test_jacobian_matches_finite_differences(c):
    _run(c, lambda f, args, rng, **kw: check_jacobian(f, args, **kw))


def _second_params():
    out = []
    for c in CASES:
        if c.second:
            marks = () if c.second_xfail is None else pytest.mark.xfail(
                reason=c.second_xfail, strict=True)
            out.append(pytest.param(c, id=c.name, marks=marks))
    return out


@pytest.mark.parametrize("c", _second_params())
def test_second_derivative_matches_finite_differences(c):
    kwargs = {}
    if c.eps is not None:
        kwargs["eps"] = c.eps * 10
        kwargs["rtol"] = c.rtol * 10
    args, rng = c.inputs()
    check_second_order(c.fn, args, rng, **kwargs)


# ----------------------------------------------------------------------- no gradient


_NO_GRADIENT = {
    "equal": lambda x: tf.equal(x, 1.0),
    "not_equal": lambda x: tf.not_equal(x, 1.0),
    "less": lambda x: x < 0.5,
    "less_equal": lambda x: x <= 0.5,
    "greater": lambda x: tf.greater(x, 0.5),
    "greater_equal": lambda x: x >= 0.5,
    "argmax": lambda x: tf.argmax(x),
    "argmin": lambda x: tf.argmin(x, axis=0),
    "cast-to-int": lambda x: tf.cast(x, tf.int32),
    "cast-to-bool": lambda x: tf.cast(x, tf.bool),
    "stop_gradient": tf.stop_gradient,
    "round": tf.round,
    "floor": tf.floor,
    "ceil": tf.math.ceil,
    "is_nan": tf.math.is_nan,
    "is_finite": tf.math.is_finite,
    "where-indices": lambda x: tf.where(x > 0.0),
    "one_hot": lambda x: tf.one_hot(tf.argmax(x), 3),
    "logical_and": lambda x: tf.logical_and(x > 0.0, x < 1.0),
    "logical_or": lambda x: tf.logical_or(x > 0.0, x < 1.0),
    "logical_xor": lambda x: tf.math.logical_xor(x > 0.0, x < 1.0),
    "logical_not": lambda x: tf.logical_not(x > 0.0),
    "reduce_all": lambda x: tf.reduce_all(x > 0.0),
    "reduce_any": lambda x: tf.reduce_any(x > 0.0),
    "is_inf": tf.math.is_inf,
    "zeros_like": tf.zeros_like,
    "ones_like": tf.ones_like,
    "shape": tf.shape,
    "size": tf.size,
    "rank": tf.rank,
    "range": lambda x: tf.range(x[0], 3.0, dtype=F64),
}


@pytest.mark.parametrize("name", sorted(_NO_GRADIENT))
def test_nondifferentiable_op_records_nothing(name):
    x = tf.constant([0.25, 1.5, -2.0], dtype=F64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = _NO_GRADIENT[name](x)
    assert all(y._id not in e.out_ids for e in tape._tape.entries)
    assert y._id not in tape._tape.watched
    assert tape.gradient(y, x) is None


# Public functions that are not ops on tensors, or make tensors from no tensor input.
NOT_OPS = {"device", "executing_eagerly", "name_scope", "init_scope", "get_static_value",
           "zeros", "ones", "floordiv",  # floordiv: test_floordiv_has_no_gradient
           # higher-order control flow: tests/function/cases.py (values and gradients vs TF)
           "cond", "case", "switch_case", "while_loop", "map_fn", "scan", "foldl", "foldr",
           "py_function", "numpy_function"}


def test_every_public_op_function_is_in_a_table():
    import types

    from tests.ops.test_op_db import tabled_functions  # the op table (tests/ops/op_db.py)
    checked = ({c.name.split("-")[0] for c in CASES} | set(_NO_GRADIENT) | NOT_OPS
               | tabled_functions())
    public = {n for n, v in vars(tf).items() if isinstance(v, types.FunctionType)
              and v.__module__.startswith("tapeflow.ops")}
    public |= set(tf.math.__all__) | set(tf.nn.__all__) | set(tf.linalg.__all__)
    assert not public - checked, sorted(public - checked)


def test_nondifferentiable_output_is_not_watched():
    x = tf.constant([0.25, 1.5, -2.0], dtype=F64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.stop_gradient(x)
        y = s * s + x
    assert [e.prim.name for e in tape._tape.entries] == ["AddV2"]
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 1.0, 1.0])


def test_floordiv_has_no_gradient():
    x, y = tf.constant([3.5, -1.2], F64), tf.constant([2.0, 2.0], F64)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = x // y
    assert tape.gradient(z, [x, y]) == [None, None]


def test_sign_gradient_is_zero_as_in_tensorflow():
    x = tf.constant([-1.5, 0.0, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sign(x)
    g = tape.gradient(y, x)
    assert g is not None and g.numpy().tolist() == [0.0, 0.0, 0.0]


def test_cumprod_gradient_at_a_zero_matches_tensorflow():
    # TensorFlow 2.21 divides with div_no_nan: [1, 0, 0] here (not the true derivative).
    x = tf.constant([-1.5, 0.0, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.cumprod(x)
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 0.0, 0.0]


def test_kink_conventions_match_tensorflow():
    # Values recorded from TensorFlow 2.21 at the kinks (x = 0 and ties).
    x = tf.constant([-1.5, 0.0, 2.5])
    zero = tf.zeros((3,))
    got = {}
    for name, f in {"abs": tf.abs, "relu": tf.nn.relu,
                    "maximum": lambda v: tf.maximum(v, zero),
                    "minimum": lambda v: tf.minimum(v, zero),
                    "clip": lambda v: tf.clip_by_value(v, 0.0, 2.5),
                    "leaky_relu": tf.nn.leaky_relu}.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        got[name] = np.round(tape.gradient(y, x).numpy().astype(np.float64), 6).tolist()
    assert got == {"abs": [-1.0, 0.0, 1.0], "relu": [0.0, 0.0, 1.0],
                   "maximum": [0.0, 1.0, 1.0], "minimum": [1.0, 1.0, 0.0],
                   "clip": [0.0, 1.0, 1.0], "leaky_relu": [0.2, 0.2, 1.0]}


# ----------------------------------------------------------------------- float32


def _float32_params():
    return [pytest.param(c, id=c.name) for c in CASES if c.float32]


@pytest.mark.parametrize("c", _float32_params())
def test_float32_gradients_keep_dtype_and_shape_and_agree_with_float64(c):
    args, _ = c.inputs()
    grads = {}
    for dtype in (tf.float32, F64):
        xs = [tf.constant(a, dtype=dtype) for a in args]
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = c.fn(*xs)
        grads[dtype] = _dense(tape.gradient(y, xs))
    for g32, g64, a in zip(grads[tf.float32], grads[F64], args, strict=True):
        assert (g32 is None) == (g64 is None)
        if g32 is not None:
            assert g32.dtype == tf.float32 and tuple(g32.shape) == a.shape
            np.testing.assert_allclose(g32.numpy(), g64.numpy(), rtol=2e-4, atol=2e-4)


# ----------------------------------------------------------------------- random broadcasting

@st.composite
def _broadcast_pair(draw):
    # Two shapes that broadcast: each axis of the result, kept or set to 1 per operand,
    # and the leading axes of one operand possibly dropped.
    out = draw(st.lists(st.integers(1, 3), min_size=0, max_size=3))
    shapes = []
    for _ in range(2):
        dims = [d if draw(st.booleans()) else 1 for d in out]
        drop = draw(st.integers(0, len(dims)))
        shapes.append(tuple(dims[drop:]))
    return shapes


_BROADCAST_OPS = {
    "add": tf.add, "subtract": tf.subtract, "multiply": tf.multiply,
    "squared_difference": tf.math.squared_difference,
    "divide": lambda x, y: x / (y * y + 1.0), "where": lambda x, y: tf.where(x > 0.0, x, y),
}


@settings(max_examples=40, deadline=None)
@given(shapes=_broadcast_pair(), name=st.sampled_from(sorted(_BROADCAST_OPS)),
       seed=st.integers(0, 2**16))
def test_broadcasting_gradients_sum_back_to_each_operand_shape(shapes, name, seed):
    rng = np.random.default_rng(seed)
    args = [rng.standard_normal(s) for s in shapes]
    check_vjp(_BROADCAST_OPS[name], args, rng)
