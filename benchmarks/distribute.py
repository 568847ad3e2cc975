"""Weak scaling of tf.distribute over MPI: the W2-style MLP (64-256-256-10), 128 samples per
replica, one BLAS thread per rank, on 1 and 2 ranks.

    python benchmarks/distribute.py [--steps 300] [--repeats 3] [--ranks 1,2]

Prints, per rank count: global samples/s, the speed-up over one rank (target: >= 1.5x for 2
ranks), ms per step, and the communication share of the step (time inside the gradient
all-reduce, waiting for the slower rank included). Every run is a fresh ``mpiexec -n R``
process group; the best of ``--repeats`` runs counts (other load on the machine only slows a
run down). The machine's load average is printed before and after: on a shared 2-core box
two ranks need both cores.
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


def run(ranks, steps):
    env = dict(os.environ)
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(name, None)
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PYTHONPATH"] = os.path.join(ROOT, "src") + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [shutil.which("mpiexec"), "-n", str(ranks), sys.executable, "-m", "mpi4py",
           os.path.abspath(__file__), "--worker", "--steps", str(steps)]
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
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.steps)
        return
    if shutil.which("mpiexec") is None:
        raise SystemExit("needs mpiexec: pip install \"tapeflow[mpi]\"")
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} ({os.cpu_count()} cores)")
    best = {}
    for _ in range(args.repeats):  # interleaved, so slow phases of the machine hit both
        for r in [int(x) for x in args.ranks.split(",")]:
            res = run(r, args.steps)
            if r not in best or res["samples_per_s"] > best[r]["samples_per_s"]:
                best[r] = res
    base = best[min(best)]["samples_per_s"]
    print(f"W2-style MLP 64-256-256-10, {PER_REPLICA} samples per replica, SGD, "
          f"{args.steps} steps, 1 BLAS thread per rank, best of {args.repeats}")
    print(f"{'ranks':>5} {'samples/s':>10} {'speed-up':>9} {'ms/step':>8} {'comm share':>11}")
    for r, res in sorted(best.items()):
        print(f"{r:>5} {res['samples_per_s']:>10.0f} {res['samples_per_s'] / base:>8.2f}x "
              f"{res['ms_per_step']:>8.3f} {100 * res['comm_share']:>10.1f}%")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
