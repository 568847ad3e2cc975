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


def worker(scratch, seed, jobs, scale=1.0):
    """Run ``jobs`` (``op`` or ``op@start``) under TensorFlow, one JSON line per case."""
    import warnings

    import numpy as np
    import tensorflow as tf

    from tools.difftest import cases, run
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
                with np.errstate(all="ignore"):
                    res = run.run_case(tf, c)
                    res64 = None
                    low = ("float16", "float32", "complex64")
                    if "err" not in res and any(d in low for d in c.dtypes()):
                        res64 = run.run_case(tf, c, promote=True)
                    b = run.bounds(res, res64)
                f.write(json.dumps({"i": c.index, "c": c.checksum(), "r": run.encode(res),
                                    "b": b}) + "\n")
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
                    rest.append(op)
                rest.extend(jobs[k + 1:])
                break
            if rest:
                procs[launch(rest)] = rest
            if not quiet:
                print(f"{time.time() - t0:.0f}s: a worker ended, {len(procs)} running",
                      flush=True)
    if not quiet:
        print(f"recorded {len(ops)} ops in {time.time() - t0:.0f}s", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0, help="cases per op x this")
    ap.add_argument("--out", help="write the fixtures here instead (the sweep)")
    ap.add_argument("--missing", action="store_true", help="only ops without a fixture")
    ap.add_argument("--finish", help="write the fixtures of an interrupted run's scratch dir")
    ap.add_argument("ops", nargs="*")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else read_seeds()[0]
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
