"""Loading TF-written SavedModels: tapeflow beside TensorFlow.

Usage:
    PYTHONPATH=src python benchmarks/saved_model.py [--tf /work/tfenv/bin/python]
        [--repeats 3] [--calls 300] [--mobilenet DIR]

For the Keras MLP and CNN fixtures (``tests/fixtures/saved_model/keras_mlp``, ``keras_cnn``,
written by TF 2.21 / Keras 3.15): a fresh process's ``import`` + ``load`` + first call of the
serving signature (the median of ``--repeats`` processes, timed inside the process from
before the import, and the whole process's wall time), then the per-call latency of the
loaded serving function at batch 1 and batch 64 (median of ``--calls`` calls after a warm-up).
The same script body runs under TensorFlow's interpreter (``--tf``) when it exists.
Last, the time ``tapeflow._protobuf`` takes to decode a MobileNetV2 ``saved_model.pb``
(``--mobilenet DIR``, or one ``model.export`` writes (1.6 MB) in a temporary directory when TF
is there).
Goals (issue 20): fresh import + load + first call <= 0.5 s; per call no slower than TF's
loaded model, at batch 1 at most 0.3x; the MobileNetV2 decode <= 100 ms.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FIX = os.path.join(ROOT, "tests", "fixtures", "saved_model")
MODELS = {"keras_mlp": ("serving_default", "inputs", (6,)),
          "keras_cnn": ("serving_default", None, (8, 8, 2))}

# Run in a fresh interpreter (tapeflow's or TF's): import, load, first call; then latency.
CHILD = r'''
import json, os, statistics, sys, time
t0 = time.perf_counter()
lib = sys.argv[1]
if lib == "tf":
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
else:
    import tapeflow as tf
import numpy as np
path, key, arg = sys.argv[2], sys.argv[3], sys.argv[4]
shape, calls = json.loads(sys.argv[5]), int(sys.argv[6])
m = tf.saved_model.load(path)
sig = m.signatures[key]
if arg == "-":
    arg = list(sig.structured_input_signature[1])[0]
x1 = tf.constant(np.ones([1] + shape, np.float32))
sig(**{arg: x1})
first = time.perf_counter() - t0
out = {"first": first}
if calls:
    for batch in (1, 64):
        x = np.random.default_rng(0).standard_normal([batch] + shape).astype(np.float32)
        x = tf.constant(x)
        for _ in range(20):
            sig(**{arg: x})
        times = []
        for _ in range(calls):
            t = time.perf_counter()
            sig(**{arg: x})
            times.append(time.perf_counter() - t)
        out[f"b{batch}"] = statistics.median(times)
print(json.dumps(out))
'''


def _child(python, lib, name, calls):
    key, arg, shape = MODELS[name]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    t = time.perf_counter()
    res = subprocess.run([python, "-c", CHILD, lib, os.path.join(FIX, name), key, arg or "-",
                          json.dumps(list(shape)), str(calls)],
                         capture_output=True, text=True, env=env, check=True)
    wall = time.perf_counter() - t
    out = json.loads(res.stdout.strip().splitlines()[-1])
    out["wall"] = wall
    return out


def _side(python, lib, name, repeats, calls):
    firsts = [_child(python, lib, name, 0) for _ in range(repeats)]
    lat = _child(python, lib, name, calls)
    return {"first": statistics.median(f["first"] for f in firsts),
            "wall": statistics.median(f["wall"] for f in firsts),
            "b1": lat["b1"], "b64": lat["b64"]}


def _mobilenet(tf_python, given):
    if given:
        return os.path.join(given, "saved_model.pb"), None
    if not tf_python:
        return None, None
    tmp = tempfile.TemporaryDirectory()
    code = ("import os; os.environ['TF_CPP_MIN_LOG_LEVEL']='3'; import tensorflow as tf, keras;"
            f"keras.applications.MobileNetV2(weights=None).export({tmp.name!r}, verbose=False)")
    subprocess.run([tf_python, "-c", code], check=True, capture_output=True)
    return os.path.join(tmp.name, "saved_model.pb"), tmp


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tf", default="/work/tfenv/bin/python")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--mobilenet", default=None)
    a = p.parse_args()
    tf_python = a.tf if a.tf and os.path.exists(a.tf) else None
    print(f"{'model':10} {'side':9} {'import+load+1st call':>21} {'process wall':>13} "
          f"{'call b=1':>10} {'call b=64':>10}")
    for name in MODELS:
        sides = [("tapeflow", sys.executable, "tapeflow")]
        if tf_python:
            sides.append(("TF 2.21", tf_python, "tf"))
        res = {}
        for label, python, lib in sides:
            r = res[label] = _side(python, lib, name, a.repeats, a.calls)
            print(f"{name:10} {label:9} {r['first'] * 1e3:18.0f} ms {r['wall'] * 1e3:10.0f} ms "
                  f"{r['b1'] * 1e6:7.0f} us {r['b64'] * 1e6:7.0f} us")
        if len(res) == 2:
            t, f = res["tapeflow"], res["TF 2.21"]
            print(f"{'':10} {'ratio':9} {t['first'] / f['first']:20.2f}x {'':13} "
                  f"{t['b1'] / f['b1']:9.2f}x {t['b64'] / f['b64']:9.2f}x")
    pb_path, tmp = _mobilenet(tf_python, a.mobilenet)
    if pb_path:
        sys.path.insert(0, os.path.join(ROOT, "src"))
        from tapeflow import _protobuf as pb
        data = open(pb_path, "rb").read()
        pb.message_types()
        times, cpu = [], []
        for _ in range(7):
            t, c = time.perf_counter(), time.process_time()
            msg = pb.decode("tensorflow.SavedModel", data)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        same = pb.encode(msg) == data
        print(f"MobileNetV2 saved_model.pb ({len(data) / 1e6:.2f} MB): decode median "
              f"{statistics.median(times) * 1e3:.0f} ms, best {min(times) * 1e3:.0f} ms "
              f"(CPU time best {min(cpu) * 1e3:.0f} ms); "
              f"re-encoded byte-equal: {same}")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
