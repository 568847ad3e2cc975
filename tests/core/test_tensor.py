"""Tensors and Variables against TensorFlow 2.21's recorded answers: printing, shapes, dtype
inference, error first lines, Python operators and protocols, Variable updates and names.

The cases live in tensor_cases.py; TensorFlow's answers in fixtures/core/tensor/*.json
(re-record with ``/work/tfenv/bin/python tools/record_core_tensor.py``).
"""
import json
from pathlib import Path

import numpy as np
import pytest

import tapeflow as tf
from tests.core import tensor_cases as core_cases

FIXTURES = Path(__file__).parents[1] / "fixtures" / "core" / "tensor"


def _load(group):
    return json.loads((FIXTURES / f"{group}.json").read_text())["cases"]


# Where tapeflow knowingly answers otherwise. strict: a fix makes the test fail until the
# entry is removed here.
KNOWN_DIFFERENCES = {}


def _params(group):
    cases = _load(group)
    missing = [c for c in core_cases.GROUPS[group] if c not in cases]
    assert not missing, f"re-record the fixtures: {missing}"
    params = []
    for expr in core_cases.GROUPS[group]:
        marks = ()
        if expr in KNOWN_DIFFERENCES:
            marks = pytest.mark.xfail(reason=KNOWN_DIFFERENCES[expr], strict=True)
        params.append(pytest.param(expr, cases[expr], id=expr, marks=marks))
    return params


def _check(expr, want):
    got = core_cases.evaluate(expr, tf, np)
    assert got == want


@pytest.mark.parametrize("expr,want", _params("printing"))
def test_str_and_repr_match_tensorflow(expr, want):
    _check(expr, want)


@pytest.mark.parametrize("expr,want", _params("shapes"))
def test_tensorshape_matches_tensorflow(expr, want):
    _check(expr, want)


@pytest.mark.parametrize("expr,want", _params("dtypes"))
def test_dtype_inference_matches_tensorflow(expr, want):
    _check(expr, want)


@pytest.mark.parametrize("expr,want", _params("errors"))
def test_error_class_and_first_line_match_tensorflow(expr, want):
    _check(expr, want)


@pytest.mark.parametrize("expr,want", _params("operators"))
def test_operator_matches_tensorflow(expr, want):
    _check(expr, want)


@pytest.mark.parametrize("expr,want", _params("names"))
def test_variable_behaviour_matches_tensorflow(expr, want):
    _check(expr, want)


# ------------------------------------------------------------------- direct checks


def test_mixed_dtypes_raise_invalid_argument_error_subclass_of_operror():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.constant(1) + tf.constant(1.0)
    assert isinstance(info.value, tf.errors.OpError)


def test_shape_mismatch_raises_invalid_argument_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs"):
        tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])


def test_python_int_becomes_int32_and_float_float32():
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant(1.0).dtype == tf.float32
    assert tf.constant([1, 2.5]).dtype == tf.float32


def test_numpy_arrays_keep_their_dtype():
    for npd, tfd in [(np.float64, tf.float64), (np.int64, tf.int64), (np.float16, tf.float16),
                     (np.uint8, tf.uint8), (np.bool_, tf.bool)]:
        assert tf.constant(np.zeros(2, npd)).dtype == tfd


def test_constant_copies_numpy_input():
    a = np.array([1.0, 2.0])
    t = tf.constant(a)
    a[0] = 99.0
    assert t.numpy().tolist() == [1.0, 2.0]


def test_numpy_returns_a_copy_for_arrays():
    t = tf.constant([1.0, 2.0])
    n = t.numpy()
    n[0] = 5.0
    assert t.numpy().tolist() == [1.0, 2.0]


def test_tensor_is_immutable():
    t = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError):
        t[0] = 3.0


def test_iteration_yields_rows_as_tensors():
    rows = list(tf.constant([[1, 2], [3, 4]]))
    assert [r.numpy().tolist() for r in rows] == [[1, 2], [3, 4]]
    assert all(r.dtype == tf.int32 for r in rows)


def test_array_protocol_gives_value_and_dtype():
    a = np.asarray(tf.constant([[1.0, 2.0]]))
    assert a.dtype == np.float32 and a.tolist() == [[1.0, 2.0]]


def test_matmul_operator_values():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([[5.0], [6.0]])
    assert (a @ b).numpy().tolist() == [[17.0], [39.0]]


def test_floordiv_and_mod_follow_python_signs_for_ints():
    x = tf.constant([7, -7, 7, -7])
    y = tf.constant([2, 2, -2, -2])
    assert (x // y).numpy().tolist() == [3, -4, -4, 3]
    assert (x % y).numpy().tolist() == [1, 1, -1, -1]


def test_variable_assign_updates_value_in_place():
    v = tf.Variable([1.0, 2.0])
    same = v.assign([3.0, 4.0])
    assert v.numpy().tolist() == [3.0, 4.0]
    v.assign_add([1.0, 1.0])
    v.assign_sub([0.5, 0.5])
    assert v.numpy().tolist() == [3.5, 4.5]
    assert same.numpy().tolist() == [3.5, 4.5]


def test_variable_assign_shape_mismatch_leaves_value_unchanged():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0, 2.0, 3.0])
    assert v.numpy().tolist() == [1.0, 2.0]


def test_variable_names():
    assert tf.Variable(1.0).name == "Variable:0"
    assert tf.Variable(1.0, name="w").name == "w:0"


def test_variable_is_unhashable_but_ref_is_hashable():
    v = tf.Variable(1.0)
    with pytest.raises(TypeError):
        hash(v)
    d = {v.ref(): 1}
    assert d[v.ref()] == 1 and v.ref().deref() is v


def test_a_side_table_shows_as_a_tensor_attribute_and_forgets_freed_tensors():
    import gc

    from tapeflow._core.side_table import SideTable, add_attribute
    from tapeflow._core.tensor import Tensor
    table = SideTable()
    add_attribute("_side_note", table)
    try:
        t = tf.constant([1.0])
        with pytest.raises(AttributeError, match="'EagerTensor' object has no attribute "
                                                 "'_side_note'"):
            t._side_note  # noqa: B018 - the read is the test
        t._side_note = "kept"
        assert t._side_note == "kept" and table.get(t) == "kept" and len(table) == 1
        assert table.get(np.ones(1)) is None
        del t
        gc.collect()
        assert len(table) == 0
    finally:
        delattr(Tensor, "_side_note")


def test_keras_masks_ride_on_tensors_as_keras_mask():
    y = tf.keras.layers.Embedding(5, 2, mask_zero=True)(tf.constant([[1, 0]]))
    assert y._keras_mask.numpy().tolist() == [[True, False]]
    with pytest.raises(AttributeError, match="no attribute '_keras_mask'"):
        tf.constant(1.0)._keras_mask  # noqa: B018
    x = tf.constant([1.0])
    x._keras_mask = tf.constant([False])
    assert x._keras_mask.numpy().tolist() == [False]
