"""Guide-like programs (tests/compat/programs) print under tapeflow what they print under
TensorFlow 2.21 (recorded by tools/record_compat.py); see tests/compat/compare.py
for the normalizations. Programs needing features not there yet are strict xfails."""
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "compat"))
import compare  # noqa: E402

PROGRAMS = compare.programs()


@pytest.fixture(scope="module")
def results():
    """Every program run once, two at a time (each is its own interpreter)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip([p.stem for p in PROGRAMS], pool.map(compare.check, PROGRAMS)))


def _param(program):
    reason = compare.XFAIL.get(program.stem)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(program.stem, marks=marks, id=program.stem)


@pytest.mark.parametrize("name", [_param(p) for p in PROGRAMS])
def test_program_prints_what_tensorflow_prints(name, results):
    problems, _ = results[name]
    assert not problems, "\n".join(problems[:60])


def test_every_program_has_a_recording():
    assert len(PROGRAMS) >= 10
    for program in PROGRAMS:
        assert program.with_suffix(".tf-2.21.out").read_text().strip(), program.name


@pytest.mark.parametrize("want,got,same", [
    ("tf.Tensor([0.10499358 0.25], shape=(2,)", "tf.Tensor([0.10499353 0.25], shape=(2,)", True),
    ("[[0.1407545 ]", "[[0.14075454]", True),
    ("loss: 0.5000", "loss: 0.5010", False),
    ("shape=(2, 3)", "shape=(3, 2)", False),
    ("<object at 0x7f12ab>", "<object at 0x55aa00>", True),
    ("{{function_node __wrapped__Mul_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
     "Incompatible shapes", "Incompatible shapes", True),
    ("1/1 - 0s - 12ms/step", "1/1 - 1s - 3ms/step", True),
    ("dtype=float32", "dtype=float64", False),
    ("params: 100000", "params: 100001", False),
])
def test_comparison_forgives_only_the_documented_differences(want, got, same):
    assert compare.lines_match(want, got) is same
