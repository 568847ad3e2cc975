"""Record TensorFlow's answers for the rows of tests/ops/op_db.py into tests/fixtures/ops/.

Run with TensorFlow installed (tapeflow is never imported here):

    /work/tfenv/bin/python tools/record_ops.py

For each op (but the rows marked ``tf_fixture=False``, checked by finite differences only),
sample and dtype it stores the inputs, forward values and output dtypes, and
(for float32/float64) the gradient of ``sum_k sum(out_k * w_k)`` with respect to every float
input, or the exception class and first message line if TensorFlow raised. For each error
case of ``op_db.ERRORS`` it stores the class and the first message line, with TensorFlow's
``{{function_node __wrapped__...}} `` prefix stripped.

Outputs: ``ops.npz`` (all arrays in one flat float64 buffer, compressed) and ``ops.json``
(the index into it, dtypes, shapes, errors).
"""
import json
import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests.ops import op_db  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "ops")
_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")


def first_line(exc):
    text = str(exc).strip("\n")
    line = text.split("\n")[0] if text else ""
    return _PREFIX.sub("", line)


def record_sample(info, sample, dtype, arrays, key):
    entry = {}
    args, kwargs, sources = op_db.convert(tf, sample, dtype)
    for i, s in enumerate(sources):
        arrays[f"{key}/in{i}"] = s.numpy()
    try:
        with tf.GradientTape(persistent=True) as tape:
            for s in sources:
                tape.watch(s)
            outs = op_db.flatten(info.call(tf, *args, **kwargs))
            loss = op_db.weighted_loss(tf, outs)
    except Exception as exc:  # noqa: BLE001 - recorded
        entry["error"] = [type(exc).__name__, first_line(exc)]
        return entry
    entry["dtypes"] = [o.dtype.name for o in outs]
    entry["shapes"] = [o.shape.as_list() for o in outs]
    for k, o in enumerate(outs):
        arrays[f"{key}/out{k}"] = o.numpy()
    if info.grad and dtype != "float16" and loss is not None and sources:
        try:
            grads = tape.gradient(loss, sources)
        except Exception as exc:  # noqa: BLE001 - recorded
            entry["grad_error"] = [type(exc).__name__, first_line(exc)]
            return entry
        entry["grads"] = []
        for i, g in enumerate(grads):
            if g is None:
                entry["grads"].append(None)
            else:
                g = tf.convert_to_tensor(g)
                arrays[f"{key}/grad{i}"] = g.numpy()
                entry["grads"].append(g.dtype.name)
    elif not info.grad and sources:
        floats = [o for o in outs if o.dtype.is_floating or o.dtype.is_complex]
        try:
            grads = tape.gradient(floats, sources) if floats else [None] * len(sources)
            entry["nograd"] = [g is None for g in grads]
        except LookupError:
            entry["nograd"] = [True] * len(sources)
    return entry


def main():
    arrays = {}
    meta = {"tensorflow": tf.__version__, "ops": {}, "errors": {}}
    for info in op_db.OPS:  # the rows with tf_fixture (not the grad.* rows)
        rows = []
        for j, sample in enumerate(info.make_samples()):
            row = {}
            for dtype in info.dtypes:
                row[dtype] = record_sample(info, sample, dtype, arrays,
                                           f"{info.name}/{j}/{dtype}")
            rows.append(row)
        meta["ops"][info.name] = rows
    for case in op_db.ERRORS:
        try:
            case.fn(tf)
        except Exception as exc:  # noqa: BLE001 - recorded
            meta["errors"][case.name] = [type(exc).__name__, first_line(exc)]
        else:
            meta["errors"][case.name] = None
    os.makedirs(OUT, exist_ok=True)
    # One flat float64 buffer (exact for every recorded dtype) and an index in the JSON:
    # a few thousand small arrays stored separately would cost more in zip headers.
    index, chunks, offset = {}, [], 0
    for key, a in arrays.items():
        a = np.asarray(a)
        index[key] = [offset, list(a.shape), a.dtype.name]
        if a.dtype.kind == "c":  # real and imaginary parts, interleaved
            flat = a.astype(np.complex128).reshape(-1).view(np.float64)
        else:
            flat = a.astype(np.float64).reshape(-1)
        chunks.append(flat)
        offset += flat.size
    meta["arrays"] = index
    np.savez_compressed(os.path.join(OUT, "ops.npz"), values=np.concatenate(chunks))
    with open(os.path.join(OUT, "ops.json"), "w") as f:
        json.dump(meta, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    n_err = sum(1 for r in meta["ops"].values() for s in r for d in s.values() if "error" in d)
    print(f"{len(meta['ops'])} ops, {len(arrays)} arrays, {len(meta['errors'])} error cases, "
          f"{n_err} op samples where TF raised")


if __name__ == "__main__":
    main()
