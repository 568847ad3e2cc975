"""Record TensorFlow 2.21's answers to the cases of tests/core/tensor_cases.py.

Run where TensorFlow is installed, from the project's root:

    /work/tfenv/bin/python tools/record_core_tensor.py

Writes tests/fixtures/core/<group>.json: for each case expression, its printed forms (or
Python repr), or the exception class and first message line. tapeflow is never imported.
"""
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.core import tensor_cases as core_cases  # noqa: E402


def main():
    out_dir = ROOT / "tests" / "fixtures" / "core" / "tensor"
    out_dir.mkdir(parents=True, exist_ok=True)
    for group, cases in core_cases.GROUPS.items():
        answers = {
            "_recorded_with": f"tensorflow {tf.__version__}, numpy {np.__version__}",
            "cases": {expr: core_cases.evaluate(expr, tf, np) for expr in cases},
        }
        path = out_dir / f"{group}.json"
        path.write_text(json.dumps(answers, indent=1, ensure_ascii=False) + "\n")
        print(f"{path.relative_to(ROOT)}: {len(cases)} cases")


if __name__ == "__main__":
    main()
