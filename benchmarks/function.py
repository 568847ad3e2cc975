"""``tf.function`` beside eager execution, hand-written NumPy, JAX's ``jit`` and TensorFlow.

Usage::

    python benchmarks/function.py                      # every workload, every peer present
    python benchmarks/function.py --only W1,noop --repeats 3
    python benchmarks/function.py --tf-python /path/to/tf-venv/bin/python

Workloads (the same step in every implementation, from the same float32 data):

- W1: the seed000 regression loop, 2 epochs x 1,000 per-sample steps (per step, and the whole
  first loop including its trace);
- W2: MLP 64-256-256-10 on the digits, batch 128, SGD (per step);
- W5: Hessian-vector product by nested tapes, 512x512 (per call);
- W6: small CNN (conv 3x3x16 + ReLU + 2x2 max-pool + dense 10) on 8x8 digits, batch 64 (per step);
- noop: a function of two tensor arguments returning one (per call).

Each (implementation, workload) runs in a fresh process: a warm-up, then the median of the
timed repeats. The script unsets ``OPENBLAS_CORETYPE``/``OPENBLAS_L2_SIZE`` for its workers (they
slow NumPy on this machine; tests leave them set), gives every implementation ``--threads``
intra-op threads (default 1: then each worker is also pinned to one core, since JAX's runtime
keeps a second thread busy even with XLA's one-thread flags), and prints which BLAS kernel
ran (threadpoolctl) when it can tell.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)  # impl_numpy, _spec
WORKLOADS = ("W1", "W2", "W5", "W6", "noop")
UNIT = {"W1": ("us", 1e6), "W2": ("ms", 1e3), "W5": ("ms", 1e3), "W6": ("ms", 1e3),
        "noop": ("us", 1e6)}
IMPLS = ("numpy", "tapeflow-eager", "tapeflow-function", "jax-jit", "tensorflow-function")


# ---------------------------------------------------------------------------- data
def make_data(np):
    rng = np.random.default_rng(0)
    from sklearn.datasets import load_digits
    d = load_digits()
    order = rng.permutation(len(d.target))
    x = (d.data[order] / 16.0).astype(np.float32)
    y = d.target[order].astype(np.int32)

    def he(a, b):
        return (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)

    return {
        "w1_x": rng.standard_normal(1000).astype(np.float32),
        "x": x, "y": y,
        "mlp": [he(64, 256), np.zeros(256, np.float32), he(256, 256), np.zeros(256, np.float32),
                he(256, 10), np.zeros(10, np.float32)],
        "hvp_W": (rng.standard_normal((512, 512)) / 512 ** 0.5).astype(np.float32),
        "hvp_x": rng.standard_normal((512, 1)).astype(np.float32),
        "hvp_v": rng.standard_normal((512, 1)).astype(np.float32),
        "cnn": [(rng.standard_normal((3, 3, 1, 16)) * np.sqrt(2 / 9)).astype(np.float32),
                np.zeros(16, np.float32), he(256, 10), np.zeros(10, np.float32)],
    }


# ---------------------------------------------------------------------------- tf API
def tf_workload(tf, name, data, compiled):
    """``(run, steps)``: ``run()`` does ``steps`` steps; the same source for tapeflow and
    TensorFlow, with or without ``tf.function``."""
    wrap = tf.function if compiled else (lambda f: f)
    if name == "W1":
        xs = tf.constant(data["w1_x"])
        ys = 5 * xs + 3
        w, b = tf.Variable(0.0), tf.Variable(0.0)

        @wrap
        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = (y - (w * x + b)) ** 2
            gw, gb = tape.gradient(loss, [w, b])
            w.assign_sub(1e-2 * gw)
            b.assign_sub(1e-2 * gb)

        def run():
            w_trace, b_trace = [w.numpy()], [b.numpy()]
            for _ in range(2):
                for x, y in zip(xs, ys):
                    train_step(x, y)
                    w_trace.append(w.numpy())
                    b_trace.append(b.numpy())
            return float(w_trace[-1])
        return run, 2000
    if name == "W2":
        x, y = data["x"], data["y"]
        batches = [(tf.constant(x[i:i + 128]), tf.constant(y[i:i + 128]))
                   for i in range(0, len(y) - 127, 128)]
        params = [tf.Variable(p) for p in data["mlp"]]
        W0, b0, W1, b1, W2, b2 = params

        @wrap
        def train_step(xb, yb):
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(xb, W0) + b0)
                h = tf.nn.relu(tf.matmul(h, W1) + b1)
                logits = tf.matmul(h, W2) + b2
                loss = tf.reduce_mean(
                    tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=logits))
            grads = tape.gradient(loss, params)
            for v, g in zip(params, grads):
                v.assign_sub(0.1 * g)
            return loss

        def run():
            loss = None
            for i in range(100):
                loss = train_step(*batches[i % len(batches)])
            return float(loss.numpy())
        return run, 100
    if name == "W5":
        W, xv, v = (tf.constant(data[k]) for k in ("hvp_W", "hvp_x", "hvp_v"))

        @wrap
        def hvp(x):
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    f = tf.reduce_sum(tf.square(tf.tanh(tf.matmul(W, x))))
                g = inner.gradient(f, x)
            return outer.gradient(g, x, output_gradients=v)

        def run():
            out = None
            for _ in range(50):
                out = hvp(xv)
            return float(tf.reduce_sum(out).numpy())
        return run, 50
    if name == "W6":
        x = data["x"].reshape(-1, 8, 8, 1)
        y = data["y"]
        batches = [(tf.constant(x[i:i + 64]), tf.constant(y[i:i + 64]))
                   for i in range(0, len(y) - 63, 64)]
        params = [tf.Variable(p) for p in data["cnn"]]
        K, kb, D, db = params

        @wrap
        def train_step(xb, yb):
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.nn.conv2d(xb, K, 1, "SAME") + kb)
                h = tf.nn.max_pool2d(h, 2, 2, "VALID")
                logits = tf.matmul(tf.reshape(h, [-1, 256]), D) + db
                loss = tf.reduce_mean(
                    tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=logits))
            grads = tape.gradient(loss, params)
            for p, g in zip(params, grads):
                p.assign_sub(0.05 * g)
            return loss

        def run():
            loss = None
            for i in range(50):
                loss = train_step(*batches[i % len(batches)])
            return float(loss.numpy())
        return run, 50
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])

    @wrap
    def noop(x, y):
        return x

    def run():
        for _ in range(20000):
            noop(a, b)
        return 0.0
    return run, 20000


# ---------------------------------------------------------------------------- NumPy / JAX
def numpy_workload(np, name, data):
    if name == "W1":
        xs = data["w1_x"]
        ys = 5 * xs + 3

        def run():
            w = b = np.float32(0)
            lr = np.float32(1e-2)
            for _ in range(2):
                for x, y in zip(xs, ys):
                    d = np.float32(-2) * (y - (w * x + b))
                    w = w - lr * (d * x)
                    b = b - lr * d
            return float(w)
        return run, 2000
    if name == "W2":
        # the same MLP step benchmarks/run.py times (impl_numpy.w2), on this script's data
        import impl_numpy
        names = [f"{k}{i}" for i in range(3) for k in ("W", "b")]
        run = impl_numpy.w2({"x": data["x"], "y": data["y"], **dict(zip(names, data["mlp"]))},
                            100)
        return run, 100
    return None, 0


def jax_workload(name, data):
    import jax
    import jax.numpy as jnp
    if name == "W1":
        xs, state = jnp.asarray(data["w1_x"]), {}
        ys = 5 * xs + 3

        @jax.jit
        def step(w, b, x, y):
            def loss(p):
                return (y - (p[0] * x + p[1])) ** 2
            gw, gb = jax.grad(loss)((w, b))
            return w - 1e-2 * gw, b - 1e-2 * gb

        def run():
            import numpy as np
            w, b = jnp.float32(0), jnp.float32(0)
            w_trace, b_trace = [np.asarray(w)], [np.asarray(b)]
            for _ in range(2):
                for x, y in zip(xs, ys):
                    w, b = step(w, b, x, y)
                    w_trace.append(np.asarray(w))
                    b_trace.append(np.asarray(b))
            state["w"] = w
            return float(w)
        return run, 2000
    if name == "W2":
        x, y = data["x"], data["y"]
        batches = [(jnp.asarray(x[i:i + 128]), jnp.asarray(y[i:i + 128]))
                   for i in range(0, len(y) - 127, 128)]
        params = [jnp.asarray(p) for p in data["mlp"]]

        def loss_fn(ps, xb, yb):
            W0, b0, W1, b1, W2, b2 = ps
            h = jax.nn.relu(xb @ W0 + b0)
            h = jax.nn.relu(h @ W1 + b1)
            logits = h @ W2 + b2
            lse = jax.nn.logsumexp(logits, axis=1)
            return jnp.mean(lse - jnp.take_along_axis(logits, yb[:, None], 1)[:, 0])

        @jax.jit
        def step(ps, xb, yb):
            loss, g = jax.value_and_grad(loss_fn)(ps, xb, yb)
            return [p - 0.1 * gp for p, gp in zip(ps, g)], loss

        def run():
            nonlocal params
            loss = None
            for i in range(100):
                params, loss = step(params, *batches[i % len(batches)])
            return float(loss)
        return run, 100
    if name == "W5":
        W, xv, v = (jnp.asarray(data[k]) for k in ("hvp_W", "hvp_x", "hvp_v"))

        def f(x):
            return jnp.sum(jnp.square(jnp.tanh(W @ x)))

        @jax.jit
        def hvp(x):
            return jax.jvp(jax.grad(f), (x,), (v,))[1]

        def run():
            out = None
            for _ in range(50):
                out = hvp(xv)
            return float(jnp.sum(out))
        return run, 50
    if name == "W6":
        x = jnp.asarray(data["x"].reshape(-1, 8, 8, 1))
        y = jnp.asarray(data["y"])
        batches = [(x[i:i + 64], y[i:i + 64]) for i in range(0, len(data["y"]) - 63, 64)]
        params = [jnp.asarray(p) for p in data["cnn"]]

        def loss_fn(ps, xb, yb):
            K, kb, D, db = ps
            h = jax.lax.conv_general_dilated(xb, K, (1, 1), "SAME",
                                             dimension_numbers=("NHWC", "HWIO", "NHWC"))
            h = jax.nn.relu(h + kb)
            h = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1),
                                      "VALID")
            logits = h.reshape(-1, 256) @ D + db
            lse = jax.nn.logsumexp(logits, axis=1)
            return jnp.mean(lse - jnp.take_along_axis(logits, yb[:, None], 1)[:, 0])

        @jax.jit
        def step(ps, xb, yb):
            loss, g = jax.value_and_grad(loss_fn)(ps, xb, yb)
            return [p - 0.05 * gp for p, gp in zip(ps, g)], loss

        def run():
            nonlocal params
            loss = None
            for i in range(50):
                params, loss = step(params, *batches[i % len(batches)])
            return float(loss)
        return run, 50
    a, b = jnp.asarray([1.0, 2.0]), jnp.asarray([3.0, 4.0])
    noop = jax.jit(lambda x, y: x)

    def run():
        for _ in range(20000):
            noop(a, b)
        return 0.0
    return run, 20000


# ---------------------------------------------------------------------------- worker
def worker(impl, name, repeats):
    cores = os.environ.get("BENCH_CORES")
    if cores:
        # --threads 1 pins the whole process to one core: JAX's runtime otherwise overlaps
        # its dispatch thread with compute (1.56 cores busy on W2 with XLA's one-thread flags)
        os.sched_setaffinity(0, {int(c) for c in cores.split(",")})
    import numpy as np
    data = make_data(np)
    t0 = time.perf_counter()
    if impl == "numpy":
        run, steps = numpy_workload(np, name, data)
    elif impl == "jax-jit":
        run, steps = jax_workload(name, data)
    else:
        lib = "tensorflow" if impl.startswith("tensorflow") else "tapeflow"
        if lib == "tapeflow":
            sys.path.insert(0, os.path.join(ROOT, "src"))
        tf = __import__(lib)
        run, steps = tf_workload(tf, name, data, compiled=impl.endswith("function"))
    if run is None:
        return None
    first = time.perf_counter()
    check = run()
    first = time.perf_counter() - first
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        run()
        times.append((time.perf_counter() - t) / steps)
    kernel = None
    try:
        from threadpoolctl import threadpool_info
        info = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        kernel = info[0].get("architecture") if info else None
    except ImportError:
        pass
    return {"median": statistics.median(times), "min": min(times), "first": first,
            "setup": first + (t0 and 0), "check": check, "kernel": kernel}


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", help=f"comma-separated subset of {','.join(WORKLOADS)}")
    p.add_argument("--impls", default=",".join(IMPLS))
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--rounds", type=int, default=1,
                   help="run every implementation this many times, interleaved, and report "
                        "the median of the rounds' medians (fairer on a busy machine)")
    p.add_argument("--tf-python", help="an interpreter with TensorFlow (else it is skipped)")
    p.add_argument("--threads", type=int, default=1,
                   help="BLAS/XLA/TF intra-op threads for every implementation (default 1)")
    p.add_argument("--json", help="also write the results here")
    p.add_argument("--worker", nargs=2, metavar=("IMPL", "WORKLOAD"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        print("BENCH " + json.dumps(worker(*args.worker, args.repeats)))
        return
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    n = str(args.threads)
    env.update(OPENBLAS_NUM_THREADS=n, OMP_NUM_THREADS=n, MKL_NUM_THREADS=n,
               TF_CPP_MIN_LOG_LEVEL="3", TF_NUM_INTRAOP_THREADS=n, TF_NUM_INTEROP_THREADS="1")
    if args.threads == 1:
        env["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        env["BENCH_CORES"] = "0"
    names = args.only.split(",") if args.only else list(WORKLOADS)
    impls = args.impls.split(",")
    results = {}
    print(f"load average {os.getloadavg()[0]:.2f}; {args.threads} BLAS thread(s); median of "
          f"{args.repeats} runs x {args.rounds} interleaved round(s) (first: the first run, "
          f"trace included)")
    for name in names:
        unit, scale = UNIT[name]
        runs = {impl: [] for impl in impls}
        for _ in range(args.rounds):
            for impl in impls:
                python = sys.executable
                if impl.startswith("tensorflow"):
                    if not args.tf_python:
                        continue
                    python = args.tf_python
                cmd = [python, os.path.abspath(__file__), "--worker", impl, name,
                       "--repeats", str(args.repeats)]
                proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                                      timeout=1800)
                line = [ln for ln in proc.stdout.splitlines() if ln.startswith("BENCH ")]
                if not line:
                    err = proc.stderr.strip().splitlines()[-1:] or ["no output"]
                    print(f"  {name} {impl}: n/a ({err[0][:80]})")
                    continue
                res = json.loads(line[0][6:])
                if res is not None:
                    runs[impl].append(res)
        row = {}
        for impl, rs in runs.items():
            if impl.startswith("tensorflow") and not args.tf_python:
                continue
            if not rs:
                row[impl] = None
                continue
            rs.sort(key=lambda r: r["median"])
            row[impl] = dict(rs[len(rs) // 2], rounds=[r["median"] for r in rs])
        results[name] = row
        parts = []
        for impl, r in row.items():
            if r:
                first = f", first {r['first'] * 1e3:.1f} ms" if name == "W1" else ""
                parts.append(f"{impl} {r['median'] * scale:.4g}{first}")
        print(f"{name} [{unit}/{'call' if name in ('W5', 'noop') else 'step'}]  "
              + " | ".join(parts))
        kernels = {r["kernel"] for r in row.values() if r and r.get("kernel")}
        if kernels:
            print(f"  BLAS kernel: {', '.join(sorted(kernels))}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
