#!/usr/bin/env python3
"""Keras 3.15 ``model.export`` recorded, and TF 2.21 checks tapeflow's ``model.export``.

For each case of ``tests/saved_model/keras_export_cases.py`` (a Dense MLP, a small CNN):
Keras builds the model with the case's weights, ``model.export(dir)`` prints its endpoint
listing (recorded, ids and path normalized), TF loads the directory and calls ``serve`` on the
case's input (recorded, with the signature keys and variable counts). Then tapeflow (the
system python, a subprocess) builds the same model and exports it; TF loads tapeflow's
directory, calls ``serve`` and ``signatures['serving_default']`` and compares with tapeflow's
own numbers (1e-5): the verdict and the sha256 of tapeflow's ``saved_model.pb`` are recorded.
Written to ``tests/fixtures/saved_model/keras_export.json``; exits 1 on a mismatch.

Usage (where TF 2.21 is installed):
    TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_keras_export.py
"""
import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "tests", "fixtures", "saved_model", "keras_export.json")
SYSTEM_PYTHON = os.environ.get("TAPEFLOW_PYTHON", "python")  # the system python (not tfenv)

TAPEFLOW_SIDE = """
import contextlib, io, json, sys
import tapeflow as tf
from tests.saved_model.keras_export_cases import build, inputs
name, path = sys.argv[1:]
model = build(tf.keras, name)
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    model.export(path)
print(json.dumps({"listing": buf.getvalue(), "out": model(inputs(name)).numpy().tolist()}))
"""


def tapeflow_subprocess(name, path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src") + os.pathsep + ROOT)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if os.path.dirname(sys.executable) != p)
    done = subprocess.run([SYSTEM_PYTHON, "-c", TAPEFLOW_SIDE, name, path], capture_output=True,
                          text=True, env=env, cwd=ROOT, check=False)
    if done.returncode:
        raise RuntimeError(f"tapeflow failed on {name}:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    import keras
    import tensorflow as tf

    from tests.saved_model.keras_export_cases import CASES, build, inputs, normalize_listing
    out, bad = {"keras": keras.__version__, "tensorflow": tf.__version__}, []
    with tempfile.TemporaryDirectory() as d:
        for name in CASES:
            x = inputs(name)
            path = os.path.join(d, "keras_" + name)
            model = build(keras, name)
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                model.export(path)
            loaded = tf.saved_model.load(path)
            rec = {
                "listing": normalize_listing(buf.getvalue(), path),
                "signatures": sorted(loaded.signatures.keys()),
                "n_variables": len(loaded.variables),
                "n_trainable": len(loaded.trainable_variables),
                "n_non_trainable": len(loaded.non_trainable_variables),
                "input_signature": repr(
                    loaded.signatures["serving_default"].structured_input_signature),
                "outputs": repr(loaded.signatures["serving_default"].structured_outputs),
                "serve": loaded.serve(x).numpy().tolist(),
                "model": model(x).numpy().tolist(),
            }
            mine = os.path.join(d, "tapeflow_" + name)
            ours = tapeflow_subprocess(name, mine)
            theirs = tf.saved_model.load(mine)
            got = theirs.serve(tf.constant(x)).numpy()
            sig = theirs.signatures["serving_default"]
            key = next(iter(sig.structured_input_signature[1]))
            got_sig = sig(**{key: tf.constant(x)})["output_0"].numpy()
            ok = (np.allclose(got, ours["out"], rtol=1e-5, atol=1e-5)
                  and np.allclose(got_sig, ours["out"], rtol=1e-5, atol=1e-5)
                  and len(theirs.trainable_variables) == rec["n_trainable"]
                  and len(getattr(theirs, "non_trainable_variables", [None]))
                  == rec["n_non_trainable"])
            with open(os.path.join(mine, "saved_model.pb"), "rb") as f:
                sha = hashlib.sha256(f.read()).hexdigest()
            rec["tapeflow_check"] = {
                "sha256": sha, "tf_serve": got.tolist(), "tf_serving_default": got_sig.tolist(),
                "tapeflow": ours["out"], "tf_n_trainable": len(theirs.trainable_variables),
                "tf_n_non_trainable": len(getattr(theirs, "non_trainable_variables", [None])),
                "tapeflow_listing": normalize_listing(ours["listing"], mine), "ok": bool(ok)}
            if not ok:
                bad.append(name)
            out[name] = rec
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}; mismatches: {bad or 'none'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
