"""The example programs run and reach their advertised results."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(script, *args):
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / script), *args],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_train_digits_passes_95_percent_and_saves_curves(tmp_path):
    pytest.importorskip("sklearn")
    out = tmp_path / "curves.png"
    stdout = run("train_digits.py", str(out))
    lines = [m for m in map(re.compile(
        r"^Epoch: \d+, Loss: [\d.]+, Accuracy: [\d.]+%, Test loss: [\d.]+, "
        r"Test accuracy: ([\d.]+)%$").match, stdout.splitlines()) if m]
    assert len(lines) >= 5
    assert float(lines[-1].group(1)) > 95.0
    assert out.stat().st_size > 10_000


def test_regression_recovers_the_line_and_reports_its_time(tmp_path):
    out = tmp_path / "regression.png"
    stdout = run("regression.py", str(out))
    assert "Weight: 5.00, Bias: 3.00" in stdout
    assert re.search(r"^2000 tape steps in [\d.]+ s", stdout, re.M)
    assert out.stat().st_size > 10_000


def test_cnn_quickstart_on_digits_learns():
    pytest.importorskip("sklearn")
    stdout = run("cnn_digits.py")
    accuracies = re.findall(r"Test Accuracy: ([\d.]+)$", stdout, re.M)
    assert len(accuracies) == 8 and float(accuracies[-1]) > 90.0
    assert 'Model: "my_model"' in stdout


def test_dcgan_digits_trains_both_networks_and_saves_a_grid(tmp_path):
    pytest.importorskip("sklearn")
    out = tmp_path / "grid.png"
    stdout = run("dcgan_digits.py", str(out), "--steps", "20")
    losses = re.findall(r"^Step 20: generator loss ([\d.]+), discriminator loss ([\d.]+)$",
                        stdout, re.M)
    assert len(losses) == 1 and all(0 < float(v) < 10 for v in losses[0])
    assert 'Model: "generator"' in stdout and "Conv2DTranspose" in stdout
    assert out.stat().st_size > 10_000


def test_train_digits_interrupted_with_ctrl_c_resumes_to_the_same_weights(tmp_path):
    pytest.importorskip("sklearn")
    import signal
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    script = str(ROOT / "examples" / "train_digits.py")
    digest = re.compile(r"final weights sha256 ([0-9a-f]+)")
    straight = digest.search(run("train_digits.py", str(tmp_path / "a.png"), "--epochs",
                                 "10")).group(1)
    cmd = [sys.executable, script, str(tmp_path / "b.png"), "--epochs", "10",
           "--checkpoint-dir", str(tmp_path / "ckpt")]
    # a test run started as a background job of a non-interactive shell inherits SIGINT
    # ignored (POSIX shells do that to `cmd &`), and so would the example: as from a
    # terminal, it gets the default disposition, where Python raises KeyboardInterrupt
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                      signal.SIG_DFL))
    for line in proc.stdout:
        if line.startswith("Epoch: 3,"):
            proc.send_signal(signal.SIGINT)  # Ctrl-C
            break
    out, err = proc.communicate(timeout=120)
    assert proc.returncode != 0 and "KeyboardInterrupt" in err, (proc.returncode, err[-2000:])
    assert "final weights" not in out
    resumed = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert re.search(r"^Restored .*ckpt-\d+: resuming after epoch [1-9]$", resumed.stdout,
                     re.M), resumed.stdout
    assert digest.search(resumed.stdout).group(1) == straight
