"""Record TensorFlow 2.21's float16 / bfloat16 Sum and Mean (and the float16 gradient of a
broadcast add, a Sum over the batch), float16 MatMul and BiasAddGrad for the cases of
tests/ops/half_reduce_cases.py into tests/fixtures/ops/half_reductions.npz. Run under
/work/tfenv/bin/python from the repository root."""
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from tests.ops import half_reduce_cases as C  # noqa: E402

OUT = ROOT / "tests/fixtures/ops/half_reductions.npz"


def bits(x):
    return np.asarray(x).view(np.uint16).reshape(-1)


def main():
    bf16 = tf.bfloat16.as_numpy_dtype
    arrays, index = {}, []
    for case in C.cases():
        name, op, dtype, shape, axis = case[:5]
        x = C.make_input(case, bf16)
        fn = tf.reduce_sum if op == "sum" else tf.reduce_mean
        y = fn(tf.constant(x), axis=axis).numpy()
        arrays[name] = bits(y)
        index.append([name, C.digest(x), list(np.shape(y))])
    for name, x in C.SPECIAL.items():
        arrays["special_" + name] = bits(tf.reduce_sum(tf.constant(x)).numpy())
    # The bias gradient of x + b: TF's _AddGrad sums the upstream gradient over the batch.
    for i, (rows, cols) in enumerate(((256, 64), (256, 10), (40, 3))):
        rng = np.random.default_rng(7000 + i)
        g = rng.standard_normal((rows, cols)).astype(np.float16)
        x = tf.constant(rng.standard_normal((rows, cols)).astype(np.float16))
        b = tf.constant(np.zeros(cols, np.float16))
        with tf.GradientTape() as tape:
            tape.watch(b)
            y = x + b
        arrays[f"biasgrad{i}"] = bits(tape.gradient(y, b, output_gradients=g).numpy())
    for m, k, n, seed in C.MATMUL:
        a, b = C.matmul_inputs(m, k, n, seed)
        arrays[f"matmul{seed}"] = bits(tf.matmul(a, b).numpy())
    for m, k, n, ta, tb, seed in C.MATMUL_T:
        a, b = C.matmul_inputs(m, k, n, seed)
        a, b = (a.T.copy() if ta else a), (b.T.copy() if tb else b)
        arrays[f"matmul{seed}"] = bits(tf.matmul(a, b, transpose_a=ta, transpose_b=tb).numpy())
    for shape, seed in C.BIAS_GRAD:
        g = (np.random.default_rng(seed).standard_normal(shape) * 100).astype(np.float16)
        arrays[f"biasaddgrad{seed}"] = bits(tf.raw_ops.BiasAddGrad(out_backprop=g).numpy())
    arrays["index"] = np.frombuffer(json.dumps(index).encode(), np.uint8)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(index)} cases)")


if __name__ == "__main__":
    main()
