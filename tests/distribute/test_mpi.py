"""tf.distribute across processes: programs in tests/distribute/mpi_cases.py under ``mpiexec``,
each in a subprocess with a timeout. Skipped with the reason when mpi4py or mpiexec is missing."""
import importlib.util
import os
import shutil
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, "tests", "distribute", "mpi_cases.py")
MPIEXEC = shutil.which("mpiexec")

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("mpi4py") is None,
                       reason="mpi4py is not installed (pip install \"tapeflow[mpi]\")"),
    pytest.mark.skipif(MPIEXEC is None,
                       reason="no mpiexec on PATH (pip install mpich)"),
]


def _env(blas_threads="1"):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "src") + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("OPENBLAS_NUM_THREADS", None)
    if blas_threads:
        env["OPENBLAS_NUM_THREADS"] = blas_threads
    return env


def _mpirun(n, *args, timeout=120, blas_threads="1"):
    return subprocess.run([MPIEXEC, "-n", str(n), sys.executable, CASES, *args],
                          capture_output=True, text=True, timeout=timeout,
                          env=_env(blas_threads))


@pytest.mark.parametrize("ranks,global_batch", [(2, 8), (2, 7), (3, 8)])
def test_ranks_bitwise_identical_every_step_and_equal_one_process_after_100_steps(
        ranks, global_batch):
    # Each step: exactly one all-reduce (counted), all ranks' weights bitwise equal; at the end
    # rank 0 compares with a one-process run on the full batch (rtol 1e-5).
    out = _mpirun(ranks, "train", str(global_batch))
    assert out.returncode == 0, out.stderr[-3000:]
    assert f"OK size={ranks}" in out.stdout
    expected = {(2, 8): "[4, 4]", (2, 7): "[4, 3]", (3, 8): "[3, 3, 2]"}[(ranks, global_batch)]
    assert f"batches={expected}" in out.stdout
    assert "iterations=100" in out.stdout


@pytest.mark.parametrize("ranks", [2, 3])
def test_reduce_and_gather_over_ranks_as_tensorflow_over_replicas(ranks):
    # BLAS left to its default thread count: the strategy caps it to the cores per rank
    out = _mpirun(ranks, "reduce", blas_threads=None)
    assert out.returncode == 0, out.stderr[-3000:]
    assert f"OK reduce {ranks}" in out.stdout


def test_keras_fit_and_evaluate_under_multi_worker_equal_one_process():
    out = _mpirun(2, "fit")
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("OK")


def test_checkpoints_under_multi_worker_are_written_by_the_chief_and_restored_by_all(
        tmp_path):
    out = _mpirun(2, "checkpoint", str(tmp_path))
    assert out.returncode == 0, out.stderr[-3000:]
    assert "OK checkpoint 2" in out.stdout


def test_horovod_names_average_gradients_and_broadcast():
    out = _mpirun(2, "hvd")
    assert out.returncode == 0, out.stderr[-3000:]
    assert "OK hvd" in out.stdout


def test_a_raising_rank_ends_the_whole_job_quickly():
    start = time.monotonic()
    out = _mpirun(2, "raise", timeout=60)
    elapsed = time.monotonic() - start
    assert out.returncode != 0
    assert "rank 1 fails" in out.stderr
    assert "UNREACHED" not in out.stdout
    assert elapsed < 30


def test_launcher_without_mpi4py_names_the_extra():
    code = ("import sys; sys.modules['mpi4py'] = None\n"
            "import tapeflow as tf\n"
            "try:\n    tf.distribute.MultiWorkerMirroredStrategy()\n"
            "except ImportError as e:\n    print('ImportError:', e)\n")
    env = _env()
    env["PMI_SIZE"] = "2"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=env)
    assert 'pip install "tapeflow[mpi]"' in out.stdout, out.stderr


def test_distributed_digits_example_under_mpiexec_matches_one_process():
    example = os.path.join(ROOT, "examples", "distributed_digits.py")
    one = subprocess.run([sys.executable, example, "--epochs", "2"], capture_output=True,
                         text=True, timeout=120, env=_env())
    two = subprocess.run([MPIEXEC, "-n", "2", sys.executable, "-m", "mpi4py", example,
                          "--epochs", "2"], capture_output=True, text=True, timeout=120,
                         env=_env())
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    epochs = lambda out: [line for line in out.splitlines() if line.startswith("Epoch")]
    assert len(epochs(two.stdout)) == 2  # printed by rank 0 only
    assert two.stdout.splitlines()[0] == "Number of devices: 2"
    # the same global batches and the same summed gradients: the same printed figures
    assert epochs(two.stdout) == epochs(one.stdout)
