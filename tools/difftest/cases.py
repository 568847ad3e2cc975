"""Random cases for the differential test against TensorFlow 2.21 (issue 19).

One :class:`Spec` per public op: how to draw its arguments (which are tensors, their dtypes,
including some TensorFlow rejects, shapes of rank 0-4 with size-0 dims and broadcasting pairs,
attributes with negative and out-of-range axes) and how to call it. ``cases(op, seed, n)``
draws ``n`` concrete cases deterministically: case ``i`` of ``(op, seed)`` comes from its own
``numpy.random.default_rng([crc32(op), seed, i])``, so any one case regenerates alone.

Pure NumPy and the standard library: the recorder imports it under TensorFlow's venv, the
replay test under tapeflow. Inputs are never stored; the fixtures keep a checksum of them.
"""
import zlib
from dataclasses import dataclass, field

import numpy as np

FLOATS = ("float16", "float32", "float64")
F3264 = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
INTS = ("int32", "int64")
NUMERIC = FLOATS + INTS
BAD_FLOAT_ONLY = ("int32", "bool", "complex64")
BAD_NUMERIC = ("bool", "string")
MAX_ELEMS = 48


@dataclass
class T:
    """A tensor argument: ``tf.constant(value, dtype)``; ``diff``: differentiated when float."""

    value: np.ndarray
    dtype: str
    diff: bool = True


@dataclass
class Case:
    op: str
    seed: int
    index: int
    args: tuple
    kwargs: dict = field(default_factory=dict)

    @property
    def key(self):
        return f"{self.op}|{self.seed}|{self.index}"

    def tensors(self):
        """Every :class:`T` of the arguments, in order (lists and dicts included)."""
        out = []

        def walk(a):
            if isinstance(a, T):
                out.append(a)
            elif isinstance(a, (list, tuple)):
                for b in a:
                    walk(b)
            elif isinstance(a, dict):
                for b in a.values():
                    walk(b)

        walk(self.args)
        walk(self.kwargs)
        return out

    def checksum(self):
        h = zlib.crc32(repr(_plain(self.args)).encode() + repr(_plain(self.kwargs)).encode())
        for t in self.tensors():
            v = np.asarray(t.value)
            data = repr(v.tolist()).encode() if v.dtype == object else \
                np.ascontiguousarray(v).tobytes()
            h = zlib.crc32(data, h)
            h = zlib.crc32(t.dtype.encode(), h)
        return h

    def dtypes(self):
        return [t.dtype for t in self.tensors()]

    def describe(self):
        parts = []
        for a in self.args:
            parts.append(_short(a))
        for k, v in self.kwargs.items():
            parts.append(f"{k}={_short(v)}")
        return f"{self.op}({', '.join(parts)})"


def _plain(a):
    if isinstance(a, T):
        return ("T", a.dtype, a.value.shape, a.diff)
    if isinstance(a, (list, tuple)):
        return [_plain(b) for b in a]
    if isinstance(a, dict):
        return {k: _plain(v) for k, v in sorted(a.items())}
    return a


def _short(a):
    if isinstance(a, T):
        v = a.value
        if v.size <= 6:
            body = np.array2string(np.asarray(v), separator=",", precision=4).replace("\n", "")
            return f"{a.dtype}{list(v.shape)}{body}"
        return f"{a.dtype}{list(v.shape)}"
    if isinstance(a, (list, tuple)):
        return "[" + ", ".join(_short(b) for b in a) + "]"
    return repr(a)


@dataclass
class Spec:
    """One op. ``gen(r) -> (args, kwargs)``; ``fn(tf, *args, **kwargs)`` calls it (default:
    the public path ``name``); ``path``: the public path when ``name`` is a variant."""

    name: str
    gen: object
    fn: object = None
    path: str = None
    grad: bool = True
    n: int = None

    def call(self, tf, *args, **kwargs):
        if self.fn is not None:
            return self.fn(tf, *args, **kwargs)
        return resolve(tf, self.path or self.name)(*args, **kwargs)


def resolve(tf, path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


# ------------------------------------------------------------------------------ drawing


_SPECIALS = (0.0, -0.0, np.nan, np.inf, -np.inf, 1e30, -1e30, 1.0, -1.0, 1e-30, 70000.0)
_EDGES = {"unit": (1.0, -1.0, 1.0000001, -2.0), "pos": (0.0, -1.0, 1e-40),
          "gt1": (1.0, 0.999, 0.0), "prob": (0.0, 1.0, 1.5, -0.5)}


class R:
    """The seeded draws of one case."""

    def __init__(self, rng):
        self.g = rng

    def p(self, prob):
        return self.g.random() < prob

    def choice(self, seq):
        return seq[int(self.g.integers(len(seq)))]

    def int(self, lo, hi):
        """An int in ``[lo, hi]``."""
        return int(self.g.integers(lo, hi + 1))

    def dtype(self, ok, bad=()):
        if bad and self.p(0.08):
            return self.choice(bad)
        return self.choice(ok)

    def dim(self, lo=0, hi=4):
        if lo == 0 and self.p(0.06):
            return 0
        return self.int(max(lo, 1), hi)

    def shape(self, min_rank=0, max_rank=4, lo=0, hi=4, cap=MAX_ELEMS):
        rank = self.int(min_rank, max_rank)
        s = [self.dim(lo, hi) for _ in range(rank)]
        while int(np.prod(s)) > cap:
            j = int(np.argmax(s))
            s[j] -= 1
        return tuple(s)

    def bshapes(self):
        """Two broadcast-compatible shapes (same, suffix, ones, scalar)."""
        s = self.shape()
        mode = self.g.random()
        if mode < 0.35:
            return s, s
        if mode < 0.45:
            return (s, ()) if self.p(0.5) else ((), s)
        k = self.int(0, len(s))
        t = list(s[k:])
        for j in range(len(t)):
            if self.p(0.4):
                t[j] = 1
        u = list(s)
        for j in range(len(u)):
            if j >= k and t[j - k] != 1 and self.p(0.3):
                u[j] = 1
        if self.p(0.05) and t:
            t[-1] = t[-1] + 2  # incompatible
        a, b = tuple(u), tuple(t)
        return (a, b) if self.p(0.5) else (b, a)

    def values(self, shape, dtype, dom="any"):
        shape = tuple(shape)
        n = int(np.prod(shape)) if shape else 1
        if dtype == "bool":
            return self.g.random(shape) < 0.5
        if dtype == "string":
            return np.array(self.g.integers(0, 9, shape).astype(str), dtype=object)
        if dtype.startswith(("int", "uint")):
            lo, hi = {"any": (-10, 10), "pos": (1, 10), "nonneg": (0, 10)}.get(dom, (-10, 10))
            if dtype.startswith("uint"):
                lo = max(lo, 0)
            v = self.g.integers(lo, hi + 1, shape).astype(np.int64)
            if n and dom == "any" and self.p(0.06):
                info = np.iinfo(dtype)
                idx = self.g.integers(0, n, max(1, n // 4))
                v.reshape(-1)[idx] = self.g.choice([info.max, info.min, info.max - 1], len(idx))
            return v.astype(dtype)
        v = self._floats(shape, n, dom)
        if dtype.startswith("complex"):
            w = self._floats(shape, n, "any" if dom != "pos" else "pos")
            z = np.empty(np.shape(v), np.complex128)
            z.real, z.imag = v, w
            v = z
        return v

    def _floats(self, shape, n, dom):
        if self.p(0.12):
            v = self.g.integers(-3, 4, shape).astype(np.float64)  # ties and zeros
        else:
            scale = self.choice((1.0, 1.0, 1.0, 1.0, 3.0, 1e-3, 30.0, 1e4))
            v = self.g.standard_normal(shape) * scale
        if dom == "pos":
            v = np.abs(v) + 0.05
        elif dom == "nonneg":
            v = np.abs(v)
        elif dom == "unit":
            v = np.tanh(v) * 0.98
        elif dom == "gt1":
            v = 1.0 + np.abs(v) + 0.01
        elif dom == "prob":
            v = self.g.uniform(0.02, 0.98, shape)
        elif dom == "logit":
            v = self.g.standard_normal(shape) * 2.0
        if n and self.p(0.15):
            k = self.int(1, max(1, n // 4))
            idx = self.g.integers(0, n, k)
            pool = _SPECIALS + _EDGES.get(dom, ())
            v = np.array(v, dtype=np.float64)
            v.reshape(-1)[idx] = [self.choice(pool) for _ in range(k)]
        return np.asarray(v, dtype=np.float64)

    def t(self, shape, dtype, dom="any", diff=True):
        return T(self.values(shape, dtype, dom), dtype, diff)

    def axis(self, rank, none=0.25, out=0.08, lists=0.15):
        """None, an axis in ``[-rank, rank)``, an out-of-range one, or a list."""
        u = self.g.random()
        if u < none:
            return None
        if u < none + out or rank == 0:
            return self.choice((rank, -rank - 1, rank + 1)) if rank or self.p(0.5) else 0
        if u < none + out + lists and rank >= 2:
            k = self.int(1, rank)
            ax = sorted(self.g.choice(rank, k, replace=False).tolist())
            return [a - rank if self.p(0.3) else a for a in ax]
        a = self.int(0, rank - 1)
        return a - rank if self.p(0.3) else a

    def int_axis(self, rank, out=0.08):
        if rank == 0 or self.p(out):
            return self.choice((rank, -rank - 1, 0))
        a = self.int(0, rank - 1)
        return a - rank if self.p(0.3) else a


# ------------------------------------------------------------------------------ registry

SPECS = {}


def spec(name, gen, **kw):
    if name in SPECS:
        raise ValueError(f"duplicate spec {name}")
    SPECS[name] = Spec(name, gen, **kw)


def cases(op_name, seed, n=None):
    """``n`` cases of ``op_name`` drawn from ``seed`` (default: the spec's count)."""
    s = SPECS[op_name]
    n = n if n is not None else (s.n or DEFAULT_N)
    base = zlib.crc32(op_name.encode())
    out = []
    for i in range(n):
        r = R(np.random.default_rng([base, seed, i]))
        with np.errstate(all="ignore"):
            args, kwargs = s.gen(r)
        out.append(Case(op_name, seed, i, tuple(args), dict(kwargs)))
    return out


DEFAULT_N = 80


# ------------------------------------------------------------------------------ families


def g_unary(ok, bad=BAD_FLOAT_ONLY, dom="any", kw=None):
    def gen(r):
        x = r.t(r.shape(), r.dtype(ok, bad), dom)
        return (x,), (kw(r) if kw else {})
    return gen


def g_binary(ok, bad=BAD_NUMERIC, domx="any", domy="any", scalar_y=True, kw=None):
    def gen(r):
        dt = r.dtype(ok, bad)
        a, b = r.bshapes()
        x = r.t(a, dt, domx)
        if r.p(0.05):
            dy = r.choice(ok + ("int32", "float64", "float32"))
            y = r.t(b, dy, domy)
        elif scalar_y and r.p(0.08):
            yv = r.values((), dt if dt not in ("string",) else "float32", domy)
            y = float(yv.real) if dt.startswith(("float", "complex")) else (
                bool(yv) if dt == "bool" else int(yv) if dt != "string" else 1.0)
        else:
            y = r.t(b, dt, domy)
        return (x, y), (kw(r) if kw else {})
    return gen


def g_reduce(ok, bad=BAD_NUMERIC, dom="any", keepdims=True, extra=None, axis_name="axis"):
    def gen(r):
        shape = r.shape()
        x = r.t(shape, r.dtype(ok, bad), dom)
        kw = {}
        ax = r.axis(len(shape))
        if ax is not None or r.p(0.5):
            kw[axis_name] = ax
        if keepdims and r.p(0.4):
            kw["keepdims"] = r.p(0.5)
        if extra:
            kw.update(extra(r))
        return (x,), kw
    return gen


UNARY_FLOAT_COMPLEX = {
    "math.sqrt": "nonneg", "math.rsqrt": "pos", "math.reciprocal": "any", "math.exp": "any",
    "math.expm1": "any", "math.log": "pos", "math.log1p": "any", "math.sin": "any",
    "math.cos": "any", "math.tan": "any", "math.asin": "unit", "math.acos": "unit",
    "math.atan": "any", "math.sinh": "any", "math.cosh": "any", "math.tanh": "any",
    "math.asinh": "any", "math.acosh": "gt1", "math.atanh": "unit", "math.sigmoid": "any",
}
for _n, _d in UNARY_FLOAT_COMPLEX.items():
    spec(_n, g_unary(FLOATS + COMPLEX[:1] + FLOATS, ("int32", "bool"), _d))

UNARY_FLOAT = {
    "math.log_sigmoid": "any", "math.softplus": "any", "math.softsign": "any", "math.erf": "any",
    "math.erfc": "any", "math.lgamma": "any", "math.digamma": "any", "math.round": "any",
    "math.floor": "any", "math.ceil": "any", "math.rint": "any", "math.is_nan": "any",
    "math.is_finite": "any", "math.is_inf": "any", "math.reciprocal_no_nan": "any",
    "nn.relu": "any", "nn.relu6": "any", "nn.elu": "any", "nn.selu": "any", "nn.silu": "any",
    "nn.softsign": "any", "nn.softplus": "any", "nn.sigmoid": "any", "nn.tanh": "any",
}
for _n, _d in UNARY_FLOAT.items():
    spec(_n, g_unary(FLOATS, BAD_FLOAT_ONLY, _d))

for _n in ("math.abs", "math.negative", "math.square", "math.sign"):
    spec(_n, g_unary(FLOATS + INTS + COMPLEX[:1], ("bool", "uint8"), "any"))
for _n in ("math.conj", "math.real", "math.imag", "math.angle"):
    spec(_n, g_unary(COMPLEX + F3264, ("int32", "bool"), "any"))
spec("math.logical_not", g_unary(("bool",), ("int32", "float32"), "any"))
spec("nn.gelu", g_unary(FLOATS, BAD_FLOAT_ONLY, "any", kw=lambda r: (
    {"approximate": r.p(0.5)} if r.p(0.7) else {})))
spec("nn.leaky_relu", g_unary(FLOATS, ("int32", "bool"), "any", kw=lambda r: (
    {"alpha": r.choice((0.2, 0.01, 1.5, -0.3))} if r.p(0.6) else {})))
spec("nn.swish", g_unary(FLOATS, BAD_FLOAT_ONLY, "any", kw=lambda r: (
    {"beta": r.choice((1.0, 0.5, 2.0))} if r.p(0.3) else {})))
spec("nn.crelu", g_unary(FLOATS, BAD_FLOAT_ONLY, "any", kw=lambda r: (
    {"axis": r.int(-2, 1)} if r.p(0.3) else {})))

# top-level aliases: fewer cases each
for _n in ("abs", "negative", "square", "sqrt", "exp", "sin", "cos", "tan", "asin",
           "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid",
           "sign", "round", "floor", "logical_not"):
    _base = SPECS.get("math." + _n)
    spec(_n, _base.gen, n=24)

BINARY = {
    "math.add": NUMERIC + COMPLEX[:1], "math.subtract": NUMERIC + COMPLEX[:1],
    "math.multiply": NUMERIC + COMPLEX[:1], "math.divide": FLOATS + INTS + COMPLEX[:1],
    "math.truediv": FLOATS + INTS, "math.maximum": NUMERIC, "math.minimum": NUMERIC,
    "math.squared_difference": FLOATS + INTS + COMPLEX[:1], "math.pow": FLOATS + INTS,
    "math.floordiv": NUMERIC, "math.floormod": NUMERIC, "math.mod": NUMERIC,
    "math.atan2": F3264, "math.divide_no_nan": FLOATS + COMPLEX[:1],
    "math.multiply_no_nan": F3264, "math.xlogy": FLOATS + COMPLEX[:1],
    "math.xdivy": FLOATS + COMPLEX[:1], "math.xlog1py": FLOATS + COMPLEX[:1],
    "math.equal": NUMERIC + ("bool",), "math.not_equal": NUMERIC + ("bool",),
    "math.less": NUMERIC, "math.less_equal": NUMERIC, "math.greater": NUMERIC,
    "math.greater_equal": NUMERIC, "truncatediv": INTS, "truncatemod": INTS + F3264,
}
for _n, _ok in BINARY.items():
    spec(_n, g_binary(_ok, ("bool", "complex64") if "bool" not in _ok else ("string",)))
for _n in ("math.logical_and", "math.logical_or", "math.logical_xor"):
    spec(_n, g_binary(("bool",), ("int32", "float32")))
spec("math.polygamma", g_binary(F3264, ("int32",), domx="nonneg", scalar_y=False,
                                ), fn=lambda tf, a, x: tf.math.polygamma(
                                    tf.math.round(a) if a.dtype.is_floating else a, x))
for _n in ("add", "subtract", "multiply", "divide", "truediv", "maximum", "minimum", "pow",
           "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
           "atan2", "logical_and", "logical_or"):
    spec(_n, SPECS["math." + _n].gen, n=24)

# ------------------------------------------------------------------------------ operators


def _op(sym):
    import operator as o
    f = getattr(o, sym)
    return lambda tf, x, y: f(x, y)


for _s, _ok in (("add", NUMERIC + ("bool",)), ("sub", NUMERIC + ("bool",)),
                ("mul", NUMERIC + ("bool",)), ("truediv", FLOATS + INTS),
                ("floordiv", NUMERIC), ("mod", NUMERIC), ("pow", FLOATS + INTS),
                ("and_", ("bool",) + INTS), ("or_", ("bool",) + INTS),
                ("xor", ("bool",) + INTS), ("lt", NUMERIC), ("ge", NUMERIC),
                ("eq", NUMERIC + ("bool",))):
    spec(f"operator.{_s}", g_binary(_ok, ("string",)), fn=_op(_s), n=40)


def _matmul_gen(r):
    dt = r.dtype(F3264 + ("float16", "int32", "complex64"), ("bool", "int8"))
    b = () if r.p(0.5) else (r.dim(1, 2),)
    m, k, n = r.dim(0, 3), r.dim(0, 3), r.dim(0, 3)
    ka = k if r.p(0.93) else k + 1
    ta, tb = r.p(0.2), r.p(0.2)
    a = b + ((ka, m) if ta else (m, ka))
    bb = (b if r.p(0.8) else ()) + ((n, k) if tb else (k, n))
    kw = {}
    if ta:
        kw["transpose_a"] = True
    if tb:
        kw["transpose_b"] = True
    return (r.t(a, dt), r.t(bb, dt)), kw


spec("operator.matmul", _matmul_gen, fn=lambda tf, x, y, **kw: x @ y if not kw else tf.matmul(
    x, y, **kw), n=40)
spec("operator.invert", g_unary(("bool",) + INTS + ("float32",), ()), fn=lambda tf, x: ~x, n=30)
spec("operator.neg", g_unary(NUMERIC + ("bool",), ()), fn=lambda tf, x: -x, n=30)
spec("operator.abs", g_unary(NUMERIC + ("bool",), ()), fn=lambda tf, x: abs(x), n=30)

# ------------------------------------------------------------------------------ reductions

for _n, _ok in (("math.reduce_sum", NUMERIC + COMPLEX[:1]), ("math.reduce_mean", NUMERIC),
                ("math.reduce_max", NUMERIC), ("math.reduce_min", NUMERIC),
                ("math.reduce_prod", NUMERIC + COMPLEX[:1]),
                ("math.reduce_logsumexp", FLOATS), ("math.reduce_std", FLOATS),
                ("math.reduce_variance", FLOATS),
                ("math.reduce_euclidean_norm", FLOATS + INTS + COMPLEX[:1])):
    spec(_n, g_reduce(_ok))
    spec(_n.split(".")[1], SPECS[_n].gen, n=24) if _n.split(".")[1] in (
        "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
        "reduce_logsumexp") else None
for _n in ("math.reduce_all", "math.reduce_any"):
    spec(_n, g_reduce(("bool",), ("int32", "float32")))
spec("math.count_nonzero", g_reduce(NUMERIC + ("bool",), ("string",)))


def _argmax_gen(r):
    shape = r.shape()
    x = r.t(shape, r.dtype(NUMERIC, ("bool", "complex64")))
    kw = {}
    if r.p(0.8):
        kw["axis"] = r.int_axis(len(shape))
    if r.p(0.2):
        kw["output_type"] = r.choice(("int32", "int64"))
    return (x,), kw


for _n in ("math.argmax", "math.argmin", "argmax", "argmin"):
    spec(_n, _argmax_gen, fn=(lambda tf, x, output_type=None, _p=_n, **kw: resolve(tf, _p)(
        x, **kw, **({"output_type": getattr(tf, output_type)} if output_type else {}))),
        n=None if "math" in _n else 24)


def _cum_gen(ok, flags=True):
    def gen(r):
        shape = r.shape()
        x = r.t(shape, r.dtype(ok, ("bool", "string")))
        kw = {}
        if r.p(0.85):
            kw["axis"] = r.int_axis(len(shape), out=0.1)
        if flags and r.p(0.4):
            kw["exclusive"] = r.p(0.5)
        if flags and r.p(0.4):
            kw["reverse"] = r.p(0.5)
        return (x,), kw
    return gen


spec("math.cumsum", _cum_gen(NUMERIC + COMPLEX[:1]))
spec("math.cumprod", _cum_gen(NUMERIC + COMPLEX[:1]))
spec("math.cumulative_logsumexp", _cum_gen(FLOATS))
spec("cumsum", SPECS["math.cumsum"].gen, n=24)


def _softmax_gen(r):
    shape = r.shape()
    x = r.t(shape, r.dtype(FLOATS, ("int32",)))
    kw = {}
    if r.p(0.4):
        kw["axis"] = r.int_axis(len(shape))
    return (x,), kw


for _n in ("math.softmax", "math.log_softmax", "nn.softmax", "nn.log_softmax"):
    spec(_n, _softmax_gen)


def _l2n_gen(r):
    shape = r.shape()
    x = r.t(shape, r.dtype(FLOATS + COMPLEX[:1], ("int32",)))
    kw = {}
    ax = r.axis(len(shape), none=0.3)
    if ax is not None or r.p(0.5):
        kw["axis"] = ax
    if r.p(0.2):
        kw["epsilon"] = r.choice((1e-3, 1.0))
    return (x,), kw


spec("math.l2_normalize", _l2n_gen)
spec("nn.l2_normalize", _l2n_gen, n=24)
spec("linalg.l2_normalize", _l2n_gen, n=24)


def _norm_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, r.dtype(FLOATS + COMPLEX[:1], ("int32",)))
    kw = {}
    u = r.g.random()
    if u < 0.5:
        kw["ord"] = r.choice(("euclidean", 1, 2, np.inf, "fro", 3))
        ax = r.axis(len(shape), none=0.4, lists=0)
        if ax is not None:
            kw["axis"] = ax
    elif u < 0.8 and len(shape) >= 2:
        kw["ord"] = r.choice(("fro", 1, np.inf, "euclidean"))
        kw["axis"] = [len(shape) - 2, len(shape) - 1] if r.p(0.7) else [-1, -2]
    if r.p(0.3):
        kw["keepdims"] = r.p(0.5)
    return (x,), kw


spec("norm", _norm_gen)
spec("linalg.norm", _norm_gen, n=40)


def _moments_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, r.dtype(FLOATS, ("int32",)))
    rank = len(shape)
    k = r.int(1, rank)
    axes = sorted(r.g.choice(rank, k, replace=False).tolist())
    if r.p(0.05):
        axes = [rank]
    kw = {"axes": axes}
    if r.p(0.3):
        kw["keepdims"] = r.p(0.5)
    return (x,), kw


spec("nn.moments", _moments_gen)


def _topk_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, r.dtype(NUMERIC, ("bool", "complex64")))
    last = shape[-1]
    kw = {}
    if r.p(0.85):
        kw["k"] = r.choice((0, 1, last, max(last - 1, 0), last + 1))
    if r.p(0.2):
        kw["sorted"] = r.p(0.5)
    return (x,), kw


spec("math.top_k", _topk_gen)


def _sort_gen(r):
    shape = r.shape()
    x = r.t(shape, r.dtype(NUMERIC, ("bool", "complex64")))
    kw = {}
    if r.p(0.7):
        kw["axis"] = r.int_axis(len(shape))
    if r.p(0.5):
        kw["direction"] = r.choice(("ASCENDING", "DESCENDING", "DESCENDING"))
    return (x,), kw


spec("sort", _sort_gen)
spec("argsort", _sort_gen)


def _mono_gen(r):
    return (r.t(r.shape(), r.dtype(NUMERIC, ("bool",))),), {}


spec("math.is_non_decreasing", _mono_gen, n=40)
spec("math.is_strictly_increasing", _mono_gen, n=40)

# ------------------------------------------------------------------------------ clipping


def _clip_value_gen(r):
    dt = r.dtype(NUMERIC, ("bool",))
    a, b = r.bshapes()
    x = r.t(a, dt)
    lo = r.values((), dt)
    hi = lo + abs(r.values((), dt)) if r.p(0.9) else lo - 1
    if r.p(0.6):
        return (x, r._scalar(lo, dt), r._scalar(hi, dt)), {}
    lo_t = r.t(b, dt)
    hi_t = T(lo_t.value + np.abs(r.values(b, dt)).astype(lo_t.value.dtype), dt)
    return (x, lo_t, hi_t), {}


def _scalar(self, v, dt):
    v = np.asarray(v)
    if dt.startswith("float"):
        return float(v)
    return int(v)


R._scalar = _scalar
spec("clip_by_value", _clip_value_gen)


def _clip_norm_gen(r):
    shape = r.shape()
    x = r.t(shape, r.dtype(FLOATS, ("int32",)))
    kw = {}
    if r.p(0.3) and shape:
        kw["axes"] = r.axis(len(shape), none=0, out=0.05)
    return (x, r.choice((0.5, 1.0, 10.0, 0.0, -1.0))), kw


spec("clip_by_norm", _clip_norm_gen)


def _global_norm_gen(r):
    dt = r.dtype(F3264, ("int32",))
    k = r.int(1, 3)
    ts = [r.t(r.shape(max_rank=2), dt) for _ in range(k)]
    return (ts, r.choice((0.5, 1.0, 100.0))), {}


spec("clip_by_global_norm", _global_norm_gen, n=40)
spec("linalg.global_norm", lambda r: ((_global_norm_gen(r)[0][0],), {}), n=40)

# ------------------------------------------------------------------------------ arrays


def _any_dtype(r):
    return r.choice(FLOATS + INTS + ("bool", "complex64", "float32", "float32"))


def _reshape_gen(r):
    shape = r.shape()
    x = r.t(shape, _any_dtype(r))
    n = int(np.prod(shape))
    u = r.g.random()
    if u < 0.3:
        new = [n]
    elif u < 0.5:
        new = [-1]
    elif u < 0.7 and n and n % 2 == 0:
        new = [2, -1]
    elif u < 0.8:
        new = [n + 1]
    else:
        new = list(shape[::-1])
    return (x, new), {}


spec("reshape", _reshape_gen)


def _transpose_gen(r):
    shape = r.shape()
    x = r.t(shape, _any_dtype(r))
    if r.p(0.3):
        return (x,), {}
    perm = r.g.permutation(len(shape)).tolist()
    if r.p(0.07):
        perm = perm + [len(shape)]
    return (x, perm), {}


spec("transpose", _transpose_gen)


def _expand_gen(r):
    shape = r.shape(max_rank=3)
    return (r.t(shape, _any_dtype(r)), r.int(-len(shape) - 2, len(shape) + 1)), {}


spec("expand_dims", _expand_gen)


def _squeeze_gen(r):
    shape = list(r.shape(max_rank=3))
    for j in range(len(shape)):
        if r.p(0.4):
            shape[j] = 1
    x = r.t(tuple(shape), _any_dtype(r))
    if r.p(0.4):
        return (x,), {}
    return (x,), {"axis": r.int_axis(len(shape))}


spec("squeeze", _squeeze_gen)


def _concat_gen(r):
    shape = r.shape(min_rank=1 if r.p(0.95) else 0)
    dt = r.dtype(NUMERIC + ("bool",), ())
    k = r.int(1, 3)
    axis = r.int_axis(len(shape)) if shape else 0
    ts = []
    for _ in range(k):
        s = list(shape)
        if s:
            s[axis % len(s) if -len(s) <= axis < len(s) else 0] = r.dim(0, 3)
        if r.p(0.04):
            s = s + [1]
        ts.append(r.t(tuple(s), dt if r.p(0.97) else "int64"))
    return (ts, axis), {}


spec("concat", _concat_gen)


def _stack_gen(r):
    shape = r.shape(max_rank=3)
    dt = r.dtype(NUMERIC + ("bool",), ())
    k = r.int(1, 3)
    ts = [r.t(shape if r.p(0.96) else shape + (1,), dt) for _ in range(k)]
    kw = {}
    if r.p(0.6):
        kw["axis"] = r.int(-len(shape) - 2, len(shape) + 1)
    return (ts,), kw


spec("stack", _stack_gen)


def _unstack_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, _any_dtype(r))
    kw = {}
    if r.p(0.6):
        kw["axis"] = r.int_axis(len(shape))
    return (x,), kw


spec("unstack", _unstack_gen)


def _split_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, _any_dtype(r))
    axis = r.int_axis(len(shape))
    d = shape[axis] if -len(shape) <= axis < len(shape) else 0
    u = r.g.random()
    if u < 0.4:
        num = r.choice((1, 2, 3))
    else:
        a = r.int(0, d)
        num = [a, d - a] if r.p(0.8) else [a, -1] if r.p(0.5) else [a, d - a + 1]
    return (x, num), {"axis": axis}


spec("split", _split_gen)


def _tile_gen(r):
    shape = r.shape(max_rank=3, hi=3)
    x = r.t(shape, _any_dtype(r))
    reps = [r.int(0, 2) for _ in shape]
    if r.p(0.05):
        reps = reps + [1]
    return (x, reps), {}


spec("tile", _tile_gen)


def _pad_gen(r):
    shape = r.shape(max_rank=3, hi=3)
    x = r.t(shape, r.dtype(NUMERIC + ("bool",), ()))
    pads = [[r.int(0, 2), r.int(0, 2)] for _ in shape]
    if r.p(0.05) and pads:
        pads[0][0] = -1
    kw = {}
    if r.p(0.4):
        kw["mode"] = r.choice(("CONSTANT", "REFLECT", "SYMMETRIC"))
    if r.p(0.2) and kw.get("mode", "CONSTANT") == "CONSTANT" and x.dtype != "bool":
        kw["constant_values"] = 2
    return (x, pads), kw


spec("pad", _pad_gen)


def _reverse_gen(r):
    shape = r.shape()
    x = r.t(shape, _any_dtype(r))
    k = r.int(0, len(shape))
    ax = sorted(r.g.choice(len(shape), k, replace=False).tolist()) if shape else []
    if r.p(0.06):
        ax = ax + [len(shape)]
    return (x, ax), {}


spec("reverse", _reverse_gen)


def _roll_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, _any_dtype(r))
    if r.p(0.5):
        return (x, r.int(-5, 5), r.int_axis(len(shape))), {}
    return (x, [r.int(-3, 3), r.int(-3, 3)], [0, r.int_axis(len(shape))]), {}


spec("roll", _roll_gen)


def _bto_gen(r):
    a, b = r.bshapes()
    shape = b
    if r.p(0.9):
        try:   # an incompatible pair (bshapes draws one in 20) asks for b: TF's error
            shape = tuple(np.broadcast_shapes(a, b))
        except ValueError:
            pass
    return (r.t(a, _any_dtype(r)), list(shape)), {}


spec("broadcast_to", _bto_gen)


def _gather_gen(r):
    shape = r.shape(min_rank=1 if r.p(0.95) else 0)
    x = r.t(shape, r.dtype(FLOATS + INTS + ("bool",), ()))
    kw = {}
    axis = 0
    if r.p(0.4) and shape:
        axis = r.int_axis(len(shape))
        kw["axis"] = axis
    d = shape[axis] if shape and -len(shape) <= axis < len(shape) else 1
    ishape = r.shape(max_rank=2, hi=3)
    idx = r.g.integers(0, max(d, 1), ishape)
    if r.p(0.06) and idx.size:
        idx.reshape(-1)[0] = r.choice((d, -1))
    if r.p(0.2):
        return (x, int(idx.reshape(-1)[0]) if idx.size else 0), kw
    return (x, T(idx.astype(r.choice(INTS)), "int32")), kw


spec("gather", _gather_gen)


def _embedding_gen(r):
    shape = (r.dim(1, 5), r.dim(1, 3))
    x = r.t(shape, r.dtype(F3264, ()))
    ishape = r.shape(max_rank=2, hi=3)
    idx = r.g.integers(0, shape[0], ishape)
    if r.p(0.2):
        return (x, int(idx.reshape(-1)[0]) if idx.size else 0), {}
    return (x, T(idx, "int32")), {}


spec("nn.embedding_lookup", _embedding_gen)


def _gather_nd_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, r.dtype(FLOATS + INTS, ()))
    k = r.int(1, len(shape))
    m = r.dim(0, 3)
    idx = np.stack([r.g.integers(0, max(d, 1), m) for d in shape[:k]], -1) if m else \
        np.zeros((0, k), np.int64)
    if r.p(0.05) and idx.size:
        idx.reshape(-1)[0] = shape[0]
    return (x, T(idx, "int32")), {}


spec("gather_nd", _gather_nd_gen)


def _scatter_nd_gen(r, with_tensor):
    shape = r.shape(min_rank=1, max_rank=3)
    dt = r.dtype(FLOATS + INTS, ("bool",))
    k = r.int(1, len(shape))
    m = r.dim(0, 3)
    idx = np.stack([r.g.integers(0, max(d, 1), m) for d in shape[:k]], -1) if m else \
        np.zeros((0, k), np.int64)
    if r.p(0.05) and idx.size:
        idx.reshape(-1)[0] = shape[0]
    upd = r.t((m,) + shape[k:], dt)
    if with_tensor:
        return (r.t(shape, dt), T(idx, "int32"), upd), {}
    return (T(idx, "int32"), upd, list(shape)), {}


spec("scatter_nd", lambda r: _scatter_nd_gen(r, False))
for _n in ("update", "add", "sub", "max", "min"):
    spec(f"tensor_scatter_nd_{_n}", lambda r: _scatter_nd_gen(r, True))


def _bmask_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, _any_dtype(r))
    k = r.int(1, len(shape))
    m = r.values(shape[:k], "bool")
    if r.p(0.05):
        m = r.values(shape[:k] + (2,), "bool")
    kw = {}
    if r.p(0.2):
        kw["axis"] = 0
    return (x, T(m, "bool")), kw


spec("boolean_mask", _bmask_gen)


def _where_gen(r):
    if r.p(0.3):
        shape = r.shape()
        return (r.t(shape, r.choice(("bool", "bool", "float32", "int32"))),), {}
    a, b = r.bshapes()
    c = r.t(a if r.p(0.5) else b, "bool")
    dt = r.dtype(FLOATS + INTS, ())
    return (c, r.t(a, dt), r.t(b, dt)), {}


spec("where", _where_gen)


def _slice_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, _any_dtype(r))
    begin = [r.int(0, d) for d in shape]
    size = [r.choice((-1, max(d - b, 0), 0, 1)) for d, b in zip(shape, begin)]
    return (x, begin, size), {}


spec("slice", _slice_gen)


def _strided_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, _any_dtype(r))
    begin = [r.int(-d - 1, d) for d in shape]
    end = [r.int(-d - 1, d + 1) for d in shape]
    strides = [r.choice((1, 1, 2, -1)) for _ in shape]
    kw = {}
    for m in ("begin_mask", "end_mask", "shrink_axis_mask", "new_axis_mask", "ellipsis_mask"):
        if r.p(0.12):
            kw[m] = r.int(0, 2 ** len(shape) - 1)
    return (x, begin, end, strides), kw


spec("strided_slice", _strided_gen)


def _getitem_gen(r):
    shape = r.shape(min_rank=1)
    x = r.t(shape, _any_dtype(r))
    items = []
    for d in shape[:r.int(1, len(shape))]:
        u = r.g.random()
        if u < 0.3:
            items.append(("i", r.int(-d - 1, d)))
        elif u < 0.8:
            items.append(("s", r.choice((None, 0, 1, -1)), r.choice((None, d, -1, 2)),
                          r.choice((None, 1, 2, -1))))
        elif u < 0.9:
            items.append(("n",))
        else:
            items.append(("e",))
    return (x, items), {}


def _getitem(tf, x, items):
    key = []
    for it in items:
        if it[0] == "i":
            key.append(it[1])
        elif it[0] == "s":
            key.append(slice(it[1], it[2], it[3]))
        elif it[0] == "n":
            key.append(None)
        else:
            key.append(Ellipsis)
    return x[tuple(key)]


spec("operator.getitem", _getitem_gen, fn=_getitem)


def _one_hot_gen(r):
    shape = r.shape(max_rank=2)
    idx = r.g.integers(-1, 5, shape)
    kw = {}
    if r.p(0.3):
        kw["axis"] = r.int(-1, len(shape))
    if r.p(0.3):
        kw["on_value"], kw["off_value"] = 2.0, -1.0
    if r.p(0.2):
        kw["dtype"] = r.choice(("int32", "float64"))
    return (T(idx, r.choice(INTS + ("uint8",))), r.choice((4, 1, 0))), kw


spec("one_hot", _one_hot_gen, fn=lambda tf, i, d, dtype=None, **kw: tf.one_hot(
    i, d, **kw, **({"dtype": getattr(tf, dtype)} if dtype else {})))


def _seqmask_gen(r):
    shape = r.shape(max_rank=2)
    lens = T(r.g.integers(0, 5, shape), r.choice(INTS))
    if r.p(0.5):
        return (lens, r.choice((0, 3, 5))), {}
    return (lens,), {}


spec("sequence_mask", _seqmask_gen)


def _like_gen(r):
    return (r.t(r.shape(), _any_dtype(r)),), {}


for _n in ("zeros_like", "ones_like", "identity", "shape", "size", "rank", "stop_gradient"):
    spec(_n, _like_gen, n=40)


def _fill_gen(r):
    dims = [r.int(0, 3) for _ in range(r.int(0, 3))]
    if r.p(0.05) and dims:
        dims[0] = -1
    return (dims, r.choice((1.5, 0, True, -2))), {}


spec("fill", _fill_gen, n=40)


def _cast_gen(r):
    x = r.t(r.shape(), _any_dtype(r))
    return (x, r.choice(FLOATS + INTS + ("bool", "uint8", "complex64", "int8"))), {}


spec("cast", _cast_gen, fn=lambda tf, x, d: tf.cast(x, getattr(tf, d)))


def _repeat_gen(r):
    shape = r.shape(max_rank=3)
    x = r.t(shape, _any_dtype(r))
    kw = {}
    if r.p(0.7) and shape:
        ax = r.int_axis(len(shape))
        kw["axis"] = ax
        d = shape[ax] if -len(shape) <= ax < len(shape) else 1
        rep = r.int(0, 2) if r.p(0.5) else [r.int(0, 2) for _ in range(d)]
    else:
        rep = r.int(0, 2)
    return (x, rep), kw


spec("repeat", _repeat_gen)


def _revseq_gen(r):
    b, t = r.dim(1, 3), r.dim(0, 4)
    rest = r.shape(max_rank=1, hi=2)
    x = r.t((b, t) + rest, r.dtype(FLOATS + INTS, ()))
    lens = r.g.integers(0, t + 1 + (1 if r.p(0.05) else 0), b)
    return (x, T(lens, r.choice(INTS))), {"seq_axis": 1, "batch_axis": 0}


spec("reverse_sequence", _revseq_gen)


def _add_n_gen(r):
    shape = r.shape()
    dt = r.dtype(NUMERIC + COMPLEX[:1], ("bool",))
    k = r.int(1, 3)
    return ([r.t(shape if r.p(0.95) else shape + (2,), dt) for _ in range(k)],), {}


spec("math.add_n", _add_n_gen)
spec("add_n", _add_n_gen, n=24)


def _segment_gen(kind):
    def gen(r):
        n = r.dim(0, 5)
        rest = r.shape(max_rank=2, hi=3)
        x = r.t((n,) + rest, r.dtype(FLOATS + INTS, ("bool", "complex64")))
        nseg = r.int(1, 4)
        if kind == "sorted":
            ids = np.sort(r.g.integers(0, nseg, n))
            if r.p(0.06) and n >= 2:
                ids = ids[::-1].copy()
        else:
            ids = r.g.integers(0, nseg, n)
        if r.p(0.06) and n:
            ids[-1] = r.choice((-1, nseg + 1))
        ids = T(ids, r.choice(INTS))
        if kind == "sorted":
            return (x, ids), {}
        return (x, ids, nseg), {}
    return gen


for _n in ("sum", "mean", "max", "min", "prod"):
    if _n != "prod":
        spec(f"math.segment_{_n}", _segment_gen("sorted"))
for _n in ("sum", "mean", "max", "min", "sqrt_n", "prod"):
    spec(f"math.unsorted_segment_{_n}", _segment_gen("unsorted"))
del SPECS["math.unsorted_segment_prod"]


def _bincount_gen(r):
    x = T(r.g.integers(0, 5, r.shape(max_rank=2)) - (1 if r.p(0.05) else 0), "int32")
    kw = {}
    if r.p(0.3):
        kw["minlength"] = r.int(0, 6)
    if r.p(0.3):
        kw["maxlength"] = r.int(0, 6)
    if r.p(0.3):
        kw["weights"] = r.t(x.value.shape, r.choice(F3264))
    return (x,), kw


spec("math.bincount", _bincount_gen)


def _unique_gen(r):
    x = T(r.g.integers(-2, 3, (r.dim(0, 6),)), r.choice(INTS + ("float32",)))
    if r.p(0.05):
        x = T(r.g.integers(0, 3, (2, 2)), "int32")
    return (x,), {}


spec("unique", _unique_gen)


def _invperm_gen(r):
    n = r.dim(0, 6)
    p = r.g.permutation(n)
    if r.p(0.08) and n:
        p[0] = p[-1] if n > 1 else 5
    return (T(p, r.choice(INTS)),), {}


spec("math.invert_permutation", _invperm_gen, n=40)


def _cm_gen(r):
    n = r.dim(0, 6)
    lab = r.g.integers(0, 4, n)
    pred = r.g.integers(0, 4, n)
    kw = {}
    if r.p(0.5):
        kw["num_classes"] = r.choice((4, 5, 2))
    return (T(lab, "int32"), T(pred, "int32")), kw


spec("math.confusion_matrix", _cm_gen, n=40)


def _in_top_k_gen(r):
    b, c = r.dim(1, 3), r.dim(1, 4)
    pred = r.t((b, c), "float32")
    tgt = T(r.g.integers(0, c, b), "int32")
    return (tgt, pred, r.int(0, c)), {}


spec("math.in_top_k", _in_top_k_gen, fn=lambda tf, t, p, k: tf.math.in_top_k(t, p, k),
     grad=False, n=40)


def _einsum_gen(r):
    eq = r.choice(("ij,jk->ik", "ij->ji", "ii->i", "ij->", "bij,bjk->bik", "i,i->", "i,j->ij",
                   "ij,ij->ij", "...ij,...jk->...ik", "ij,jk"))
    dims = {c: r.dim(0, 3) for c in "ijkb"}
    if eq == "ii->i":
        dims["j"] = dims["i"]
    ins = eq.split("->")[0].split(",")
    dt = r.dtype(F3264 + COMPLEX[:1], ("int32", "bool"))
    ts = []
    for s in ins:
        s2 = s.replace("...", "b")
        shape = tuple(dims[c] for c in s2)
        if r.p(0.05):
            shape = tuple(d + 1 for d in shape)
        ts.append(r.t(shape, dt))
    if eq == "ii->i":
        ts = [r.t((dims["i"], dims["i"]), dt)]
    return (eq, *ts), {}


spec("einsum", _einsum_gen)
spec("linalg.einsum", _einsum_gen, n=24)


def _tensordot_gen(r):
    dt = r.dtype(F3264 + COMPLEX[:1], ("int32", "bool"))
    a = r.shape(min_rank=1, max_rank=3, hi=3)
    k = r.int(0, len(a))
    b = a[len(a) - k:] + r.shape(max_rank=2, hi=3)
    if r.p(0.05) and b:
        b = (b[0] + 1,) + b[1:]
    axes = k if r.p(0.7) else [list(range(len(a) - k, len(a))), list(range(k))]
    return (r.t(a, dt), r.t(b, dt), axes), {}


spec("tensordot", _tensordot_gen)
spec("linalg.tensordot", _tensordot_gen, n=24)


def _complex_gen(r):
    a, b = r.bshapes()
    dt = r.dtype(F3264, ("int32", "float16"))
    return (r.t(a, dt), r.t(b, dt)), {}


spec("complex", _complex_gen)


def _linspace_gen(r):
    return (r.choice((0.0, -1.5, 2.0)), r.choice((1.0, 3.0, -2.0)), r.choice((0, 1, 4, 7))), {}


spec("linspace", _linspace_gen, n=24, grad=False)


def _range_gen(r):
    return (r.int(-3, 3), r.int(-3, 8), r.choice((1, 2, -1, 3))), {}


spec("range", _range_gen, n=24, grad=False)


def _eye_gen(r):
    kw = {}
    if r.p(0.4):
        kw["num_columns"] = r.int(0, 4)
    if r.p(0.3):
        kw["batch_shape"] = [r.int(1, 2)]
    return (r.int(0, 4),), kw


spec("eye", _eye_gen, n=24, grad=False)
spec("linalg.eye", _eye_gen, n=16, grad=False)


def _meshgrid_gen(r):
    k = r.int(1, 3)
    dt = r.dtype(F3264 + INTS, ())
    kw = {}
    if r.p(0.4):
        kw["indexing"] = r.choice(("xy", "ij"))
    return tuple(r.t((r.dim(0, 3),), dt) for _ in range(k)), kw


spec("meshgrid", _meshgrid_gen, n=40)


def _polyval_gen(r):
    dt = r.dtype(F3264, ("int32",))
    k = r.int(0, 4)
    shape = r.shape(max_rank=2)
    return ([r.t(shape if r.p(0.3) else (), dt) for _ in range(k)], r.t(shape, dt)), {}


spec("math.polyval", _polyval_gen)


def _lbeta_gen(r):
    return (r.t(r.shape(), r.dtype(F3264, ("int32",)), "pos"),), {}


spec("math.lbeta", _lbeta_gen)


def _scalar_mul_gen(r):
    dt = r.dtype(F3264, ())
    return (r.choice((2.0, -0.5, 0.0)), r.t(r.shape(), dt)), {}


spec("math.scalar_mul", _scalar_mul_gen, n=40)
spec("scalar_mul", _scalar_mul_gen, n=16)

# ------------------------------------------------------------------------------ nn


def _xent_gen(kind):
    def gen(r):
        dt = r.dtype(FLOATS, ("int32",))
        shape = r.shape(min_rank=1 if kind != "sig" else 0, max_rank=3)
        logits = r.t(shape, dt, "logit")
        if kind == "sig":
            lab = r.t(shape, dt, "prob")
            if r.p(0.3):
                lab = T(np.round(lab.value), dt, True)
            return (), {"labels": lab, "logits": logits}
        if kind == "wsig":
            lab = r.t(shape, dt, "prob")
            return (), {"labels": lab, "logits": logits, "pos_weight": r.choice((1.0, 2.5, 0.3))}
        if kind == "softmax":
            p = np.abs(r.values(shape, "float64", "prob")) + 1e-3
            p = p / p.sum(-1, keepdims=True) if p.size else p
            kw = {"labels": T(p, dt), "logits": logits}
            if r.p(0.2):
                kw["axis"] = r.int_axis(len(shape))
            return (), kw
        ncls = shape[-1]
        lab = r.g.integers(0, max(ncls, 1) + (1 if r.p(0.05) else 0), shape[:-1])
        return (), {"labels": T(lab, r.choice(INTS)), "logits": logits}
    return gen


spec("nn.sigmoid_cross_entropy_with_logits", _xent_gen("sig"))
spec("nn.weighted_cross_entropy_with_logits", _xent_gen("wsig"))
spec("nn.softmax_cross_entropy_with_logits", _xent_gen("softmax"))
spec("nn.sparse_softmax_cross_entropy_with_logits", _xent_gen("sparse"))


def _l2loss_gen(r):
    return (r.t(r.shape(), r.dtype(FLOATS, ("int32",))),), {}


spec("nn.l2_loss", _l2loss_gen)


def _bias_add_gen(r):
    shape = r.shape(min_rank=1 if r.p(0.95) else 0)
    dt = r.dtype(FLOATS + INTS, ("bool",))
    c = shape[-1] if shape else 1
    if r.p(0.05):
        c += 1
    kw = {}
    if r.p(0.15) and len(shape) >= 3:
        kw["data_format"] = "NCHW" if len(shape) == 4 else "NCW" if False else "NHWC"
        if len(shape) == 4:
            c = shape[1]
    return (r.t(shape, dt), r.t((c,), dt)), kw


spec("nn.bias_add", _bias_add_gen)


def _bn_gen(r):
    shape = r.shape(min_rank=1, max_rank=3)
    dt = r.dtype(F3264, ("float16",))
    c = (shape[-1],)
    return (r.t(shape, dt), r.t(c, dt), T(np.abs(r.values(c, "float64")) + 0.1, dt),
            r.t(c, dt) if r.p(0.7) else None, r.t(c, dt) if r.p(0.7) else None,
            r.choice((1e-3, 1e-5))), {}


spec("nn.batch_normalization", _bn_gen)


def _log_poisson_gen(r):
    shape = r.shape()
    dt = r.dtype(F3264, ("int32",))
    kw = {}
    if r.p(0.4):
        kw["compute_full_loss"] = r.p(0.5)
    return (r.t(shape, dt, "nonneg"), r.t(shape, dt)), kw


spec("nn.log_poisson_loss", _log_poisson_gen)


def _avgloss_gen(r):
    shape = (r.dim(0, 4),) + r.shape(max_rank=1)
    dt = r.dtype(F3264, ())
    kw = {}
    if r.p(0.3):
        kw["sample_weight"] = r.t((shape[0],), dt)
    if r.p(0.3):
        kw["global_batch_size"] = r.int(1, 5)
    return (r.t(shape, dt),), kw


spec("nn.compute_average_loss", _avgloss_gen, n=40)


def _scale_reg_gen(r):
    return (r.t(r.shape(max_rank=1), r.dtype(F3264, ())),), {}


spec("nn.scale_regularization_loss", _scale_reg_gen, n=24)


def _normalize_moments_gen(r):
    dt = r.dtype(F3264, ())
    shape = r.shape(max_rank=2)
    return (r.choice((2.0, 5.0)), r.t(shape, dt), T(np.abs(r.values(shape, "float64")) + 4, dt),
            r.choice((None, 0.5))), {}


spec("nn.normalize_moments", _normalize_moments_gen, n=40)


def _suffstat_gen(r):
    shape = r.shape(min_rank=1)
    axes = sorted(r.g.choice(len(shape), r.int(1, len(shape)), replace=False).tolist())
    kw = {}
    if r.p(0.3):
        kw["shift"] = 0.5
    if r.p(0.3):
        kw["keepdims"] = True
    return (r.t(shape, r.dtype(F3264, ())), axes), kw


spec("nn.sufficient_statistics", _suffstat_gen, n=40)


def _conv_gen(nd, transpose=False, depthwise=False):
    def gen(r):
        dt = r.dtype(F3264 + ("float16",), ("int32",))
        b = r.int(1, 2)
        sp = [r.int(1, 5) for _ in range(nd)]
        cin, cout = r.int(1, 2), r.int(1, 2)
        k = [r.int(1, 3) for _ in range(nd)]
        stride = r.choice((1, 1, 2))
        padding = r.choice(("SAME", "VALID"))
        x = r.t((b, *sp, cin), dt)
        if transpose:
            w = r.t((*k, cout, cin), dt)
            if padding == "VALID":
                out = [(s - 1) * stride + kk for s, kk in zip(sp, k)]
            else:
                out = [s * stride for s in sp]
            if r.p(0.05):
                out[0] += 3
            return (x, w, [b, *out, cout], stride, padding), {}
        if depthwise:
            w = r.t((*k, cin, r.int(1, 2)), dt)
            return (x, w, [1, stride, stride, 1], padding), {}
        w = r.t((*k, cin if r.p(0.95) else cin + 1, cout), dt)
        kw = {}
        if r.p(0.2) and stride == 1:
            kw["dilations"] = 2
        return (x, w, stride, padding), kw
    return gen


spec("nn.conv1d", _conv_gen(1))
spec("nn.conv2d", _conv_gen(2))
spec("nn.convolution", _conv_gen(2), fn=lambda tf, x, w, s, p, **kw: tf.nn.convolution(
    x, w, strides=s, padding=p, **kw), n=40)
spec("nn.conv2d_transpose", _conv_gen(2, transpose=True))
spec("nn.conv1d_transpose", _conv_gen(1, transpose=True), n=40)
spec("nn.depthwise_conv2d", _conv_gen(2, depthwise=True))


def _pool_gen(nd):
    def gen(r):
        dt = r.dtype(F3264 + ("float16",), ("int32",))
        b = r.int(1, 2)
        sp = [r.int(1, 5) for _ in range(nd)]
        x = r.t((b, *sp, r.int(1, 2)), dt)
        return (x, r.int(1, 3), r.choice((1, 2)), r.choice(("SAME", "VALID"))), {}
    return gen


spec("nn.max_pool1d", _pool_gen(1))
spec("nn.max_pool2d", _pool_gen(2))
spec("nn.avg_pool1d", _pool_gen(1))
spec("nn.avg_pool2d", _pool_gen(2))
spec("nn.max_pool", _pool_gen(2), n=40)
spec("nn.avg_pool", _pool_gen(2), n=40)


def _s2d_gen(r):
    bs = r.choice((2, 2, 3))
    h, w = r.int(1, 2) * bs, r.int(1, 2) * bs
    if r.p(0.06):
        h += 1
    x = r.t((1, h, w, r.int(1, 2)), r.dtype(F3264 + INTS, ()))
    return (x, bs), {}


def _d2s_gen(r):
    bs = r.choice((2, 2))
    c = bs * bs * r.int(1, 2)
    if r.p(0.06):
        c += 1
    return (r.t((1, r.int(1, 2), r.int(1, 2), c), r.dtype(F3264 + INTS, ())), bs), {}


spec("nn.space_to_depth", _s2d_gen, n=40)
spec("nn.depth_to_space", _d2s_gen, n=40)


def _dropout_gen(r):
    x = r.t(r.shape(), r.dtype(F3264, ("int32",)))
    return (x, r.choice((0.0, 1.0, 1.5, -0.1))), {}


# rate 0 is deterministic; the others raise.
spec("nn.dropout", _dropout_gen, n=24)

# ------------------------------------------------------------------------------ linalg


def _mat(r, square=True, min_n=0, batch=True, dt=None):
    dt = dt or r.dtype(F3264 + COMPLEX[:1], ("int32", "float16"))
    bshape = (r.dim(1, 2),) if batch and r.p(0.3) else ()
    n = r.dim(min_n, 4)
    m = n if square else r.dim(min_n, 4)
    return bshape, n, m, dt


def _lin_unary(dom="any", square=True, real=False, extra=None, spd=False):
    def gen(r):
        b, n, m, dt = _mat(r, square, dt=r.dtype(F3264, ("int32", "float16")) if real else None)
        v = r.values(b + (n, m), dt, dom)
        if spd and n:
            if r.p(0.9):
                v = np.einsum("...ij,...kj->...ik", v, np.conj(v)) / max(n, 1) + np.eye(n)
                v = np.nan_to_num(v)
        elif square and n and r.p(0.7):
            v = v * 0.3 + 1.5 * np.eye(n)
        x = T(v, dt)
        if r.p(0.05):
            x = r.t(b + (n, n + 1), dt)
        return (x,), (extra(r) if extra else {})
    return gen


spec("linalg.det", _lin_unary())
spec("linalg.inv", _lin_unary())
spec("linalg.slogdet", _lin_unary())
spec("linalg.logdet", _lin_unary(spd=True))
spec("linalg.cholesky", _lin_unary(spd=True))
spec("linalg.expm", _lin_unary(real=False))
spec("linalg.eigh", _lin_unary(spd=True), fn=lambda tf, x: _eigh_abs(tf, x))


def _eigh_abs(tf, x):
    """Eigenvalues and |eigenvectors|: an eigenvector's sign (phase) is arbitrary."""
    e, v = tf.linalg.eigh(x)
    return e, tf.abs(v)


spec("linalg.eigvalsh", _lin_unary(spd=True))
spec("linalg.trace", _lin_unary(square=False))
spec("linalg.diag_part", _lin_unary(square=False))
spec("linalg.matrix_transpose", _lin_unary(square=False))
spec("linalg.adjoint", _lin_unary(square=False))
spec("linalg.qr", _lin_unary(square=False, real=True, extra=lambda r: (
    {"full_matrices": r.p(0.5)} if r.p(0.5) else {})))
spec("linalg.svd", _lin_unary(square=False, real=True, extra=lambda r: (
    {"compute_uv": False} if r.p(0.7) else {})),
    fn=lambda tf, x, compute_uv=True: (tf.linalg.svd(x, compute_uv=False) if not compute_uv
                                       else tf.abs(tf.linalg.svd(x)[0])))
spec("linalg.pinv", _lin_unary(square=False, real=True))
spec("linalg.matrix_rank", _lin_unary(square=False, real=True), grad=False)
spec("linalg.band_part", _lin_unary(square=False), fn=lambda tf, x: tf.linalg.band_part(
    x, 1, 0))


def _lin_binary(kind):
    def gen(r):
        b, n, m, dt = _mat(r, True, dt=r.dtype(F3264, ("int32", "float16")))
        a = r.values(b + (n, n), dt)
        if n:
            a = a * 0.3 + 1.5 * np.eye(n)
        if kind == "chol" and n:
            a = np.tril(a)
            a[..., np.arange(n), np.arange(n)] = np.abs(np.diagonal(a, 0, -2, -1)) + 0.5
        k = r.dim(0, 3)
        rhs = r.t(b + (n if r.p(0.95) else n + 1, k), dt)
        kw = {}
        if kind == "tri":
            a = np.tril(a) if r.p(0.5) else a
            if r.p(0.4):
                kw["lower"] = r.p(0.5)
        if kind == "solve" and r.p(0.2):
            kw["adjoint"] = True
        return (T(a, dt), rhs), kw
    return gen


spec("linalg.solve", _lin_binary("solve"))
spec("linalg.triangular_solve", _lin_binary("tri"))
spec("linalg.cholesky_solve", _lin_binary("chol"))
spec("linalg.lstsq", _lin_binary("solve"), fn=lambda tf, a, b, **kw: tf.linalg.lstsq(a, b))


def _matvec_gen(r):
    b, n, m, dt = _mat(r, False)
    return (r.t(b + (n, m), dt), r.t(b + (m if r.p(0.95) else m + 1,), dt)), {}


spec("linalg.matvec", _matvec_gen)
spec("linalg.matmul", _matmul_gen)
spec("matmul", _matmul_gen, n=40)


def _diag_gen(r):
    b, n, m, dt = _mat(r, False)
    kw = {}
    if r.p(0.3):
        kw["k"] = r.int(-1, 1)
    return (r.t(b + (n,), dt),), kw


spec("linalg.diag", _diag_gen)


def _set_diag_gen(r):
    b, n, m, dt = _mat(r, False)
    d = min(n, m)
    return (r.t(b + (n, m), dt), r.t(b + (d if r.p(0.95) else d + 1,), dt)), {}


spec("linalg.set_diag", _set_diag_gen)


def _cross_gen(r):
    dt = r.dtype(F3264 + INTS, ("bool",))
    b = r.shape(max_rank=2, hi=2)
    last = 3 if r.p(0.93) else 2
    return (r.t(b + (last,), dt), r.t(b + (3,), dt)), {}


spec("linalg.cross", _cross_gen)


def _normalize_gen(r):
    shape = r.shape(min_rank=1)
    kw = {}
    if r.p(0.4):
        kw["ord"] = r.choice(("euclidean", 1, np.inf))
    if r.p(0.3):
        kw["axis"] = r.int_axis(len(shape))
    return (r.t(shape, r.dtype(F3264, ("int32",))),), kw


spec("linalg.normalize", _normalize_gen)

# ------------------------------------------------------------------------------ keras


def _act_kw(name):
    table = {
        "relu": lambda r: {k: v for k, v in (("negative_slope", r.choice((0.0, 0.1))),
                                             ("max_value", r.choice((None, 6.0, 1.0))),
                                             ("threshold", r.choice((0.0, 0.5))))
                           if r.p(0.4)},
        "elu": lambda r: {"alpha": r.choice((1.0, 0.5))} if r.p(0.3) else {},
        "celu": lambda r: {"alpha": r.choice((1.0, 0.5))} if r.p(0.3) else {},
        "leaky_relu": lambda r: {"negative_slope": r.choice((0.2, 0.01))} if r.p(0.3) else {},
        "softmax": lambda r: {"axis": r.choice((-1, 0))} if r.p(0.3) else {},
        "log_softmax": lambda r: {"axis": r.choice((-1, 0))} if r.p(0.3) else {},
        "hard_shrink": lambda r: {"threshold": 0.5} if r.p(0.3) else {},
        "soft_shrink": lambda r: {"threshold": 0.5} if r.p(0.3) else {},
        "threshold": lambda r: {"threshold": r.choice((0.0, 0.5)),
                                "default_value": r.choice((0.0, -1.0))},
        "gelu": lambda r: {"approximate": r.p(0.5)} if r.p(0.5) else {},
        "squareplus": lambda r: {"b": 4} if r.p(0.3) else {},
        "sparse_plus": lambda r: {},
    }
    return table.get(name)


for _n in ("celu", "elu", "exponential", "gelu", "hard_shrink", "hard_sigmoid", "hard_silu",
           "hard_swish", "hard_tanh", "leaky_relu", "linear", "log_sigmoid", "log_softmax",
           "mish", "relu", "relu6", "selu", "sigmoid", "silu", "soft_shrink", "softmax",
           "softplus", "softsign", "sparse_plus", "sparsemax", "squareplus", "swish", "tanh",
           "tanh_shrink", "threshold", "sparse_sigmoid"):
    _k = _act_kw(_n)
    if _n in ("softmax", "log_softmax", "sparsemax"):
        spec(f"keras.activations.{_n}", g_unary(F3264, ("int32",), "any", kw=_k),
             fn=(lambda tf, x, _p=_n, **kw: resolve(tf, "keras.activations." + _p)(
                 x if len(x.shape) else tf.reshape(x, [1]), **kw)))
    else:
        spec(f"keras.activations.{_n}", g_unary(F3264, ("int32",), "any", kw=_k))


def _glu_gen(r):
    shape = r.shape(min_rank=1)
    shape = shape[:-1] + (2 * max(shape[-1] // 2, 1) if r.p(0.9) else 3,)
    return (r.t(shape, r.dtype(F3264, ())),), {}


spec("keras.activations.glu", _glu_gen)


def _loss_gen(kind):
    def gen(r):
        dt = r.dtype(F3264, ())
        shape = r.shape(min_rank=1, max_rank=3)
        if kind == "sparse":
            c = shape[-1]
            yt = T(r.g.integers(0, max(c, 1), shape[:-1]), r.choice(("int32", "float32")),
                   False)
            return (yt, r.t(shape, dt, "prob")), {"from_logits": True} if r.p(0.4) else {}
        if kind == "prob":
            yt = T(np.round(r.g.random(shape)) if r.p(0.5) else r.g.random(shape), dt, False)
            kw = {}
            if r.p(0.4):
                kw["from_logits"] = True
            if r.p(0.2):
                kw["label_smoothing"] = 0.1
            yp = r.t(shape, dt, "logit" if kw.get("from_logits") else "prob")
            if r.p(0.05):
                yp = T(yp.value, "float64" if dt == "float32" else "float32")
            return (yt, yp), kw
        if kind == "hinge":
            yt = T(np.sign(r.g.standard_normal(shape)), dt, False)
            return (yt, r.t(shape, dt)), {}
        if kind == "pos":
            return (T(np.abs(r.values(shape, "float64")), dt, False), r.t(shape, dt, "pos")), {}
        yt = T(r.values(shape, "float64"), dt, False)
        return (yt, r.t(shape, dt)), {}
    return gen


_LOSSES = {
    "binary_crossentropy": "prob", "binary_focal_crossentropy": "prob",
    "categorical_crossentropy": "prob", "categorical_focal_crossentropy": "prob",
    "sparse_categorical_crossentropy": "sparse", "categorical_hinge": "hinge",
    "hinge": "hinge", "squared_hinge": "hinge", "huber": "any", "kld": "pos",
    "kullback_leibler_divergence": "pos", "logcosh": "any", "mae": "any", "mape": "any",
    "mse": "any", "msle": "pos", "MSE": "any", "poisson": "pos",
    "cosine_similarity": "any", "dice": "prob", "tversky": "prob",
}
for _n, _k in _LOSSES.items():
    _g = _loss_gen(_k)
    if _n in ("dice", "tversky", "cosine_similarity", "huber", "logcosh"):
        _g = (lambda g: lambda r: (g(r)[0], {}))(_g)
    spec(f"keras.losses.{_n}", _g)
for _n, _a in (("MeanSquaredError", "any"), ("BinaryCrossentropy", "prob"),
               ("CategoricalCrossentropy", "prob"), ("Huber", "any"),
               ("SparseCategoricalCrossentropy", "sparse"), ("MeanAbsoluteError", "any")):
    spec(f"keras.losses.{_n}", (lambda g: lambda r: (g(r)[0], {
        "reduction": r.choice(("sum_over_batch_size", "sum", None))}))(_loss_gen(_a)),
        fn=(lambda tf, yt, yp, reduction, _p=_n: resolve(tf, "keras.losses." + _p)(
            reduction=reduction)(yt, yp)), n=40)


# ------------------------------------------------------------------------------ signal


def _fft_gen(min_rank, real=False, inverse_real=False):
    def gen(r):
        if real:
            dt = r.dtype(F3264, ("int32", "complex64"))
        else:
            dt = r.dtype(COMPLEX, ("float32", "int32"))
        shape = r.shape(min_rank=min_rank, max_rank=max(min_rank, 3), hi=5)
        kw = {}
        if (real or inverse_real) and r.p(0.3) and shape:
            kw["fft_length"] = [r.int(0, 6) for _ in range(min_rank)]
        return (r.t(shape, dt),), kw
    return gen


for _n, _k in (("fft", 1), ("ifft", 1), ("fft2d", 2), ("ifft2d", 2)):
    spec(f"signal.{_n}", _fft_gen(_k), n=40)
for _n, _k in (("rfft", 1), ("rfft2d", 2)):
    spec(f"signal.{_n}", _fft_gen(_k, real=True), n=40)
for _n, _k in (("irfft", 1), ("irfft2d", 2)):
    spec(f"signal.{_n}", _fft_gen(_k, inverse_real=True), n=40)


def _shift_gen(r):
    shape = r.shape()
    kw = {}
    if r.p(0.4) and shape:
        kw["axes"] = r.int_axis(len(shape))
    return (r.t(shape, r.dtype(F3264 + INTS, ())),), kw


spec("signal.fftshift", _shift_gen, n=40)
spec("signal.ifftshift", _shift_gen, n=40)


def _frame_gen(r):
    shape = r.shape(min_rank=1, max_rank=2, hi=8)
    kw = {}
    if r.p(0.3):
        kw["pad_end"] = True
    if r.p(0.2):
        kw["axis"] = r.int_axis(len(shape))
    return (r.t(shape, r.dtype(F3264 + INTS, ())), r.int(1, 4), r.int(1, 3)), kw


spec("signal.frame", _frame_gen, n=40)


def _ola_gen(r):
    shape = r.shape(min_rank=2, max_rank=3, hi=4)
    return (r.t(shape, r.dtype(F3264, ("int32",))), r.int(1, 3)), {}


spec("signal.overlap_and_add", _ola_gen, n=40)


def _dct_gen(r):
    shape = r.shape(min_rank=1, max_rank=3, hi=6)
    kw = {}
    t = r.choice((1, 2, 2, 3, 4))
    if t != 2 or r.p(0.3):
        kw["type"] = t
    if r.p(0.4):
        kw["norm"] = "ortho"
    if r.p(0.2):
        kw["n"] = r.int(1, 6)
    return (r.t(shape, r.dtype(F3264, ("int32", "float16"))),), kw


spec("signal.dct", _dct_gen, n=40)
spec("signal.idct", _dct_gen, n=40)


def _stft_gen(r):
    shape = r.shape(min_rank=1, max_rank=2, hi=12)
    kw = {}
    if r.p(0.3):
        kw["fft_length"] = r.choice((4, 8))
    if r.p(0.2):
        kw["pad_end"] = True
    return (r.t(shape, r.dtype(F3264, ("int32",))), r.choice((2, 4)), r.int(1, 3)), kw


spec("signal.stft", _stft_gen, n=40)


def _window_gen(r):
    kw = {}
    if r.p(0.4):
        kw["periodic"] = r.p(0.5)
    if r.p(0.3):
        kw["dtype"] = "float64"
    return (r.int(0, 6),), kw


for _n in ("hann_window", "hamming_window"):
    spec(f"signal.{_n}", _window_gen, n=16, grad=False,
         fn=(lambda tf, n, dtype=None, _p=_n, **kw: resolve(tf, "signal." + _p)(
             n, **kw, **({"dtype": getattr(tf, dtype)} if dtype else {}))))


def all_ops():
    return sorted(SPECS)
