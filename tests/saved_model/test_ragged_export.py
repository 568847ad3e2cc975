"""``tf.saved_model.save`` of functions traced for a ``RaggedTensorSpec``: the FunctionDef
takes and returns the flat components as TF 2.21's does (flat values ``x``, row splits
``x_1``...), the object graph encodes the spec as TF's ``TypeSpecProto``, and a program
whose steps depend on the row partition is refused with nothing written. (TF's verdicts
on such files: the ``ragged_*`` cases of ``tf_check_cases.py``.)"""
import os

import pytest

import tapeflow as tf
from tapeflow import _protobuf as pb


class _M(tf.Module):
    def __init__(self):
        self.v = tf.Variable(2.0)


def _module(fn):
    m = _M()
    m.f = tf.function(lambda x: fn(m, x))
    m.f.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.float32))
    return m


def _meta_graph(d):
    with open(os.path.join(d, "saved_model.pb"), "rb") as fh:
        return pb.decode("tensorflow.SavedModel", fh.read()).meta_graphs[0]


def test_function_def_takes_and_returns_the_components(tmp_path):
    # TF 2.21's FunctionDef of the guide's `grow` (measured): inputs x (float), x_1 (int64)
    # then the variable; outputs identity (the values) and identity_1 (x_1 passed through)
    m = _module(lambda m, x: x * m.v)
    d = str(tmp_path / "sm")
    tf.saved_model.save(m, d)
    mg = _meta_graph(d)
    fdef = next(f for f in mg.graph_def.library.function
                if f.signature.name.startswith("__inference_f_") or
                f.signature.name.startswith("__inference__lambda"))
    sig = fdef.signature
    assert [(a.name, a.type) for a in sig.input_arg] == [("x", 1), ("x_1", 9),
                                                          (sig.input_arg[2].name, 20)]
    assert [(a.name, a.type) for a in sig.output_arg] == [("identity", 1), ("identity_1", 9)]
    ident1 = next(n for n in fdef.node_def if n.name == "Identity_1")
    assert ident1.input[0] == "x_1"
    spec = mg.object_graph_def.concrete_functions[sig.name]
    ts = spec.output_signature.type_spec_value
    assert (ts.type_spec_class, ts.type_spec_class_name, ts.num_flat_components) == \
        (3, "RaggedTensorSpec", 2)
    state = ts.type_state.tuple_value.values
    assert [d.size for d in state[0].tensor_shape_value.dim] == [-1, -1]
    assert (state[1].tensor_dtype_value, state[2].int64_value, state[3].tensor_dtype_value) \
        == (1, 1, 9)
    arg = spec.canonicalized_input_signature.tuple_value.values[0].tuple_value.values[0]
    assert arg.type_spec_value.type_spec_class == 3


def test_loaded_function_computes_at_other_partitions(tmp_path):
    m = _module(lambda m, x: tf.math.square(x) * m.v)
    d = str(tmp_path / "sm")
    tf.saved_model.save(m, d)
    loaded = tf.saved_model.load(d)
    x = tf.ragged.constant([[1.0, -2.0], [], [3.0], [0.5, 0.25, 4.0]])
    got = loaded.f(x)
    assert isinstance(got, tf.RaggedTensor)
    assert got.to_list() == [[2.0, 8.0], [], [18.0], [0.5, 0.125, 32.0]]
    assert got.row_splits.numpy().tolist() == [0, 2, 2, 3, 6]
    spec, = loaded.f.concrete_functions[0].structured_input_signature[0]
    assert spec == tf.RaggedTensorSpec([None, None], tf.float32, 1, tf.int64)
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.f(tf.ragged.constant([[1, 2]]))       # int32 values: no trace matches


@pytest.mark.parametrize("body,match", [
    # a reduction over the ragged rows: its segment ids are computed from the splits
    (lambda m, x: tf.reduce_sum(x, axis=1), "program depends"),
    # the row lengths as a dense output: a constant of this partition
    (lambda m, x: x.row_lengths(), "program depends|differ at another row partition"),
    # the first row's length added to the values: a scalar constant of this partition
    (lambda m, x: x.flat_values + tf.cast(x.row_lengths()[0], tf.float32),
     "differ at another row partition"),
    # an output partition made in Python (not an input's)
    (lambda m, x: tf.RaggedTensor.from_uniform_row_length(x.flat_values, 1),
     "not one of its inputs'"),
])
def test_partition_dependent_programs_are_refused(tmp_path, body, match):
    m = _module(body)
    d = tmp_path / "refused"
    with pytest.raises(ValueError, match=match) as info:
        tf.saved_model.save(m, str(d))
    assert "RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int64)" in \
        str(info.value)
    assert not d.exists()


def test_export_does_not_count_as_retracing(tmp_path, capsys):
    m = _module(lambda m, x: x + m.v)
    for k in range(3):
        tf.saved_model.save(m, str(tmp_path / f"sm{k}"))
    assert "retracing" not in capsys.readouterr().err


def test_signature_takes_components_and_returns_a_composite(tmp_path):
    # TF 2.21 (measured): serving_default's inputs are x (float) and x_1 (int64), its
    # output_0 a composite_tensor TensorInfo over StatefulPartitionedCall:0 and :1
    class M(tf.Module):
        def __init__(self):
            self.v = tf.Variable(2.0)

        @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
        def __call__(self, x):
            return x * self.v
    d = str(tmp_path / "sm")
    tf.saved_model.save(M(), d)
    sig = _meta_graph(d).signature_def["serving_default"]
    assert {k: (v.name, v.dtype) for k, v in sig.inputs.items()} == {
        "x": ("serving_default_x:0", 1), "x_1": ("serving_default_x_1:0", 9)}
    out = sig.outputs["output_0"].composite_tensor
    assert out.type_spec.type_spec_class == 3
    assert [(c.name, c.dtype) for c in out.components] == [
        ("StatefulPartitionedCall:0", 1), ("StatefulPartitionedCall:1", 9)]
    loaded = tf.saved_model.load(d)
    got = loaded.signatures["serving_default"](
        x=tf.constant([1.0, 2.0, 3.0]), x_1=tf.constant([0, 2, 3], tf.int64))
    assert got["output_0"].to_list() == [[2.0, 4.0], [6.0]]


def test_sparse_trace_takes_indices_values_and_dense_shape(tmp_path):
    # TF's flat order of a SparseTensor: indices (x), values (x_1), dense shape (x_2)
    m = _M()
    m.f = tf.function(lambda x: tf.sparse.map_values(tf.multiply, x, m.v))
    m.f.get_concrete_function(tf.SparseTensorSpec([None, None], tf.float32))
    d = str(tmp_path / "sm")
    tf.saved_model.save(m, d)
    fdef = next(f for f in _meta_graph(d).graph_def.library.function
                if "lambda" in f.signature.name)
    assert [(a.name, a.type) for a in fdef.signature.input_arg][:3] == [
        ("x", 9), ("x_1", 1), ("x_2", 9)]
    assert [(a.name, a.type) for a in fdef.signature.output_arg] == [
        ("identity", 9), ("identity_1", 1), ("identity_2", 9)]
    loaded = tf.saved_model.load(d)
    sp = tf.sparse.from_dense(tf.constant([[0.0, 2.0, 0.0], [1.0, 0.0, -4.0]]))
    got = loaded.f(sp)
    assert got.indices.numpy().tolist() == [[0, 1], [1, 0], [1, 2]]
    assert got.values.numpy().tolist() == [4.0, 2.0, -8.0]
    assert got.dense_shape.numpy().tolist() == [2, 3]


def test_sparse_reduction_is_refused(tmp_path):
    m = _M()
    m.f = tf.function(lambda x: tf.sparse.reduce_sum(x, axis=0))
    m.f.get_concrete_function(tf.SparseTensorSpec([None, 4], tf.float32))
    with pytest.raises(ValueError, match="SparseTensorSpec.*SparseTensor's indices"):
        tf.saved_model.save(m, str(tmp_path / "r"))
    assert not (tmp_path / "r").exists()


def test_probe_traces_print_nothing(tmp_path, capsys):
    m = _M()

    def body(x):
        print("tracing")
        return x * m.v
    m.f = tf.function(body)
    m.f.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.float32))
    assert capsys.readouterr().out == "tracing\n"
    tf.saved_model.save(m, str(tmp_path / "sm"))
    assert capsys.readouterr().out == ""
