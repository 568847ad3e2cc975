"""Benchmark tapeflow's eager hot path against hand-written NumPy and the eager peers.

Usage::

    python benchmarks/run.py                 # everything, a few minutes
    python benchmarks/run.py --quick --only W1,W5,micro
    python benchmarks/run.py --json out.json --profile prof/

Each (implementation, workload) pair runs in a fresh subprocess (``worker.py``): one untimed
warm-up run, then the median of several timed runs. TensorFlow runs under its own interpreter
(``--tf-python``). A peer that cannot be imported shows as n/a. This script itself imports
neither tapeflow nor any peer.
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from _spec import MICRO, WORKLOADS  # noqa: E402

IMPLS = ("numpy", "tapeflow", "torch", "tensorflow", "jax")
ALL = ("W1", "W2", "W3", "W5", "W7", "micro")
TORCH_W1_RECORDED_US = 49.0  # PyTorch eager on W1, recorded; used when torch is missing
TARGETS = {"W2": 1.2, "W3": 1.05, "W5": 4.0}
IMPORT_TARGET_S = 0.1
RSS_TARGET = 1.5
UNITS = {"us": 1e6, "ms": 1e3, "s": 1.0}
PYCACHE = os.path.join(tempfile.gettempdir(), "tapeflow-bench-pycache")


# ---------------------------------------------------------------------------- interpreters


def find_tf_python(arg):
    """The interpreter to run TensorFlow in, or None."""
    if arg:
        return arg if arg.lower() != "none" and os.path.exists(arg) else None
    if os.path.exists("/work/tfenv/bin/python"):
        return "/work/tfenv/bin/python"
    if importlib.util.find_spec("tensorflow") is not None:
        return sys.executable
    return None


def interpreters(args):
    """{impl: (python, extra env)} for each implementation that may be importable."""
    src_env = {"PYTHONPATH": os.pathsep.join(
        p for p in (args.src, os.environ.get("PYTHONPATH")) if p)}
    out = {"numpy": (sys.executable, {}), "tapeflow": (sys.executable, src_env)}
    for name in ("torch", "jax"):
        if importlib.util.find_spec(name) is not None:
            out[name] = (sys.executable, {})
    tf_python = find_tf_python(args.tf_python)
    if tf_python:
        out["tensorflow"] = (tf_python, {"TF_CPP_MIN_LOG_LEVEL": "3"})
    return {k: v for k, v in out.items() if k in args.impls}


def worker_env(env_extra):
    env = dict(os.environ)
    # Bytecode caching as for an installed package, kept out of the source tree.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = PYCACHE
    env.update(env_extra)
    return env


def thread_env(threads):
    """Environment limiting the compute threads of NumPy's BLAS and of every peer."""
    if not threads:
        return {}
    n = str(threads)
    return {"OMP_NUM_THREADS": n, "OPENBLAS_NUM_THREADS": n, "MKL_NUM_THREADS": n,
            "TF_NUM_INTRAOP_THREADS": n, "TF_NUM_INTEROP_THREADS": n,
            "XLA_FLAGS": f"--xla_cpu_multi_thread_eigen={'true' if threads > 1 else 'false'}"
                         f" intra_op_parallelism_threads={n}"}


def run_python(python, env_extra, argv, timeout):
    env = worker_env(env_extra)
    proc = subprocess.run([python] + argv, capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=ROOT)
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("BENCH_RESULT "):
            return json.loads(line[len("BENCH_RESULT "):])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
    return {"ok": False, "error": f"exit {proc.returncode}: {tail[0]}"}


def run_worker(interp, impl, workload, data_path, args, profile=None, repeats=None):
    python, env = interp
    env = dict(env, **thread_env(args.threads))
    argv = [os.path.join(HERE, "worker.py"), impl, workload]
    if repeats:
        argv += ["--repeats", str(repeats)]
    if data_path:
        argv += ["--data", data_path]
    if args.quick:
        argv.append("--quick")
    if profile:
        argv += ["--profile", profile]
    try:
        return run_python(python, env, argv, args.timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"timed out after {args.timeout} s"}
    except OSError as exc:
        return {"ok": False, "error": f"cannot run {python}: {exc}"}


# ---------------------------------------------------------------------------- statistics


def summarize(times):
    return {"median": statistics.median(times), "min": min(times), "max": max(times),
            "n": len(times)}


def fmt(x, digits=4):
    if x is None:
        return "n/a"
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).rjust(w) if i else str(c).ljust(w)  # noqa: E731
                               for i, (c, w) in enumerate(zip(r, widths, strict=True)))
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def check_ok(value, ref, workload):
    if value is None or ref is None:
        return True
    tol = 5e-3 if workload == "W3" else 1e-3
    return abs(value - ref) <= tol * abs(ref) + 1e-5


# ---------------------------------------------------------------------------- workloads


def bench_workload(workload, interps, args, tmp):
    spec = WORKLOADS[workload]
    path = os.path.join(tmp, f"{workload}.npz")
    # In a child, so that this process stays small (see worker.peak_rss_kb).
    subprocess.run([sys.executable, os.path.join(HERE, "_data.py"), workload, path],
                   check=True)
    repeats = spec["repeats"][1 if args.quick else 0]
    rounds = args.rounds or spec["rounds"][1 if args.quick else 0]
    per_round = max(1, -(-repeats // rounds))
    impls = {i: ({"ok": False, "error": "not importable"} if i not in interps else None)
             for i in IMPLS if i in args.impls}
    # With several rounds the implementations take turns, so that a change in the load
    # of a shared machine hits all of them alike.
    for _ in range(rounds):
        for impl in impls:
            if impl not in interps or (impls[impl] and not impls[impl].get("ok")):
                continue
            res = run_worker(interps[impl], impl, workload, path, args, repeats=per_round)
            if not res.get("ok"):
                impls[impl] = res
                continue
            r = res.pop("results")[workload]
            prev = impls[impl]
            if prev:
                r["times"] = prev["times"] + r["times"]
                res["peak_rss_kb"] = max(res["peak_rss_kb"], prev["peak_rss_kb"])
            res.update(summarize(r["times"]), times=r["times"], check=r["check"],
                       rounds=rounds)
            impls[impl] = res
    out = {"title": spec["title"], "unit": f"{spec['unit']}/{spec['per']}", "impls": impls}
    print_workload(workload, out)
    return out


def print_workload(workload, res):
    spec = WORKLOADS[workload]
    k = UNITS[spec["unit"]]
    impls = res["impls"]
    ok = {i: r for i, r in impls.items() if r.get("ok")}
    ref = ok.get("numpy")
    tfl = ok.get("tapeflow")
    rows = []
    for impl, r in impls.items():
        if not r.get("ok"):
            rows.append([impl, "n/a", "", "", "", "", "", r.get("error", "").strip()
                         .splitlines()[-1][:60]])
            continue
        check = f"{r['check']:.7g}"
        if not check_ok(r["check"], ref and ref["check"], workload):
            check += " (differs!)"
        rows.append([
            impl, fmt(r["median"] * k), f"{fmt(r['min'] * k)}-{fmt(r['max'] * k)}",
            fmt(r["median"] / ref["median"], 3) if ref else "n/a",
            fmt(r["min"] / ref["min"], 3) if ref else "n/a",
            fmt(tfl["median"] / r["median"], 3) if tfl else "n/a",
            f"{r['peak_rss_kb'] / 1024:.1f}", check])
    print(f"\n{res['title']}   [{spec['unit']}/{spec['per']}]")
    print(table(["impl", "median", "min-max", "x NumPy", "(by min)", "tapeflow/impl",
                 "peak RSS MB", "check"], rows), flush=True)


def bench_micro(interps, args):
    res = {}
    for impl in IMPLS:
        if impl not in args.impls:
            continue
        if impl not in interps:
            res[impl] = {"ok": False, "error": "not importable"}
            continue
        r = run_worker(interps[impl], impl, "micro", None, args)
        if r.get("ok"):
            r["results"] = {op: dict(summarize(v["times"]), times=v["times"])
                            for op, v in r["results"].items()}
        res[impl] = r
    print_micro(res)
    return res


def print_micro(res):
    impls = [i for i in res if res[i].get("ok")]
    rows = []
    for op, text in MICRO.items():
        row = [op]
        for impl in impls:
            m = res[impl]["results"].get(op)
            row.append(fmt(m["median"] * 1e6, 3) if m else "-")
        tfl = res.get("tapeflow", {}).get("results", {}).get(op)
        tor = res.get("torch", {}).get("results", {}).get(op)
        row.append(fmt(tfl["median"] / tor["median"], 3) if tfl and tor else "n/a")
        row.append(text)
        rows.append(row)
    print("\nMicro: one operation, median per call over timeit loops   [us]")
    print(table(["op"] + impls + ["tapeflow/torch", "what"], rows))
    for impl, r in res.items():
        if not r.get("ok"):
            print(f"  {impl}: n/a ({r.get('error', '').strip().splitlines()[-1][:80]})")
    sys.stdout.flush()


# ---------------------------------------------------------------------------- startup

_IMPORT_CODE = """
import json, resource, sys, time
for m in {pre!r}:
    __import__(m)
t0 = time.perf_counter()
__import__({mod!r})
dt = time.perf_counter() - t0
print("BENCH_RESULT " + json.dumps({{"ok": True, "s": dt,
      "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""


def time_import(interp, mod, pre=(), n=5, timeout=300):
    python, env = interp
    argv = ["-c", _IMPORT_CODE.format(mod=mod, pre=list(pre))]
    runs = []
    for i in range(n + 1):  # the first run writes __pycache__; it is not counted
        r = run_python(python, env, argv, timeout)
        if not r.get("ok"):
            return {"ok": False, "error": r.get("error")}
        if i:
            runs.append(r)
    times = [r["s"] for r in runs]
    return dict(summarize(times), ok=True, times=times,
                rss_kb=statistics.median(r["rss_kb"] for r in runs))


def import_profile(interp, top=10):
    """The modules ``import tapeflow`` costs beyond NumPy's, slowest first (self, us).

    From ``python -X importtime`` with NumPy imported first: every module reported after
    NumPy's own top-level line is loaded on tapeflow's behalf.
    """
    python, env_extra = interp
    proc = subprocess.run([python, "-X", "importtime", "-c", "import numpy; import tapeflow"],
                          capture_output=True, text=True, env=worker_env(env_extra), cwd=ROOT)
    rows, started = [], False
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        parts = line[len("import time:"):].split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue
        name = parts[2].rstrip()
        if name.strip() == "numpy" and not name.startswith("  "):
            started = True
        elif started:
            rows.append((int(parts[0]), int(parts[1]), name.strip()))
    rows.sort(reverse=True)
    return [{"module": m, "self_us": s, "cumulative_us": c} for s, c, m in rows[:top]]


def package_size(path):
    total, files = 0, 0
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for f in filenames:
            total += os.path.getsize(os.path.join(dirpath, f))
            files += 1
    return total, files


def bench_startup(interps, args, tmp):
    n = 3 if args.quick else 5
    res = {"imports": {}}
    res["imports"]["tapeflow"] = time_import(interps["tapeflow"], "tapeflow", n=n)
    res["imports"]["tapeflow (numpy preloaded)"] = time_import(
        interps["tapeflow"], "tapeflow", pre=("numpy",), n=n)
    python, env = interps["tapeflow"]
    cold = (python, dict(env, PYTHONDONTWRITEBYTECODE="1",
                         PYTHONPYCACHEPREFIX=os.path.join(tmp, "no-pycache")))
    res["imports"]["tapeflow (no bytecode cache)"] = time_import(cold, "tapeflow", n=n)
    res["imports"]["numpy"] = time_import(interps["numpy"], "numpy", n=n)
    for peer in ("torch", "tensorflow", "jax"):
        if peer in interps:
            res["imports"][peer] = time_import(interps[peer], peer, n=n)
    size, files = package_size(os.path.join(args.src, "tapeflow"))
    res["package_bytes"], res["package_files"] = size, files
    res["import_profile"] = import_profile(interps["tapeflow"])
    rows = []
    for name, r in res["imports"].items():
        if r.get("ok"):
            rows.append([f"import {name}", f"{r['median']:.4f}",
                         f"{r['min']:.4f}-{r['max']:.4f}", f"{r['rss_kb'] / 1024:.1f}"])
        else:
            rows.append([f"import {name}", "n/a", "", ""])
    print(f"\nW7 startup: import in a fresh process, median of {n}   [s]")
    print(table(["what", "median s", "min-max", "RSS after MB"], rows))
    print(f"installed size of src/tapeflow (no __pycache__): {size / 1024:.1f} KiB "
          f"in {files} files")
    print("slowest modules import tapeflow loads beyond NumPy (self us, cumulative us):")
    for r in res["import_profile"]:
        print(f"  {r['self_us']:>8}  {r['cumulative_us']:>8}  {r['module']}")
    sys.stdout.flush()
    return res


# ---------------------------------------------------------------------------- targets


def evaluate(report):
    """Every target the selected workloads allow: measured (by medians), by minima, status.

    The status follows the medians; the ratio of the fastest runs is shown beside them
    because on a loaded machine it is the steadier of the two.
    """
    out = []
    wl = report["workloads"]

    def stat(w, impl, key):
        r = wl.get(w, {}).get("impls", {}).get(impl, {})
        return r.get(key) if r.get("ok") else None

    def status(value, limit):
        if value is None or limit is None:
            return "n/a"
        return "met" if value <= limit else "MISSED"

    def ratio(a, b):
        return a / b if a is not None and b is not None else None

    if "W1" in wl:
        t, t_min = stat("W1", "tapeflow", "median"), stat("W1", "tapeflow", "min")
        ref, ref_min = stat("W1", "torch", "median"), stat("W1", "torch", "min")
        source = "PyTorch eager"
        if ref is None:
            ref = ref_min = TORCH_W1_RECORDED_US / 1e6
            source = "PyTorch as recorded"
        r = ratio(t, ref)
        out.append((f"W1 tapeflow / {source} ({ref * 1e6:.1f} us/step) <= 1", r,
                    ratio(t_min, ref_min), 1.0, status(r, 1.0)))
    for w, limit in TARGETS.items():
        if w in wl:
            r = ratio(stat(w, "tapeflow", "median"), stat(w, "numpy", "median"))
            r_min = ratio(stat(w, "tapeflow", "min"), stat(w, "numpy", "min"))
            out.append((f"{w} tapeflow / NumPy <= {limit}", r, r_min, limit,
                        status(r, limit)))
    if "startup" in report:
        r = report["startup"]["imports"]["tapeflow"]
        t = r.get("median") if r.get("ok") else None
        t_min = r.get("min") if r.get("ok") else None
        out.append((f"W7 import tapeflow s <= {IMPORT_TARGET_S}", t, t_min, IMPORT_TARGET_S,
                    status(t, IMPORT_TARGET_S)))
    for w in ("W1", "W2", "W3", "W5"):
        if w in wl:
            r = ratio(stat(w, "tapeflow", "peak_rss_kb"), stat(w, "numpy", "peak_rss_kb"))
            out.append((f"{w} peak RSS tapeflow / NumPy <= {RSS_TARGET}", r, None,
                        RSS_TARGET, status(r, RSS_TARGET)))
    keys = ("target", "measured", "measured_by_min", "limit", "status")
    return [dict(zip(keys, row, strict=True)) for row in out]


def print_targets(targets):
    rows = [[t["target"], fmt(t["measured"], 4), fmt(t["measured_by_min"], 4),
             fmt(t["limit"], 3), t["status"]] for t in targets]
    print("\nTargets (status by medians)")
    print(table(["target", "measured", "by min", "limit", "status"], rows))


def print_compare(report, old_path):
    """tapeflow now against a previous ``--json`` file: medians, minima and the speed-up."""
    with open(old_path) as f:
        old = json.load(f)
    rows = []
    for w, res in report["workloads"].items():
        new_r = res["impls"].get("tapeflow", {})
        old_r = old.get("workloads", {}).get(w, {}).get("impls", {}).get("tapeflow", {})
        if not (new_r.get("ok") and old_r.get("ok")):
            continue
        k = UNITS[WORKLOADS[w]["unit"]]
        rows.append([f"{w} [{res['unit']}]", fmt(old_r["median"] * k), fmt(new_r["median"] * k),
                     fmt(old_r["median"] / new_r["median"], 3),
                     fmt(old_r["min"] / new_r["min"], 3),
                     f"{old_r['peak_rss_kb'] / 1024:.1f} -> {new_r['peak_rss_kb'] / 1024:.1f}"])
    old_micro = old.get("micro", {}).get("tapeflow", {}).get("results", {})
    new_micro = report.get("micro", {}).get("tapeflow", {}).get("results", {})
    for op in MICRO:
        if op in old_micro and op in new_micro:
            o, n = old_micro[op], new_micro[op]
            rows.append([f"micro {op} [us]", fmt(o["median"] * 1e6, 3),
                         fmt(n["median"] * 1e6, 3), fmt(o["median"] / n["median"], 3),
                         fmt(o["min"] / n["min"], 3), ""])
    old_imp = old.get("startup", {}).get("imports", {}).get("tapeflow", {})
    new_imp = report.get("startup", {}).get("imports", {}).get("tapeflow", {})
    if old_imp.get("ok") and new_imp.get("ok"):
        rows.append(["W7 import [s]", fmt(old_imp["median"]), fmt(new_imp["median"]),
                     fmt(old_imp["median"] / new_imp["median"], 3),
                     fmt(old_imp["min"] / new_imp["min"], 3), ""])
    print(f"\ntapeflow against {old_path} ({old.get('meta', {}).get('date', '?')})")
    print(table(["workload", "before", "now", "speed-up", "(by min)", "peak RSS MB"], rows))


# ---------------------------------------------------------------------------- main


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", help=f"comma-separated subset of {','.join(ALL)}")
    p.add_argument("--quick", action="store_true", help="fewer repeats, shorter loops")
    p.add_argument("--json", help="also write the results to this file")
    p.add_argument("--tf-python", help="interpreter with TensorFlow ('none' to skip); "
                   "default /work/tfenv/bin/python if present, else this one if it has it")
    p.add_argument("--impls", default=",".join(IMPLS),
                   help=f"comma-separated subset of {','.join(IMPLS)}")
    p.add_argument("--compare", metavar="OLD_JSON",
                   help="also show tapeflow's change against a previous --json file")
    p.add_argument("--src", default=os.path.join(ROOT, "src"),
                   help="directory holding the tapeflow package to measure")
    p.add_argument("--profile", metavar="DIR",
                   help="also profile tapeflow on each selected workload (pyinstrument tree "
                        "and flat, cProfile call counts) into DIR/tapeflow_<W>.txt")
    p.add_argument("--rounds", type=int, default=None,
                   help="worker processes per implementation, taking turns (default 3, "
                        "--quick 1); the repeats are shared out between them")
    p.add_argument("--threads", type=int, default=1,
                   help="compute threads of NumPy's BLAS and the peers (OMP/OpenBLAS/MKL/"
                        "TF/XLA); default 1, which keeps timings steady on a shared machine; "
                        "0 leaves each library its own choice")
    p.add_argument("--timeout", type=float, default=900, help="seconds per worker")
    args = p.parse_args(argv)
    sel = [s.strip() for s in (args.only or ",".join(ALL)).split(",") if s.strip()]
    norm = {s.lower(): s for s in ALL}
    bad = [s for s in sel if s.lower() not in norm]
    if bad:
        p.error(f"unknown workload(s) {bad}; choose from {','.join(ALL)}")
    args.only = [norm[s.lower()] for s in sel]
    args.impls = [s.strip() for s in args.impls.split(",") if s.strip()]
    for must in ("numpy", "tapeflow"):
        if must not in args.impls:
            args.impls.insert(0, must)
    args.src = os.path.abspath(args.src)
    return args


def main(argv=None):
    args = parse_args(argv)
    interps = interpreters(args)
    started = datetime.datetime.now(datetime.timezone.utc)
    report = {"meta": {
        "date": started.isoformat(timespec="seconds"), "python": sys.version.split()[0],
        "platform": platform.platform(), "cpus": os.cpu_count(), "quick": args.quick,
        "tf_python": interps.get("tensorflow", (None,))[0], "src": args.src,
        "selected": args.only, "threads": args.threads, "loadavg_start": os.getloadavg()[0]},
        "workloads": {}}
    print(f"tapeflow benchmarks {report['meta']['date']}  python {report['meta']['python']}"
          f"  cpus {report['meta']['cpus']}  threads {args.threads or 'default'}"
          f"  quick={args.quick}")
    if report["meta"]["loadavg_start"] > 0.5:
        print(f"warning: load average {report['meta']['loadavg_start']:.2f}: other processes "
              "compete for the CPUs; timings will be noisy")
    print("implementations: " + ", ".join(
        f"{i}" + ("" if i in interps else " (n/a)") for i in args.impls))
    with tempfile.TemporaryDirectory(prefix="tapeflow-bench-") as tmp:
        for w in args.only:
            if w in WORKLOADS:
                report["workloads"][w] = bench_workload(w, interps, args, tmp)
            elif w == "W7":
                report["startup"] = bench_startup(interps, args, tmp)
            elif w == "micro":
                report["micro"] = bench_micro(interps, args)
        if args.profile:
            os.makedirs(args.profile, exist_ok=True)
            for w in WORKLOADS:
                if w in args.only:
                    path = os.path.join(tmp, f"{w}.npz")
                    out = os.path.abspath(os.path.join(args.profile, f"tapeflow_{w}.txt"))
                    r = run_worker(interps["tapeflow"], "tapeflow", w, path, args, out)
                    print(f"profile of tapeflow {w}: " + (out if r.get("ok") else
                                                          f"failed: {r.get('error')}"))
    report["targets"] = evaluate(report)
    print_targets(report["targets"])
    if args.compare:
        print_compare(report, args.compare)
    elapsed = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()
    report["meta"]["elapsed_s"] = elapsed
    report["meta"]["loadavg_end"] = os.getloadavg()[0]
    print(f"\ntotal time {elapsed:.0f} s; load average at the end "
          f"{report['meta']['loadavg_end']:.2f}")
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
