"""``tf.experimental.ExtensionType`` against what TF 2.21 prints (record_extension_type.py)."""
import contextlib
import io
import json
import pathlib

import pytest

import tapeflow as tf

FIXTURE = pathlib.Path(__file__).parent.parent / "fixtures/experimental/extension_type.json"
DATA = json.loads(FIXTURE.read_text())

# Cases that need something outside tf.experimental (owners: _core, the public namespace).
XFAIL = {
    "bad_dtype": "tf.as_dtype(3) (a DataType enum number) is not accepted by tapeflow",
    "nest_flatten": "tapeflow's tf.nest ignores expand_composites (an instance stays one leaf)",
    "spec_class": "tapeflow has no tf.TypeSpec base class",
}


def _env():
    env = {"tf": tf}
    exec(DATA["prelude"], env)  # noqa: S102 - the recorded classes
    return env


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(reason=XFAIL[n], strict=True)) if n in XFAIL else n
    for n in sorted(DATA["cases"])])
def test_case(name):
    rec = DATA["cases"][name]
    buf = io.StringIO()
    err = None
    try:
        with contextlib.redirect_stdout(buf):
            exec(rec["code"], _env())  # noqa: S102 - the recorded snippet
    except Exception as exc:  # noqa: BLE001 - compared with TF's
        err = exc
    assert buf.getvalue() == rec["stdout"]
    if "error" in rec:
        assert err is not None and type(err).__name__ == rec["error"], err
        assert str(err) == rec["message"]
    else:
        assert err is None, err
