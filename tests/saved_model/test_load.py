"""tf.saved_model.load of TF-written SavedModels: outputs, gradients, training steps, printed
forms and errors equal TF 2.21's (fixtures by tools/record_saved_model.py)."""
import re
import shutil

import numpy as np
import pytest

import tapeflow as tf
from tapeflow import _protobuf as pb

from ._fixtures import NAMES, dec, facts, loss_of, path, resolve

CALLS = [(name, i) for name in NAMES for i in range(len(facts(name)["calls"]))]
_LOADED = {}


def loaded(name):
    """One load per fixture for the read-only tests (calls that assign load their own)."""
    if name not in _LOADED:
        _LOADED[name] = tf.saved_model.load(path(name))
    return _LOADED[name]


def _close(actual, expected, what):
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=1e-5,
                               atol=1e-5, err_msg=what)


def _run(m, call):
    args = dec(call["args"])
    kwargs = {k: dec(v) for k, v in call["kwargs"].items()}
    return resolve(m, call["path"])(*args, **kwargs), args, kwargs


@pytest.mark.parametrize("name,i", CALLS)
def test_outputs_equal_tf(name, i):
    call = facts(name)["calls"][i]
    m = tf.saved_model.load(path(name)) if "bump" in call["path"] else loaded(name)
    if call["path"] == "bump" and i == 5:   # the second bump sees the first one's assign
        m.bump(tf.constant(3))
    out, _, _ = _run(m, call)
    expected = dec(call["output"])
    tf.nest.assert_same_structure(out, expected)
    for a, e in zip(tf.nest.flatten(out), tf.nest.flatten(expected)):
        assert a.dtype == e.dtype and a.shape == e.shape
        _close(a, e, f"{name} {call['path']}")


@pytest.mark.parametrize("name,i", [(n, i) for n, i in CALLS
                                    if "variable_grads" in facts(n)["calls"][i]])
def test_gradients_equal_tf(name, i):
    call = facts(name)["calls"][i]
    m = tf.saved_model.load(path(name))
    args = dec(call["args"])
    kwargs = {k: dec(v) for k, v in call["kwargs"].items()}
    inputs = [t for t in tf.nest.flatten((args, kwargs))
              if isinstance(t, tf.Tensor) and t.dtype.is_floating]
    variables = [resolve(m, p) for p, _ in call["variable_grads"]]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(inputs)
        loss = loss_of(resolve(m, call["path"])(*args, **kwargs))
    assert abs(float(loss) - call["loss"]) < 1e-5 * max(1.0, abs(call["loss"]))
    got = tape.gradient(loss, inputs) + tape.gradient(loss, variables)
    expected = call["input_grads"] + [g for _, g in call["variable_grads"]]
    for g, e in zip(got, expected):
        if e is None:
            assert g is None
        elif g is None:
            # tapeflow records the branch a traced tf.cond took (as eager TF does); TF's
            # graph gradient of the untaken branch is zeros
            assert not np.any(np.asarray(dec(e)))
        else:
            _close(g, dec(e), f"{name} gradient")


@pytest.mark.parametrize("name", ["keras_rnn", "keras_layers"])
def test_gradients_through_loaded_rnn_loops_equal_central_differences(name):
    # TF 2.21 cannot differentiate these loaded While loops (its recorder says so): check
    # tapeflow's gradient against central differences along one random direction
    m = tf.saved_model.load(path(name))
    call = facts(name)["calls"][0]
    x = dec(call["args"])[0]
    variables = list(m.trainable_variables)
    rng = np.random.default_rng(0)
    dirs = [rng.standard_normal(tuple(v.shape)).astype("float32") for v in variables]
    dx = rng.standard_normal(tuple(x.shape)).astype("float32")

    def f(s):
        for v, d in zip(variables, dirs):
            v.assign_add(s * d)
        out = float(tf.reduce_sum(tf.cast(m.serve(x + s * dx), tf.float64) ** 2))
        for v, d in zip(variables, dirs):
            v.assign_sub(s * d)
        return out

    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.cast(m.serve(x), tf.float64) ** 2)
    grads = tape.gradient(loss, [x] + variables)
    assert all(g is not None for g in grads)
    analytic = sum(float(np.sum(np.asarray(g, np.float64) * d))
                   for g, d in zip(grads, [dx] + dirs))
    numeric = (f(1e-3) - f(-1e-3)) / 2e-3
    assert abs(analytic - numeric) <= 2e-3 * max(1.0, abs(numeric))


@pytest.mark.parametrize("name", [n for n in NAMES if "sgd" in facts(n)])
def test_one_sgd_step_through_a_loaded_function_equals_tf(name):
    step = facts(name)["sgd"]
    m = tf.saved_model.load(path(name))
    paths = [p for p, _ in step["variables"]]
    variables = [resolve(m, p) for p in paths]
    fn = resolve(m, step["path"])
    with tf.GradientTape() as tape:
        loss = loss_of(fn(*dec(step["args"])))
    grads = tape.gradient(loss, variables)
    tf.keras.optimizers.SGD(0.1).apply_gradients(zip(grads, variables))
    for v, (p, e) in zip(variables, step["variables"]):
        _close(v, dec(e), p)
    for a, e in zip(tf.nest.flatten(fn(*dec(step["args"]))),
                    tf.nest.flatten(dec(step["output"]))):
        _close(a, e, "output after the step")


def _items(text):
    """A printed nest with its dicts' entries sorted: TF's own dict order inside a restored
    signature varies from run to run."""
    spec = r"'(\w+)': (TensorSpec\(shape=.*?, dtype=tf\.\w+, name=[^)]*\))"
    entries = re.findall(spec, text)
    rest = re.sub(spec, "", text)
    return sorted(entries), rest


def _ids_out(text):
    """A printed signature with the captures' ids out and the Dict entries sorted (TF's own
    order varies from run to run)."""
    entry = r"\['\w+', TensorSpec\(shape=.*?, dtype=tf\.\w+, name=[^)]*\)\]"

    def sort_dict(m):
        return "Dict[" + ", ".join(sorted(re.findall(entry, m.group(1)))) + "]"

    text = re.sub(r"Dict\[(.*)\]$", sort_dict, text, flags=re.M)
    return re.sub(r"^  \d+: ", "  <id>: ", text, flags=re.M)


@pytest.mark.parametrize("name", NAMES)
def test_signatures_print_as_tf(name):
    f = facts(name)
    m = loaded(name)
    assert sorted(m.signatures.keys()) == sorted(f["signature_keys"])
    for key, expected in f["signatures"].items():
        sig = m.signatures[key]
        assert _items(repr(sig.structured_input_signature)) == _items(
            expected["structured_input_signature"])
        assert _items(repr(sig.structured_outputs)) == _items(expected["structured_outputs"])
        assert _ids_out(str(sig)) == _ids_out(expected["str"])


@pytest.mark.parametrize("name", NAMES)
def test_variables_are_restored_with_names_and_trainable_flags(name):
    m = tf.saved_model.load(path(name))
    for p, var_name, trainable, value in facts(name)["variables"]:
        v = resolve(m, p)
        assert v.name == var_name and v.trainable == trainable
        if not p.startswith("_all_variables") or "seed" not in var_name:
            _close(v, dec(value), p)


def test_loaded_module_keeps_live_variables_and_assigns():
    m = tf.saved_model.load(path("module"))
    assert int(m.bump(tf.constant(2))) == 2 and int(m.count) == 2
    m.w.assign(tf.zeros((3, 2)))
    out = m(tf.ones((1, 3)))
    _close(out, np.maximum(np.array([[0.5, -0.25]]), 0), "after assign")


def test_loaded_function_serves_other_batch_sizes():
    m = loaded("keras_mlp")
    sig = m.signatures["serving_default"]
    for n in (1, 7):
        out = sig(inputs=tf.ones((n, 6)))["output_0"]
        assert out.shape == (n, 3)
        _close(tf.reduce_sum(out, axis=1), np.ones(n), "softmax rows")


def test_plain_module_has_tf_shape():
    m = loaded("module")
    assert not hasattr(m, "variables")
    assert callable(m) and not callable(loaded("keras_mlp"))
    with pytest.raises(TypeError, match="does not support item assignment"):
        m.signatures["k"] = m.signatures["serving_default"]
    cnn = loaded("keras_cnn")
    assert [v.name for v in cnn.trainable_variables][0] == "sequential_1/conv2d/kernel:0"


def test_guide_module_traced_on_python_lists():
    m = loaded("guide_module")
    f = facts("guide_module")
    kind, text = f["errors"]["unmatched"]
    with pytest.raises(ValueError) as info:
        m([[1.0, 2.0, 3.0]])
    assert str(info.value).startswith(text)
    assert "Hint: option 1 is the nearest: argument 0 is [[1.0, 2.0, 3.0]]" in str(info.value)
    # a tensor where the traces took Python values: TF's error (the tensor shown as the
    # graph tensor TF binds), not a NumPy truth-value error
    kind, text = f["errors"]["unmatched_tensor"]
    with pytest.raises(ValueError) as info:
        m(tf.constant([[2.0, 2.0, 2.0]]))
    assert kind == "ValueError" and str(info.value).startswith(text)
    assert "argument 0 is a tensor but option 1 was traced with the Python value" in \
        str(info.value)


def test_restored_function_refuses_wrong_dtype_and_shape_as_tf():
    m = loaded("module")
    with pytest.raises(TypeError, match=re.escape(
            "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1, 3), "
            "dtype=tf.int32, name='x') to TensorSpec(shape=(None, 3), dtype=tf.float32, "
            "name='x')`")):
        m(tf.constant([[1, 2, 3]]))
    with pytest.raises(TypeError, match=re.escape("Can not cast TensorSpec(shape=(3,)")):
        m(tf.constant([1.0, 2.0, 3.0]))


def test_signature_call_errors_as_tf():
    sig = loaded("module").signatures["serving_default"]
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "as input #0(zero-based) was expected to be a float tensor but is a int32 tensor")):
        sig(x=tf.constant([[1, 2, 3]]))
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        sig(y=tf.constant([[1.0, 2.0, 3.0]]))
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        sig()
    out = sig(tf.constant([[1.0, 2.0, 3.0]]))   # one input: positional allowed
    assert list(out) == ["output_0"]


def test_signature_fast_path_keeps_checks_and_gradients():
    # Once a call is accepted, keyword tensors of the same dtypes and shapes take the fast
    # path (no binding checks): it must give the same outputs and leave every refusal,
    # gradient and new shape as the checked path has them.
    m = tf.saved_model.load(path("module"))
    sig = m.signatures["serving_default"]
    x = tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    first = sig(x=x)["output_0"].numpy()
    for _ in range(3):
        out = sig(x=x)
        assert list(out) == ["output_0"]
        np.testing.assert_array_equal(out["output_0"].numpy(), first)
    assert sig(tf.constant(x.numpy()))["output_0"].shape == first.shape
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "as input #0(zero-based) was expected to be a float tensor but is a int32 tensor")):
        sig(x=tf.constant([[1, 2, 3], [4, 5, 6]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="has shape"):
        sig(x=tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    with pytest.raises(TypeError, match="unexpected keyword argument 'y'"):
        sig(x=x, y=x)
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        sig(y=x)
    # numpy input converts (not a Tensor: the checked path), another batch size runs
    np.testing.assert_array_equal(sig(x=x.numpy())["output_0"].numpy(), first)
    np.testing.assert_array_equal(sig(x=x[:1])["output_0"].numpy(), first[:1])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(sig(x=x)["output_0"])
    g_fast = tape.gradient(y, x)
    m2 = tf.saved_model.load(path("module"))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(m2.signatures["serving_default"](x=x)["output_0"])
    np.testing.assert_array_equal(g_fast.numpy(), tape.gradient(y, x).numpy())


def test_missing_directory_and_corrupt_protobuf(tmp_path):
    with pytest.raises(OSError, match=re.escape("SavedModel file does not exist at: ")):
        tf.saved_model.load(str(tmp_path / "nothing"))
    d = tmp_path / "trunc"
    shutil.copytree(path("module"), d)
    data = (d / "saved_model.pb").read_bytes()
    (d / "saved_model.pb").write_bytes(data[:len(data) // 2])
    with pytest.raises(OSError, match="Cannot parse file .*saved_model.pb.*"
                                      "tensorflow.SavedModel"):
        tf.saved_model.load(str(d))


def test_tags_must_match_the_meta_graph():
    assert callable(tf.saved_model.load(path("module"), tags="serve"))
    with pytest.raises(ValueError, match=re.escape(
            "Got an incompatible argument to `tags`: ['train']. The SavedModel at")):
        tf.saved_model.load(path("module"), tags=["train"])


def test_missing_variables(tmp_path):
    d = tmp_path / "novars"
    shutil.copytree(path("module"), d)
    shutil.rmtree(d / "variables")
    with pytest.raises(FileNotFoundError, match="variables"):
        tf.saved_model.load(str(d))
    d2 = tmp_path / "nodata"
    shutil.copytree(path("module"), d2)
    (d2 / "variables/variables.data-00000-of-00001").unlink()
    with pytest.raises(tf.errors.OpError, match="variables.data-00000-of-00001"):
        tf.saved_model.load(str(d2))


def test_unknown_op_is_listed_up_front(tmp_path):
    d = tmp_path / "unknown"
    shutil.copytree(path("module"), d)
    sm = pb.decode("tensorflow.SavedModel", (d / "saved_model.pb").read_bytes())
    for f in sm.meta_graphs[0].graph_def.library.function:
        for node in f.node_def:
            if node.op == "Relu":
                node.op = "FancyRelu"
    (d / "saved_model.pb").write_bytes(pb.encode(sm))
    with pytest.raises(NotImplementedError, match=r"no kernel for the TF op\(s\) FancyRelu: "
                                                  r"FancyRelu \(in __inference___call___"):
        tf.saved_model.load(str(d))


def test_contains_saved_model_and_fingerprint(tmp_path):
    assert tf.saved_model.contains_saved_model(path("module"))
    assert not tf.saved_model.contains_saved_model(str(tmp_path))
    fp = tf.saved_model.experimental.read_fingerprint(path("module"))
    assert fp.version.producer == 4 and len(fp.singleprint().split("/")) == 4
    with pytest.raises(FileNotFoundError, match="Could not find fingerprint"):
        tf.saved_model.experimental.read_fingerprint(str(tmp_path))


@pytest.mark.parametrize("case", ["negative_length", "lengths_past_values"])
def test_ragged_partition_checks_raise_as_tf(case):
    """A TF graph building a RaggedTensor from row lengths checks them (``Assert`` under
    ``If``, shapes): bad lengths raise the class TF 2.21 raised."""
    want = facts("ragged_sparse_ops")["errors"][case]
    m = tf.saved_model.load(path("ragged_sparse_ops"))
    with pytest.raises(getattr(tf.errors, want["class"])):
        m.ragged_rows(*dec(want["args"]))
