"""Record TensorFlow 2.21's answers to the programs of tests/core/tensor_types_cases.py.

Run where TensorFlow is installed, from the project's root:

    /work/tfvenv/bin/python tools/record_core_tensor_types.py

Writes tests/fixtures/core/tensor_types/<group>.json: for each program, the printed forms of its
value (groups in ``PRINTED``) or its numbers (groups in ``VALUES``), or the exception class
and first message line. tapeflow is never imported.
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

from tests.core import tensor_types_cases as cases  # noqa: E402


def main():
    out_dir = ROOT / "tests" / "fixtures" / "core" / "tensor_types"
    out_dir.mkdir(parents=True, exist_ok=True)
    for group, programs in cases.GROUPS.items():
        how = cases.values if group in cases.VALUES else cases.describe
        if group in cases.STDOUT:
            recorded = {code: cases.stdout(code, tf, np) for code in programs}
        else:
            recorded = {code: cases.evaluate(code, tf, np, how) for code in programs}
        answers = {
            "_recorded_with": f"tensorflow {tf.__version__}, numpy {np.__version__}",
            "cases": recorded,
        }
        path = out_dir / f"{group}.json"
        path.write_text(json.dumps(answers, indent=1, ensure_ascii=False) + "\n")
        print(f"{path.relative_to(ROOT)}: {len(programs)} cases")


if __name__ == "__main__":
    main()
