"""Inputs for the workloads: made once by the parent with NumPy, read by every worker.

Every implementation starts from the same float32 arrays, so their final losses agree and
the ``check`` column of the report can catch a workload that computes something else.
"""
import numpy as np

SEED = 0


def _he(rng, fan_in, fan_out):
    return (rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(np.float32)


def _mlp_params(rng, sizes):
    out = {}
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        out[f"W{i}"] = _he(rng, a, b)
        out[f"b{i}"] = np.zeros((b,), np.float32)
    return out


def make_w1(rng):
    return {"x": rng.standard_normal(1000).astype(np.float32)}


def make_w2(rng):
    from sklearn.datasets import load_digits

    digits = load_digits()
    order = rng.permutation(len(digits.target))
    data = {
        "x": (digits.data[order] / 16.0).astype(np.float32),
        "y": digits.target[order].astype(np.int32),
    }
    data.update(_mlp_params(rng, (64, 256, 256, 10)))
    return data


def make_w3(rng):
    data = {
        "x": rng.standard_normal((512, 1024)).astype(np.float32),
        "y": rng.standard_normal((512, 1024)).astype(np.float32),
    }
    data.update(_mlp_params(rng, (1024, 2048, 2048, 1024)))
    return data


def make_w5(rng):
    return {
        "W": (rng.standard_normal((512, 512)) / np.sqrt(512)).astype(np.float32),
        "x": rng.standard_normal((512, 1)).astype(np.float32),
        "v": rng.standard_normal((512, 1)).astype(np.float32),
    }


MAKERS = {"W1": make_w1, "W2": make_w2, "W3": make_w3, "W5": make_w5}


def write(workload: str, path: str) -> None:
    """Write the inputs of ``workload`` to the ``.npz`` file ``path``."""
    rng = np.random.default_rng(SEED)
    np.savez(path, **MAKERS[workload](rng))


def read(path: str) -> dict:
    """The arrays of an ``.npz`` written by :func:`write`, loaded into memory."""
    with np.load(path) as f:
        return {k: f[k] for k in f.files}


if __name__ == "__main__":
    import sys

    write(sys.argv[1], sys.argv[2])
