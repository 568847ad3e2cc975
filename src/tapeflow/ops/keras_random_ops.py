"""Seeded random primitives for ``keras.random``: each draw is a pure function of a seed
tensor ``[seed, counter]`` (as TF's ``StatelessRandom*`` ops), so a recorded program that
reads the seed from a ``SeedGenerator``'s state variable draws afresh on every replay.

The stream is NumPy's PCG64 seeded with the two integers, not TensorFlow's Philox: seeded
values repeat within tapeflow but differ from TensorFlow's.
"""
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable
from .._core.tensor import convert_to_tensor

__all__ = ["normal", "uniform", "randint", "truncated_normal", "shuffle", "categorical",
           "gamma", "beta", "binomial"]


def _rng(seed):
    return np.random.default_rng([int(s) & 0xFFFFFFFFFFFFFFFF for s in np.ravel(seed)])


def _normal(seed, shape, mean, stddev, dtype):
    return (_rng(seed).standard_normal(shape) * stddev + mean).astype(dtype)


def _uniform(seed, shape, minval, maxval, dtype):
    return (_rng(seed).random(shape) * (maxval - minval) + minval).astype(dtype)


def _randint(seed, shape, minval, maxval, dtype):
    return _rng(seed).integers(minval, maxval, shape).astype(dtype)


def _truncated(seed, shape, mean, stddev, dtype):
    rng = _rng(seed)
    z = rng.standard_normal(shape)
    bad = np.abs(z) > 2
    while bad.any():
        z[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2
    return (z * stddev + mean).astype(dtype)


def _shuffle(x, seed, axis):
    return np.take(x, _rng(seed).permutation(x.shape[axis]), axis=axis)


def _categorical(logits, seed, num_samples, dtype):
    z = logits - logits.max(-1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(-1, keepdims=True)
    rng = _rng(seed)
    out = np.stack([rng.choice(p.shape[-1], num_samples, p=row) for row in p])
    return out.astype(dtype)


def _gamma(seed, shape, alpha, dtype):
    return _rng(seed).gamma(alpha, 1.0, shape).astype(dtype)


def _beta(seed, shape, alpha, beta, dtype):
    return _rng(seed).beta(alpha, beta, shape).astype(dtype)


def _binomial(seed, shape, counts, probabilities, dtype):
    return _rng(seed).binomial(counts, probabilities, shape).astype(dtype)


_GAMMA = nondifferentiable("KerasRandomGamma", _gamma)
_BETA = nondifferentiable("KerasRandomBeta", _beta)
_BINOMIAL = nondifferentiable("KerasRandomBinomial", _binomial)
_NORMAL = nondifferentiable("KerasRandomNormal", _normal)
_UNIFORM = nondifferentiable("KerasRandomUniform", _uniform)
_RANDINT = nondifferentiable("KerasRandomUniformInt", _randint)
_TRUNCATED = nondifferentiable("KerasTruncatedNormal", _truncated)
_SHUFFLE = nondifferentiable("KerasRandomShuffle", _shuffle)
_CATEGORICAL = nondifferentiable("KerasRandomCategorical", _categorical)


def _seed(seed):
    return seed if hasattr(seed, "dtype") else convert_to_tensor(np.asarray(seed, np.int64))


def _draw(prim, seed, shape, dtype, **attrs):
    dtype = _dt.as_dtype(dtype)
    return apply(prim, [_seed(seed)], dict(shape=tuple(int(d) for d in shape),
                                           dtype=dtype._np, **attrs))


def normal(shape, seed, mean=0.0, stddev=1.0, dtype="float32"):
    """Samples of N(mean, stddev**2) from the seed tensor ``seed`` (two integers)."""
    return _draw(_NORMAL, seed, shape, dtype, mean=float(mean), stddev=float(stddev))


def uniform(shape, seed, minval=0.0, maxval=1.0, dtype="float32"):
    """Samples of U[minval, maxval) from ``seed``."""
    return _draw(_UNIFORM, seed, shape, dtype, minval=float(minval), maxval=float(maxval))


def randint(shape, seed, minval, maxval, dtype="int32"):
    """Integers uniform in ``[minval, maxval)`` from ``seed``."""
    return _draw(_RANDINT, seed, shape, dtype, minval=int(minval), maxval=int(maxval))


def truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype="float32"):
    """Normal samples redrawn beyond two standard deviations, from ``seed``."""
    return _draw(_TRUNCATED, seed, shape, dtype, mean=float(mean), stddev=float(stddev))


def shuffle(x, seed, axis=0):
    """``x`` with its slices along ``axis`` in a random order from ``seed``."""
    return apply(_SHUFFLE, [x, _seed(seed)], {"axis": int(axis)})


def categorical(logits, num_samples, seed, dtype="int32"):
    """``num_samples`` class ids per row of ``logits`` (unnormalized log-probabilities)."""
    return apply(_CATEGORICAL, [logits, _seed(seed)],
                 {"num_samples": int(num_samples), "dtype": _dt.as_dtype(dtype)._np})


def gamma(shape, seed, alpha, dtype="float32"):
    """Samples of Gamma(alpha, 1) from ``seed``."""
    return _draw(_GAMMA, seed, shape, dtype, alpha=float(alpha))


def beta(shape, seed, alpha, beta, dtype="float32"):
    """Samples of Beta(alpha, beta) from ``seed``."""
    return _draw(_BETA, seed, shape, dtype, alpha=float(alpha), beta=float(beta))


def binomial(shape, seed, counts, probabilities, dtype="float32"):
    """Counts of successes in ``counts`` trials of probability ``probabilities``."""
    return _draw(_BINOMIAL, seed, shape, dtype, counts=float(counts) if not float(
        counts).is_integer() else int(counts), probabilities=float(probabilities))
