"""``keras.config`` against Keras 3.15.1's recorded answers (``tools/record_keras_config.py``,
cases in ``tests/keras/config_cases.py``): each setting's default, its setter's refusals and
its effect on real layers, losses, metrics, ops and ``fit``."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tapeflow as tf
from tests.keras import config_cases

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = json.loads((ROOT / "tests" / "fixtures" / "keras" / "config.json").read_text())
KERAS = FIXTURE["cases"]


@pytest.fixture(autouse=True)
def reset_config():
    """Every test starts and ends with Keras's defaults (the settings are process-wide)."""
    backend_env = os.environ.get("KERAS_BACKEND")
    tf.keras.config._reset()
    yield
    tf.keras.config._reset()
    tf.keras.mixed_precision.set_global_policy("float32")
    tf.keras.config._reset()
    if backend_env is None:
        os.environ.pop("KERAS_BACKEND", None)
    else:
        os.environ["KERAS_BACKEND"] = backend_env


def same(got, want, path="") -> None:
    if isinstance(want, float) or isinstance(got, float):
        assert isinstance(got, (int, float)) and isinstance(want, (int, float)), (path, got, want)
        if math.isnan(want):
            assert math.isnan(got), (path, got)
        else:
            assert got == pytest.approx(want, rel=2e-6, abs=1e-7), (path, got, want)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{path}[{i}]")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (path, got, want)
        for k in want:
            same(got[k], want[k], f"{path}.{k}")
    else:
        assert got == want, (path, got, want)


IN_PROCESS = [n for n, spec in config_cases.CASES.items() if not spec["env"]]


@pytest.mark.parametrize("name", IN_PROCESS)
def test_case_matches_keras(name):
    same(config_cases.run_case(tf.keras, name), KERAS[name], name)


def test_caps_are_read_from_the_environment():
    spec = config_cases.CASES["caps_from_env"]
    code = ("import json, tapeflow as tf\nfrom tests.keras import config_cases\n"
            "print(json.dumps(config_cases.run_case(tf.keras, 'caps_from_env')))")
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'src'}{os.pathsep}{ROOT}", **spec["env"])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True).stdout
    same(json.loads(out.splitlines()[-1]), KERAS["caps_from_env"])


def test_config_has_keras_names():
    names = {"backend", "disable_flash_attention", "disable_interactive_logging",
             "disable_traceback_filtering", "dtype_policy", "enable_flash_attention",
             "enable_interactive_logging", "enable_traceback_filtering",
             "enable_unsafe_deserialization", "epsilon", "floatx", "image_data_format",
             "is_flash_attention_enabled", "is_interactive_logging_enabled", "is_nnx_enabled",
             "is_traceback_filtering_enabled", "max_epochs", "max_steps_per_epoch",
             "set_backend", "set_dtype_policy", "set_epsilon", "set_floatx",
             "set_image_data_format", "set_max_epochs", "set_max_steps_per_epoch"}
    assert set(tf.keras.config.__all__) == names
    assert all(callable(getattr(tf.keras.config, n)) for n in names)


def test_one_dtype_policy_global():
    tf.keras.config.set_dtype_policy("mixed_bfloat16")
    assert tf.keras.mixed_precision.global_policy() is tf.keras.config.dtype_policy()
    tf.keras.mixed_precision.set_global_policy("float64")
    assert tf.keras.config.dtype_policy().name == "float64"
    layer = tf.keras.layers.Dense(1)
    layer.build((None, 2))
    assert layer.kernel.dtype == tf.float64


def test_set_epsilon_changes_a_loss_at_call_time():
    loss = tf.keras.losses.BinaryCrossentropy()
    y = [[1.0, 0.0]]
    at_default = float(loss(y, y))
    tf.keras.config.set_epsilon(0.1)
    assert float(loss(y, y)) == pytest.approx(-math.log(0.9), rel=1e-6)
    tf.keras.config.set_epsilon(1e-7)
    assert float(loss(y, y)) == pytest.approx(at_default)


def test_enable_unsafe_deserialization_turns_safe_mode_off():
    from tapeflow.keras import backend
    from tapeflow.keras.saving import serialization
    assert serialization.in_safe_mode() is None
    try:
        tf.keras.config.enable_unsafe_deserialization()
        assert serialization.in_safe_mode() is False   # Keras 3.15: False after the call
    finally:
        backend.UNSAFE_DESERIALIZATION[0] = False
