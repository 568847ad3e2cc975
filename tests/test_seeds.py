"""The seed programs print exactly what TensorFlow 2.21 printed (../shared/tools/check_seeds.py).

The seeds live beside the project, in ``<repo root>/../shared`` (or where the environment
variable ``TAPEFLOW_SHARED`` points, e.g. from a git worktree); without them the test is
skipped. seed002_train_loop, seed003 and seed004 use tf.keras and tf.data, so this test fails
until those exist: it is never skipped for a failing seed.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TAPEFLOW_SHARED", ROOT.parent / "shared"))
CHECK = SHARED / "tools" / "check_seeds.py"


@pytest.mark.skipif(not CHECK.is_file(), reason=f"no seed programs: {CHECK} is absent")
def test_seed_programs_print_what_tensorflow_printed():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src")] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    proc = subprocess.run([sys.executable, str(CHECK)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=900)
    lines = proc.stdout.strip().splitlines()
    ok = proc.returncode == 0 and bool(lines) and lines[-1].endswith(" 0 failed")
    assert ok, f"check_seeds.py:\n{proc.stdout}{proc.stderr[-2000:]}"
