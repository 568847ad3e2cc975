"""Keras 3's custom-training protocol: guide-like programs (tests/compat/keras_train/, written
for this project after keras-io's "Customizing what happens in fit()") print what Keras 3.15
printed, and keras.random behaves as Keras's."""
import contextlib
import hashlib
import io
import json
import os
import pathlib
import re

import numpy as np
import pytest

import tapeflow as tf

HERE = pathlib.Path(__file__).parents[1]
PROGRAMS = HERE / "compat" / "keras_train"
RECORDED = json.loads((HERE / "fixtures" / "keras" / "train" / "programs.json").read_text())
# Programs whose numbers come from random draws (TensorFlow's Philox stream differs).
RANDOM_NUMBERS = {"gan_compile.py"}
NUMBER = r"-?\d+(\.\d+)?(e[-+]\d+)?"


def run(name):
    source = (PROGRAMS / name).read_text()
    buffer = io.StringIO()
    scope = {"tf": tf, "keras": tf.keras, "np": np, "__name__": "__program__"}
    with contextlib.redirect_stdout(buffer):
        exec(compile(source, str(PROGRAMS / name), "exec"), scope)
    return buffer.getvalue(), hashlib.sha256(source.encode()).hexdigest()[:16], scope


def screen(text):
    """Lines as a terminal shows them, step times masked."""
    lines = []
    for line in text.replace("\b", "").split("\n"):
        line = line.split("\r")[-1].rstrip()
        line = re.sub(r" - \d+s - \d+(ms|us|s)/step", " - T - T/step", line)
        lines.append(line)
    return lines


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_guide_like_program_prints_what_keras_prints(name):
    got, digest, scope = run(name)
    want = RECORDED[name]
    if "tensorboard" in want:
        _compare_tensorboard_logs(scope["logdir"], want["tensorboard"])
    assert digest == want["sha"], "program changed: rerun tools/record_keras_train.py"
    got_lines, want_lines = screen(got), screen(want["stdout"])
    masked = [re.sub(NUMBER, "N", line) for line in got_lines]
    assert masked == [re.sub(NUMBER, "N", line) for line in want_lines]
    if name in RANDOM_NUMBERS:
        assert got_lines[-3:] == want_lines[-3:]
        return
    got_numbers = [float(m.group()) for line in got_lines for m in re.finditer(NUMBER, line)]
    want_numbers = [float(m.group()) for line in want_lines for m in re.finditer(NUMBER, line)]
    np.testing.assert_allclose(got_numbers, want_numbers, rtol=2e-3, atol=2e-4)


def _tag(tag):
    # Layer and model names carry process-wide counters (sequential_3/dense_4/...).
    return re.sub(r"_\d+(?=/)", "", tag)


def _compare_tensorboard_logs(logdir, want):
    """Our event files hold what TensorBoard read from Keras's: tags, steps, plugins, and
    the scalar values."""
    from tapeflow.summary import reader
    assert sorted(os.listdir(logdir)) == sorted(want)
    for sub, tags in want.items():
        (path,) = list(pathlib.Path(logdir, sub).iterdir())
        got = {}
        for event in reader.read_events(path):
            for v in event.summary.value:
                got.setdefault(_tag(v.tag), []).append(
                    (event.step, v.metadata.plugin_data.plugin_name, v.tensor))
        assert sorted(got) == sorted(_tag(t) for t in tags), sub
        for tag, rows in tags.items():
            mine = got[_tag(tag)]
            assert [(r["step"], r["plugin"]) for r in rows] == [(s, p) for s, p, _ in mine]
            for row, (_, plugin, tensor) in zip(rows, mine, strict=True):
                if plugin == "scalars":
                    value = np.frombuffer(tensor.tensor_content, np.float32)[0]
                    np.testing.assert_allclose(value, row["value"], rtol=2e-4, atol=1e-6,
                                               err_msg=f"{sub} {tag}")
                elif plugin == "graph_keras_model":
                    config = json.loads(tensor.string_val[0].decode())
                    assert config["class_name"] == row["value"]["class_name"]


def test_seed_generator_advances_and_int_seeds_repeat():
    g = tf.keras.random.SeedGenerator(7)
    a, b = tf.keras.random.normal((3,), seed=g), tf.keras.random.normal((3,), seed=g)
    assert not np.allclose(a.numpy(), b.numpy())
    assert g.state.numpy().tolist() == [7, 2]
    again = tf.keras.random.SeedGenerator(7)
    np.testing.assert_array_equal(tf.keras.random.normal((3,), seed=again).numpy(), a.numpy())
    np.testing.assert_array_equal(tf.keras.random.uniform((4,), seed=3).numpy(),
                                  tf.keras.random.uniform((4,), seed=3).numpy())
    with pytest.raises(ValueError, match="must be an integer"):
        tf.keras.random.SeedGenerator(1.5)


def test_keras_random_functions_have_the_right_laws():
    g = tf.keras.random.SeedGenerator(0)
    n = tf.keras.random.normal((4000,), mean=2.0, stddev=0.5, seed=g).numpy()
    assert abs(n.mean() - 2.0) < 0.05 and abs(n.std() - 0.5) < 0.05
    u = tf.keras.random.uniform((4000,), minval=-1.0, maxval=3.0, seed=g).numpy()
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.1
    t = tf.keras.random.truncated_normal((4000,), stddev=1.0, seed=g).numpy()
    assert np.abs(t).max() <= 2.0
    r = tf.keras.random.randint((4000,), 2, 5, seed=g)
    assert r.dtype == tf.int32 and set(np.unique(r.numpy())) == {2, 3, 4}
    s = tf.keras.random.shuffle(tf.range(10), seed=g).numpy()
    assert sorted(s.tolist()) == list(range(10)) and s.tolist() != list(range(10))
    d = tf.keras.random.dropout(tf.ones((1000,)), 0.25, seed=g).numpy()
    assert set(np.unique(d)) <= {0.0, np.float32(1 / 0.75)} and abs((d == 0).mean() - 0.25) < 0.05
    c = tf.keras.random.categorical(tf.math.log([[0.1, 0.9]]), 2000, seed=g).numpy()
    assert abs(c.mean() - 0.9) < 0.03
    with pytest.raises(ValueError, match="floating point"):
        tf.keras.random.uniform((2,), dtype="int32")
    gam = tf.keras.random.gamma((4000,), alpha=3.0, seed=g).numpy()
    assert abs(gam.mean() - 3.0) < 0.15 and gam.min() > 0
    bet = tf.keras.random.beta((4000,), alpha=2.0, beta=6.0, seed=g).numpy()
    assert abs(bet.mean() - 0.25) < 0.02 and 0 < bet.min() and bet.max() < 1
    b = tf.keras.random.binomial((4000,), counts=10, probabilities=0.3, seed=g)
    assert b.dtype == tf.float32 and abs(b.numpy().mean() - 3.0) < 0.15


def test_compile_metrics_before_and_after_building():
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"], weighted_metrics=["mse"])
    assert model.metrics_names == ["loss", "compile_metrics"]
    x, y = np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)
    logs = model.train_on_batch(x, y, sample_weight=np.array([1, 0, 0, 0], np.float32),
                                return_dict=True)
    # String metrics keep their identifier as name, as in Keras 3.
    assert sorted(logs) == ["loss", "mae", "mse"]
    assert logs["mae"] != pytest.approx(logs["mse"])


def test_fit_before_compile_raises():
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    # Keras 3 raises ValueError (TensorFlow 2.21's tf.keras is Keras 3).
    with pytest.raises(ValueError, match=r"^You must call `compile\(\)` before using the "
                                         r"model\.$"):
        model.fit(np.ones((2, 2)), np.ones((2, 1)), verbose=0)
