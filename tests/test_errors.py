"""Misuse raises what TensorFlow 2.21 / Keras 3 raise: the programs of errors_cases.py,
compared with tests/fixtures/errors/errors.json (tools/record_tf_fixtures_errors.py)."""
import builtins
import contextlib
import io
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from errors_cases import CASES

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "errors" / "errors.json"
RECORDED = json.loads(FIXTURE.read_text())["cases"]


def _run(code):
    tf.keras.backend.clear_session()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"tf": tf, "np": np})
    return out.getvalue()


def _expected_class(want):
    if want["kind"] == "OpError":
        return getattr(tf.errors, want["error"])
    return getattr(builtins, want["error"])


def _without_hint(message):
    """tapeflow may add ``Hint:`` lines after TensorFlow's text (DESIGN.md)."""
    return message.split("\nHint: ")[0]


def _bold(message):
    """The original message inside Keras's report; TensorFlow ends an op's message with
    ``name: `` or not depending on how the op was reached, so that ending is dropped."""
    inner = message.split("\x1b[1m", 1)[1].split("\x1b[0m", 1)[0]
    return inner[:-len(" name: ")] if inner.endswith(" name: ") else inner


@pytest.mark.parametrize("name,code,how", CASES, ids=[c[0] for c in CASES])
def test_misuse_raises_what_tensorflow_raises(name, code, how):
    want = RECORDED[name]
    assert want["how"] == how, "fixture out of date: rerun tools/record_tf_fixtures_errors.py"
    if "stdout" in want:
        assert _run(code) == want["stdout"]
        return
    with pytest.raises(Exception) as info:
        _run(code)
    err = info.value
    assert type(err) is _expected_class(want), f"{type(err).__name__}: {err}"
    got = _without_hint(str(err))
    if how == "exact":
        assert got == want["message"]
    elif how == "keras":
        assert got.split("\n")[0] == want["message"].split("\n")[0]
        assert _bold(got).split("\n")[0] == _bold(want["message"]).split("\n")[0]
    else:  # TensorFlow's text is accidental; tapeflow's (hint included) names the argument
        arg = how.split(":", 1)[1]
        assert f"`{arg}`" in str(err) or f"{arg}[" in str(err) or f"{arg} " in str(err), err
