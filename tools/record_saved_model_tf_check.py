#!/usr/bin/env python3
"""TF 2.21 checks tapeflow's SavedModels: for each case of
``tests/saved_model/tf_check_cases.py``, tapeflow (the system python, a subprocess) saves the
case's module and runs its calls; TensorFlow loads the directory (``tf.saved_model.load``),
runs the same calls and gradients, and ``saved_model_cli show --all`` must accept it. Written
to ``tests/fixtures/saved_model/tf_check.json``: per case the sha256 of tapeflow's
``saved_model.pb`` (the bytes TF judged), tapeflow's and TF's outputs and gradients, and
TF's verdict. Exits 1 when TF's numbers differ from tapeflow's (1e-5).

Usage (where TF 2.21 is installed):
    TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_saved_model_tf_check.py [CASE...]

With case names, only those are recorded again (the others kept from the fixture).
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "tests", "fixtures", "saved_model", "tf_check.json")
SYSTEM_PYTHON = os.environ.get("TAPEFLOW_PYTHON", "python")  # the system python (not tfenv)


def tapeflow_subprocess(name, directory, export_dir):
    code = ("import json, sys; from tests.saved_model.tf_check_cases import tapeflow_side; "
            "print(json.dumps(tapeflow_side(*sys.argv[1:])))")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src") + os.pathsep + ROOT)
    # tfenv's bin directory first on PATH would find its python: drop it
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if os.path.dirname(sys.executable) != p)
    done = subprocess.run([SYSTEM_PYTHON, "-c", code, name, directory, export_dir,
                           export_dir + "_again"],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if done.returncode:
        raise RuntimeError(f"tapeflow failed on {name}:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def close(a, b, tol=1e-5):
    if isinstance(a, list) != isinstance(b, list):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def main():
    import tensorflow as tf

    from tests.saved_model.tf_check_cases import CASES, run_calls
    cli = os.path.join(os.path.dirname(sys.executable), "saved_model_cli")
    out, bad = {}, []
    only = sys.argv[1:]
    if only:
        with open(OUT) as fh:
            out = json.load(fh)["cases"]
    with tempfile.TemporaryDirectory() as d:
        for name in only or CASES:
            export_dir = os.path.join(d, name)
            ours = tapeflow_subprocess(name, d, export_dir)
            loaded = tf.saved_model.load(export_dir)
            case_ns = _calls_of(name, d)
            theirs, grads = run_calls(tf, loaded, case_ns, ours["var_paths"])
            show = subprocess.run([cli, "show", "--dir", export_dir, "--all"],
                                  capture_output=True, text=True, check=False)
            # the export tapeflow wrote after loading its own: TF computes the same again
            again = tf.saved_model.load(export_dir + "_again")
            theirs2, grads2 = run_calls(tf, again, case_ns, ours["var_paths"])
            serve = None
            if case_ns.get("SERVE"):
                run = subprocess.run([cli, "run", "--dir", export_dir, "--tag_set", "serve",
                                      "--signature_def", "serving_default", "--input_exprs",
                                      case_ns["SERVE"]], capture_output=True, text=True,
                                     check=False)
                serve = {"ok": run.returncode == 0,
                         "result": [ln for ln in run.stdout.splitlines() if ln.strip()]}
                if run.returncode:
                    print(run.stderr[-2000:])
            ok = close(ours["outputs"], theirs) and close(ours["grads"], grads) and \
                close(ours["loaded_outputs"], theirs2) and close(ours["loaded_grads"], grads2)
            if not ok:
                bad.append(name)
            out[name] = {"sha256": ours["sha256"], "tapeflow_outputs": ours["outputs"],
                         "tapeflow_grads": ours["grads"], "tf_outputs": theirs,
                         "tf_grads": grads, "var_paths": ours["var_paths"],
                         "resave_sha256": ours["resave_sha256"],
                         "tapeflow_loaded_outputs": ours["loaded_outputs"],
                         "tf_resaved_outputs": theirs2, "tf_resaved_grads": grads2,
                         "saved_model_cli_show_ok": show.returncode == 0,
                         "saved_model_cli_run": serve,
                         "signatures": sorted(loaded.signatures.keys())}
            print(f"{name}: {'agrees' if ok else 'DIFFERS'}; saved_model_cli show "
                  f"{'ok' if show.returncode == 0 else 'FAILED: ' + show.stderr[-300:]}")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as fh:
        json.dump({"tf_version": tf.__version__, "cases": out}, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {OUT}")
    return 1 if bad else 0


def _calls_of(name, directory):
    """The case's CALLS, GRADS, INPUT_GRADS and SERVE, read without running its module code
    under TF."""
    import ast

    from tests.saved_model.tf_check_cases import CASES
    tree = ast.parse(CASES[name])
    ns = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in ("CALLS", "GRADS", "SERVE", "INPUT_GRADS")
                for t in node.targets):
            exec(compile(ast.Module([node], []), name, "exec"), ns)
    return ns


if __name__ == "__main__":
    sys.exit(main())
