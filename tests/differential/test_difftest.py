"""tapeflow against TensorFlow 2.21 on the recorded random cases (issue 19).

One item per op: every recorded case of the op (``tests/fixtures/difftest/<op>.json.gz``,
drawn by ``tools/difftest/cases.py`` and recorded by ``tools/record_difftest.py``) runs under
tapeflow through ``tools/difftest/run.py``, the runner TensorFlow's answers came from; the
outputs' dtypes, shapes, values, error classes, gradients, second derivatives and forward-mode
derivatives must match TensorFlow's. Ints, bools, dtypes, shapes, error classes and nan/inf
positions exactly; floats within 8x TensorFlow's own rounding (its distance from its float64
evaluation of the same case) plus a few ulps.

Differences that ``known.py`` lists are expected (xfail, strictly): an entry whose cases no
longer differ fails the item, so the table only shrinks.
"""
import pytest

import tapeflow as tf
from tests.differential import known, replay

OPS = replay.fixture_ops()


def test_enough_cases_recorded():
    from tools.difftest import cases
    total = 0
    for op in OPS:
        total += len(replay.load(op)["cases"])
    assert total >= 20000, total
    assert set(OPS) == set(cases.SPECS), sorted(set(cases.SPECS) ^ set(OPS))


def test_known_entries_name_real_ops_and_checks():
    from tools.difftest import cases, run
    for e in known.KNOWN + known.SKIP:
        assert e.op in cases.SPECS, e.op
        assert set(e.checks) <= set(run.CHECKS), e.checks
        assert e.kind in known.KINDS, e.kind
        assert e.reason


@pytest.mark.parametrize("op", OPS)
def test_op_matches_tensorflow(op):
    data = replay.load(op)
    rep = replay.replay(tf, op, data["seed"], data["cases"])
    assert rep.cases or rep.skipped, op
    if rep.unexpected or rep.stale or rep.drift:
        pytest.fail(f"{op}: {len(rep.unexpected)} unexpected differences in {rep.cases} cases "
                    f"({rep.checks} checks)\n" + rep.message(), pytrace=False)


def test_rerecorded_cases_regenerate():
    # the cases TensorFlow answered again in a fresh process (tools/record_difftest.py
    # --rerecord-ids) replace their rows in the replay: each must still be the case drawn
    import json
    import os

    from tools.difftest import cases
    if not os.path.exists(replay.REREC):
        pytest.skip("no re-recorded cases")
    with open(replay.REREC) as f:
        stored = json.load(f)["cases"]
    assert stored
    for key, row in stored.items():
        op, seed, index = key.rsplit("|", 2)
        c = cases.cases(op, int(seed), int(index) + 1)[int(index)]
        assert row[0] == int(index) and row[1] == c.checksum(), key
        assert replay.rerecorded(op, int(seed))[int(index)] is row or \
            replay.rerecorded(op, int(seed))[int(index)] == row, key
