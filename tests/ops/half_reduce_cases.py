"""The cases of tests/ops/test_half_reduce.py, shared with tools/record_half_reductions.py (which
records TensorFlow 2.21's answers for them): float16 / bfloat16 sums and means whose value
depends on the order TF's kernels add in. Inputs are made here from fixed seeds; the fixture
keeps a digest of each input so a change in the generator is caught, not silently compared."""
import hashlib

import numpy as np


def digest(x):
    return hashlib.sha1(np.ascontiguousarray(x).tobytes()).hexdigest()[:12]


def _values(rng, shape, kind, dtype):
    if kind == "normal":
        x = rng.standard_normal(shape)
    elif kind == "uniform":
        x = rng.uniform(0, 1, shape)
    elif kind == "wide":      # 16 binades, both signs: every rounding order shows
        x = np.exp(rng.uniform(-8, 8, shape)) * rng.choice([-1, 1], shape)
    else:                      # "ones_then_tiny": 1.0 then 2**-11 (each lost or kept by order)
        x = np.full(shape, 2.0 ** -11)
        x.reshape(-1)[:: max(1, x.size // 7)] = 1.0
    return x.astype(dtype)


def cases():
    """(name, op, dtype name, shape, axis or None, kind, seed) for every case."""
    out = []
    kinds = ("normal", "uniform", "wide", "ones_then_tiny")
    # Lengths across the leaf sizes and packet multiples, as rows and as columns.
    for n in (list(range(1, 70)) + [127, 128, 129, 255, 256, 257, 1000, 1599, 1600, 1601,
                                    1607, 2049, 3201, 4096]):
        k = kinds[n % 4]
        out.append((f"full{n}", "sum", "float16", (n,), None, k, n))
        out.append((f"inner{n}", "sum", "float16", (3, n), [1], k, 1000 + n))
        out.append((f"outer{n}", "sum", "float16", (n, 13), [0], k, 2000 + n))
    # The thread pool's second shard (from 131765 values) and past it.
    for i, n in enumerate((131763, 131765, 131767, 200001)):
        out.append((f"shards{n}", "sum", "float16", (n,), None, "normal", 3000 + i))
    # The shapes of the mixed precision guide's bias gradients and means.
    for i, shape in enumerate(((256, 64), (256, 10), (64, 64), (64, 10), (244, 64))):
        for j, kind in enumerate(kinds[:3]):
            out.append((f"guide{i}{j}", "sum", "float16", shape, [0], kind, 4000 + 10 * i + j))
            out.append((f"guidemean{i}{j}", "mean", "float16", shape, None, kind,
                        4500 + 10 * i + j))
    # Random shapes and axes, sums and means.
    rng = np.random.default_rng(5)
    for i in range(300):
        nd = int(rng.integers(1, 5))
        shape = tuple(int(s) for s in rng.choice([1, 2, 3, 5, 7, 8, 9, 16, 17, 33, 64], nd))
        if i % 10 == 0:
            shape = shape[:-1] + (int(rng.integers(1500, 4000)),)
        while int(np.prod(shape)) > 60000:          # compact fixtures
            shape = shape[1:]
            nd -= 1
        axis = sorted(rng.choice(nd, int(rng.integers(1, nd + 1)), replace=False).tolist())
        if i % 7 == 0:
            axis = None
        op = "mean" if i % 2 else "sum"
        out.append((f"random{i}", op, "float16", shape, axis, kinds[i % 3], 5000 + i))
    # bfloat16: TF adds in float32 and rounds once.
    for i, (shape, axis) in enumerate((((1000,), None), ((7, 300), [1]), ((300, 9), [0]),
                                       ((5, 6, 7), [0, 2]), ((33,), None))):
        for op in ("sum", "mean"):
            out.append((f"bf16_{op}{i}", op, "bfloat16", shape, axis, "wide", 6000 + i))
    return out


def make_input(case, bfloat16=None):
    """The input array of ``case``; ``bfloat16`` is the NumPy bfloat16 dtype (ml_dtypes)."""
    _, _, dtype, shape, _, kind, seed = case
    dt = np.float16 if dtype == "float16" else bfloat16
    return _values(np.random.default_rng(seed), shape, kind, dt)


SPECIAL = {
    # overflow to inf, inf - inf = nan, signed zeros, subnormals
    "overflow": np.array([60000, 60000, -100, 5], np.float16),
    "inf_nan": np.array([np.inf, 1, -np.inf, 2], np.float16),
    "neg_zeros": np.array([-0.0, -0.0, -0.0], np.float16),
    "subnormal": np.full(100, 2.0 ** -24, np.float16),
}


# float16 MatMul ([M, K] @ [K, N], seed): the mixed precision guide's shapes (batches of 256,
# 144, 244, 64, 32 and 20 through 784-64-64-10 Dense layers, forward and backward) and others
# across Eigen's k blocking (k above 320), its k sharding and its one-thread path.
MATMUL = [(m, k, n, 8000 + i) for i, (m, k, n) in enumerate((
    (256, 784, 64), (144, 784, 64), (244, 784, 64), (64, 784, 64), (32, 784, 64),
    (256, 64, 64), (256, 64, 10), (32, 64, 64), (20, 64, 10), (784, 256, 64), (64, 256, 64),
    (64, 256, 10), (784, 144, 64), (784, 20, 64), (256, 10, 64), (32, 64, 784),
    (256, 1000, 64), (300, 1500, 16), (128, 1500, 128), (784, 300, 32), (100, 600, 33),
    (8, 100, 3), (3, 5, 7), (1, 700, 9), (200, 2, 100)))]
# Transposed operands: (M, K, N, transpose_a, transpose_b, seed).
MATMUL_T = [(784, 256, 64, True, False, 8100), (256, 10, 64, False, True, 8101),
            (256, 64, 64, True, True, 8102)]
# BiasAddGrad of float16 [rows, channels] (ReduceOuterDimensions' float32 blocks).
BIAS_GRAD = [((256, 64), 8200), ((256, 10), 8201), ((20, 64), 8202), ((1000, 65), 8203),
             ((3, 4, 5), 8204), ((5000, 3), 8205), ((1, 5), 8206)]


def matmul_inputs(m, k, n, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((m, k)).astype(np.float16),
            (rng.standard_normal((k, n)) * 0.05).astype(np.float16))
