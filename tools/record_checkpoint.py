"""Record TensorFlow 2.21 / Keras 3 checkpoints and what TensorFlow reads from tapeflow's.

Run from the repository root with the TensorFlow venv:
    /work/tfvenv/bin/python tools/record_checkpoint.py
Writes tests/fixtures/checkpoint/:
- ``tf_module/``, ``tf_keras/``, ``tf_rnn/``, ``tf_functional/``: checkpoints written by
  TensorFlow (a tf.Module graph of several dtypes; a Keras Sequential + Adam after two
  steps; an Embedding/LSTM stack; a functional Conv2D model + SGD with momentum);
- ``tapeflow_*/``: the same programs saved by tapeflow (imported
  from src/ here), then read back by TensorFlow: list_variables, every value, and a
  ``tf.train.Checkpoint.restore`` into the same TensorFlow objects with assert_consumed;
- ``expected.json``: all of that. tapeflow's tests never import TensorFlow.
"""
import hashlib
import json
import os
import shutil
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "tests", "fixtures", "checkpoint")
sys.path.insert(0, os.path.join(ROOT, "src"))
import tapeflow  # noqa: E402

sys.path.insert(0, ROOT)
from tests.checkpoint.cases import (  # noqa: E402
    functional_program,
    keras_program,
    many_variables_program,
    module_program,
    nested_module_program,
    rnn_program,
)


def values(path):
    reader = tf.train.load_checkpoint(path)
    out = {}
    for key, shape in tf.train.list_variables(path):
        if key == "_CHECKPOINTABLE_OBJECT_GRAPH":
            continue
        v = np.asarray(reader.get_tensor(key))
        out[key] = {"dtype": reader.get_variable_to_dtype_map()[key].name, "shape": shape,
                    "value": v.astype(np.float64).tolist() if v.dtype.kind in "fc" else
                    v.tolist()}
    return out


def copy(src_prefix, name):
    dest = os.path.join(OUT, name)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for ext in (".index", ".data-00000-of-00001"):
        shutil.copy(src_prefix + ext, os.path.join(dest, "ckpt" + ext))
    return os.path.join(dest, "ckpt")


def main(tmp="/tmp/tapeflow_ckpt_fixtures"):
    shutil.rmtree(tmp, ignore_errors=True)
    expected = {}

    # TensorFlow writes.
    net = module_program(tf)
    path = copy(tf.train.Checkpoint(model=net).write(f"{tmp}/tf_module/c"), "tf_module")
    expected["tf_module"] = {"values": values(path),
                             "variable_names": [v.name for v in net.variables],
                             "submodules": [m.name for m in net.submodules]}
    nested = nested_module_program(tf)
    expected["tf_nested_module"] = {
        "submodules": [m.name for m in nested.submodules],
        "variables": [v.name for v in nested.variables],
        "trainable_variables": [v.name for v in nested.trainable_variables],
        "a_submodules": [m.name for m in nested.a.submodules],
        "keys": [k for k, _ in tf.train.list_variables(
            tf.train.Checkpoint(top=nested).write(f"{tmp}/nested/c"))]}
    path = many_variables_program(tf).write(f"{tmp}/many/c")  # too big to commit: hashes
    expected["tf_many_variables"] = {
        ext: hashlib.sha256(open(path + ext, "rb").read()).hexdigest()
        for ext in (".index", ".data-00000-of-00001")}
    model, opt, x, y = keras_program(tf)
    path = copy(tf.train.Checkpoint(model=model, optimizer=opt).write(f"{tmp}/tf_keras/c"),
                "tf_keras")
    with tf.GradientTape() as tape:
        loss = tf.keras.losses.MeanSquaredError()(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    expected["tf_keras"] = {
        "values": values(path), "x": x.tolist(), "y": y.tolist(),
        "next_step_weights": [w.numpy().astype(np.float64).tolist() for w in model.weights],
        "next_step_loss": float(loss)}
    rnn = rnn_program(tf)
    path = copy(tf.train.Checkpoint(model=rnn).write(f"{tmp}/tf_rnn/c"), "tf_rnn")
    xr = np.array([[1, 2, 3, 4, 5], [0, 9, 8, 7, 6]], np.int32)
    expected["tf_rnn"] = {"values": values(path), "x": xr.tolist(),
                          "prediction": rnn(xr).numpy().astype(np.float64).tolist()}

    fn_model, fn_opt, xf, _ = functional_program(tf)
    path = copy(tf.train.Checkpoint(model=fn_model, optimizer=fn_opt).write(
        f"{tmp}/tf_functional/c"), "tf_functional")
    expected["tf_functional"] = {"values": values(path), "x": xf.tolist(),
                                 "prediction": fn_model(xf).numpy().astype(np.float64).tolist()}

    # tapeflow writes; TensorFlow reads and restores.
    net_tp = module_program(tapeflow)
    path = copy(tapeflow.train.Checkpoint(model=net_tp).write(f"{tmp}/tp_module/c"),
                "tapeflow_module")
    fresh = module_program(tf)
    for v in fresh.variables:
        v.assign(tf.zeros_like(v))
    status = tf.train.Checkpoint(model=fresh).read(path)
    status.assert_consumed()
    expected["tapeflow_module"] = {
        "tf_reads": values(path), "tf_restore": "assert_consumed passed",
        "tf_restored": {v.name: np.asarray(v.numpy()).astype(np.float64).tolist()
                        if v.dtype.is_floating else np.asarray(v.numpy()).tolist()
                        for v in fresh.variables}}
    model_tp, opt_tp, _, _ = keras_program(tapeflow)
    path = copy(tapeflow.train.Checkpoint(model=model_tp, optimizer=opt_tp).write(
        f"{tmp}/tp_keras/c"), "tapeflow_keras")
    model_tf = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4),
                                    tf.keras.layers.BatchNormalization(),
                                    tf.keras.layers.Dense(2)])
    opt_tf = tf.keras.optimizers.Adam(0.01)
    status = tf.train.Checkpoint(model=model_tf, optimizer=opt_tf).read(path)
    opt_tf.build(model_tf.trainable_variables)  # slots: restored on creation (deferred)
    status.assert_consumed()
    expected["tapeflow_keras"] = {
        "tf_reads": values(path), "tf_restore": "assert_consumed passed",
        "tf_model_weights": [w.numpy().astype(np.float64).tolist() for w in model_tf.weights],
        "tf_optimizer_variables": [np.asarray(v.numpy()).astype(np.float64).tolist()
                                   for v in opt_tf.variables],
        "tf_prediction": model_tf(x).numpy().astype(np.float64).tolist()}
    fn_tp, fn_opt_tp, xf, _ = functional_program(tapeflow)
    path = copy(tapeflow.train.Checkpoint(model=fn_tp, optimizer=fn_opt_tp).write(
        f"{tmp}/tp_functional/c"), "tapeflow_functional")
    inputs = tf.keras.Input((4, 5, 2))
    hidden = tf.keras.layers.Flatten()(tf.keras.layers.Conv2D(3, 2, activation="relu")(inputs))
    fn_tf = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(hidden))
    sgd_tf = tf.keras.optimizers.SGD(0.05, momentum=0.9)
    status = tf.train.Checkpoint(model=fn_tf, optimizer=sgd_tf).read(path)
    sgd_tf.build(fn_tf.trainable_variables)
    status.assert_consumed()
    expected["tapeflow_functional"] = {
        "tf_reads": values(path), "tf_restore": "assert_consumed passed",
        "tf_prediction": fn_tf(xf).numpy().astype(np.float64).tolist()}
    # State files: a TensorFlow manager's directory for tapeflow; tapeflow's read by TF.
    tf_dir = os.path.join(OUT, "tf_manager")
    shutil.rmtree(tf_dir, ignore_errors=True)
    counter = tf.Variable(0.0)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=counter), tf_dir, max_to_keep=2)
    for i in range(3):
        counter.assign(float(i + 1))
        manager.save()
    tp_dir = f"{tmp}/tp_manager"
    tp_counter = tapeflow.Variable(0.0)
    tp_manager = tapeflow.train.CheckpointManager(tapeflow.train.Checkpoint(v=tp_counter),
                                                  tp_dir, max_to_keep=2)
    for i in range(3):
        tp_counter.assign(float(i + 1))
        tp_manager.save()
    tf_view = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(0.0)), tp_dir, 2)
    restored = tf.Variable(0.0)
    tf.train.Checkpoint(v=restored).restore(tf.train.latest_checkpoint(tp_dir)).assert_consumed()
    expected["tapeflow_manager"] = {
        "tf_latest": os.path.basename(tf.train.latest_checkpoint(tp_dir)),
        "tf_manager_checkpoints": [os.path.basename(p) for p in tf_view.checkpoints],
        "tf_restored_v": float(restored.numpy())}
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    print("wrote", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
