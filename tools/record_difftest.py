"""Record TensorFlow 2.21's answers to the differential cases into tests/fixtures/difftest/.

Run with TensorFlow installed (tapeflow is never imported here):

    TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_difftest.py [--jobs 2] [op ...]

For every op of ``tools/difftest/cases.py`` it draws the op's cases from the seed in
``tools/difftest/SEEDS`` (first line), runs each with ``tools/difftest/run.py::run_case``
under TensorFlow, and again with float16/float32 inputs promoted to float64; it stores per
case the index, a checksum of the inputs (the cases regenerate from the seed) and TF's result,
plus the per-element distance ``|tf - tf64|`` the replay test allows rounding from.

Worker processes (``--jobs``) each take a share of the ops and append one JSON line per case
to a scratch file, so a case that kills TensorFlow (an abort in a kernel) is marked
``crash`` and the worker restarts after it. Output: ``<op>.json.gz`` per op.

Re-recording (``--rerecord-ids FILE [--out DIR] [--recorded DIR]``): a long recording
process can carry TensorFlow state from one case to the next (a case then raises where TF
alone answers). Each case id of FILE (``op|seed|index``, one a line, the rest of the line
and ``#`` comments ignored: the ``--ids`` output of ``tools/difftest/sweep.py`` works) is
recorded alone in a fresh TensorFlow process, twice (an answer that changes between fresh
processes, uninitialised memory, is not stored), and stored in ``DIR/rerecorded.json`` (default
``tests/fixtures/difftest/``), which the replay (``tests/differential/replay.py``: the
seed-0 test and the sweep) reads in preference to the original record. With ``--recorded``
(the sweep's ``/work/sweep``; seed 0's fixtures otherwise) a case whose fresh answer is the
original one is reported and not stored: TF's own behaviour, not the recorder's.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "tests", "fixtures", "difftest")
SEEDS = os.path.join(ROOT, "tools", "difftest", "SEEDS")


def read_seeds():
    with open(SEEDS) as f:
        return [int(line.split("#")[0]) for line in f if line.split("#")[0].strip()]


def fixture_name(op, out=None):
    return os.path.join(out or OUT, op + ".json.gz")


def count(op, scale=1.0):
    from tools.difftest import cases
    return max(1, int(round((cases.SPECS[op].n or cases.DEFAULT_N) * scale)))


def record_one(tf, c):
    """``[index, checksum, encoded result, bounds]`` of case ``c`` under TensorFlow ``tf``:
    a fixture row."""
    import numpy as np

    from tools.difftest import run
    with np.errstate(all="ignore"):
        res = run.run_case(tf, c)
        res64 = None
        low = ("float16", "float32", "complex64")
        if "err" not in res and any(d in low for d in c.dtypes()):
            res64 = run.run_case(tf, c, promote=True)
        b = run.bounds(res, res64)
    return [c.index, c.checksum(), run.encode(res), b]


def worker(scratch, seed, jobs, scale=1.0):
    """Run ``jobs`` (``op`` or ``op@start``) under TensorFlow, one JSON line per case."""
    import warnings

    import tensorflow as tf

    from tools.difftest import cases
    warnings.filterwarnings("ignore")
    tf.get_logger().setLevel("ERROR")
    for job in jobs:
        op, _, start = job.partition("@")
        start = int(start or 0)
        path = os.path.join(scratch, op + ".jsonl")
        with open(path, "a") as f:
            for c in cases.cases(op, seed, count(op, scale))[start:]:
                f.write(json.dumps({"i": c.index, "start": True}) + "\n")
                f.flush()
                _, checksum, res, b = record_one(tf, c)
                f.write(json.dumps({"i": c.index, "c": checksum, "r": res, "b": b}) + "\n")
                f.flush()
            f.write(json.dumps({"done": True}) + "\n")


def finish_partial(scratch, seed, scale=1.0, out_dir=None):
    """Write the fixtures of every op of a scratch directory, done or not (an interrupted
    recording keeps the cases it has: case ``i`` does not depend on how many are drawn)."""
    for name in sorted(os.listdir(scratch)):
        if name.endswith(".jsonl"):
            _finish(scratch, name[:-len(".jsonl")], seed, scale, out_dir)


def _state(path):
    """(done, last started index without a result) of a scratch file."""
    done, started, finished = False, None, set()
    if not os.path.exists(path):
        return False, None
    with open(path) as f:
        for line in f:
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if d.get("done"):
                done = True
            elif d.get("start"):
                started = d["i"]
            else:
                finished.add(d["i"])
    pending = started if started is not None and started not in finished else None
    return done, pending


def _finish(scratch, op, seed, scale=1.0, out_dir=None):
    from tools.difftest import cases
    rows = {}
    with open(os.path.join(scratch, op + ".jsonl")) as f:
        for line in f:
            d = json.loads(line)
            if "r" in d or "crash" in d:
                rows[d["i"]] = d
    n = max([count(op, scale)] + [i + 1 for i in rows])
    cs = cases.cases(op, seed, n)
    old = {}
    if os.path.exists(fixture_name(op, out_dir)):
        with gzip.open(fixture_name(op, out_dir), "rt") as f:
            prev = json.load(f)
        if prev["seed"] == seed:
            old = {row[0]: row for row in prev["cases"]}
    out = []
    for c in cs:
        d = rows.get(c.index)
        if d is None:
            if c.index in old:
                out.append(old[c.index])
            continue
        if "crash" in d:
            out.append([c.index, c.checksum(), {"crash": True}, {}])
        else:
            out.append([c.index, d["c"], d["r"], d["b"]])
    import tensorflow as tf  # noqa: F401 - the version stamp only
    data = {"op": op, "seed": seed, "n": len(out), "tf": tf.__version__, "cases": out}
    os.makedirs(out_dir or OUT, exist_ok=True)
    with gzip.open(fixture_name(op, out_dir), "wt", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"))


def master(ops, nproc, seed, scale=1.0, out_dir=None, quiet=False):
    scratch = tempfile.mkdtemp(prefix="difftest-")
    weights = {op: count(op.partition("@")[0], scale) - int(op.partition("@")[2] or 0)
               for op in ops}
    shares = [[] for _ in range(nproc)]
    loads = [0] * nproc
    for op in sorted(ops, key=lambda o: -weights[o]):
        j = loads.index(min(loads))
        shares[j].append(op)
        loads[j] += weights[op]
    queue = [list(s) for s in shares if s]
    procs = {}
    t0 = time.time()

    def launch(jobs):
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", scratch, "--seed",
               str(seed), "--scale", str(scale)] + jobs
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    for jobs in queue:
        procs[launch(jobs)] = jobs
    stalls = {}   # op -> workers that ended on it before starting a case (its drawer fails)
    while procs:
        time.sleep(0.5)
        for p, jobs in list(procs.items()):
            if p.poll() is None:
                continue
            del procs[p]
            rest = []
            for k, job in enumerate(jobs):
                op = job.partition("@")[0]
                done, pending = _state(os.path.join(scratch, op + ".jsonl"))
                if done:
                    _finish(scratch, op, seed, scale, out_dir)
                    continue
                if pending is not None:
                    with open(os.path.join(scratch, op + ".jsonl"), "a") as f:
                        f.write(json.dumps({"i": pending, "crash": True}) + "\n")
                    print(f"  {op} case {pending}: TensorFlow crashed", flush=True)
                    rest.append(f"{op}@{pending + 1}")
                else:
                    stalls[op] = stalls.get(op, 0) + 1
                    if stalls[op] < 3:
                        rest.append(op)
                    else:
                        print(f"  {op}: the worker ended three times before a case (run "
                              f"`--worker DIR --seed {seed} {op}` to see why); skipped",
                              flush=True)
                rest.extend(jobs[k + 1:])
                break
            if rest:
                procs[launch(rest)] = rest
            if not quiet:
                print(f"{time.time() - t0:.0f}s: a worker ended, {len(procs)} running",
                      flush=True)
    if not quiet:
        print(f"recorded {len(ops)} ops in {time.time() - t0:.0f}s", flush=True)


# ------------------------------------------------------------------------------ re-recording

REREC = "rerecorded.json"


def read_ids(path):
    """The case ids (``op|seed|index``) of a file, in order, without repeats."""
    ids = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            key = line.split()[0]
            op, seed, index = key.rsplit("|", 2)
            key = f"{op}|{int(seed)}|{int(index)}"
            if key not in ids:
                ids.append(key)
    return ids


def one_worker(key):
    """Record one case id in this (fresh) process; print its fixture row as JSON."""
    import warnings

    import tensorflow as tf

    from tools.difftest import cases
    warnings.filterwarnings("ignore")
    tf.get_logger().setLevel("ERROR")
    op, seed, index = key.rsplit("|", 2)
    c = cases.cases(op, int(seed), int(index) + 1)[int(index)]
    print("ROW " + json.dumps(record_one(tf, c)), flush=True)


def read_rerecorded(out_dir=None):
    """``{"op|seed|index": row}`` of a re-record file (empty when there is none)."""
    path = os.path.join(out_dir or OUT, REREC)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)["cases"]


def _original(key, recorded):
    op, seed, index = key.rsplit("|", 2)
    if int(seed) == read_seeds()[0]:
        path = fixture_name(op)
    elif recorded:
        path = os.path.join(recorded, f"seed-{int(seed)}", op + ".json.gz")
    else:
        return None
    if not os.path.exists(path):
        return None
    with gzip.open(path, "rt") as f:
        for row in json.load(f)["cases"]:
            if row[0] == int(index):
                return row
    return None


def rerecord(ids, out_dir=None, nproc=2, recorded=None):
    """Record every case id in a fresh process (``nproc`` at a time); store the answers
    that differ from the original record (all of them when it is not found)."""
    import tensorflow as tf  # noqa: F401 - the version stamp only

    from tools.difftest import run
    store = read_rerecorded(out_dir)
    # each case twice, each time in a fresh process: an answer that changes between two
    # fresh runs (a kernel returning uninitialised memory) is not a recording artifact
    pending = [(key, k) for key in ids for k in range(2)]
    running = {}
    rows = {}
    t0 = time.time()
    while pending or running:
        while pending and len(running) < nproc:
            job = pending.pop(0)
            cmd = [sys.executable, os.path.abspath(__file__), "--one", job[0]]
            running[job] = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True)
        time.sleep(0.2)
        for job, p in list(running.items()):
            if p.poll() is None:
                continue
            del running[job]
            out = p.stdout.read()
            row = [json.loads(line[4:]) for line in out.splitlines() if line.startswith("ROW ")]
            rows.setdefault(job[0], []).append(row[0] if row else None)
    kept = same = 0
    for key in ids:
        twice = rows.get(key, [None])
        row = twice[0]
        if row is None or any(r is None for r in twice):
            print(f"  {key}: TensorFlow crashed in a fresh process too (not stored)")
            continue
        if len(twice) > 1 and run.compare(run.decode(twice[0][2]), run.decode(twice[1][2]))[1]:
            print(f"  {key}: two fresh processes answer differently (not stored)")
            continue
        old = _original(key, recorded)
        if old is not None:
            if old[1] != row[1]:
                print(f"  {key}: the recorded case has other inputs (drift): not stored")
                continue
            n, diffs = run.compare(run.decode(old[2]), run.decode(row[2]))
            if not diffs:
                same += 1
                store.pop(key, None)
                print(f"  {key}: same answer in a fresh process (TF's own behaviour)")
                continue
            print(f"  {key}: fresh process differs from the record: "
                  + "; ".join(f"[{c}] {m[:80]}" for c, m in diffs[:2]))
        store[key] = row
        kept += 1
    path = os.path.join(out_dir or OUT, REREC)
    os.makedirs(out_dir or OUT, exist_ok=True)
    with open(path, "w") as f:
        f.write('{"tf": %s, "cases": {\n' % json.dumps(tf.__version__))
        keys = sorted(store, key=lambda k: (k.rsplit("|", 2)[0], int(k.rsplit("|", 2)[1]),
                                             int(k.rsplit("|", 2)[2])))
        f.write(",\n".join(f"{json.dumps(k)}: {json.dumps(store[k], separators=(',', ':'))}"
                           for k in keys))
        f.write("\n}}\n")
    print(f"re-recorded {len(ids)} cases in {time.time() - t0:.0f}s: {kept} stored, {same} "
          f"TF's own answer; {path} holds {len(store)}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0, help="cases per op x this")
    ap.add_argument("--out", help="write the fixtures here instead (the sweep)")
    ap.add_argument("--missing", action="store_true", help="only ops without a fixture")
    ap.add_argument("--finish", help="write the fixtures of an interrupted run's scratch dir")
    ap.add_argument("--rerecord-ids", help="FILE of case ids (op|seed|index): record each "
                    "in a fresh process into --out/rerecorded.json (default the fixtures)")
    ap.add_argument("--recorded", help="with --rerecord-ids: the sweep's recordings "
                    "(DIR/seed-<s>/), to keep only the answers that changed")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("ops", nargs="*")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else read_seeds()[0]
    if a.one:
        one_worker(a.one)
        return
    if a.rerecord_ids:
        rerecord(read_ids(a.rerecord_ids), a.out, a.jobs, a.recorded)
        return
    if a.worker:
        worker(a.worker, seed, a.ops, a.scale)
        return
    if a.finish:
        finish_partial(a.finish, seed, a.scale, a.out)
        return
    from tools.difftest import cases
    ops = a.ops or cases.all_ops()
    if a.missing:
        ops = [op for op in ops if not os.path.exists(fixture_name(op, a.out))]
    master(ops, a.jobs, seed, a.scale, a.out)


if __name__ == "__main__":
    main()
