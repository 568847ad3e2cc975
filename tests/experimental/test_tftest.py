"""``tf.test.TestCase``: which assertions pass or fail in TF 2.21 (tools/record_tftest.py)."""
import contextlib
import io
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf

FIXTURE = pathlib.Path(__file__).parent.parent / "fixtures/experimental/tftest.json"
DATA = json.loads(FIXTURE.read_text())


class _T(tf.test.TestCase):
    def runTest(self):  # noqa: N802 - unittest's name
        pass


@pytest.mark.parametrize("rec", DATA, ids=[r["code"][:70] for r in DATA])
def test_assertion(rec):
    case = _T()
    case.setUp()
    buf = io.StringIO()
    result = "ok"
    try:
        with contextlib.redirect_stdout(buf):
            exec(rec["code"], {"self": case, "tf": tf, "np": np})  # noqa: S102 - recorded case
    except BaseException as exc:  # noqa: BLE001 - compared with TF's
        result = type(exc).__name__
    assert (result, buf.getvalue()) == (rec["result"], rec["stdout"])


def test_main_runs_the_module_tests(tmp_path):
    import subprocess
    import sys
    src = pathlib.Path(tf.__file__).parent.parent
    script = tmp_path / "t.py"
    script.write_text(
        "import tapeflow as tf\n"
        "class T(tf.test.TestCase):\n"
        "    def test_ok(self):\n        self.assertAllClose([1.], tf.constant([1.]))\n"
        "    def test_bad(self):\n        self.assertAllEqual([1], [2])\n"
        "if __name__ == '__main__':\n    tf.test.main()\n")
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env={"PYTHONPATH": str(src)}, timeout=300)
    assert res.returncode == 1
    assert "Ran 2 tests" in res.stderr and "FAILED (failures=1)" in res.stderr


def test_dtypes_complex_is_tf_complex():
    # TF 2.21: tf.dtypes.complex is tf.complex (checked in the TF venv)
    assert tf.dtypes.complex is tf.complex
    z = tf.dtypes.complex(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float64))
    assert z.dtype == tf.complex128 and z.numpy().tolist() == [1 + 2j]
