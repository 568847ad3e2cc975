"""Record what TensorFlow 2.21 / Keras 3 raise for the programs of tests/errors_cases.py.

Run with the TensorFlow venv from the repository root:
    /work/tfvenv/bin/python tools/record_errors.py
Writes tests/fixtures/errors/errors.json: per case the exception's module and class and its
message (TensorFlow's ``{{function_node ...}}`` prefix removed), or, when the program runs,
what it printed. tapeflow itself never imports TensorFlow.
"""
import contextlib
import io
import json
import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from tests.errors_cases import CASES  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "errors",
                   "errors.json")
_PREFIX = re.compile(r"\{\{function_node [^}]*\}\} ")


def run(code):
    tf.keras.backend.clear_session()
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(code, {"tf": tf, "np": np})
    except Exception as e:  # noqa: BLE001 - the point is to record any of them
        cls = type(e)
        kind = "OpError" if isinstance(e, tf.errors.OpError) else cls.__module__
        text = e.message if isinstance(e, tf.errors.OpError) else str(e)
        return {"error": cls.__name__, "kind": kind, "message": _PREFIX.sub("", text)}
    return {"stdout": out.getvalue()}


def main():
    cases = {}
    for name, code, how in CASES:
        cases[name] = dict(run(code), how=how)
        print(f"{name:45s} {cases[name].get('error', 'ok')}")
    data = {"_recorded_with": f"tensorflow {tf.__version__}, keras {tf.keras.__version__}, "
                              f"numpy {np.__version__}", "cases": cases}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
