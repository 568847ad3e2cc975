"""Random tensors (``tf.random``): TensorFlow's seeds, kernels and streams (CPU).

``tf.random.set_seed(s)`` followed by the same calls prints TensorFlow 2.21's numbers:

* Seeds (TF's ``random_seed.get_seed``): an op gets the pair ``(global seed, op seed)``.
  Without an op seed, eager mode draws one from a ``random.Random(global seed)`` (the eager
  context's), a ``tf.function`` trace numbers its random ops 0, 1, 2, ... With only an op
  seed the global one is ``DEFAULT_GRAPH_SEED`` (87654321); with neither the kernel takes
  fresh entropy. Seeds are taken modulo ``2**31 - 1``; ``(0, 0)`` becomes
  ``(0, 2**31 - 1)``.
* Kernels (TF's ``GuardedPhiloxRandom``): a kernel holds a Philox4x32-10 generator keyed by
  the seed, with the op seed in the counter's high half; each call reserves ``256`` counters
  per output (the shuffle: one word per swap), so a kernel called again continues its
  stream. Eager kernels are cached by (op, dtype, seeds), as TensorFlow's kernel cache, and
  ``set_seed`` clears the cache; an op in a traced function has its own kernel, kept across
  calls of that function.
* Transforms (``philox.py``): TensorFlow's uniform, Box-Muller normal (float32 ``logf`` and
  ``sincosf`` of the C library, as TF's kernel), truncated normal, integer uniform, the
  Fisher-Yates shuffle, the multinomial sampler.

Every draw happens in a primitive's forward, so a replayed (traced) program draws again.
"""
import random as _pyrandom
import weakref as _weakref

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import Primitive, nondifferentiable
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from . import philox as _philox
from . import stateless_random_ops as _sl
from ._helpers import shape_tuple

__all__ = ["normal", "uniform", "gamma", "poisson", "set_seed", "truncated_normal", "shuffle",
           "get_global_seed", "categorical", "get_seed"]

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1
_M32 = 0xFFFFFFFF

# seed: the global seed; ops: the eager context's op-seed generator (random.Random(seed));
# kernels: the eager kernel cache; traces: per-trace counters of op seeds; rng: a NumPy
# generator for tapeflow's own shuffles (Keras fit's order), made on first use.
_state = {"seed": None, "ops": None, "kernels": {}, "traces": {}, "rng": None}


class _Kernel:
    """One random op's generator (TensorFlow's ``GuardedPhiloxRandom``): a Philox key and
    a 128-bit counter that each call moves past what it reserved."""

    __slots__ = ("key", "counter", "start", "__weakref__")

    def __init__(self, seed, seed2):
        if seed == 0 and seed2 == 0:   # no seed at all: fresh entropy, as TensorFlow
            import os
            seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        seed, seed2 = int(seed) % (1 << 64), int(seed2) % (1 << 64)
        self.key = [seed & _M32, seed >> 32]
        self.counter = self.start = seed2 << 64

    def reserve(self, n128):
        """The (key, counter words) of the next ``n128`` counters, which are skipped."""
        c = self.counter
        if ACTIVE[0]:
            tracer = current_tracer()
            if tracer is not None and getattr(tracer, "dry", None):
                # a branch traced but not taken (TensorFlow does not run its ops)
                return self.key, [(c >> (32 * i)) & _M32 for i in range(4)]
        self.counter = (c + int(n128)) % (1 << 128)
        return self.key, [(c >> (32 * i)) & _M32 for i in range(4)]


_TRACED = _weakref.WeakSet()   # the kernels of traced ops (set_seed restarts them)


def set_seed(seed):
    """Set the global random seed (``tf.random.set_seed``); ``None`` clears it.

    As TensorFlow's: later ops without an op seed take op seeds from a generator restarted
    from ``seed``, and every cached eager kernel is dropped, so a program that sets it
    prints the same numbers (TensorFlow's) on every run.

    Args:
        seed: an int (or None).
    """
    if seed is not None:
        try:
            hash(seed)
            seed = int(seed)
        except TypeError:
            seed = int(np.asarray(seed))
    _state["seed"] = seed
    _state["ops"] = _pyrandom.Random(seed)
    _state["kernels"] = {}
    _state["rng"] = None
    for kernel in list(_TRACED):   # TensorFlow clears its caches: compiled functions'
        kernel.counter = kernel.start   # kernels start their streams again


def get_global_seed():
    return _state["seed"]


def _trace():
    """The trace random ops are being added to, or None (eager, or ``tf.init_scope``)."""
    if not ACTIVE[0]:
        return None
    tracer = current_tracer()
    if tracer is None or getattr(tracer, "lifted", 0):
        return None
    return tracer


def get_seed(op_seed):
    """The ``(seed, seed2)`` pair of an op with op-level seed ``op_seed``
    (``tf.compat.v1.random.get_seed``): see the module docstring. ``(None, None)`` when
    neither seed is set."""
    global_seed = _state["seed"]
    if global_seed is not None:
        if op_seed is None:
            tracer = _trace()
            if tracer is None:
                op_seed = _state["ops"].randint(0, _MAXINT32)
            else:
                # TensorFlow numbers the ops of each graph from 0, and a cond branch or a
                # loop body is a graph of its own: the tracer records one into a fresh
                # ``steps`` list, kept here so that its id is not reused
                counts = _state["traces"]
                steps = getattr(tracer, "steps", None)
                key = (id(tracer), id(steps))
                if key not in counts or counts[key][0]() is not tracer:
                    for k in [k for k, v in counts.items() if v[0]() is None]:
                        del counts[k]   # traces that are gone
                    counts[key] = [_weakref.ref(tracer), 0, steps]
                op_seed = counts[key][1]
                counts[key][1] += 1
        seeds = global_seed % _MAXINT32, int(op_seed) % _MAXINT32
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32
    else:
        seeds = None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _kernel(op, dtype, seed):
    """The kernel of a new random op: the eager cache's for these attributes, or a new one
    for an op of a trace (kept by the traced program's step)."""
    s1, s2 = get_seed(seed)
    s1, s2 = s1 or 0, s2 or 0
    if _trace() is not None:
        kernel = _Kernel(s1, s2)
        _TRACED.add(kernel)
        return kernel
    key = (op, dtype, s1, s2)
    kernel = _state["kernels"].get(key)
    if kernel is None:
        kernel = _state["kernels"][key] = _Kernel(s1, s2)
    return kernel


def _snapshot():
    """The seed state: the op-seed generator, the eager kernels' counters, the per-trace
    counters (see :func:`_restore`)."""
    ops = _state["ops"]
    return (_state["seed"], None if ops is None else ops.getstate(), dict(_state["kernels"]),
            {k: kern.counter for k, kern in _state["kernels"].items()},
            {k: list(v) for k, v in _state["traces"].items()})


def _restore(snapshot):
    """Put the seed state back as :func:`_snapshot` found it: a trace that is undone (a
    first ``tf.function`` call that created variables is traced again) has drawn nothing
    and used no op seed, as TensorFlow's graph building."""
    seed, ops_state, kernels, counters, traces = snapshot
    _state["seed"] = seed
    if ops_state is not None:
        if _state["ops"] is None:
            _state["ops"] = _pyrandom.Random()
        _state["ops"].setstate(ops_state)
    _state["kernels"] = kernels
    for k, kern in kernels.items():
        kern.counter = counters[k]
    _state["traces"] = traces


def epoch_permutation(n):
    """The order of one epoch of Keras 3's ``fit(shuffle=True)`` on TensorFlow: its array
    adapter shuffles ``range(n)`` with ``tf.random.shuffle`` inside a ``tf.data`` map
    function, whose graph gives the op the seed pair ``(global seed, 0)`` and a fresh kernel
    at every epoch's iterator (so a seeded run repeats one order; no global seed: entropy)."""
    g = _state["seed"]
    seeds = (0, 0) if g is None else (g % _MAXINT32, 0)
    if seeds == (0, 0) and g is not None:
        seeds = (0, _MAXINT32)
    return _shuffle_forward(np.arange(n), None, _Kernel(*seeds))


def _rng(seed=None):
    """A NumPy generator fixed by the global seed, for tapeflow's own random choices that
    do not reproduce TensorFlow's (``sample_from_datasets``, ``Dataset.random``)."""
    rng = _state["rng"]
    if rng is None:
        rng = _state["rng"] = np.random.default_rng(_state["seed"])
    return rng


def _fill(kind, kernel, shape, npdt):
    """``kind`` samples of ``shape``, as TensorFlow's ``PhiloxRandomOp``: 256 counters
    reserved per output."""
    n = int(np.prod(shape)) if shape else 1
    key, counter = kernel.reserve(256 * n)
    return _sl.bits(kind, key, counter, n, npdt).reshape(shape)


def _draw(kind):
    # The forward of a random primitive: it draws again each time it runs, so a replayed
    # tf.function program gives fresh values on every call, as TensorFlow's random ops do.
    def forward(shape, dtype, seed, kernel):
        return _fill(kind, kernel, shape, dtype._np)
    return forward


_NORMAL = nondifferentiable("RandomStandardNormal", _draw("normal"))
_TRUNCATED = nondifferentiable("TruncatedNormal", _draw("truncated"))
_UNIFORM = nondifferentiable("RandomUniform", _draw("uniform"))


def _shuffle_forward(v, seed, kernel):
    n = v.shape[0] if v.ndim else 0
    if v.size <= 1 or n <= 1:
        return v.copy()
    key, counter = kernel.reserve(-(-(n - 1) // 4))
    words = _philox.philox(key, counter, -(-(n - 1) // 4))[:n - 1].tolist()
    perm = list(range(n))
    for i, w in enumerate(words):   # TensorFlow's ShuffleRange: n - 1 draws
        j = i + w % (n - i)
        perm[i], perm[j] = perm[j], perm[i]
    return v[np.asarray(perm)]


_SHUFFLE = nondifferentiable("RandomShuffle", _shuffle_forward)


def _dynamic(kind, name):
    # The shape as an input tensor (``tf.random.uniform(tf.shape(x))`` inside a trace): a
    # relaxed program draws each call's shape. Not in the op table (its twin takes the
    # shape as an attribute).
    def forward(shape, dtype, seed, kernel):
        return _fill(kind, kernel, tuple(int(d) for d in shape), dtype._np)
    return Primitive(name, forward, differentiable=False, save_inputs=False)


_DYNAMIC = {_NORMAL: _dynamic("normal", "RandomStandardNormal"),
            _TRUNCATED: _dynamic("truncated", "TruncatedNormal"),
            _UNIFORM: _dynamic("uniform", "RandomUniform")}


def _attrs(prim, dtype, seed):
    return {"dtype": dtype, "seed": seed, "kernel": _kernel(prim.name, dtype.name, seed)}


def _draw_op(prim, shape, dtype, seed):
    """Run random primitive ``prim``; inside a trace a shape computed by ops (a 1-D int
    tensor such as ``tf.shape(x)``) stays an input of the program."""
    if ACTIVE[0] and isinstance(shape, _TensorLike) and current_tracer() is not None \
            and shape._value.ndim == 1 and shape._value.dtype.kind in "iu":
        return apply(_DYNAMIC[prim], (shape,), _attrs(prim, dtype, seed))
    return apply(prim, (), {"shape": shape_tuple(shape), **_attrs(prim, dtype, seed)})


def _scaled(prim, shape, mean, stddev, dtype, seed, check_op=None):
    dtype = _dt.as_dtype(dtype)
    _check_float(mean, dtype)
    if ACTIVE[0] and isinstance(shape, _TensorLike) and current_tracer() is not None:
        z = _draw_op(prim, shape, dtype, seed)
    else:
        shape = shape_tuple(shape)
        if check_op is not None:
            _check_dims(shape, check_op)
        z = apply(prim, (), {"shape": shape, **_attrs(prim, dtype, seed)})
    if _is_const(stddev, 1):
        if _is_const(mean, 0):
            return z
        return z + _as(mean, dtype)
    return z * _as(stddev, dtype) + _as(mean, dtype)


def _is_const(v, c):
    return not isinstance(v, _TensorLike) and not isinstance(v, np.ndarray) and v == c


def _as(v, dtype):
    return v if isinstance(v, _TensorLike) else Tensor(np.asarray(v, dtype._np)[()])


def _uniform_int_forward(lo, hi, shape, dtype, seed, kernel):
    # TensorFlow's RandomUniformInt: lo + bits % (hi - lo), 256 counters per output.
    lo, hi = int(lo), int(hi)
    if lo >= hi:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Need minval < maxval, got {lo} >= {hi}", "RandomUniformInt")
    n = int(np.prod(shape)) if shape else 1
    key, counter = kernel.reserve(256 * n)
    return _sl.uniform_ints(key, counter, n, lo, hi, dtype).reshape(shape)


_UNIFORM_INT = nondifferentiable("RandomUniformInt", _uniform_int_forward)


def _check_dims(shape, op):
    from .creation_ops import check_dims
    check_dims(shape, op)


def _check_float(mean, dtype):
    """TensorFlow's error for a normal draw of a non-float dtype (it converts ``mean``)."""
    if not (dtype.is_floating or dtype.is_complex):
        from .._core.tensor import _C_NAMES
        raise TypeError(f"Cannot convert {_value(mean)!r} to EagerTensor of dtype "
                        f"{_C_NAMES.get(dtype.name, dtype.name)}")


def _value(v):
    return v._value if isinstance(v, _TensorLike) else v


def normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2) (``tf.random.normal``).

    Args:
        shape: the output shape (list, tuple, TensorShape or 1-D int tensor).
        mean, stddev: scalars or tensors broadcastable to ``shape``.
        dtype: a floating DType (default float32).
        seed: an op-level seed; with the global seed it fixes the stream.

    Returns:
        A Tensor of ``shape`` and ``dtype``.
    """
    return _scaled(_NORMAL, shape, mean, stddev, dtype, seed, "RandomStandardNormal")


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Normal samples, redrawn beyond two standard deviations (``tf.random.truncated_normal``)."""
    return _scaled(_TRUNCATED, shape, mean, stddev, dtype, seed)


def uniform(shape, minval=0, maxval=None, dtype=_dt.float32, seed=None, name=None):
    """Samples from the uniform distribution on ``[minval, maxval)`` (``tf.random.uniform``).

    Args:
        shape: the output shape.
        minval, maxval: the range; ``maxval`` defaults to 1 for floats and is required for
            integer dtypes.
        dtype: float16/32/64 or int32/int64.

    Raises:
        ValueError: for an integer dtype without ``maxval``.
    """
    dtype = _dt.as_dtype(dtype)
    if ACTIVE[0] and not dtype.is_integer and isinstance(shape, _TensorLike) \
            and current_tracer() is not None:
        u = _draw_op(_UNIFORM, shape, dtype, seed)
        hi = 1.0 if maxval is None else maxval
        if _is_const(minval, 0) and _is_const(hi, 1.0):
            return u
        lo = _as(minval, dtype)
        return u * (_as(hi, dtype) - lo) + lo
    shape = shape_tuple(shape)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        _check_dims(shape, "RandomUniformInt")
        lo, hi = (v if isinstance(v, _TensorLike) else convert_to_tensor(v, dtype)
                  for v in (minval, maxval))
        if lo._value.ndim or hi._value.ndim:
            raise errors.op_error(errors.InvalidArgumentError,
                                  "minval must be 0-D, got shape "
                                  f"{list(lo._value.shape)}" if lo._value.ndim else
                                  f"maxval must be 0-D, got shape {list(hi._value.shape)}",
                                  "RandomUniformInt")
        return apply(_UNIFORM_INT, (lo, hi), {"shape": shape, "dtype": dtype._np,
                                              "seed": seed,
                                              "kernel": _kernel("RandomUniformInt",
                                                                dtype.name, seed)})
    _check_dims(shape, "RandomUniform")
    u = apply(_UNIFORM, (), {"shape": shape, **_attrs(_UNIFORM, dtype, seed)})
    hi = 1.0 if maxval is None else maxval
    if _is_const(minval, 0) and _is_const(hi, 1.0):
        return u
    lo = _as(minval, dtype)
    return u * (_as(hi, dtype) - lo) + lo


def shuffle(value, seed=None, name=None):
    """``value`` with its first axis randomly permuted (``tf.random.shuffle``)."""
    v = value if isinstance(value, _TensorLike) else convert_to_tensor(value)
    return apply(_SHUFFLE, (v,), {"seed": seed,
                                  "kernel": _kernel("RandomShuffle", v.dtype.name, seed)})


def _categorical_forward(logits, num_samples, dtype, seed, kernel):
    # TensorFlow's Multinomial on CPU: 256 counters per reserved output, where a row
    # reserves twice its samples rounded up to four (two words per double); the rows are
    # drawn in turn from the reserved counter (one shard: the batch's cost is below
    # TensorFlow's threshold for splitting the work between threads).
    batch = logits.shape[0]
    if batch * num_samples == 0:
        return np.zeros((batch, num_samples), dtype)
    key, counter = kernel.reserve(256 * batch * (-(-num_samples // 4) * 4) * 2)
    return _sl.categorical_rows(key, counter, logits, num_samples, dtype)


_MULTINOMIAL = nondifferentiable("Multinomial", _categorical_forward)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Class indices drawn from ``softmax(logits)`` for each row (``tf.random.categorical``).

    TensorFlow's numbers under ``tf.random.set_seed`` (see the module docstring).

    Args:
        logits: ``[batch, num_classes]`` unnormalised log-probabilities.
        num_samples: draws per row.
        dtype: int64 (default) or int32.
        seed: an op-level seed.

    Returns:
        A ``[batch, num_samples]`` integer tensor.

    Raises:
        ValueError: if ``logits`` is not 2-D.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.categorical(tf.math.log([[0.0, 1.0]]), 3).numpy()
        array([[1, 1, 1]])
    """
    x = logits if isinstance(logits, _TensorLike) else convert_to_tensor(logits)
    if x._value.ndim != 2:
        raise ValueError(f"logits should be a matrix, got shape {x.shape}")
    dtype = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
    return apply(_MULTINOMIAL, (x,), {"num_samples": int(num_samples), "dtype": dtype._np,
                                      "seed": seed,
                                      "kernel": _kernel("Multinomial", x.dtype.name, seed)})


def _gamma_forward(alpha, shape, dtype, seed, kernel):
    # TensorFlow's RandomGamma on CPU: 256 counters reserved per output, each output
    # sampled from its own counter (stateless_random_ops.gamma_samples).
    na = alpha.size
    n = (int(np.prod(shape)) if shape else 1) * na
    full = tuple(shape) + alpha.shape
    if n == 0:
        return np.zeros(full, dtype)
    key, counter = kernel.reserve(256 * n)
    return _sl.gamma_samples(key, counter, alpha.reshape(-1).astype(np.float64), full, dtype)


_GAMMA = nondifferentiable("RandomGamma", _gamma_forward)


def gamma(shape, alpha, beta=None, dtype=_dt.float32, seed=None, name=None):
    """Gamma(alpha, beta) samples (``beta`` the rate) (``tf.random.gamma``).

    TensorFlow 2.21's numbers on CPU under ``tf.random.set_seed`` (its op seeds and a
    Philox stream per op; Marsaglia-Tsang with 256 counters per output). Not
    differentiable here (TensorFlow differentiates with respect to ``alpha``).

    Args:
        shape: the sample shape; the output is ``shape + broadcast(alpha, beta).shape``.
        alpha: concentration(s), float.
        beta: rate(s) (default 1), broadcastable with ``alpha``.
        dtype: float16, bfloat16, float32 or float64.
        seed: an op-level seed.

    Returns:
        A Tensor of ``dtype``, every value at least the dtype's ``tiny``.

    Raises:
        tf.errors.InvalidArgumentError: if ``alpha`` is empty (and samples are asked for).

    Example:
        >>> import tapeflow as tf
        >>> tf.random.set_seed(1)
        >>> tf.random.gamma([2], alpha=[0.5, 2.0]).shape
        TensorShape([2, 2])
    """
    dtype = _dt.as_dtype(dtype)
    a = convert_to_tensor(alpha, dtype)
    b = convert_to_tensor(1 if beta is None else beta, dtype)
    bshape = np.broadcast_shapes(a._value.shape, b._value.shape)
    if a._value.shape != bshape:
        from . import array_ops as _a
        a = _a.broadcast_to(a, bshape)
    shape = shape_tuple(shape)
    if a._value.size == 0 and int(np.prod(shape)):
        raise errors.op_error(errors.InvalidArgumentError,
                              "Input alpha should have non-zero element count, got: 0",
                              "RandomGamma")
    rnd = apply(_GAMMA, (a,), {"shape": shape, "dtype": dtype._np, "seed": seed,
                               "kernel": _kernel("RandomGamma", dtype.name, seed)})
    return _sl.gamma_tail(rnd, dtype, b)


def _poisson_forward(lam, shape, dtype, seed, kernel):
    # TensorFlow's RandomPoissonV2 on CPU: 256 counters reserved per output.
    n = (int(np.prod(shape)) if shape else 1) * lam.size
    full = tuple(shape) + lam.shape
    if n == 0:
        return np.zeros(full, dtype)
    key, counter = kernel.reserve(256 * n)
    return _sl.poisson_samples(key, counter, lam, full, dtype)


_POISSON = nondifferentiable("RandomPoissonV2", _poisson_forward)


def poisson(shape, lam, dtype=_dt.float32, seed=None, name=None):
    """Poisson(lam) samples (``tf.random.poisson``).

    TensorFlow 2.21's numbers on CPU under ``tf.random.set_seed`` (its op seeds and a
    Philox stream per op; Knuth's method below rate 10, Hormann's transformed rejection
    above, computed in float64).

    Args:
        shape: the sample shape; the output is ``shape + lam.shape``.
        lam: the rate(s): float16/32/64 or int32/int64.
        dtype: float16/32/64, int32 or int64.
        seed: an op-level seed.

    Returns:
        A Tensor of ``dtype``.

    Raises:
        tf.errors.InvalidArgumentError: if ``lam`` is empty (and samples are asked for).

    Example:
        >>> import tapeflow as tf
        >>> tf.random.set_seed(2)
        >>> tf.random.poisson([4], 3.0).numpy()
        array([4., 3., 4., 2.], dtype=float32)
    """
    dtype = _dt.as_dtype(dtype)
    if dtype.name not in _sl._POISSON_DTYPES:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not "
                        f"in list of allowed values: float16, float32, float64, int32, int64")
    rate = lam if isinstance(lam, _TensorLike) else convert_to_tensor(lam)
    shape = shape_tuple(shape)
    if rate._value.size == 0 and int(np.prod(shape)):
        raise errors.op_error(errors.InvalidArgumentError,
                              "Input rate should have non-zero element count, got: 0",
                              "RandomPoissonV2")
    return apply(_POISSON, (rate,), {"shape": shape, "dtype": dtype._np, "seed": seed,
                                     "kernel": _kernel("RandomPoissonV2", dtype.name, seed)})
