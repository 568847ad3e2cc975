"""Record TensorFlow 2.21's answers to the ``tf.function`` cases of tests/function/cases.py.

Run where TensorFlow is installed, from the project's root:

    /work/tfvenv/bin/python tools/record_function.py

Writes tests/fixtures/function/cases.json (each case's JSON result, or its exception) and,
for the programs in tests/function/programs/, ``NAME.tf-2.21.out``: what the program printed to
stdout and stderr under ``import tensorflow as tf``. tapeflow is never imported.
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.function import cases as function_cases  # noqa: E402


def main(only=()):
    """Record every case and program, or with case names given only those cases (merged
    into the existing cases.json; the programs are left as they are); a name ending in
    ``.py`` records only that program."""
    programs_only = [n for n in only if n.endswith(".py")]
    if programs_only:
        return record_programs(programs_only)
    out_dir = ROOT / "tests" / "fixtures" / "function"
    out_dir.mkdir(parents=True, exist_ok=True)
    results = {"_recorded_with": f"tensorflow {tf.__version__}, numpy {np.__version__}"}
    if only:
        results = json.loads((out_dir / "cases.json").read_text())
    for name, fn in function_cases.CASES.items():
        if only and name not in only:
            continue
        try:
            results[name] = fn(tf)
        except Exception as exc:  # noqa: BLE001 - recorded as the answer
            results[name] = {"_raised": type(exc).__name__, "text": str(exc).split("\n")[0]}
        print(name, json.dumps(results[name])[:150])
    (out_dir / "cases.json").write_text(json.dumps(results, indent=1) + "\n")
    if only:
        return
    record_programs()


def record_programs(names=()):
    out_dir = ROOT / "tests" / "fixtures" / "function"
    programs = ROOT / "tests" / "function" / "programs"
    tmp = Path(tempfile.mkdtemp())
    for path in sorted(programs.glob("*.py")):
        if names and path.name not in names:
            continue
        # AutoGraph reads the source: the program runs from a file of its own.
        src = path.read_text().replace("import tapeflow as tf", "import tensorflow as tf")
        (tmp / path.name).write_text(src)
        proc = subprocess.run([sys.executable, str(tmp / path.name)], capture_output=True,
                              text=True, cwd=str(tmp), timeout=300,
                              env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
        err = "\n".join(ln for ln in proc.stderr.splitlines()
                        if not ln.startswith(("WARNING: All log messages", "E0000", "I0000",
                                              "W0000")))
        text = f"# stdout\n{proc.stdout}# stderr\n{err}\n"
        (out_dir / f"{path.stem}.tf-2.21.out").write_text(text)
        print(path.name, "recorded")


if __name__ == "__main__":
    main(sys.argv[1:])
