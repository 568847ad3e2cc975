"""Record how TensorFlow 2.21 checkpoints dataset iterators, reads tapeflow's iterator
checkpoints, and restores into a subclassed Keras model built by its first call.

Run from the repository root with the TensorFlow venv:
    /work/tfvenv/bin/python tools/record_checkpoint_iterator.py
Writes tests/fixtures/checkpoint/iterator/:
- ``tf_iterator/ckpt.*``: ``tf.train.Checkpoint(it=iter(range(10).batch(3)), v=2.0)``
  written by TensorFlow after one ``next`` (its ITERATOR_STATE is a variant tensor);
- ``tapeflow_iterator/ckpt.*``: the same program saved by tapeflow (imported from src/);
- ``expected.json``: TensorFlow's view of both files (keys, dtypes, what restoring them
  gives or raises) and the facts of a deferred restore into a subclassed model.
tapeflow's tests never import TensorFlow.
"""
import json
import os
import shutil
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "tests", "fixtures", "checkpoint", "iterator")
sys.path.insert(0, os.path.join(ROOT, "src"))
import tapeflow  # noqa: E402


def iterator_program(tf):
    it = iter(tf.data.Dataset.range(10).batch(3))
    first = next(it)
    return it, first, tf.Variable(2.0)


def copy(src_prefix, name):
    dest = os.path.join(OUT, name)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for ext in (".index", ".data-00000-of-00001"):
        shutil.copy(src_prefix + ext, os.path.join(dest, "ckpt" + ext))
    return os.path.join(dest, "ckpt")


def view(path):
    reader = tf.train.load_checkpoint(path)
    return {"keys": [k for k, _ in tf.train.list_variables(path)],
            "dtypes": {k: d.name for k, d in reader.get_variable_to_dtype_map().items()}}


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording what TensorFlow raises
        return {"class": type(e).__name__, "message": str(e)}
    return None


def subclassed_program(tf):
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(3)
            self.block = tf.keras.layers.Dense(3)
            self.out = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.out(self.block(self.hidden(x)))
    return Net


def main(tmp="/tmp/tapeflow_iterator_fixtures"):
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(OUT, exist_ok=True)
    expected = {}

    it, first, v = iterator_program(tf)
    path = copy(tf.train.Checkpoint(it=it, v=v).write(f"{tmp}/tf/c"), "tf_iterator")
    fresh = iter(tf.data.Dataset.range(10).batch(3))
    tf.train.Checkpoint(it=fresh).read(path).expect_partial()
    expected["tf_iterator"] = dict(view(path), first=first.numpy().tolist(),
                                   restored_next=next(fresh).numpy().tolist())

    it_tp, _, v_tp = iterator_program(tapeflow)
    v_tp.assign(3.0)
    path = copy(tapeflow.train.Checkpoint(it=it_tp, v=v_tp).write(f"{tmp}/tp/c"),
                "tapeflow_iterator")
    into_iterator = iter(tf.data.Dataset.range(10).batch(3))
    v_tf = tf.Variable(0.0)
    raised = error(lambda: tf.train.Checkpoint(it=into_iterator, v=v_tf).read(path))
    v_only = tf.Variable(0.0)
    status = tf.train.Checkpoint(v=v_only).read(path)
    expected["tapeflow_iterator"] = dict(
        view(path), tf_restore_with_iterator=raised,
        tf_restore_without_iterator={
            "v": float(v_only.numpy()),
            "assert_existing_objects_matched": error(status.assert_existing_objects_matched),
            "assert_consumed": error(status.assert_consumed)})

    net_cls = subclassed_program(tf)
    net = net_cls()
    x = np.ones((2, 4), np.float32)
    net(x)
    for i, w in enumerate(net.weights):  # distinct values, to tell which weights restore
        w.assign(np.arange(np.prod(w.shape), dtype=np.float32).reshape(w.shape) / 7 + i)
    expected_y = net(x).numpy()
    path = tf.train.Checkpoint(model=net).write(f"{tmp}/sub/c")
    saved = [w.numpy() for w in net.weights]
    other = net_cls()
    status = tf.train.Checkpoint(model=other).read(path)
    y = other(x).numpy()
    expected["subclassed_deferred_restore"] = {
        "saved_weight_paths": [w.path.split("/", 1)[1] for w in net.weights],
        "restored_weight_paths": [w.path.split("/", 1)[1] for w in other.weights],
        # per weight of the restored model: the index of the saved weight it equals, or -1
        "restored_from": [next((i for i, s in enumerate(saved) if s.shape == w.shape
                                and np.array_equal(s, w.numpy())), -1)
                          for w in other.weights],
        "same_prediction": bool(np.array_equal(y, expected_y)),
        "assert_existing_objects_matched": error(status.assert_existing_objects_matched),
        "assert_consumed": error(status.assert_consumed)}
    built_first = net_cls()
    built_first(x)
    status = tf.train.Checkpoint(model=built_first).read(path)
    expected["subclassed_built_before_restore"] = {
        "same_prediction": bool(np.array_equal(built_first(x).numpy(), expected_y)),
        "assert_consumed": error(status.assert_consumed)}
    # Deferred restore of optimizer slots into variables of other shapes (a list element
    # in TensorFlow's object graph): skipped without an error.
    k, b = tf.Variable(tf.ones([1, 5])), tf.Variable(tf.ones([5]))
    opt = tf.keras.optimizers.Adam(0.1)
    opt.apply_gradients([(tf.ones([1, 5]), k), (tf.ones([5]), b)])
    path = tf.train.Checkpoint(optimizer=opt).write(f"{tmp}/opt/c")
    opt2 = tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(optimizer=opt2).read(path)
    opt2.build([tf.Variable(tf.zeros([1, 5])), tf.Variable(tf.zeros([1, 5])),
                tf.Variable(tf.zeros([5]))])
    expected["optimizer_slots_of_other_shapes"] = {
        "variables": [np.asarray(v.numpy()).astype(np.float64).tolist()
                      for v in opt2.variables],
        "assert_consumed": error(status.assert_consumed)}
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    print("wrote", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
