"""``tf.saved_model.load`` of a TF-written SavedModel whose functions and signatures take and
return RaggedTensors and SparseTensors (``tools/record_saved_model_composites.py``): the
restored functions bind a composite to its components and pack the outputs back, the
signatures take the components by keyword (TF flattens composites there) and return
composites, the printed signatures and the gradients with respect to the variables are
TF's, and a call no trace fits raises TF's class."""
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf

FIX = pathlib.Path(__file__).resolve().parent.parent / "fixtures/saved_model"
FACTS = json.loads((FIX / "composites.json").read_text())


@pytest.fixture(scope="module")
def loaded():
    return tf.saved_model.load(str(FIX / "composites"))


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


def resolve(obj, path):
    for part in path.split("."):
        obj = obj[part] if hasattr(obj, "keys") and not hasattr(obj, part) else \
            getattr(obj, part)
    return obj


def assert_same(got, want):
    """``got`` (tapeflow's output nest) equals the recorded nest: same kinds, dtypes, shapes
    and values (1e-6)."""
    if "@ragged" in want if isinstance(want, dict) else False:
        assert isinstance(got, tf.RaggedTensor)
        parts = [got.flat_values] + list(got.nested_row_splits)
        assert len(parts) == len(want["@ragged"])
        for g, w in zip(parts, want["@ragged"]):
            assert_same(g, w)
    elif isinstance(want, dict) and "@sparse" in want:
        assert isinstance(got, tf.SparseTensor)
        for g, w in zip([got.indices, got.values, got.dense_shape], want["@sparse"]):
            assert_same(g, w)
    elif isinstance(want, dict) and "@a" in want:
        a = got.numpy()
        assert a.dtype.name == want["@d"] and list(a.shape) == want["@s"]
        np.testing.assert_allclose(a, np.array(want["@a"], dtype=want["@d"]).reshape(
            want["@s"]), rtol=1e-6, atol=1e-6)
    elif isinstance(want, dict) and "@dict" in want:
        assert sorted(got) == [k for k, _ in want["@dict"]]
        for k, w in want["@dict"]:
            assert_same(got[k], w)
    elif isinstance(want, dict) and "@tuple" in want:
        assert isinstance(got, tuple) and len(got) == len(want["@tuple"])
        for g, w in zip(got, want["@tuple"]):
            assert_same(g, w)
    else:
        raise AssertionError(f"unexpected recorded value {want!r}")


def flat_floats(out):
    got = []
    for o in tf.nest.flatten(out):
        if isinstance(o, tf.RaggedTensor):
            o = o.flat_values
        elif isinstance(o, tf.SparseTensor):
            o = o.values
        if isinstance(o, tf.Tensor) and o.dtype.is_floating:
            got.append(o)
    return got


def weights(n):
    return np.linspace(-1.0, 1.0, n) if n > 1 else np.ones(n)


@pytest.mark.parametrize("k", range(len(FACTS["calls"])),
                         ids=[f"{c['path']}-{i}" for i, c in enumerate(FACTS["calls"])])
def test_calls_and_gradients_match_tf(loaded, k):
    call = FACTS["calls"][k]
    fn = resolve(loaded, call["path"])
    with tf.GradientTape() as tape:
        out = fn(*dec(call["args"]), **{n: dec(v) for n, v in call["kwargs"].items()})
        loss = tf.constant(0.0, tf.float64)
        for o in flat_floats(out):
            flat = tf.reshape(tf.cast(o, tf.float64), [-1])
            loss += tf.reduce_sum(flat * weights(int(flat.shape[0])))
    assert_same(out, call["output"])
    assert abs(float(loss) - call["loss"]) <= 1e-6 * max(1.0, abs(call["loss"]))
    grads = tape.gradient(loss, [loaded.v, loaded.b])
    assert len(grads) == len(call["variable_grads"])
    for g, w in zip(grads, call["variable_grads"]):
        if w is None:
            assert g is None
        else:
            assert_same(tf.convert_to_tensor(g), w)


def _specs(nest):
    if isinstance(nest, dict):
        return {"@dict": [[k, _specs(v)] for k, v in sorted(nest.items())]}
    if isinstance(nest, (list, tuple)):
        return {"@" + type(nest).__name__: [_specs(v) for v in nest]}
    return repr(nest)


def test_printed_signatures_match_tf(loaded):
    for name, want in FACTS["printed"].items():
        if name.startswith("signatures."):
            fns = [loaded.signatures[name.split(".", 1)[1]]]
        else:
            fns = getattr(loaded, name).concrete_functions
        got = [[_specs(c.structured_input_signature), _specs(c.structured_outputs)]
               for c in fns]
        assert got == want, name
    assert sorted(loaded.signatures) == FACTS["signature_keys"]


@pytest.mark.parametrize("label", sorted(FACTS["errors"]))
def test_calls_no_trace_fits_raise_tf_class(loaded, label):
    want = FACTS["errors"][label]
    cls = {"TypeError": TypeError, "ValueError": ValueError}[want["class"]]
    with pytest.raises(cls) as info:
        resolve(loaded, want["path"])(dec(want["arg"]))
    assert str(info.value).splitlines()[0][:120] == want["first_line"][:120]


def test_loaded_ragged_function_saves_again(loaded, tmp_path):
    """A restored function of RaggedTensors in a new module saved by tapeflow: its traces
    come back with the same specs and numbers. (``ragged_scale``'s TF graph reads the
    number of rows in Python when tapeflow runs it: saving it again is refused.)"""
    root = tf.Module()
    root.v = loaded.v
    root.deep = loaded.deep
    d = str(tmp_path / "again")
    tf.saved_model.save(root, d)
    again = tf.saved_model.load(d)
    assert [_specs(c.structured_input_signature) for c in again.deep.concrete_functions] == \
        [p[0] for p in FACTS["printed"]["deep"]]
    for call in FACTS["calls"]:
        if call["path"] == "deep":
            assert_same(again.deep(*dec(call["args"])), call["output"])
