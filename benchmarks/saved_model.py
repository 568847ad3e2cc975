"""Loading TF-written SavedModels: tapeflow beside TensorFlow.

Usage:
    PYTHONPATH=src python benchmarks/saved_model.py [--tf /work/tfenv/bin/python]
        [--repeats 3] [--calls 300] [--cache DIR] [--models mlp,cnn,mobilenet_v2]

The models are built once by TF 2.21 / Keras 3.15 (``--tf``'s interpreter) with
``model.export`` and cached outside the repository (``--cache``, default
``~/.cache/tapeflow-bench/saved_model``): a Keras MLP (784-256-128-10), a small CNN (28x28x1,
two Conv2D+MaxPool, Dense 10) and MobileNetV2 (``weights=None``, 224x224x3). Without TF and
without a cache, the Keras MLP/CNN fixtures of ``tests/fixtures/saved_model`` are used.

For each model, tapeflow and TF side by side:
- a fresh process's ``import`` + ``load`` + first call of ``serving_default`` (the median of
  ``--repeats`` processes, timed inside the process from before the import; the split into
  import, load and first call; and the whole process's wall time);
- the per-call latency of the loaded serving function at batch 1 and batch 64 (median of
  ``--calls`` calls after a warm-up; MobileNetV2: ``--mobilenet-calls`` calls at batch 1).
Every core is first kept busy for ``--warm`` seconds (3): on this VM the first timed process
after an idle spell (tapeflow's, which runs first) often ran up to 1.4x slower than later.
With ``--rounds N`` the two sides run N times, alternated (tapeflow first in odd rounds, TF
in even ones); per round, the median and best wall time per call and the median process CPU
time per call (all threads: TF's pool and tapeflow's helper thread count) are listed.
Last, the time ``tapeflow._protobuf`` takes to decode MobileNetV2's ``saved_model.pb``.

The child processes run without ``OPENBLAS_CORETYPE``/``OPENBLAS_L2_SIZE`` (so OpenBLAS picks
its kernel for this CPU); the BLAS library, its kernel (architecture) and thread count are
printed (threadpoolctl), with the machine's load average, since the machine is shared.
``--blas-threads N`` sets ``OPENBLAS_NUM_THREADS`` in tapeflow's children only: on an
oversubscribed machine OpenBLAS's threads (each given a fixed share of a product) wait for a
descheduled one, and a convolution's product can take 50-100x its one-thread time.
Since session 10 tapeflow cuts large convolutions into chunks for its own two threads and
runs their products with OpenBLAS at one thread (``ops/_parallel.py``); since session 11 a
fixed-shape compile runs a batch's convolution/pooling/activation steps chunk by chunk on
those threads (``function/batch_chunks.py``; ``TAPEFLOW_BATCH_CHUNKS=0`` turns it off), and
since session 12 a chunk pools a convolution's output before its bias add and ReLU,
computing only the positions the pooling windows read;
``TAPEFLOW_KERNEL_THREADS=1`` in the environment restores OpenBLAS's own threading.
Goals (issue 20): fresh import + load + first call <= 0.5 s; per call no slower than TF's
loaded model, at batch 1 at most 0.3x; the MobileNetV2 decode <= 100 ms.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FIX = os.path.join(ROOT, "tests", "fixtures", "saved_model")
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "tapeflow-bench", "saved_model")
# name -> input shape (without the batch)
SHAPES = {"mlp": (784,), "cnn": (28, 28, 1), "mobilenet_v2": (224, 224, 3)}
FIXTURE_SHAPES = {"keras_mlp": (6,), "keras_cnn": (8, 8, 2)}

BUILD = r'''
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import keras
name, path = sys.argv[1], sys.argv[2]
keras.utils.set_random_seed(0)
L = keras.layers
if name == "mlp":
    model = keras.Sequential([keras.Input((784,)), L.Dense(256, activation="relu"),
                              L.Dense(128, activation="relu"),
                              L.Dense(10, activation="softmax")])
elif name == "cnn":
    model = keras.Sequential([keras.Input((28, 28, 1)), L.Conv2D(16, 3, activation="relu"),
                              L.MaxPooling2D(), L.Conv2D(32, 3, activation="relu"),
                              L.MaxPooling2D(), L.Flatten(), L.Dense(10, activation="softmax")])
else:
    model = keras.applications.MobileNetV2(weights=None)
model.export(path, verbose=False)
'''

# Run in a fresh interpreter (tapeflow's or TF's): import, load, first call; then latency.
CHILD = r'''
import json, os, statistics, sys, time
t0 = time.perf_counter()
lib = sys.argv[1]
if lib == "tf":
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
else:
    import tapeflow as tf
import numpy as np
t1 = time.perf_counter()
path, shape, calls, batches = sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4]), \
    json.loads(sys.argv[5])
m = tf.saved_model.load(path)
t2 = time.perf_counter()
sig = m.signatures["serving_default"]
arg = list(sig.structured_input_signature[1])[0]
x1 = tf.constant(np.ones([1] + shape, np.float32))
sig(**{arg: x1})
t3 = time.perf_counter()
out = {"first": t3 - t0, "import": t1 - t0, "load": t2 - t1, "call1": t3 - t2}
if calls:
    for batch in batches:
        x = np.random.default_rng(0).standard_normal([batch] + shape).astype(np.float32)
        x = tf.constant(x)
        for _ in range(max(3, min(20, calls // 10))):
            sig(**{arg: x})
        times, cpu = [], []
        for _ in range(calls):
            t, c = time.perf_counter(), time.process_time()
            sig(**{arg: x})
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        out[f"b{batch}"] = statistics.median(times)
        out[f"best{batch}"] = min(times)
        out[f"cpu{batch}"] = statistics.median(cpu)
    try:
        import threadpoolctl
        out["blas"] = [{k: i.get(k) for k in ("internal_api", "architecture", "num_threads",
                                              "version")}
                       for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
    except ImportError:
        out["blas"] = "threadpoolctl not installed"
print(json.dumps(out))
'''


BLAS_THREADS = [None]   # --blas-threads: OpenBLAS threads in tapeflow's children


def _env(lib=None):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(k, None)
    if lib == "tapeflow" and BLAS_THREADS[0]:
        env["OPENBLAS_NUM_THREADS"] = str(BLAS_THREADS[0])
    return env


def _child(python, lib, path, shape, calls, batches):
    t = time.perf_counter()
    res = subprocess.run([python, "-c", CHILD, lib, path, json.dumps(list(shape)), str(calls),
                          json.dumps(batches)],
                         capture_output=True, text=True, env=_env(lib), check=False)
    wall = time.perf_counter() - t
    if res.returncode:
        raise RuntimeError(f"{lib} failed on {path}:\n{res.stderr[-3000:]}")
    out = json.loads(res.stdout.strip().splitlines()[-1])
    out["wall"] = wall
    return out


def _side(python, lib, path, shape, repeats, calls, batches):
    firsts = [_child(python, lib, path, shape, 0, batches) for _ in range(repeats)]
    lat = _child(python, lib, path, shape, calls, batches)
    med = {k: statistics.median(f[k] for f in firsts)
           for k in ("first", "wall", "import", "load", "call1")}
    med.update({k: v for k, v in lat.items() if k.startswith(("b", "cpu")) and k != "blas"})
    med["blas"] = lat.get("blas")
    return med


def _us(r, key):
    return f"{r[key] * 1e6:7.0f} us" if key in r else f"{'-':>10}"


def _models(tf_python, cache, wanted):
    """``[(name, directory, input shape)]``, building the missing ones with TF."""
    out = []
    for name in wanted:
        path = os.path.join(cache, name)
        if not os.path.exists(os.path.join(path, "saved_model.pb")) and tf_python:
            os.makedirs(cache, exist_ok=True)
            print(f"building {name} with TF (once) in {path}", flush=True)
            subprocess.run([tf_python, "-c", BUILD, name, path], check=True,
                           capture_output=True, env=_env())
        if os.path.exists(os.path.join(path, "saved_model.pb")):
            out.append((name, path, SHAPES[name]))
    if not out:
        out = [(n, os.path.join(FIX, n), s) for n, s in FIXTURE_SHAPES.items()]
    return out


def _decode(pb_path, repeats=20):
    """Best and median of ``repeats`` decodes; "with collection" adds the one pass of the
    cyclic collector a decode leaves pending (it runs the collector once, after)."""
    import gc
    sys.path.insert(0, os.path.join(ROOT, "src"))
    from tapeflow import _protobuf as pb
    with open(pb_path, "rb") as fh:
        data = fh.read()
    pb.message_types()
    pb.decode("tensorflow.SavedModel", data)
    times, cpu, total, total_cpu = [], [], [], []
    msg = None
    for _ in range(repeats):
        del msg
        gc.collect()
        t, c = time.perf_counter(), time.process_time()
        msg = pb.decode("tensorflow.SavedModel", data)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        gc.collect(0)
        total.append(time.perf_counter() - t)
        total_cpu.append(time.process_time() - c)
    same = pb.encode(msg) == data
    print(f"MobileNetV2 saved_model.pb ({len(data) / 1e6:.2f} MB), {repeats} decodes: median "
          f"{statistics.median(times) * 1e3:.0f} ms, best {min(times) * 1e3:.0f} ms "
          f"(CPU time best {min(cpu) * 1e3:.0f} ms); with collection median "
          f"{statistics.median(total) * 1e3:.0f} ms, best {min(total) * 1e3:.0f} ms (CPU "
          f"{min(total_cpu) * 1e3:.0f} ms); "
          f"re-encoded byte-equal: {same}")


def _warm(seconds):
    """Every core busy for ``seconds`` (one child process each), then back to idle."""
    if seconds <= 0:
        return
    loop = f"import time\nt = time.perf_counter()\nwhile time.perf_counter() - t < {seconds}: pass"
    procs = [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(os.cpu_count() or 1)]
    for proc in procs:
        proc.wait()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tf", default="/work/tfenv/bin/python")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--mobilenet-calls", type=int, default=10)
    p.add_argument("--cache", default=CACHE)
    p.add_argument("--models", default="mlp,cnn,mobilenet_v2")
    p.add_argument("--rounds", type=int, default=1,
                   help="rounds of the per-call measurement, the two sides alternated")
    p.add_argument("--blas-threads", type=int, default=None,
                   help="OPENBLAS_NUM_THREADS for tapeflow's children (default: OpenBLAS's "
                        "own choice; 1 is the robust setting on an oversubscribed machine, "
                        "where OpenBLAS's statically split threads wait on a descheduled "
                        "one)")
    p.add_argument("--warm", type=float, default=3.0,
                   help="seconds of busy loops on every core before the first timed process "
                        "(on this VM the first process after an idle spell often ran up to "
                        "1.4x slower)")
    a = p.parse_args()
    BLAS_THREADS[0] = a.blas_threads
    _warm(a.warm)
    tf_python = a.tf if a.tf and os.path.exists(a.tf) else None
    models = _models(tf_python, a.cache, a.models.split(","))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'model':12} {'side':9} {'import+load+1st':>16} {'(import':>8} {'load':>7} "
          f"{'1st call)':>9} {'wall':>7} {'call b=1':>10} {'call b=64':>10}")
    blas = {}
    per_call = []
    for name, path, shape in models:
        big = name == "mobilenet_v2"
        calls, batches = (a.mobilenet_calls, [1]) if big else (a.calls, [1, 64])
        sides = [("tapeflow", sys.executable, "tapeflow")]
        if tf_python:
            sides.append(("TF 2.21", tf_python, "tf"))
        for rnd in range(a.rounds):
            res = {}
            # the sides alternate round by round (TF first in odd rounds): a shared
            # machine's load then weighs on both alike
            for label, python, lib in (sides if rnd % 2 == 0 else sides[::-1]):
                r = res[label] = _side(python, lib, path, shape, a.repeats, calls, batches)
                blas[label] = r["blas"]
                print(f"{name:12} {label:9} {r['first'] * 1e3:13.0f} ms "
                      f"{r['import'] * 1e3:6.0f} {r['load'] * 1e3:7.0f} "
                      f"{r['call1'] * 1e3:7.0f} ms {r['wall'] * 1e3:4.0f} ms "
                      f"{_us(r, 'b1')} {_us(r, 'b64')}   (load {os.getloadavg()[0]:.1f})",
                      flush=True)
                per_call.append((name, rnd, label, r))
            if len(res) == 2:
                t, f = res["tapeflow"], res["TF 2.21"]
                b64 = f"{t['b64'] / f['b64']:9.2f}x" if "b64" in t else ""
                print(f"{'':12} {'ratio':9} {t['first'] / f['first']:15.2f}x {'':37} "
                      f"{t['b1'] / f['b1']:9.2f}x {b64}")
    print("\nper call, median / best wall and median process CPU (all threads), per round:")
    for name, rnd, label, r in per_call:
        text = "; ".join(f"b={b}: {r[f'b{b}'] * 1e6:.0f} / {r[f'best{b}'] * 1e6:.0f} us, CPU "
                         f"{r[f'cpu{b}'] * 1e6:.0f} us" for b in (1, 64) if f"b{b}" in r)
        print(f"  {name:12} round {rnd + 1} {label:9} {text}")
    for label, info in blas.items():
        print(f"BLAS under {label}: {info}")
    print(f"tapeflow's convolution threads (TAPEFLOW_KERNEL_THREADS, ops/_parallel.py): "
          f"{os.environ.get('TAPEFLOW_KERNEL_THREADS', '2')}")
    mobilenet = [p for n, p, _ in models if n == "mobilenet_v2"]
    if mobilenet:
        _decode(os.path.join(mobilenet[0], "saved_model.pb"))


if __name__ == "__main__":
    main()
