#!/usr/bin/env python3
"""Record a TF-written SavedModel whose functions and signatures take and return
RaggedTensors and SparseTensors, and TF's answers on it (run with /work/tfenv/bin/python).

Writes ``tests/fixtures/saved_model/composites/`` (the SavedModel as TF 2.21 writes it) and
``composites.json``: per call of the loaded object in TF (a function, a concrete function or
a signature, by path) the arguments, the outputs, and the gradients of ``loss = sum over the
float output tensors (a composite's values) of reduce_sum(o * weights(o))`` with respect to
the loaded object's trainable variables; the printed signatures of every restored function
and signature (``structured_input_signature``, ``structured_outputs``); and the TypeErrors
TF raises on calls that fit no trace. Tested by ``tests/saved_model/test_load_composites.py``.

Usage: TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_saved_model_composites.py
"""
import json
import os
import pathlib
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests/fixtures/saved_model"


def weights(n):
    """The fixed weights of a flat output of ``n`` values (the test uses the same)."""
    return np.linspace(-1.0, 1.0, n) if n > 1 else np.ones(n)


def enc(x):
    """A nest of tensors (dense, ragged, sparse) as JSON."""
    if isinstance(x, tf.RaggedTensor):
        return {"@ragged": [enc(x.flat_values)] + [enc(s) for s in x.nested_row_splits]}
    if isinstance(x, tf.SparseTensor):
        return {"@sparse": [enc(x.indices), enc(x.values), enc(x.dense_shape)]}
    if isinstance(x, (tf.Tensor, tf.Variable, np.ndarray, np.generic)):
        a = np.asarray(x)
        return {"@a": a.tolist(), "@d": a.dtype.name, "@s": list(a.shape)}
    if isinstance(x, dict):
        return {"@dict": [[k, enc(v)] for k, v in sorted(x.items())]}
    if isinstance(x, tuple):
        return {"@tuple": [enc(v) for v in x]}
    if isinstance(x, list):
        return [enc(v) for v in x]
    return x


def dec(x):
    if isinstance(x, dict):
        if "@a" in x:
            return tf.constant(np.array(x["@a"], dtype=x["@d"]).reshape(x["@s"]))
        if "@ragged" in x:
            parts = [dec(p) for p in x["@ragged"]]
            return tf.RaggedTensor.from_nested_row_splits(parts[0], parts[1:])
        if "@sparse" in x:
            return tf.SparseTensor(*[dec(p) for p in x["@sparse"]])
        if "@dict" in x:
            return {k: dec(v) for k, v in x["@dict"]}
        if "@tuple" in x:
            return tuple(dec(v) for v in x["@tuple"])
    if isinstance(x, list):
        return [dec(v) for v in x]
    return x


def flat_floats(out):
    """The float tensors of an output nest, a composite by its values."""
    got = []
    for o in tf.nest.flatten(out):
        if isinstance(o, tf.RaggedTensor):
            o = o.flat_values
        elif isinstance(o, tf.SparseTensor):
            o = o.values
        if isinstance(o, tf.Tensor) and o.dtype.is_floating:
            got.append(o)
    return got


def resolve(obj, path):
    for part in path.split("."):
        if part.isdigit():
            obj = obj[int(part)]
        elif hasattr(obj, "keys") and not hasattr(obj, part):
            obj = obj[part]
        else:
            obj = getattr(obj, part)
    return obj


class Composites(tf.Module):
    def __init__(self):
        self.v = tf.Variable(1.5)
        self.b = tf.Variable([0.5, -1.0, 2.0, 0.25])

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def ragged_scale(self, x):
        return {"scaled": x * self.v + 1.0, "sums": tf.reduce_sum(x, axis=1)}

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
    def sparse_rows(self, x):
        return {"rows": tf.sparse.reduce_sum(x, axis=1),
                "scaled": tf.sparse.map_values(tf.multiply, x, self.v)}

    @tf.function
    def deep(self, x):
        return x.values * self.v


def specs(nest):
    """A signature nest as JSON: each spec by its repr, dicts by key (the order a map field
    of the SavedModel's protobuf comes back in is not part of the format)."""
    if isinstance(nest, dict):
        return {"@dict": [[k, specs(v)] for k, v in sorted(nest.items())]}
    if isinstance(nest, (list, tuple)):
        return {"@" + type(nest).__name__: [specs(v) for v in nest]}
    return repr(nest)


def rag(values, dtype="float32"):
    return tf.ragged.constant(values, dtype=getattr(tf, dtype))


def record_call(loaded, path, args, kwargs=None):
    kwargs = kwargs or {}
    fn = resolve(loaded, path)
    variables = [loaded.v, loaded.b]
    with tf.GradientTape() as tape:
        out = fn(*dec(args), **{k: dec(v) for k, v in kwargs.items()})
        loss = tf.constant(0.0, tf.float64)
        for o in flat_floats(out):
            flat = tf.reshape(tf.cast(o, tf.float64), [-1])
            loss += tf.reduce_sum(flat * weights(int(flat.shape[0])))
    grads = tape.gradient(loss, variables) if variables else []
    return {"path": path, "args": args, "kwargs": kwargs, "output": enc(out),
            "loss": float(loss),
            "variable_grads": [None if g is None else enc(g) for g in grads]}


def main():
    d = OUT / "composites"
    if d.exists():
        shutil.rmtree(d)
    m = Composites()
    m.deep.get_concrete_function(tf.RaggedTensorSpec([None, None, None], tf.float32,
                                                     ragged_rank=2))
    m.deep.get_concrete_function(tf.RaggedTensorSpec([3, None], tf.float32))
    tf.saved_model.save(m, str(d), signatures={
        "ragged": m.ragged_scale.get_concrete_function(),
        "sparse": m.sparse_rows.get_concrete_function()})
    loaded = tf.saved_model.load(str(d))
    r1 = enc(rag([[1.0, 4.0, 3.0], [], [2.0]]))
    r2 = enc(rag([[0.5], [-1.5, 2.5, 3.5, -0.25]]))
    sp = enc(tf.sparse.from_dense(tf.constant(
        [[1.5, 0, 0, -2], [0, 0, 0, 0], [0.5, 3, 0, 1]], tf.float32)))
    deep3 = enc(rag([[[0.5, 1.0], [2.0]], [[-1.0]], []]))
    three_rows = enc(rag([[1.0, 2.0], [], [3.0, 4.0, 5.0]]))
    calls = [record_call(loaded, "ragged_scale", [r1]),
             record_call(loaded, "ragged_scale", [r2]),
             record_call(loaded, "sparse_rows", [sp]),
             record_call(loaded, "deep", [deep3]),
             record_call(loaded, "deep", [three_rows]),
             # a signature takes the components by keyword (TF flattens composites there)
             record_call(loaded, "signatures.ragged", [],
                         {"x": enc(tf.constant([1.0, 4.0, 3.0, 2.0])),
                          "x_1": enc(tf.constant([0, 3, 3, 4], tf.int64))}),
             record_call(loaded, "signatures.sparse", [],
                         {"x": enc(tf.constant([[0, 1], [2, 3]], tf.int64)),
                          "x_1": enc(tf.constant([2.0, -3.0])),
                          "x_2": enc(tf.constant([3, 4], tf.int64))})]
    printed = {}
    for name in ("ragged_scale", "sparse_rows", "deep"):
        fn = getattr(loaded, name)
        printed[name] = [[specs(c.structured_input_signature), specs(c.structured_outputs)]
                         for c in fn.concrete_functions]
    for key in sorted(loaded.signatures):
        sig = loaded.signatures[key]
        printed["signatures." + key] = [[specs(sig.structured_input_signature),
                                         specs(sig.structured_outputs)]]
    errors = {}
    for label, path, arg in (("int_values", "ragged_scale", enc(rag([[1, 2]], "int32"))),
                             ("dense_for_ragged", "ragged_scale",
                              enc(tf.constant([[1.0, 2.0]]))),
                             ("four_rows_for_three", "deep",
                              enc(rag([[1.0], [2.0], [3.0], [4.0]])))):
        try:
            resolve(loaded, path)(dec(arg))
            errors[label] = None
        except Exception as e:  # noqa: BLE001 - the class TF raises is the fact recorded
            errors[label] = {"path": path, "arg": arg, "class": type(e).__name__,
                             "first_line": str(e).splitlines()[0][:300]}
    facts = {"tf_version": tf.__version__, "calls": calls, "printed": printed,
             "errors": errors, "signature_keys": sorted(loaded.signatures)}
    with open(OUT / "composites.json", "w") as fh:
        json.dump(facts, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {d} and composites.json")


if __name__ == "__main__":
    main()
