"""Record Keras 3.15.1's ``keras.config`` answers for tapeflow's tests.

Run from the repository root with the TensorFlow venv:
    /work/tfenv/bin/python tools/record_keras_config.py [case ...]
Each case of ``tests/keras/config_cases.py`` runs in a fresh process (Keras's settings are
process-wide and its dtype policy is fixed on first read), with the case's environment;
writes ``tests/fixtures/keras/config.json``.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "tests", "fixtures", "keras", "config.json")
CHILD = """
import json, os, sys
sys.path.insert(0, {root!r})
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import keras
from tests.keras import config_cases
print("@@" + json.dumps(config_cases.run_case(keras, {name!r})))
"""


def main():
    sys.path.insert(0, ROOT)
    from tests.keras import config_cases
    only = set(sys.argv[1:])   # re-record these cases only (default: all)
    results = {}
    if only and os.path.exists(OUT):
        with open(OUT) as f:
            results = json.load(f)["cases"]
    for name, spec in config_cases.CASES.items():
        if only and name not in only:
            continue
        env = dict(os.environ, **spec["env"])
        env.pop("KERAS_BACKEND", None)
        proc = subprocess.run([sys.executable, "-c", CHILD.format(root=ROOT, name=name)],
                              capture_output=True, text=True, env=env, cwd="/tmp")
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("@@")]
        if proc.returncode or not lines:
            raise SystemExit(f"case {name} failed:\n{proc.stdout}\n{proc.stderr}")
        results[name] = json.loads(lines[-1][2:])
        print(name, "ok")
    import keras
    with open(OUT, "w") as f:
        json.dump({"keras": keras.__version__, "cases": results}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
