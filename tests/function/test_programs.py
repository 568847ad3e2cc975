"""The programs of tests/function/programs/ print what they printed under TensorFlow 2.21
(tools/record_function.py recorded ``NAME.tf-2.21.out``); object addresses aside."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
PROGRAMS = sorted((HERE / "programs").glob("*.py"))
SRC = str(HERE.parents[1] / "src")


def _normalize(text):
    # tapeflow adds one line of its own to TensorFlow's retracing warning (which argument
    # changed, how to fix it): the rest must match.
    text = "".join(ln for ln in text.splitlines(True) if not ln.startswith("WARNING:tapeflow:"))
    return re.sub(r"0x[0-9a-f]+", "0x…", text)


def _run(path):
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          cwd=str(path.parent), env=env, timeout=120)
    return f"# stdout\n{proc.stdout}# stderr\n{proc.stderr}"


_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def _same(ours, theirs):
    """Equal text, where decimal numbers may differ in float32's last digits (summation
    order differs between NumPy and TensorFlow's kernels)."""
    a, b = _NUMBER.split(ours), _NUMBER.split(theirs)
    if a != b:
        return False
    return all(abs(float(x) - float(y)) <= 1e-5 * max(1.0, abs(float(y)))
               for x, y in zip(_NUMBER.findall(ours), _NUMBER.findall(theirs)))


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_what_tensorflow_printed(path):
    expected = _normalize((HERE.parent / "fixtures" / "function" / f"{path.stem}.tf-2.21.out")
                          .read_text()).rstrip()
    ours = _normalize(_run(path)).rstrip()
    if not _same(ours, expected):
        assert ours == expected


def test_a_dataset_epoch_inside_a_function_peaks_like_eager():
    """The course's whole-epoch-in-one-function pattern: same result, and the traced run's
    peak memory within 1.1x of the eager run's (the loop body replays per element; nothing
    is kept per step)."""
    script = HERE / "memory" / "epoch_memory.py"
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    runs = {}
    for mode in ("eager", "function"):
        out = subprocess.run([sys.executable, str(script), mode], capture_output=True,
                             text=True, env=env, timeout=120, check=True).stdout.split()
        runs[mode] = (float(out[1]), float(out[-1]))
    assert abs(runs["eager"][0] - runs["function"][0]) <= 1e-3 * abs(runs["eager"][0])
    assert runs["function"][1] <= 1.1 * runs["eager"][1], runs
