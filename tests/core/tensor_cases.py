"""Expressions whose TensorFlow answers are recorded into fixtures/core/tensor/*.json.

Each case is a Python expression over ``tf`` and ``np``. The recorder
(``tools/record_core_tensor.py``) evaluates it with TensorFlow 2.21 and stores
``describe(result)``; ``test_tensor.py`` evaluates it with tapeflow and compares. This module
imports neither library, so both sides share one table and one description.
"""
import re

# Error messages of TensorFlow's C++ kernels start with a node name tapeflow does not have.
_NODE_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")

PRINTING = [
    "tf.constant(1.0)",
    "tf.constant(-2.5)",
    "tf.constant(1)",
    "tf.constant(True)",
    "tf.constant(False)",
    "tf.constant(1.5, dtype=tf.float64)",
    "tf.constant(1 / 3)",
    "tf.constant(1 / 3, dtype=tf.float64)",
    "tf.constant(0.1)",
    "tf.constant(1e-8)",
    "tf.constant(123456789.0)",
    "tf.constant(float('nan'))",
    "tf.constant(float('-inf'))",
    "tf.constant(-0.0)",
    "tf.constant([1.0, 2.0, 3.0])",
    "tf.constant([0.1, 0.2, 0.3])",
    "tf.constant([1e-8, 1.0])",
    "tf.constant([1e10, 1.0])",
    "tf.constant([1.5, float('nan'), float('inf')])",
    "tf.constant([1, 2, 3])",
    "tf.constant([-1, 20, 300])",
    "tf.constant([True, False])",
    "tf.constant([[1, 2], [3, 4]])",
    "tf.constant([[1.0, 2.0], [3.0, 4.0]])",
    "tf.constant([[1.5, 2.25], [3.0, -4.0]], dtype=tf.float64)",
    "tf.constant([[True, False], [False, True]])",
    "tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))",
    "tf.constant(np.arange(12).reshape(3, 4))",
    "tf.constant(np.linspace(0, 1, 7))",
    "tf.constant(np.arange(2000, dtype=np.float32))",
    "tf.constant(np.arange(1500).reshape(30, 50))",
    "tf.constant([])",
    "tf.zeros((2, 0))",
    "tf.zeros((2, 3))",
    "tf.ones((1, 1, 1))",
    "tf.constant(np.uint8(7))",
    "tf.constant(np.int64(2) ** 40)",
    "tf.constant(np.float16(0.5))",
    "tf.constant([[0.123456789, 1.0], [2.0, 3.0]])",
    "tf.constant([1.123456789, 2.0])",
    "tf.constant([1e-5, 1.0, 100.0])",
    "tf.constant([1e16, 1.0], dtype=tf.float64)",
    "tf.constant(np.pi * np.arange(6).reshape(2, 3))",
    "tf.constant(np.arange(-3, 3, dtype=np.int8))",
    "tf.zeros((0, 3))",
    "tf.constant(np.ones((2, 1, 2, 1), np.float32))",
    "tf.constant(3.0) * 1e30",
    "tf.constant([1.0, 2.0]) / 3.0",
    "tf.constant(np.arange(1001, dtype=np.float32))",
    "tf.constant(np.arange(7000).reshape(70, 100))",
    "tf.constant(['a', 'bc'])",
    "tf.constant('hello')",
    "tf.constant('hello', dtype=tf.string)",
    "tf.constant([b'x', b'y'])",
    "tf.constant(np.array(['ab', 'c']))",
    "tf.convert_to_tensor(['ab', 'c'], dtype=tf.string)",
    "tf.constant(np.complex64(1 + 2j))",
    "tf.Variable([[1, 2], [3, 4]])",
    "tf.Variable(np.arange(2000, dtype=np.float32))",
    "tf.Variable(1.0)",
    "tf.Variable(3)",
    "tf.Variable(True)",
    "tf.Variable(2.0, dtype=tf.float64)",
    "tf.Variable([1.0, 2.0], name='w')",
    "tf.Variable([[1.0, 2.0], [3.0, 4.0]], name='kernel')",
    "tf.Variable(np.zeros((2, 2, 2), np.float32))",
]

SHAPES = [
    "tf.TensorShape([3, 2])",
    "tf.TensorShape([5])",
    "tf.TensorShape([])",
    "tf.TensorShape([None, 3])",
    "tf.TensorShape(None)",
    "tf.TensorShape([3, 2]).as_list()",
    "tf.TensorShape([None, 3]).as_list()",
    "tf.TensorShape([]).as_list()",
    "tf.TensorShape([3, 2]) == [3, 2]",
    "tf.TensorShape([3, 2]) == (3, 2)",
    "tf.TensorShape([3, 2]) == tf.TensorShape([3, 2])",
    "tf.TensorShape([3, 2]) == [2, 3]",
    "tf.TensorShape([3, 2]) != [2, 3]",
    "tf.constant([[1, 2, 3]]).shape",
    "tf.constant([[1, 2, 3]]).shape == (1, 3)",
    "tf.constant(1.0).shape",
    "tf.constant([[1, 2, 3]]).shape[1]",
    "tf.constant([[1, 2, 3]]).shape.rank",
    "tf.constant([[1, 2, 3]]).shape.num_elements()",
    "tf.TensorShape([3, 2])[1:]",
    "len(tf.TensorShape([3, 2, 1]))",
    "tf.TensorShape([3, 2]) + [4]",
    "tf.TensorShape([None, 2]).is_fully_defined()",
    "tf.TensorShape([None, 2]).is_compatible_with([5, 2])",
    "tf.TensorShape([None, 2]).merge_with([5, 2])",
    "tf.TensorShape(None).as_list()",
    "str(tf.constant([[1, 2, 3]]).shape)",
]

DTYPES = [
    "tf.constant(1).dtype",
    "tf.constant(1.0).dtype",
    "tf.constant(True).dtype",
    "tf.constant([1, 2]).dtype",
    "tf.constant([1, 2.0]).dtype",
    "tf.constant([[1], [2]]).dtype",
    "tf.constant(2 ** 40).dtype",
    "tf.constant(np.array([1, 2])).dtype",
    "tf.constant(np.array([1.0, 2.0])).dtype",
    "tf.constant(np.float64(1.0)).dtype",
    "tf.constant(np.int16(3)).dtype",
    "tf.constant(np.array([1, 2], np.uint8)).dtype",
    "tf.constant(np.float32(1.0)).dtype",
    "tf.convert_to_tensor(1.0).dtype",
    "tf.convert_to_tensor([1, 2]).dtype",
    "tf.convert_to_tensor(np.array(1.0)).dtype",
    "tf.convert_to_tensor([tf.constant(0, tf.int64)])",
    "tf.convert_to_tensor([tf.constant(1.0, tf.float64), 2])",
    "tf.convert_to_tensor([[tf.constant(1, tf.int64)], [3]])",
    "tf.convert_to_tensor([tf.Variable(2.0), 1.0])",
    "tf.convert_to_tensor([tf.constant(1, tf.int64), tf.constant(1, tf.int32)])",
    "tf.constant(1, dtype=tf.float32)",
    "tf.constant([1, 2], dtype=tf.float64)",
    "tf.constant(1.5, dtype=tf.int32)",
    "tf.constant([1.5], dtype=tf.int32)",
    "tf.constant('a', dtype=tf.float64)",
    "tf.constant(1, dtype=tf.bool)",
    "tf.constant(np.array([1.5, -2.5]), dtype=tf.int32)",
    "tf.Variable(1).dtype",
    "tf.Variable(1.0).dtype",
    "tf.Variable(np.float64(1.0)).dtype",
    "tf.constant(3, shape=(2, 2))",
    "tf.constant([1, 2, 3, 4], shape=(2, 2))",
    "tf.constant([[1, 2], [3]])",
    "tf.constant(1.0) + 1",
    "tf.constant(1) + 2",
    "tf.constant(1) + 1.5",
    "tf.add(tf.constant(1), 1.5)",
    "tf.constant(1) * 1.5",
    "tf.constant(1.0) - True",
    "1.5 + tf.constant(1)",
    "tf.constant(2.0, tf.float64) * 3",
    "tf.constant(2.0) * np.float32(3)",
    "tf.constant(7) / tf.constant(2)",
    "tf.constant(7) / 2",
    "tf.constant([7, 8], dtype=tf.int64) / 2",
    "tf.constant([7, 8], dtype=tf.int16) / 2",
]

ERRORS = [
    "tf.constant(1) + tf.constant(1.0)",
    "tf.constant(1.0) + tf.constant(1.0, dtype=tf.float64)",
    "tf.constant(1.0) * tf.constant(2)",
    "tf.constant([1.0]) - tf.constant([1], dtype=tf.int64)",
    "tf.constant(1.0) / tf.constant(2.0, dtype=tf.float64)",
    "tf.maximum(tf.ones((2, 2)), tf.ones((2, 2), dtype=tf.float64))",
    "tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])",
    "tf.constant([1.0, 2.0]) * tf.ones((3, 3))",
    "tf.constant([[1.0, 2.0]]) - tf.ones((3, 3))",
    "tf.constant([1.0, 2.0]) / tf.constant([1.0, 2.0, 3.0])",
    "tf.maximum(tf.ones((2,)), tf.ones((3,)))",
    "tf.matmul(tf.ones((2, 3)), tf.ones((2, 3)))",
    "tf.ones((2, 3)) @ tf.ones((4, 5))",
    "tf.matmul(tf.ones((3,)), tf.ones((3, 1)))",
    "tf.matmul(tf.ones((3, 3)), tf.ones((3,)))",
    "tf.matmul(tf.ones((3,)), tf.ones((3,)))",
    "tf.constant(1.0) / tf.constant(1)",
    "tf.constant(1.0) // tf.constant(1.0, dtype=tf.float64)",
    "tf.gather(tf.ones((3,)), [5])",
    "tf.constant([1.0]) == 'a'",
    "tf.constant([1.0]) == tf.constant([1])",
    "tf.reshape(tf.ones((2, 3)), (4, 2))",
    "tf.reshape(tf.ones((2, 3)), (4, -1))",
    "tf.constant([1.0, 2.0])[5]",
    "tf.constant([[1.0, 2.0]])[0, 2]",
    "tf.constant(1.0)[0]",
    "tf.reduce_sum(tf.ones((2, 3)), axis=2)",
    "tf.concat([tf.ones((2, 3)), tf.ones((2, 4))], axis=0)",
    "tf.stack([tf.ones((2,)), tf.ones((3,))])",
    "tf.sqrt(tf.constant(4))",
    "tf.exp(tf.constant(1))",
    "tf.math.log(tf.constant([1, 2]))",
    "tf.constant(2) ** -1",
    "tf.constant(1.0) < tf.constant(1)",
    "tf.constant([1.0, 2.0]) == tf.constant([1.0, 2.0, 3.0])",
    "tf.Variable([1.0, 2.0]).assign([1.0, 2.0, 3.0])",
    "tf.Variable([1.0, 2.0]).assign(tf.constant([[1.0, 2.0]]))",
    "tf.Variable([1.0, 2.0]).assign_add([1.0, 2.0, 3.0])",
    "tf.Variable([1.0, 2.0]).assign_sub(tf.ones((2, 2)))",
    "tf.Variable(1.0).assign(tf.constant(1.0, dtype=tf.float64))",
    "tf.Variable(1.0).assign(tf.constant(1))",
    "tf.Variable(None)",
]

_X = "tf.constant([[1.5, -2.0, 3.0], [-4.5, 5.0, -6.0]])"
_I = "tf.constant([7, -7, 8, -8])"
_J = "tf.constant([2, 2, -3, -3])"

OPERATORS = [
    f"{_X} + 1.0", f"1.0 + {_X}", f"{_X} - 1.0", f"2.0 - {_X}", f"{_X} * 2.0",
    f"3.0 * {_X}", f"{_X} / 2.0", f"3.0 / {_X}", f"{_X} // 2.0", f"{_X} % 2.0",
    f"{_X} // -2.0", f"{_X} % -2.0", f"{_X} ** 2", f"{_X} ** 2.0", f"2.0 ** {_X}",
    f"-{_X}", f"abs({_X})", f"{_X} + tf.constant([10.0, 20.0, 30.0])",
    f"{_X} * tf.constant([[10.0], [20.0]])",
    f"{_X} @ tf.ones((3, 2))", f"tf.ones((4, 2)) @ {_X}",
    f"tf.ones((5, 4, 2)) @ {_X}",
    f"{_X} < 0.0", f"{_X} <= 1.5", f"{_X} > -2.0", f"{_X} >= 3.0",
    f"{_X} == 1.5", f"{_X} != 1.5", f"{_X} == None", f"{_X} != None",
    f"{_X} == {_X}", f"{_X} != tf.ones((4,))",
    f"{_I} + {_J}", f"{_I} - {_J}", f"{_I} * {_J}", f"{_I} / {_J}", f"{_I} // {_J}",
    f"{_I} % {_J}", f"{_I} // 3", f"{_I} % 3", f"{_I} ** 2", f"-{_I}", f"abs({_I})",
    f"{_I} > {_J}", f"{_I} & 3", f"{_I} | 1", f"~{_I}",
    "tf.constant([True, False]) & tf.constant([True, True])",
    "tf.constant([True, False]) | tf.constant([False, False])",
    "tf.constant([True, False]) ^ tf.constant([True, True])",
    "~tf.constant([True, False])",
    "tf.constant(2.0, dtype=tf.float64) ** 0.5",
    "tf.Variable([1.0, 2.0]) * 2.0",
    "2.0 * tf.Variable([1.0, 2.0])",
    "tf.Variable([1.0, 2.0]) + tf.constant([1.0, 2.0])",
    "tf.Variable([[1.0, 2.0]]) @ tf.Variable([[3.0], [4.0]])",
    "-tf.Variable(2.0)",
    # __getitem__
    f"{_X}[0]", f"{_X}[-1]", f"{_X}[1, 2]", f"{_X}[:, 1]", f"{_X}[0, 1:]", f"{_X}[:, ::2]",
    f"{_X}[::-1]", f"{_X}[:, ::-2]", f"{_X}[None]", f"{_X}[:, None, 1]", f"{_X}[..., 0]",
    f"{_X}[..., None]", f"{_X}[1:1]", f"{_X}[tf.constant(1)]", f"{_X}[0][2]",
    f"{_X}[-5:5]",
    "tf.constant(np.arange(24).reshape(2, 3, 4))[1, ..., 1:3]",
    "tf.constant(np.arange(24).reshape(2, 3, 4))[:, tf.newaxis, -1, ::3]",
    "tf.Variable([1.0, 2.0, 3.0])[1:]",
    # Python protocols
    "bool(tf.constant(True))", "bool(tf.constant(0.0))", "bool(tf.constant([1, 2]))",
    "float(tf.constant(2.5))", "float(tf.constant([2.5]))", "int(tf.constant(3))",
    "int(tf.constant(3.9))", "int(tf.constant(-3.9))", "len(tf.constant([[1, 2, 3]]))",
    "len(tf.constant(1.0))",
    "list(tf.constant([1.0, 2.0]))", "[t for t in tf.constant([[1, 2], [3, 4]])]",
    "list(tf.constant(1.0))",
    "np.array(tf.constant([[1.0, 2.0]]))", "np.array(tf.constant(3))",
    "np.asarray(tf.Variable([1.0, 2.0]))", "np.array(tf.constant([1, 2]), dtype=np.float64)",
    "np.add(tf.constant([1.0, 2.0]), 1.0)",
    "tf.constant([1.0, 2.0]).numpy()", "tf.constant(2.0).numpy()", "tf.constant(2).numpy()",
    "format(tf.constant(3.14159), '.2f')", "format(tf.constant(7), '03d')",
    "'{:.1f}'.format(tf.constant(2.25))", "f'{tf.constant(1.5)}'",
    "f'{tf.constant([1.0, 2.0])}'", "format(tf.constant([1.0, 2.0]), '.1f')",
    "tf.constant([1, 2]) in [1]",
    "tf.constant(5)[None]", "range(tf.constant(3))", "[10, 20, 30][tf.constant(1)]",
    "hash(tf.constant(1.0))",
    "tf.constant(3.0).ndim", "tf.constant([[1.0]]).ndim",
]

NAMES = [
    "tf.Variable(1.0).name",
    "tf.Variable(1.0, name='w').name",
    "tf.Variable(1.0, name='dense/kernel').name",
    "tf.Variable(1.0).trainable",
    "tf.Variable(1.0, trainable=False).trainable",
    "tf.Variable([1.0, 2.0]).shape",
    "tf.Variable(1.0).assign(5.0)",
    "tf.Variable([1.0, 2.0]).assign_add([1.0, 1.0])",
    "tf.Variable([1.0, 2.0]).assign_add(1.0)",
    "tf.Variable([1.0, 2.0]).assign_sub([0.5, 0.5])",
    "tf.Variable(2).assign_add(3)",
    "tf.Variable([1.0, 2.0]).assign([3.0, 4.0]) * 2.0",
    "tf.Variable([1.0, 2.0]).read_value()",
    "tf.Variable(lambda: tf.ones((2,))).numpy()",
    "tf.Variable(1.0, shape=(2,))",
]

GROUPS = {
    "printing": PRINTING,
    "shapes": SHAPES,
    "dtypes": DTYPES,
    "errors": ERRORS,
    "operators": OPERATORS,
    "names": NAMES,
}


def first_line(exc) -> str:
    """The first line of an exception's text, without TensorFlow's node-name prefix."""
    text = str(exc)
    lines = text.splitlines()
    return _NODE_PREFIX.sub("", lines[0] if lines else "")


def describe(value):
    """A JSON-able account of a result: its printed forms, or its Python repr and type."""
    if isinstance(value, list) and value and all(hasattr(v, "numpy") for v in value):
        return {"list": [describe(v) for v in value]}
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        return {"str": str(value), "repr": repr(value)}
    if type(value).__name__ == "TensorShape":
        return {"str": str(value), "repr": repr(value)}
    if type(value).__name__ == "DType":
        return {"repr": repr(value), "name": value.name}
    if type(value).__module__ == "numpy" or type(value).__name__ == "ndarray":
        return {"numpy": repr(value)}
    return {"py": repr(value), "type": type(value).__name__}


def evaluate(expr, tf, np):
    """``describe`` of ``expr``'s value, or of the exception it raises."""
    try:
        value = eval(expr, {"tf": tf, "np": np})  # noqa: S307 - a fixed table of cases
    except Exception as exc:  # noqa: BLE001 - the exception is the recorded answer
        return {"error": type(exc).__name__, "message": first_line(exc)}
    return describe(value)
