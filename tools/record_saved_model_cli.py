#!/usr/bin/env python3
"""TF 2.21's ``saved_model_cli`` output recorded for ``python -m tapeflow.saved_model``: the
commands of ``COMMANDS`` run on TF-written fixtures of ``tests/fixtures/saved_model/``, their
stdout written to ``tests/fixtures/saved_model/cli.json`` (``{" ".join(args): stdout}``).
(TF's own ``run`` fails on the Keras fixture, a variable its Session loader cannot find, so
``run`` is recorded on the Module fixture only.)

Usage (where TF 2.21 is installed):
    TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_saved_model_cli.py
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "saved_model", "cli.json")
COMMANDS = []
for _name in ("module", "keras_mlp"):
    _d = f"tests/fixtures/saved_model/{_name}"
    COMMANDS += [["show", "--dir", _d], ["show", "--dir", _d, "--tag_set", "serve"],
                 ["show", "--dir", _d, "--tag_set", "serve", "--signature_def",
                  "serving_default"],
                 ["show", "--dir", _d, "--all"]]
COMMANDS += [["run", "--dir", "tests/fixtures/saved_model/module", "--tag_set", "serve",
              "--signature_def", "serving_default", "--input_exprs", "x=[[1.0,2.0,3.0]]"],
             ["run", "--dir", "tests/fixtures/saved_model/module", "--tag_set", "serve",
              "--signature_def", "both", "--input_exprs",
              "x=[[1.0,2.0,3.0],[0.5,-1.0,2.0]];scale=2.0"]]


def main():
    cli = os.path.join(os.path.dirname(sys.executable), "saved_model_cli")
    out = {}
    for args in COMMANDS:
        done = subprocess.run([cli, *args], capture_output=True, text=True, cwd=ROOT,
                              env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"), check=True)
        out[" ".join(args)] = done.stdout
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(out)} commands")


if __name__ == "__main__":
    main()
