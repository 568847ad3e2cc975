"""Weak scaling of tf.distribute over MPI: the W2-style MLP (64-256-256-10), 128 samples per
replica, one BLAS thread per rank, on 1 and 2 ranks.

    python benchmarks/distribute.py [--steps 300] [--repeats 3] [--ranks 1,2] [--numpy]

Prints, per rank count: global samples/s, the speed-up over one rank (target: >= 1.5x for 2
ranks), ms per step, and the communication share of the step (time inside the gradient
all-reduce, waiting for the slower rank included). Every run is a fresh ``mpiexec -n R``
process group; the best of ``--repeats`` runs counts (other load on the machine only slows a
run down). ``--numpy`` adds the same step written by hand in NumPy (one fused Allreduce): the
bound the machine allows at that moment. The load average is printed before and after: on a
shared 2-core box two ranks need both cores.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PER_REPLICA = 128


def worker(steps):
    import numpy as np

    import tapeflow as tf

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    comm = strategy._comm
    spent = [0.0]
    inner = comm.allreduce

    def timed_allreduce(buf, op="sum"):
        t0 = time.perf_counter()
        out = inner(buf, op)
        spent[0] += time.perf_counter() - t0
        return out

    comm.allreduce = timed_allreduce
    global_batch = PER_REPLICA * strategy.num_replicas_in_sync
    rng = np.random.default_rng(0)
    x = rng.random((global_batch * 8, 64), dtype=np.float32)
    y = rng.integers(0, 10, global_batch * 8)
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.Input((64,)), tf.keras.layers.Dense(256, activation="relu"),
            tf.keras.layers.Dense(256, activation="relu"), tf.keras.layers.Dense(10)])
        opt = tf.keras.optimizers.SGD(0.1)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    ds = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch).repeat())
    batches = [b for _, b in zip(range(8), ds)]

    def step(bx, by):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_fn(by, model(bx)),
                                              global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    for i in range(20):  # warm-up
        strategy.run(step, args=batches[i % 8])
    comm.barrier()
    spent[0] = 0.0
    start = time.perf_counter()
    for i in range(steps):
        strategy.run(step, args=batches[i % 8])
    comm.barrier()
    elapsed = time.perf_counter() - start
    if comm.rank == 0:
        print("BENCH_RESULT " + json.dumps({
            "ranks": comm.size, "steps": steps, "seconds": elapsed,
            "samples_per_s": steps * global_batch / elapsed,
            "ms_per_step": 1e3 * elapsed / steps, "comm_share": spent[0] / elapsed,
            "allreduce_calls": comm.calls["allreduce"]}))


def numpy_worker(steps):
    """The same step written by hand in NumPy with one fused Allreduce: the bound."""
    import numpy as np
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    f32 = np.float32
    rng = np.random.default_rng(0)
    params = [(rng.standard_normal(s) * 0.1).astype(f32)
              for s in [(64, 256), (256,), (256, 256), (256,), (256, 10), (10,)]]
    x = rng.random((PER_REPLICA, 64), dtype=f32)
    y = rng.integers(0, 10, PER_REPLICA)
    rows = np.arange(PER_REPLICA)
    spent = [0.0]

    def step():
        w0, b0, w1, b1, w2, b2 = params
        z0 = x @ w0 + b0
        h0 = np.maximum(z0, 0)
        z1 = h0 @ w1 + b1
        h1 = np.maximum(z1, 0)
        logits = h1 @ w2 + b2
        e = np.exp(logits - logits.max(1, keepdims=True))
        d = e / e.sum(1, keepdims=True)
        d[rows, y] -= 1
        d /= f32(PER_REPLICA * comm.size)
        dz1 = (d @ w2.T) * (z1 > 0)
        dz0 = (dz1 @ w1.T) * (z0 > 0)
        grads = [x.T @ dz0, dz0.sum(0), h0.T @ dz1, dz1.sum(0), h1.T @ d, d.sum(0)]
        buf = np.concatenate([g.ravel() for g in grads])
        t0 = time.perf_counter()
        comm.Allreduce(MPI.IN_PLACE, buf)
        spent[0] += time.perf_counter() - t0
        offset = 0
        for p in params:
            p -= f32(0.1) * buf[offset:offset + p.size].reshape(p.shape)
            offset += p.size

    for _ in range(20):
        step()
    comm.Barrier()
    spent[0] = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        step()
    comm.Barrier()
    elapsed = time.perf_counter() - start
    if comm.rank == 0:
        print("BENCH_RESULT " + json.dumps({
            "ranks": comm.size, "steps": steps, "seconds": elapsed,
            "samples_per_s": steps * PER_REPLICA * comm.size / elapsed,
            "ms_per_step": 1e3 * elapsed / steps, "comm_share": spent[0] / elapsed}))


def run(ranks, steps, impl="tapeflow"):
    env = dict(os.environ)
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(name, None)
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PYTHONPATH"] = os.path.join(ROOT, "src") + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [shutil.which("mpiexec"), "-n", str(ranks), sys.executable, "-m", "mpi4py",
           os.path.abspath(__file__), "--worker", impl, "--steps", str(steps)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    for line in out.stdout.splitlines():
        if line.startswith("BENCH_RESULT "):
            return json.loads(line[len("BENCH_RESULT "):])
    raise RuntimeError(out.stderr[-2000:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--ranks", default="1,2")
    parser.add_argument("--numpy", action="store_true",
                        help="also time the same step hand-written in NumPy (the bound under "
                             "the machine's current load)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        (numpy_worker if args.worker == "numpy" else worker)(args.steps)
        return
    if shutil.which("mpiexec") is None:
        raise SystemExit("needs mpiexec: pip install \"tapeflow[mpi]\"")
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} ({os.cpu_count()} cores)")
    impls = ["tapeflow"] + (["numpy"] if args.numpy else [])
    ranks = [int(x) for x in args.ranks.split(",")]
    best = {}
    for _ in range(args.repeats):  # interleaved, so slow phases of the machine hit all
        for impl in impls:
            for r in ranks:
                res = run(r, args.steps, impl)
                key = (impl, r)
                if key not in best or res["samples_per_s"] > best[key]["samples_per_s"]:
                    best[key] = res
    print(f"W2-style MLP 64-256-256-10, {PER_REPLICA} samples per replica, SGD, "
          f"{args.steps} steps, 1 BLAS thread per rank, best of {args.repeats}")
    print(f"{'impl':>8} {'ranks':>5} {'samples/s':>10} {'speed-up':>9} {'ms/step':>8} "
          f"{'comm share':>11}")
    for impl in impls:
        base = best[(impl, min(ranks))]["samples_per_s"]
        for r in ranks:
            res = best[(impl, r)]
            print(f"{impl:>8} {r:>5} {res['samples_per_s']:>10.0f} "
                  f"{res['samples_per_s'] / base:>8.2f}x {res['ms_per_step']:>8.3f} "
                  f"{100 * res['comm_share']:>10.1f}%")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
