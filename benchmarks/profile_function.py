"""Line-by-line timing of a compiled ``tf.function`` program (one of ``function.py``'s workloads).

Usage::

    python benchmarks/profile_function.py W2 [--threads 1] [--min-us 1.0]

The workload runs once (trace and compile), then its generated source is re-compiled with a
clock read after every statement and run again; each line's median time per call is printed
beside the line, largest first when ``--sort``. The clock reads add ~0.1 us a line.
Like ``function.py`` it unsets ``OPENBLAS_CORETYPE``/``OPENBLAS_L2_SIZE`` and sets the BLAS
thread count before NumPy loads.
"""
import argparse
import gc
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("workload", choices=("W1", "W2", "W5", "W6"))
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--min-us", type=float, default=0.0, help="hide lines faster than this")
    p.add_argument("--sort", action="store_true", help="largest first")
    p.add_argument("--stat", choices=("median", "min"), default="median",
                   help="per line: the median or (on a busy machine) the minimum over calls")
    args = p.parse_args()
    if os.environ.get("OPENBLAS_CORETYPE") or os.environ.get("OPENBLAS_L2_SIZE") or \
            os.environ.get("OPENBLAS_NUM_THREADS") != str(args.threads):
        env = {k: v for k, v in os.environ.items()
               if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
        env["OPENBLAS_NUM_THREADS"] = str(args.threads)
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
    import function as bench
    import numpy as np

    import tapeflow as tf
    from tapeflow.function.concrete_function import ConcreteFunction

    run, _ = bench.tf_workload(tf, args.workload, bench.make_data(np), compiled=True)
    run()
    concrete = [o for o in gc.get_objects() if type(o) is ConcreteFunction][-1]
    src = concrete.source.splitlines()
    ns = dict(concrete._run.__globals__)
    clock = []
    ns["_T"], ns["_pc"] = clock, time.perf_counter
    pad0 = src[1][:len(src[1]) - len(src[1].lstrip())]
    # a clock read before the first statement too, so that the first line is timed
    lines, labels = [src[0], pad0 + "_T.append(_pc())"], []
    for ln in src[1:]:
        pad = ln[:len(ln) - len(ln.lstrip())]
        if ln.strip().startswith("return"):
            lines += [pad + "_T.append(_pc())", ln]
            continue
        lines += [ln, pad + "_T.append(_pc())"]
        labels.append(ln.strip())
    exec("\n".join(lines), ns)  # noqa: S102 - the program's own source, with clock reads
    timed = ns[src[0].split("(")[0][4:]]
    concrete._run = timed
    for f in gc.get_objects():
        if type(f).__name__ == "_Variants" and f.owner is concrete:
            f.fast = timed
    run()
    clock.clear()
    run()
    per_call = len(labels) + 2
    spans = [[] for _ in labels]
    for c in range(len(clock) // per_call):
        seg = clock[c * per_call:(c + 1) * per_call]
        for i in range(len(labels)):
            spans[i].append(seg[i + 1] - seg[i])
    stat = min if args.stat == "min" else statistics.median
    rows = [(stat(s) * 1e6, labels[i]) for i, s in enumerate(spans) if s]
    total = sum(t for t, _ in rows)
    if args.sort:
        rows.sort(reverse=True)
    for t, label in rows:
        if t >= args.min_us:
            print(f"{t:8.2f} us  {label[:100]}")
    print(f"{total:8.2f} us  total of the timed lines (one call)")


if __name__ == "__main__":
    main()
