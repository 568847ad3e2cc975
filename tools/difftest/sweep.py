"""The larger sweep: fresh cases against TensorFlow, differences not in ``known.py`` by op.

    PYTHONPATH=src nice -n 19 python -m tools.difftest.sweep [--seeds 1,2] [--scale 1]
        [--jobs 2] [--tf /work/tfenv/bin/python] [op ...]

For each seed (default: every seed of ``tools/difftest/SEEDS`` after the first, the recorded
one), TensorFlow answers the cases in worker processes (``tools/record_difftest.py --out`` a
scratch directory, never the fixtures), then this process replays them under tapeflow with
the test's comparison and prints the counts: cases, checks, differences ``known.py``
explains, and the rest by op and kind (``tools/difftest/triage.py`` turns those into
entries).

The recording is the slow part (TensorFlow answers ~10 cases a second) and does not depend
on tapeflow, so it can be done once, in the background and across sessions, and replayed
against later tapeflow:

    for s in 1 2 3 4 5; do TF_CPP_MIN_LOG_LEVEL=2 nice -n 19 /work/tfenv/bin/python \
        tools/record_difftest.py --seed $s --out /work/sweep/seed-$s --missing; done
    PYTHONPATH=src python -m tools.difftest.sweep --recorded /work/sweep
"""
import argparse
import collections
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tf", default="/work/tfenv/bin/python")
    ap.add_argument("--recorded", help="replay TensorFlow's answers already recorded under "
                    "DIR/seed-<seed>/ (record_difftest.py --out) instead of recording")
    ap.add_argument("--ids", help="also write every difference not in known.py to FILE, one "
                    "line each: case id (op|seed|index), check, kind, message (the input of "
                    "tools/record_difftest.py --rerecord-ids)")
    ap.add_argument("ops", nargs="*")
    a = ap.parse_args()
    import tapeflow as tf
    from tests.differential import known, replay
    from tools.difftest import cases, triage
    seeds = [int(s) for s in a.seeds.split(",")] if a.seeds else None
    if seeds is None:
        with open(os.path.join(ROOT, "tools", "difftest", "SEEDS")) as f:
            seeds = [int(x.split("#")[0]) for x in f if x.split("#")[0].strip()][1:]
    ops = a.ops or cases.all_ops()
    totals = collections.Counter()
    by_op = collections.Counter()
    by_kind = collections.Counter()
    known_kind = collections.Counter()
    examples = {}
    id_lines = []
    t0 = time.time()
    for seed in seeds:
        if a.recorded:
            out = os.path.join(a.recorded, f"seed-{seed}")
        else:
            out = tempfile.mkdtemp(prefix=f"difftest-sweep-{seed}-")
            env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH="")
            subprocess.run([a.tf, os.path.join(ROOT, "tools", "record_difftest.py"), "--seed",
                            str(seed), "--scale", str(a.scale), "--jobs", str(a.jobs),
                            "--out", out] + ops, env=env, check=True,
                           stdout=subprocess.DEVNULL)
        for op in ops:
            path = os.path.join(out, op + ".json.gz")
            if not os.path.exists(path):
                totals["ops missing"] += 1
                continue
            with gzip.open(path, "rt") as f:
                data = json.load(f)
            rep = replay.replay(tf, op, seed, data["cases"])
            totals["cases"] += rep.cases
            totals["checks"] += rep.checks
            totals["skipped"] += rep.skipped
            totals["known"] += len(rep.known)
            totals["unexpected"] += len(rep.unexpected)
            for _, _, _, e in rep.known:
                known_kind[e.kind] += 1
            for c, check, msg in rep.unexpected:
                kind = triage.kind_of(check, msg, "empty" if known.has_empty(c) else "other")
                by_op[(op, kind)] += 1
                by_kind[kind] += 1
                examples.setdefault((op, kind), f"{c.key} [{check}] {msg[:100]}")
                id_lines.append(f"{c.key}\t{check}\t{kind}\t{msg[:200]}")
        if not a.recorded:
            shutil.rmtree(out, ignore_errors=True)
        print(f"seed {seed} done at {time.time() - t0:.0f}s: {dict(totals)}", flush=True)
    print(f"\nsweep over seeds {seeds}, scale {a.scale}: {totals['cases']} cases, "
          f"{totals['checks']} checks, {totals['known']} differences known.py explains, "
          f"{totals['unexpected']} not in known.py, {totals['skipped']} skipped, "
          f"{time.time() - t0:.0f}s")
    print("known differences by kind:", dict(known_kind.most_common()))
    print("differences not in known.py by kind:", dict(by_kind.most_common()))
    for (op, kind), n in by_op.most_common():
        print(f"  {n:5d}  {op:45s} {kind:20s} {examples[(op, kind)]}")
    if a.ids:
        with open(a.ids, "w") as f:
            f.writelines(line + "\n" for line in id_lines)


if __name__ == "__main__":
    main()
