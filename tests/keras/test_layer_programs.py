"""Guide-like programs about layers (tests/compat/keras_layers/, written for this project
after TensorFlow's DCGAN and data-augmentation tutorials and keras-io's masking guide) print
what they printed under TensorFlow 2.21 / Keras 3.15 (tools/record_keras_layers.py).
"""
import contextlib
import hashlib
import io
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf

HERE = pathlib.Path(__file__).parents[1]
PROGRAMS = HERE / "compat" / "keras_layers"
RECORDED = json.loads((HERE / "fixtures" / "keras" / "layers" / "programs.json").read_text())


def run(name):
    source = (PROGRAMS / name).read_text()
    buffer = io.StringIO()
    tf.keras.utils.set_random_seed(0)
    tf.keras.backend.clear_session()
    with contextlib.redirect_stdout(buffer):
        exec(compile(source, str(PROGRAMS / name), "exec"),
             {"tf": tf, "keras": tf.keras, "np": np, "__name__": "__program__"})
    return buffer.getvalue(), hashlib.sha256(source.encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_guide_like_program_prints_what_keras_prints(name, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    got, digest = run(name)
    want = RECORDED[name]
    assert digest == want["sha"], "program changed: rerun tools/record_keras_layers.py"
    assert got.splitlines() == want["stdout"].splitlines()


def test_every_program_is_recorded():
    assert sorted(p.name for p in PROGRAMS.glob("*.py")) == sorted(RECORDED)
