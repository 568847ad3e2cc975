"""Seeded random primitives for ``keras.random.gamma``/``beta``/``binomial``: each draw is
a pure function of a seed tensor ``[seed, counter]`` (as TF's ``StatelessRandom*`` ops), so
a recorded program that reads the seed from a ``SeedGenerator``'s state variable draws
afresh on every replay.

The stream is NumPy's PCG64 seeded with the two integers, not TensorFlow's (the other
``keras.random`` functions go through TensorFlow's stateless ops and give Keras's numbers).
"""
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable
from .._core.tensor import convert_to_tensor

__all__ = ["gamma", "beta", "binomial"]


def _rng(seed):
    return np.random.default_rng([int(s) & 0xFFFFFFFFFFFFFFFF for s in np.ravel(seed)])


def _gamma(seed, shape, alpha, dtype):
    return _rng(seed).gamma(alpha, 1.0, shape).astype(dtype)


def _beta(seed, shape, alpha, beta, dtype):
    return _rng(seed).beta(alpha, beta, shape).astype(dtype)


def _binomial(seed, shape, counts, probabilities, dtype):
    return _rng(seed).binomial(counts, probabilities, shape).astype(dtype)


_GAMMA = nondifferentiable("KerasRandomGamma", _gamma)
_BETA = nondifferentiable("KerasRandomBeta", _beta)
_BINOMIAL = nondifferentiable("KerasRandomBinomial", _binomial)


def _seed(seed):
    return seed if hasattr(seed, "dtype") else convert_to_tensor(np.asarray(seed, np.int64))


def _draw(prim, seed, shape, dtype, **attrs):
    dtype = _dt.as_dtype(dtype)
    return apply(prim, [_seed(seed)], dict(shape=tuple(int(d) for d in shape),
                                           dtype=dtype._np, **attrs))


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
