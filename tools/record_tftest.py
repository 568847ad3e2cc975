# ruff: noqa: E501 - a table of cases, one per string
"""Record which ``tf.test.TestCase`` assertions pass or fail in TF 2.21, and what
``evaluate`` returns (run under the TF venv).

Writes ``tests/fixtures/experimental/tftest.json``: for each snippet (``self`` is a TestCase,
``tf`` and ``np`` bound) "ok", or the exception class it raises, plus what it prints.
Usage: TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_tftest.py
"""
import contextlib
import io
import json
import pathlib

CASES = [
    "self.assertAllClose([1., 2.], [1., 2.])",
    "self.assertAllClose([1., 2.], [1., 2.000001])",
    "self.assertAllClose([1., 2.], [1., 2.0001])",
    "self.assertAllClose([1., 2.], [1., 2.01], atol=0.02)",
    "self.assertAllClose([1., 2.], [1., 2.01], rtol=0.01)",
    "self.assertAllClose(tf.constant([1., 2.]), np.array([1., 2.]))",
    "self.assertAllClose(tf.constant([1., 2.]), [1., 2., 3.])",
    "self.assertAllClose({'a': tf.constant(1.), 'b': [2., 3.]}, {'a': 1., 'b': [2., 3.]})",
    "self.assertAllClose({'a': 1.}, {'b': 1.})",
    "self.assertAllClose((1., 2.), [1., 2.])",
    "self.assertAllClose(float('nan'), float('nan'))",
    "self.assertAllClose(tf.constant([1.], tf.float16), [1.0005])",
    "self.assertAllClose(tf.constant([1.], tf.float16), [1.01])",
    "self.assertAllClose(1, 1.0000001)",
    "self.assertAllClose(tf.constant([[1., 2.]]), [1., 2.])",
    "self.assertAllCloseAccordingToType(tf.constant([1.], tf.float32), [1.000001])",
    "self.assertAllCloseAccordingToType(tf.constant([1.], tf.float16), [1.0005])",
    "self.assertNotAllClose([1., 2.], [1., 3.])",
    "self.assertNotAllClose([1., 2.], [1., 2.])",
    "self.assertAllEqual([1, 2], tf.constant([1, 2]))",
    "self.assertAllEqual([1, 2], [1, 3])",
    "self.assertAllEqual([1, 2], [[1, 2]])",
    "self.assertAllEqual(tf.constant([b'a', b'b']), [b'a', b'b'])",
    "self.assertAllEqual(tf.constant(['a']), ['a'])",
    "self.assertAllEqual(1, 1.0)",
    "self.assertNotAllEqual([1, 2], [1, 3])",
    "self.assertNotAllEqual([1, 2], [1, 2])",
    "self.assertAllGreater(tf.constant([2, 3]), 1)",
    "self.assertAllGreater([2, 3], 2)",
    "self.assertAllLess([1, 2], 3)",
    "self.assertAllLess([1, 3], 3)",
    "self.assertAllGreaterEqual([2, 3], 2)",
    "self.assertAllLessEqual([2, 3], 2)",
    "self.assertAllInRange([1, 2], 1, 2)",
    "self.assertAllInRange([1, 2], 1, 2, open_upper_bound=True)",
    "self.assertAllInRange([1., float('nan')], 0, 2)",
    "self.assertAllInSet([1, 2, 1], [1, 2])",
    "self.assertAllInSet([1, 3], [1, 2])",
    "self.assertArrayNear([1., 2.], [1., 2.1], 0.2)",
    "self.assertArrayNear([1., 2.], [1., 2.3], 0.2)",
    "self.assertNear(1., 1.05, 0.1)",
    "self.assertNear(1., 1.2, 0.1)",
    "self.assertShapeEqual(np.zeros((2, 3)), tf.zeros((2, 3)))",
    "self.assertShapeEqual(np.zeros((2, 3)), tf.zeros((3, 2)))",
    "self.assertDTypeEqual(tf.constant([1.]), np.float32)",
    "self.assertDTypeEqual(np.array([1.]), np.float32)",
    "self.assertAllEqual(self.evaluate(tf.constant([1, 2]) * 2), [2, 4])",
    "print(type(self.evaluate(tf.constant([1., 2.]))).__name__, type(self.evaluate(tf.constant(1.))).__name__)",
    "r = self.evaluate({'a': tf.constant(1), 'b': [tf.constant([1.])]})\nprint(sorted(r), type(r['a']).__name__, type(r['b']).__name__, type(r['b'][0]).__name__)",
    "v = tf.Variable(2.)\nprint(type(self.evaluate(v)).__name__, self.evaluate(v))",
    "print(self.evaluate(None), self.evaluate([1, 2]))",
    "with self.assertRaisesOpError('Incompatible'):\n    tf.reshape(tf.zeros(4), [3])",
    "with self.assertRaisesOpError('cannot reshape'):\n    tf.reshape(tf.zeros(4), [3])",
    "with self.assertRaisesWithPredicateMatch(ValueError, lambda e: 'x' in str(e)):\n    raise ValueError('x')",
    "with self.assertRaisesWithPredicateMatch(ValueError, 'y'):\n    raise ValueError('x')",
    "with self.assertRaisesRegex(tf.errors.InvalidArgumentError, 'reshape'):\n    tf.reshape(tf.zeros(4), [3])",
    "with self.session() as s:\n    print(s is None)",
    "with self.cached_session() as s:\n    print(s is None)",
    "self.assertLen([1, 2], 2)",
    "self.assertLen([1, 2], 3)",
    "self.assertEmpty([])",
    "self.assertNotEmpty([1])",
    "self.assertStartsWith('abc', 'ab')",
    "self.assertItemsEqual([1, 2], [2, 1])",
    "self.assertCountEqual([1, 2], [2, 1, 1])",
    "import os\nprint(os.path.isdir(self.get_temp_dir()))",
]


def main():
    import numpy as np
    import tensorflow as tf

    class _T(tf.test.TestCase):
        def runTest(self):
            pass

    out = []
    for code in CASES:
        case = _T()
        case.setUp()
        buf = io.StringIO()
        rec = {"code": code, "result": "ok"}
        try:
            with contextlib.redirect_stdout(buf):
                exec(code, {"self": case, "tf": tf, "np": np})  # noqa: S102 - the recorded case
        except BaseException as exc:  # noqa: BLE001 - the class is the record
            rec["result"] = type(exc).__name__
        rec["stdout"] = buf.getvalue()
        out.append(rec)
    path = (pathlib.Path(__file__).resolve().parent.parent
            / "tests/fixtures/experimental/tftest.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(path, len(out))


if __name__ == "__main__":
    main()
