"""Replay recorded TensorFlow answers under tapeflow and sort the differences.

``replay(op, seed, rows)`` regenerates the op's cases from the seed, runs each under tapeflow
with the runner TensorFlow's answers were recorded with (``tools/difftest/run.py``), compares
them, and splits the differences into those ``known.py`` explains and the rest. Used by
``test_difftest.py`` (rows from the fixtures) and ``tools/difftest/sweep.py`` (rows fresh
from TensorFlow).
"""
import gzip
import json
import os
import sys
from dataclasses import dataclass, field

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.differential import known  # noqa: E402
from tools.difftest import cases, run  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "fixtures", "difftest")
# cases TensorFlow answered again alone in a fresh process (tools/record_difftest.py
# --rerecord-ids): the long recording process had carried state into them
REREC = os.path.join(FIXTURES, "rerecorded.json")
_rerecorded = {}


def rerecorded(op, seed):
    """``{index: row}`` of the re-recorded cases of ``(op, seed)``; they replace the
    original record's rows."""
    if not _rerecorded:
        _rerecorded[None] = None
        if os.path.exists(REREC):
            with open(REREC) as f:
                for key, row in json.load(f)["cases"].items():
                    o, s, i = key.rsplit("|", 2)
                    _rerecorded.setdefault((o, int(s)), {})[int(i)] = row
    return _rerecorded.get((op, int(seed)), {})


def fixture_ops():
    if not os.path.isdir(FIXTURES):
        return []
    return sorted(f[:-len(".json.gz")] for f in os.listdir(FIXTURES) if f.endswith(".json.gz"))


def load(op):
    with gzip.open(os.path.join(FIXTURES, op + ".json.gz"), "rt") as f:
        return json.load(f)


@dataclass
class Report:
    op: str
    cases: int = 0
    checks: int = 0
    skipped: int = 0
    drift: list = field(default_factory=list)
    known: list = field(default_factory=list)  # (case, check, message, entry)
    unexpected: list = field(default_factory=list)  # (case, check, message)
    stale: list = field(default_factory=list)  # entries that matched cases but no difference

    def message(self, limit=25):
        lines = []
        if self.drift:
            lines.append(f"{len(self.drift)} cases no longer regenerate the recorded inputs "
                         f"(re-record with tools/record_difftest.py): {self.drift[:5]}")
        for c, check, msg in self.unexpected[:limit]:
            lines.append(f"[{check}] {c.key} {c.describe()[:160]}: {msg}")
        if len(self.unexpected) > limit:
            lines.append(f"... and {len(self.unexpected) - limit} more")
        for e in self.stale:
            lines.append(f"known.py entry no longer differs (delete it): {e.op} {e.checks} "
                         f"{e.when_name}: {e.reason}")
        return "\n".join(lines)


def replay(tf, op, seed, rows):
    """``rows``: ``[index, checksum, encoded result, bounds]`` as the fixtures store them;
    a re-recorded case (``rerecorded``) replaces its row."""
    over = rerecorded(op, seed)
    if over:
        rows = [over.get(r[0], r) for r in rows]
    spec = cases.SPECS[op]
    by_index = {c.index: c for c in cases.cases(op, seed, max(r[0] for r in rows) + 1)}
    entries = known.entries_for(op)
    hits = {id(e): 0 for e in entries}
    matched = {id(e): 0 for e in entries}
    rep = Report(op)
    for index, checksum, res, b in rows:
        c = by_index[index]
        if res.get("crash"):
            rep.skipped += 1
            continue
        if c.checksum() != checksum:
            rep.drift.append(c.key)
            continue
        if known.skipped(c):
            rep.skipped += 1
            continue
        want = run.decode(res)
        with np.errstate(all="ignore"):
            got = run.run_case(tf, c, spec=spec)
        errs = {k: run.dec_arr(v) for k, v in b.items()}
        n, diffs = run.compare(want, got, errs)
        rep.cases += 1
        rep.checks += n
        applicable = [e for e in entries if e.matches(c)]
        for e in applicable:
            matched[id(e)] += 1
        for check, msg in diffs:
            explaining = [e for e in applicable if check in e.checks]
            if not explaining:
                rep.unexpected.append((c, check, msg))
                continue
            for e in explaining:
                hits[id(e)] += 1
            rep.known.append((c, check, msg, explaining[0]))
    rep.stale = [e for e in entries if matched[id(e)] and not hits[id(e)] and not e.random]
    return rep
