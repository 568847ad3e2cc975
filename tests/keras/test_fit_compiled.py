"""Keras 3's compiled steps: ``fit``, ``evaluate``, ``predict`` and ``*_on_batch`` run
``train_step`` / ``test_step`` / ``predict_step`` as ``tf.function(reduce_retracing=True)``
unless ``run_eagerly``. The programs in tests/compat/keras_train_function/ print what Keras
3.15 on TensorFlow 2.21 printed (trace-time prints and their shapes, results, tf.print
lines; tools/record_keras_train.py train_function), and compiled fits give eager
fits' numbers."""
import contextlib
import hashlib
import io
import json
import pathlib
import re

import numpy as np
import pytest

import tapeflow as tf

HERE = pathlib.Path(__file__).parents[1]
PROGRAMS = HERE / "compat" / "keras_train_function"
RECORDED = json.loads((HERE / "fixtures" / "keras" / "train" / "train_function.json").read_text())
NUMBER = r"-?\d+\.\d+(e[-+]\d+)?"


def run(name):
    source = (PROGRAMS / name).read_text()
    out, err = io.StringIO(), io.StringIO()
    scope = {"tf": tf, "keras": tf.keras, "np": np, "__name__": "__program__"}
    tf.keras.utils.set_random_seed(0)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        exec(compile(source, str(PROGRAMS / name), "exec"), scope)
    return out.getvalue(), err.getvalue(), hashlib.sha256(source.encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_program_prints_what_keras_prints(name):
    stdout, stderr, digest = run(name)
    want = RECORDED[name]
    assert digest == want["sha"], "program changed: rerun tools/record_keras_train.py"
    got_lines, want_lines = stdout.splitlines(), want["stdout"].splitlines()
    assert [re.sub(NUMBER, "N", line) for line in got_lines] == \
        [re.sub(NUMBER, "N", line) for line in want_lines]
    got_numbers = [float(m.group()) for line in got_lines for m in re.finditer(NUMBER, line)]
    want_numbers = [float(m.group()) for line in want_lines for m in re.finditer(NUMBER, line)]
    np.testing.assert_allclose(got_numbers, want_numbers, rtol=2e-5, atol=1e-6)
    tf_print = [line for line in stderr.splitlines() if not line.startswith("WARNING")]
    assert tf_print == want["tf_print"]


def _mlp(run_eagerly, dropout=0.0, strategy=None):
    if strategy is not None:
        with strategy.scope():
            return _mlp(run_eagerly, dropout)
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([
        tf.keras.Input((6,)), tf.keras.layers.Dense(16, activation="relu"),
        tf.keras.layers.BatchNormalization(), tf.keras.layers.Dropout(dropout),
        tf.keras.layers.Dense(3, activation="softmax")])
    rng = np.random.default_rng(1)
    model.set_weights([rng.standard_normal(w.shape).astype(np.float32) * 0.3 + (
        1.0 if "variance" in w.path else 0.0) for w in model.weights])
    model.compile(tf.keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy",
                  metrics=["accuracy", tf.keras.metrics.SparseTopKCategoricalAccuracy(k=2),
                           "sparse_categorical_crossentropy"],
                  weighted_metrics=["accuracy"], run_eagerly=run_eagerly)
    return model


def _data():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((90, 6)).astype(np.float32)
    y = rng.integers(0, 3, 90)
    w = rng.random(90).astype(np.float32)
    return x, y, w


@pytest.mark.parametrize("dropout", [0.0, 0.3])
def test_compiled_fit_gives_the_numbers_of_an_eager_fit(dropout):
    x, y, w = _data()
    runs = []
    for run_eagerly in (True, False):
        model = _mlp(run_eagerly, dropout)
        history = model.fit(x, y, sample_weight=w, batch_size=32, epochs=3, verbose=0,
                            shuffle=False, validation_data=(x[:40], y[:40]))
        tob = model.train_on_batch(x[:10], y[:10], return_dict=True)
        ev = model.evaluate(x, y, batch_size=25, verbose=0, return_dict=True)
        pred = model.predict(x, batch_size=32, verbose=0)
        runs.append((history.history, tob, ev, pred, model.get_weights(),
                     int(model.optimizer.iterations.numpy())))
    (h1, t1, e1, p1, w1, i1), (h2, t2, e2, p2, w2, i2) = runs
    assert sorted(h1) == sorted(h2) and i1 == i2 == 3 * 3 + 1
    for k in h1:
        np.testing.assert_allclose(h2[k], h1[k], rtol=1e-6, atol=1e-6, err_msg=k)
    for k in t1:
        np.testing.assert_allclose(t2[k], t1[k], rtol=1e-6, atol=1e-6, err_msg=k)
        np.testing.assert_allclose(e2[k], e1[k], rtol=1e-6, atol=1e-6, err_msg=k)
    np.testing.assert_allclose(p2, p1, rtol=1e-6, atol=1e-6)
    for a, b in zip(w2, w1, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


def _mirrored(n):
    return tf.distribute.MirroredStrategy([f"CPU:{i}" for i in range(n)])


@pytest.mark.parametrize("replicas, dropout", [(2, 0.0), (2, 0.3), (3, 0.0)])
def test_compiled_distributed_fit_gives_the_numbers_of_an_eager_distributed_fit(replicas,
                                                                                dropout):
    # Keras traces strategy.run(train_step) under a strategy: the replicas' slices (uneven:
    # 32 rows over 3 replicas are 11, 11, 10; the last 26 are 13, 13 or 9, 9, 8) replay the
    # one trace of the epoch loop; train_on_batch gives every replica the whole batch.
    x, y, w = _data()
    runs = []
    for run_eagerly in (True, False):
        model = _mlp(run_eagerly, dropout, _mirrored(replicas))
        history = model.fit(x, y, sample_weight=w, batch_size=32, epochs=3, verbose=0,
                            shuffle=False, validation_data=(x[:40], y[:40]))
        tob = model.train_on_batch(x[:10], y[:10], return_dict=True)
        ev = model.evaluate(x, y, batch_size=25, verbose=0, return_dict=True)
        pred = model.predict(x, batch_size=32, verbose=0)
        runs.append((history.history, tob, ev, pred, model.get_weights(),
                     int(model.optimizer.iterations.numpy()), model))
    (h1, t1, e1, p1, w1, i1, _), (h2, t2, e2, p2, w2, i2, compiled) = runs
    assert sorted(h1) == sorted(h2) and i1 == i2 == 3 * 3 + 1
    for k in h1:
        np.testing.assert_allclose(h2[k], h1[k], rtol=1e-6, atol=1e-6, err_msg=k)
    for k in t1:
        np.testing.assert_allclose(t2[k], t1[k], rtol=1e-6, atol=1e-6, err_msg=k)
        np.testing.assert_allclose(e2[k], e1[k], rtol=1e-6, atol=1e-6, err_msg=k)
    assert p1.shape == p2.shape == (90, 3)
    np.testing.assert_allclose(p2, p1, rtol=1e-6, atol=1e-6)
    for a, b in zip(w2, w1, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    report = compiled.train_function.experimental_trace_report()
    assert "`train_multi_step_on_iterator`: 1 trace(s)" in report
    assert "eager:" not in report
    assert "1 trace(s)" in compiled.test_function.experimental_trace_report()


def test_distributed_predict_concatenates_the_replicas_outputs():
    # predict splits each batch over the replicas and concatenates their outputs (the
    # rows in order); predict_on_batch gives each replica the whole batch, as Keras 3
    x, _, _ = _data()
    one = _mlp(False)
    two = _mlp(False, strategy=_mirrored(2))
    want = one.predict(x, batch_size=32, verbose=0)
    np.testing.assert_allclose(two.predict(x, batch_size=32, verbose=0), want, rtol=1e-6)
    both = two.predict_on_batch(x[:5])
    np.testing.assert_allclose(both, np.concatenate([want[:5]] * 2), rtol=1e-6)


def test_step_functions_are_made_once_and_reset_by_compile():
    x, y, _ = _data()
    model = _mlp(False)
    assert (model.train_function, model.test_function, model.predict_function) == \
        (None, None, None)
    model.fit(x, y, batch_size=32, epochs=2, verbose=0, validation_data=(x, y))
    model.predict(x, verbose=0)
    made = (model.train_function, model.test_function, model.predict_function)
    assert all(f is not None for f in made)
    assert model.make_train_function() is made[0]
    assert model.make_test_function() is made[1]
    assert model.make_predict_function() is made[2]
    # one trace of the epoch loop's step (it created the optimizer's and the metrics'
    # variables: traced twice, as TensorFlow), replayed for the last, smaller batch
    report = made[0].experimental_trace_report()
    assert "`train_multi_step_on_iterator`: 2 trace(s)" in report
    assert "`train_one_step_on_data`: 0 trace(s)" in report
    assert model.make_train_function(force=True) is None
    assert model.train_function is not made[0]
    model.compile("sgd", "mse")
    assert (model.train_function, model.test_function, model.predict_function) == \
        (None, None, None)


def test_a_step_that_reads_a_tensor_value_gives_eager_numbers_and_says_so():
    """A Python read of a tensor value in train_step (TensorFlow refuses it in a compiled
    fit) becomes a guard: the step re-specializes when the value changes, visibly in the
    trace report, with the numbers of an eager run."""

    class Alternating(tf.keras.Sequential):
        def train_step(self, data):
            if int(self.optimizer.iterations) % 2:
                data = (data[0] * 0.5, data[1])
            return super().train_step(data)

    x, y, _ = _data()
    histories = []
    for run_eagerly, replicas in [(True, 1), (False, 1), (True, 2), (False, 2)]:
        tf.keras.utils.set_random_seed(3)
        with (_mirrored(2).scope() if replicas == 2 else contextlib.nullcontext()):
            model = Alternating([tf.keras.Input((6,)), tf.keras.layers.Dense(3)])
            model.set_weights([np.full((6, 3), 0.1, np.float32), np.zeros(3, np.float32)])
            model.compile(tf.keras.optimizers.SGD(0.1), "sparse_categorical_crossentropy",
                          run_eagerly=run_eagerly)
        histories.append(model.fit(x, y, batch_size=30, epochs=2, verbose=0).history)
    for h in histories[1:]:
        np.testing.assert_allclose(h["loss"], histories[0]["loss"], rtol=1e-6)
    assert "variant" in model.train_function.experimental_trace_report()
    assert "a Python value read at" in model.train_function.experimental_trace_report()


def test_a_distributed_step_that_cannot_stay_compiled_runs_eagerly_and_says_so():
    # A value read that changes on every batch: after MAX_VARIANTS re-specializations the
    # signature runs eagerly (strategy.run per batch), with an eager fit's numbers.

    class Reads(tf.keras.Sequential):
        def train_step(self, data):
            scale = 1.0 + 0.0 * float(tf.reduce_sum(data[0]))
            return super().train_step((data[0] * scale, data[1]))

    x, y, _ = _data()
    y = y.astype(np.float32)[:, None]
    histories = []
    for run_eagerly in (True, False):
        with _mirrored(2).scope():
            tf.keras.utils.set_random_seed(1)
            model = Reads([tf.keras.Input((6,)), tf.keras.layers.Dense(1)])
            model.compile("adam", "mse", run_eagerly=run_eagerly)
        histories.append(model.fit(x, y, batch_size=6, epochs=2, verbose=0).history["loss"])
    np.testing.assert_allclose(histories[1], histories[0], rtol=1e-6)
    report = model.train_function.experimental_trace_report()
    assert "eager: (data=tuple[PerReplica[Tensor(3, 6) float32, Tensor(3, 6) float32], " \
        "PerReplica[Tensor(3, 1) float32, Tensor(3, 1) float32]]" in report
    assert "this signature now runs eagerly" in report


def test_a_deep_copy_of_a_fitted_model_makes_its_own_step_functions():
    import copy
    x, y, _ = _data()
    model = _mlp(False)
    model.fit(x, y, batch_size=32, verbose=0)
    model.predict(x, verbose=0)
    twin = copy.deepcopy(model)
    assert (twin.train_function, twin.predict_function) == (None, None)
    history = twin.fit(x, y, batch_size=32, epochs=2, verbose=0)
    assert twin.train_function is not None and twin.train_function is not model.train_function
    assert len(history.history["loss"]) == 2 and np.isfinite(history.history["loss"]).all()
