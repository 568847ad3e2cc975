"""``tf.saved_model.save``: TensorFlow 2.21 loads what tapeflow writes and computes tapeflow's
numbers (verdicts recorded by ``tools/record_saved_model_tf_check.py`` for the bytes whose
sha256 the fixture holds: the test writes the same bytes again), and what TF's graph cannot
express the same way is refused with nothing written."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow import _protobuf as pb
from tests.saved_model.tf_check_cases import CASES, tapeflow_side

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "saved_model",
                       "tf_check.json")
with open(FIXTURE) as fh:
    TF = json.load(fh)["cases"]


def _close(a, b, tol=1e-5):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b))
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


@pytest.mark.parametrize("name", sorted(CASES))
def test_tf_loads_and_agrees(name, tmp_path):
    export_dir = str(tmp_path / "sm")
    ours = tapeflow_side(name, str(tmp_path), export_dir, str(tmp_path / "again"))
    want = TF[name]
    # the same bytes TF 2.21 loaded and judged
    assert ours["sha256"] == want["sha256"]
    assert want["saved_model_cli_show_ok"]
    if want["saved_model_cli_run"] is not None:     # TF 1's Session loader served it
        assert want["saved_model_cli_run"]["ok"]
    assert ours["var_paths"] == want["var_paths"]
    assert _close(ours["outputs"], want["tf_outputs"])
    assert _close(ours["grads"], want["tf_grads"])
    # round trip: tapeflow loads its own export and gets TF's numbers; the loaded object
    # saved again is the file TF loaded with the same numbers again
    assert _close(ours["loaded_outputs"], want["tf_outputs"])
    assert _close(ours["loaded_grads"], want["tf_grads"])
    assert ours["resave_sha256"] == want["resave_sha256"]
    assert _close(want["tf_resaved_outputs"], want["tf_outputs"])
    assert _close(want["tf_resaved_grads"], want["tf_grads"])


def test_directory_layout_as_tf(tmp_path):
    ns = {}
    exec(CASES["dense_signature"], {"tf": tf}, ns)   # noqa: S102 - the case's own source
    d = tmp_path / "sm"
    assert tf.saved_model.save(ns["root"], str(d)) is None
    assert sorted(os.listdir(d)) == ["assets", "fingerprint.pb", "saved_model.pb",
                                     "variables"]
    assert sorted(os.listdir(d / "variables")) == ["variables.data-00000-of-00001",
                                                   "variables.index"]
    fp = pb.decode("tensorflow.FingerprintDef", (d / "fingerprint.pb").read_bytes())
    assert fp.version.producer == 4
    assert all(getattr(fp, f) != 0 for f in (
        "saved_model_checksum", "graph_def_program_hash", "signature_def_hash",
        "saved_object_graph_hash", "checkpoint_hash"))
    sm = pb.decode("tensorflow.SavedModel", (d / "saved_model.pb").read_bytes())
    meta = sm.meta_graphs[0]
    assert meta.meta_info_def.tags == ["serve"]
    sig = meta.signature_def["serving_default"]
    assert sig.method_name == "tensorflow/serving/predict"
    assert [d.size for d in sig.inputs["x"].tensor_shape.dim] == [-1, 3]
    assert sig.outputs["output_0"].name == "StatefulPartitionedCall:0"
    nodes = meta.object_graph_def.nodes
    assert [c.local_name for c in nodes[0].children] == ["w", "b", "__call__", "signatures"]
    # the checkpoint holds the variables at the object graph's keys
    reader = tf.train.load_checkpoint(str(d / "variables" / "variables"))
    np.testing.assert_array_equal(reader.get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE"),
                                  ns["root"].w.numpy())


def _module_with(fn, input_signature=None):
    class M(tf.Module):
        def __init__(self):
            self.v = tf.Variable(2.0)
    m = M()
    m.f = tf.function(lambda x: fn(m, x), input_signature=input_signature)
    return m


@pytest.mark.parametrize("body,match", [
    (lambda m, x: tf.py_function(lambda a: a * 2, [x], tf.float32), "Python call"),
    (lambda m, x: (tf.print(x), x * m.v)[1], "Python call"),
])
def test_refused_before_anything_is_written(tmp_path, body, match):
    m = _module_with(body, [tf.TensorSpec([], tf.float32)])
    d = tmp_path / "refused"
    with pytest.raises(ValueError, match=match):
        tf.saved_model.save(m, str(d))
    assert not d.exists()


def test_untracked_variable_is_refused(tmp_path):
    hidden = tf.Variable(3.0)

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def __call__(self, x):
            return x * hidden
    with pytest.raises(ValueError, match="untracked"):
        tf.saved_model.save(M(), str(tmp_path / "u"))
    assert not (tmp_path / "u").exists()


def test_guard_is_refused(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)], autograph=False)
        def __call__(self, x):
            if float(x) > 0:       # a Python read of the value: a guard on the trace
                return x
            return -x
    with pytest.raises(ValueError, match="guard"):
        tf.saved_model.save(M(), str(tmp_path / "g"))


def test_not_shape_generic_is_refused(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def __call__(self, x):
            n = x.shape[0] if x.shape[0] is not None else 2
            return tf.reshape(x, [n * 3])    # bakes the traced batch size
    with pytest.raises(ValueError, match="None dimensions"):
        tf.saved_model.save(M(), str(tmp_path / "n"))


def test_failed_write_leaves_no_saved_model_pb(tmp_path, monkeypatch):
    import importlib
    save_mod = importlib.import_module("tapeflow.saved_model.save")
    ns = {}
    exec(CASES["basics_multiply"], {"tf": tf}, ns)   # noqa: S102
    d = tmp_path / "sm"
    tf.saved_model.save(ns["root"], str(d))
    assert (d / "saved_model.pb").exists()

    def fail(path, data, sync_dir=True):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(save_mod.atomic, "write_bytes", fail)
    with pytest.raises(OSError):
        tf.saved_model.save(ns["root"], str(d))
    # the old export is withdrawn before the new files are written: never a stale
    # saved_model.pb over new variables
    assert not (d / "saved_model.pb").exists()
    assert not [f for f in os.listdir(d) if ".tmp" in f]


def test_signatures_argument_forms(tmp_path):
    ns = {}
    exec(CASES["signatures_dict"], {"tf": tf}, ns)   # noqa: S102
    root = ns["root"]
    tf.saved_model.save(root, str(tmp_path / "a"), signatures=root.predict)
    meta = pb.decode("tensorflow.SavedModel",
                     (tmp_path / "a" / "saved_model.pb").read_bytes()).meta_graphs[0]
    assert sorted(meta.signature_def) == ["__saved_model_init_op", "serving_default"]
    assert sorted(meta.signature_def["serving_default"].outputs) == ["scaled", "total"]
    assert list(meta.signature_def["serving_default"].inputs) == ["features"]
    with pytest.raises(ValueError, match="input_signature"):
        tf.saved_model.save(root, str(tmp_path / "b"),
                            signatures=tf.function(lambda x: x))


def test_function_first_called_under_a_tape_saves_its_graph(tmp_path):
    """Called under a GradientTape first, a function's trace follows the branch taken (a
    guard); the export traces it again without the tape, so both branches are saved."""
    class M(tf.Module):
        def __init__(self):
            self.v = tf.Variable(1.5)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def __call__(self, x):
            return tf.cond(x > 0.0, lambda: x * self.v, lambda: -x)
    m = M()
    with tf.GradientTape() as tape:
        y = m(tf.constant(2.0))
    assert float(tape.gradient(y, m.v)) == 2.0
    tf.saved_model.save(m, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert float(loaded(tf.constant(2.0))) == 3.0
    assert float(loaded(tf.constant(-4.0))) == 4.0     # the branch the tape did not take


def _log1pexp_module():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None])])
        def f(self, x):
            return log1pexp(x)
    return M()


def _meta(d):
    return pb.decode("tensorflow.SavedModel", (d / "saved_model.pb").read_bytes()).meta_graphs[0]


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-np.asarray(x, np.float64)))


def test_custom_gradient_closing_over_the_forward_saves_as_tf(tmp_path):
    """The tf.custom_gradient docs' log1pexp: its gradient function uses the forward's
    ``e = exp(x)``. Saved in TF 2.21's layout: the gradient function takes ``e`` after its
    ``result_grads_<k>`` (``add_exp``, user-specified name ``Exp``), bound to a
    ``captured_tensor`` object naming ``Exp:0`` of the forward function (the checkpoint's
    object graph does not list it); loaded, it is fed this call's ``e``."""
    tf.saved_model.save(_log1pexp_module(), str(tmp_path / "cg"))
    meta = _meta(tmp_path / "cg")
    lib = meta.graph_def.library
    (reg,) = lib.registered_gradients
    grad = next(f for f in lib.function if f.signature.name == reg.gradient_func)
    assert [a.name for a in grad.signature.input_arg] == [
        "result_grads_0", "result_grads_1", "add_exp"]
    assert grad.arg_attr[2].attr["_user_specified_name"].s == b"Exp"
    og = meta.object_graph_def
    (bound,) = og.concrete_functions[reg.gradient_func].bound_inputs
    node = og.nodes[bound]
    assert node.which_oneof("kind") == "captured_tensor"
    forward = node.captured_tensor.concrete_function
    assert node.captured_tensor.name == "Exp:0"
    assert [n.op for n in next(f for f in lib.function if f.signature.name == forward)
            .node_def if n.name == "Exp"] == ["Exp"]
    assert bound == len(og.nodes) - 1
    loaded = tf.saved_model.load(str(tmp_path / "cg"))
    for v in ([0.0, 1.0], [-3.0, 2.5, 20.0]):
        x = tf.constant(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loaded.f(x)
        np.testing.assert_allclose(y.numpy(), np.log1p(np.exp(v)), rtol=1e-6)
        np.testing.assert_allclose(tape.gradient(y, x).numpy(), _sigmoid(v), rtol=1e-6)
    # saved again from the loaded object: the same gradient
    tf.saved_model.save(loaded, str(tmp_path / "again"))
    again = tf.saved_model.load(str(tmp_path / "again"))
    x = tf.constant([-1.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = again.f(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), _sigmoid([-1.0, 4.0]), rtol=1e-6)


def test_custom_gradient_without_its_gradient_function(tmp_path):
    """Saved without its gradient (``experimental_custom_gradients=False``), TF has no
    gradient for the IdentityN (LookupError), and neither has tapeflow's loader."""
    tf.saved_model.save(_log1pexp_module(), str(tmp_path / "nograd"),
                        options=tf.saved_model.SaveOptions(experimental_custom_gradients=False))
    assert not _meta(tmp_path / "nograd").graph_def.library.registered_gradients
    loaded = tf.saved_model.load(str(tmp_path / "nograd"))
    x = tf.constant([0.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loaded.f(x)
    np.testing.assert_allclose(y.numpy(), np.log1p(np.exp([0.0, 1.0])), rtol=1e-6)
    with pytest.raises(LookupError, match="No gradient defined for operation'IdentityN'"):
        tape.gradient(y, x)


@pytest.mark.parametrize("under_tape", [False, True])
def test_custom_gradient_reaching_the_forward_other_than_by_closure_is_refused(
        tmp_path, under_tape):
    """A gradient function that reaches a forward tensor through an attribute (not its
    closure) cannot be given it as an input: refused, nothing written (the tensor's traced
    value would otherwise be baked in, or the trace fail)."""
    import types
    holder = types.SimpleNamespace()

    @tf.custom_gradient
    def f(x):
        holder.e = tf.exp(x)

        def grad(dy):
            return dy * holder.e
        return holder.e * 1.0, grad

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None])])
        def g(self, x):
            return f(x)
    m = M()
    if under_tape:
        x = tf.constant([1.0])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = m.g(x)
        np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.exp([1.0]), rtol=1e-6)
    with pytest.raises(ValueError, match="other than through its closure"):
        tf.saved_model.save(m, str(tmp_path / "cg"))
    assert not (tmp_path / "cg").exists()


def test_custom_gradient_over_variables_saves_as_tf(tmp_path):
    """A custom gradient over a variable (``grad_fn(dy, variables=...)`` returning the
    arguments' and the variables' gradients), its gradient function using the argument:
    TF's layout (an ``IdentityN/ReadVariableOp`` input per variable, the argument captured
    as ``x:0``); loaded, the variable gets grad_fn's gradient."""
    class V(tf.Module):
        def __init__(self):
            self.v = tf.Variable([2.0, 3.0, 4.0], name="v")

        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
        def f(self, x):
            @tf.custom_gradient
            def lin(x):
                y = x * self.v

                def grad(dy, variables=None):
                    return dy * 2.0, [dy * x * 10.0]
                return y, grad
            return lin(x)
    tf.saved_model.save(V(), str(tmp_path / "v"))
    meta = _meta(tmp_path / "v")
    lib = meta.graph_def.library
    (reg,) = lib.registered_gradients
    fwd = next(f for f in lib.function if any(n.op == "IdentityN" for n in f.node_def))
    ident = next(n for n in fwd.node_def if n.op == "IdentityN")
    assert list(ident.input)[2] == "IdentityN/ReadVariableOp:value:0"
    assert "IdentityN/ReadVariableOp" in fwd.signature.control_output
    grad = next(f for f in lib.function if f.signature.name == reg.gradient_func)
    assert [a.name for a in grad.signature.input_arg] == [
        "result_grads_0", "result_grads_1", "result_grads_2", "mul_1_x"]
    og = meta.object_graph_def
    (bound,) = og.concrete_functions[reg.gradient_func].bound_inputs
    assert og.nodes[bound].captured_tensor.name == "x:0"
    loaded = tf.saved_model.load(str(tmp_path / "v"))
    x = tf.constant([1.0, -2.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loaded.f(x)
    gx, gv = tape.gradient(y, [x, loaded.v])
    np.testing.assert_allclose(y.numpy(), [2.0, -6.0, 2.0])
    np.testing.assert_allclose(gx.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_allclose(gv.numpy(), [10.0, -20.0, 5.0])


def test_custom_gradient_replays_with_the_call_values():
    """A traced tf.custom_gradient replays with a grad_fn of the replayed call (its closure
    over the forward is not the first call's): log1pexp's gradient at three points."""
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    @tf.function
    def f(x):
        return log1pexp(x) * 2.0
    for v in (0.0, 1.0, 100.0):
        x = tf.constant(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        want = 2.0 * (1.0 - 1.0 / (1.0 + np.exp(v)))
        np.testing.assert_allclose(float(tape.gradient(y, x)), want, rtol=1e-6)


def test_default_save_signature_protocol(tmp_path):
    """Without `signatures`, an object's `_default_save_signature()` (TF's protocol, which
    Keras models implement) gives serving_default."""
    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable([2.0, -1.0])

        def __call__(self, x):
            return x * self.w

        def _default_save_signature(self):
            return tf.function(lambda inputs: self(inputs), input_signature=[
                tf.TensorSpec([None, 2], tf.float32, name="inputs")])
    m = M()
    tf.saved_model.save(m, str(tmp_path / "d"))
    meta = pb.decode("tensorflow.SavedModel",
                     (tmp_path / "d" / "saved_model.pb").read_bytes()).meta_graphs[0]
    assert list(meta.signature_def["serving_default"].inputs) == ["inputs"]
    loaded = tf.saved_model.load(str(tmp_path / "d"))
    out = loaded.signatures["serving_default"](inputs=tf.constant([[1.0, 1.0]]))
    np.testing.assert_array_equal(out["output_0"].numpy(), [[2.0, -1.0]])


def test_generator_draw_is_written_as_tf_writes_it(tmp_path):
    """A ``tf.random.Generator`` draw is TF's ``RngReadAndSkip`` on the state variable
    (advanced by the draw's size) feeding ``StatelessRandomNormalV2`` keyed by the state's
    last word and counted by its first two, as TF 2.21's saved function of
    ``g.normal([])`` (the numbers TF draws from it: the ``generator_draws`` case)."""
    class M(tf.Module):
        def __init__(self):
            self.g = tf.random.Generator.from_seed(0)

        @tf.function
        def __call__(self):
            return self.g.normal([2, 2])

    m = M()
    first = m().numpy()
    tf.saved_model.save(m, str(tmp_path / "g"))
    sm = pb.decode("tensorflow.SavedModel", (tmp_path / "g" / "saved_model.pb").read_bytes())
    (fdef,) = [f for f in sm.meta_graphs[0].graph_def.library.function
               if "__call__" in f.signature.name]
    nodes = {n.name: n for n in fdef.node_def}
    assert [a.name for a in fdef.signature.input_arg] == [
        "stateful_normal_rngreadandskip_resource"]
    rng = nodes["stateful_normal/RngReadAndSkip"]
    assert rng.op == "RngReadAndSkip" and rng.input[0] == fdef.signature.input_arg[0].name
    assert nodes[rng.input[2].split(":")[0]].attr["value"].tensor.uint64_val == [4]
    draw = nodes["stateful_normal/StatelessRandomNormalV2"]
    assert [i.split(":")[0] for i in draw.input[:3]] == [
        "stateful_normal/shape", "stateful_normal/Bitcast_1", "stateful_normal/Bitcast"]
    assert not any(n.op in ("AssignVariableOp", "ReadVariableOp") for n in fdef.node_def)
    # tapeflow's loader runs those ops: the next draw of the saved state, which moves
    loaded = tf.saved_model.load(str(tmp_path / "g"))
    again = loaded().numpy()
    assert np.array_equal(again, m().numpy()) and not np.array_equal(again, first)
    assert np.array_equal(loaded(), m())


def test_a_sum_in_tfs_order_is_exported_as_sum(tmp_path):
    # Keras dice sums in TF's Eigen order (OrderedSum): TF's graph holds Sum there
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 4]), tf.TensorSpec([None, 4])])
        def f(self, a, b):
            return tf.keras.losses.dice(a, b)

    m = M()
    rng = np.random.default_rng(3)
    a, b = (rng.random((3, 4)).astype(np.float32) for _ in range(2))
    tf.saved_model.save(m, str(tmp_path))
    ops = [n.op for n in m.f.get_concrete_function().graph.as_graph_def().node]
    assert ops.count("Sum") == 3 and "OrderedSum" not in ops
    # the loaded Sum is tapeflow's reduce_sum (NumPy's order): equal up to float32 rounding
    np.testing.assert_allclose(tf.saved_model.load(str(tmp_path)).f(a, b).numpy(),
                               m.f(a, b).numpy(), rtol=1e-6)
