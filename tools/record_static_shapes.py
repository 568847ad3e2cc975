"""Record what TensorFlow 2.21 prints for the static-shape programs of
tests/function/static_shapes_cases.py (shapes inside ``tf.function`` traces with unknown
dimensions).

Run where TensorFlow is installed, from the project's root:

    /work/tfenv/bin/python tools/record_static_shapes.py

Writes tests/fixtures/static_shapes.json: per case, the lines it printed (or the exception
it raised). tapeflow is never imported.
"""
import contextlib
import io
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.function.static_shapes_cases import CASES  # noqa: E402


def run(fn, tf_module):
    """The lines ``fn(tf_module)`` prints, then ``!raised Name`` if it raised."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            fn(tf_module)
        except Exception as exc:  # noqa: BLE001 - recorded as the answer
            print(f"!raised {type(exc).__name__}")
    return out.getvalue().splitlines()


def main():
    results = {"_recorded_with": f"tensorflow {tf.__version__}, keras {tf.keras.__version__}"}
    for name, fn in CASES.items():
        results[name] = run(fn, tf)
        print(name, results[name])
    path = ROOT / "tests" / "fixtures" / "static_shapes.json"
    path.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
