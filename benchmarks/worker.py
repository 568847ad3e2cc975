"""One measurement in a fresh process: ``python worker.py IMPL WORKLOAD --data FILE``.

Prints one line ``BENCH_RESULT {json}`` with per-step times in seconds (one per repeat, after
one untimed warm-up run), the value the run computed (``check``) and the process's peak RSS.
Runs under any interpreter that has NumPy and the implementation asked for; it never imports
an implementation other than IMPL.
"""
import argparse
import gc
import json
import os
import resource
import sys
import time
import timeit
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _spec import MICRO, WORKLOADS  # noqa: E402

IMPLS = ("numpy", "tapeflow", "torch", "tensorflow", "jax")


def load_impl(name):
    """(module with w1..w5 and micro taking the data first, version string) for ``name``."""
    if name in ("tapeflow", "tensorflow"):
        import functools
        import types

        import impl_tfapi
        tf = __import__(name)
        ns = types.SimpleNamespace(
            **{k: functools.partial(getattr(impl_tfapi, k), tf)
               for k in ("w1", "w2", "w3", "w5", "micro")})
        return ns, getattr(tf, "__version__", "?")
    if name == "numpy":
        import impl_numpy
        import numpy
        return impl_numpy, numpy.__version__
    if name == "torch":
        import impl_torch
        import torch
        return impl_torch, torch.__version__
    if name == "jax":
        import impl_jax
        import jax
        return impl_jax, jax.__version__
    raise SystemExit(f"unknown implementation {name!r}")


def peak_rss_kb():
    """Peak resident set of this process in KiB.

    Linux's ``ru_maxrss`` survives ``exec`` and so starts at the parent's peak; ``VmHWM`` of
    /proc/self/status belongs to this process's own address space. ``ru_maxrss`` elsewhere.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def make_timer(quick):
    """timeit-style timer: per-call seconds for each repeat of an auto-sized loop."""
    target, repeat = (0.02, 3) if quick else (0.1, 7)

    def timer(stmt, ns, around=None):
        import contextlib
        around = around or contextlib.nullcontext
        t = timeit.Timer(stmt, globals=ns)
        number = 1
        while True:
            with around():
                elapsed = t.timeit(number)
            if elapsed >= target / 5 or number >= 10**6:
                break
            number *= 10
        number = max(1, int(number * target / max(elapsed, 1e-9)))
        if around is not contextlib.nullcontext:
            number = min(number, 20000)  # bounds the tape's length
        times = []
        for _ in range(repeat):
            with around():
                times.append(t.timeit(number) / number)
        return times

    return timer


def write_profile(build, data, steps, path):
    """Profile one full run: pyinstrument's tree and flat self times, then cProfile's counts."""
    import cProfile
    import io
    import pstats

    with open(path, "w") as f:
        try:
            from pyinstrument import Profiler
        except ImportError:
            f.write("pyinstrument is not installed (pip install pyinstrument)\n")
        else:
            run = build(data, steps)
            profiler = Profiler(interval=0.0002)
            profiler.start()
            run()
            profiler.stop()
            f.write(profiler.output_text(unicode=False, color=False, show_all=False))
            f.write("\n==== pyinstrument, flat, self time, all frames ====\n")
            f.write(profiler.output_text(flat=True, flat_time="self", show_all=True))
        run = build(data, steps)
        prof = cProfile.Profile()
        prof.enable()
        run()
        prof.disable()
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(35)
        f.write(f"\n==== cProfile (slower; exact call counts; {steps} steps) ====\n")
        f.write(text.getvalue())


def measure(mod, workload, data, repeats, profile=None):
    spec = WORKLOADS[workload]
    build = getattr(mod, workload.lower())
    build(data, spec["warmup"])()
    gc.collect()
    if profile:
        write_profile(build, data, spec["steps"], profile)
    times, check, run = [], None, None
    for _ in range(repeats):
        # The previous run's objects go before the next are made: a peak RSS is one run's.
        run = None
        gc.collect()
        run = build(data, spec["steps"])
        gc.collect()
        t0 = time.perf_counter()
        check = run()
        times.append((time.perf_counter() - t0) / spec["steps"])
    return {workload: {"times": times, "check": check}}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("impl", choices=IMPLS)
    p.add_argument("workload", choices=sorted(WORKLOADS) + ["micro"])
    p.add_argument("--data", help=".npz written by _data.write (not needed for micro)")
    p.add_argument("--repeats", type=int, default=None)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--profile", help="write a pyinstrument profile of one timed run here")
    args = p.parse_args()
    try:
        mod, version = load_impl(args.impl)
        rss_import = peak_rss_kb()
        if args.workload == "micro":
            results = {k: {"times": v} for k, v in mod.micro(make_timer(args.quick)).items()
                       if k in MICRO}
        else:
            import _data
            data = _data.read(args.data)
            spec = WORKLOADS[args.workload]
            repeats = args.repeats or spec["repeats"][1 if args.quick else 0]
            results = measure(mod, args.workload, data, repeats, args.profile)
        out = {"ok": True, "version": version, "results": results,
               "rss_after_import_kb": rss_import, "peak_rss_kb": peak_rss_kb(),
               "ru_maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}
    except BaseException:  # noqa: BLE001 - reported to the parent, which prints n/a
        out = {"ok": False, "error": traceback.format_exc()}
    sys.stdout.flush()
    print("BENCH_RESULT " + json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
