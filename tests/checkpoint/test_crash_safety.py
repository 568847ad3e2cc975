"""Nothing lost: SIGKILL during saves, disk full, damaged files (checkpoint package)."""
import os
import pathlib
import random
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import tapeflow as tf

SRC = os.path.join(os.path.dirname(__file__), "..", "..", "src")

def _save_forever(directory, ready_fd):
    """The child: resume, then save checkpoints stamped with their step, until killed."""
    big = tf.Variable(np.zeros(5_300_000, np.float32))  # 21 MB per checkpoint
    step = tf.Variable(np.int64(0))
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(big=big, step=step), directory,
                                         max_to_keep=2)
    manager.restore_or_initialize()
    os.write(ready_fd, b"r")  # the kill comes at a random moment of the saving loop
    while True:
        s = int(step.numpy()) + 1
        step.assign(np.int64(s))
        big.assign(np.full(big.shape, s, np.float32))
        manager.save()


def _check_latest(directory):
    latest = tf.train.latest_checkpoint(directory)
    if latest is None:
        return None
    big = tf.Variable(np.zeros(5_300_000, np.float32))
    step = tf.Variable(np.int64(0))
    tf.train.Checkpoint(big=big, step=step).restore(latest).assert_consumed()
    s = int(step.numpy())
    assert np.all(big.numpy() == s), "a torn checkpoint"
    assert latest.endswith(f"ckpt-{s}")
    for name in os.listdir(directory):  # every committed checkpoint is complete
        if name.endswith(".index"):
            tf.train.load_checkpoint(os.path.join(directory, name[:-6])).get_tensor(
                "step/.ATTRIBUTES/VARIABLE_VALUE")
    return s


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_sigkill_at_random_moments_always_leaves_a_complete_latest_checkpoint(tmp_path):
    directory = str(tmp_path)
    rng = random.Random(1234)
    steps, rounds = [], 20
    for _ in range(rounds):
        ready, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child never returns: it is killed
            try:
                _save_forever(directory, ready_w)
            finally:
                os._exit(1)
        os.close(ready_w)
        assert os.read(ready, 1) == b"r"
        os.close(ready)
        time.sleep(rng.uniform(0.0, 0.3))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        steps.append(_check_latest(directory))
        # Loaders ignored the killed process's temporary; earlier ones were removed by the
        # next process's first save.
        from tapeflow.checkpoint.atomic import is_temporary
        assert len([n for n in os.listdir(directory) if is_temporary(n)]) <= 1
    # Progress across rounds: each restart resumes from the last committed step.
    reached = [s for s in steps if s is not None]
    assert reached == sorted(reached) and len(reached) >= rounds // 2
    assert reached[-1] >= 3


def _env():
    return dict(os.environ, PYTHONPATH=os.path.abspath(SRC))


def test_overwriting_a_checkpoint_that_fails_keeps_the_old_one(tmp_path, monkeypatch):
    import tapeflow.checkpoint.bundle as bundle
    v = tf.Variable([1.0, 2.0])
    prefix = tf.train.Checkpoint(v=v).write(str(tmp_path / "c"))
    v.assign([3.0, 4.0])

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bundle.atomic.os, "fsync", full)  # the new data never reaches disk
    with pytest.raises(OSError, match="No space left"):
        tf.train.Checkpoint(v=v).write(prefix)
    monkeypatch.undo()
    restored = tf.Variable([0.0, 0.0])
    tf.train.Checkpoint(v=restored).read(prefix).assert_consumed()
    assert restored.numpy().tolist() == [1.0, 2.0]
    assert sorted(os.listdir(tmp_path)) == ["c.data-00000-of-00001", "c.index"]


_DISK_FULL = textwrap.dedent("""
    import resource, signal, sys
    import numpy as np
    import tapeflow as tf
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    directory = sys.argv[1]
    v = tf.Variable(np.ones(100_000, np.float32))  # 400 kB
    ckpt = tf.train.Checkpoint(v=v)
    manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=1)
    manager.save()
    resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))  # the disk fills up
    v.assign(np.full(100_000, 2.0, np.float32))
    try:
        manager.save()
    except OSError as e:
        print("caught", type(e).__name__, e.errno, int(ckpt.save_counter.numpy()))
    else:
        print("no error")
""")


@pytest.mark.skipif(sys.platform == "win32", reason="needs RLIMIT_FSIZE (POSIX)")
def test_disk_full_reaches_the_caller_and_keeps_the_previous_checkpoint(tmp_path):
    out = subprocess.run([sys.executable, "-c", _DISK_FULL, str(tmp_path)], env=_env(),
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "caught OSError 27 1", out.stderr  # EFBIG; counter back
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-1.data-00000-of-00001",
                                            "ckpt-1.index"]  # no temporary left
    v = tf.Variable(np.zeros(100_000, np.float32))
    tf.train.Checkpoint(v=v).restore(tf.train.latest_checkpoint(str(tmp_path)))
    assert np.all(v.numpy() == 1.0)


def _saved(tmp_path):
    return tf.train.Checkpoint(w=tf.Variable(np.arange(1000, dtype=np.float32))).write(
        str(tmp_path / "c"))


def _corrupt(path, offset, data=None):
    raw = bytearray(pathlib.Path(path).read_bytes())
    if data is None:
        raw = raw[:offset]
    else:
        raw[offset:offset + len(data)] = data
    pathlib.Path(path).write_bytes(bytes(raw))


def test_flipped_byte_in_data_raises_data_loss_naming_the_file(tmp_path):
    prefix = _saved(tmp_path)
    _corrupt(prefix + ".data-00000-of-00001", 100, b"\x7f")
    v = tf.Variable(np.zeros(1000, np.float32))
    with pytest.raises(tf.errors.DataLossError, match="Checksum does not match.*c.data-00000"):
        tf.train.Checkpoint(w=v).read(prefix)
    assert np.all(v.numpy() == 0)  # never garbage values


def test_truncated_data_raises_data_loss(tmp_path):
    prefix = _saved(tmp_path)
    _corrupt(prefix + ".data-00000-of-00001", 2000)
    with pytest.raises(tf.errors.DataLossError, match=r"Truncated data file .*c\.data"):
        tf.train.load_variable(prefix, "w/.ATTRIBUTES/VARIABLE_VALUE")


def test_wrong_magic_and_bad_block_checksum_in_index_raise_data_loss(tmp_path):
    prefix = _saved(tmp_path)
    good = pathlib.Path(prefix + ".index").read_bytes()
    _corrupt(prefix + ".index", len(good) - 8, b"\x00" * 8)
    with pytest.raises(tf.errors.DataLossError, match=r"bad magic number.*|c\.index"):
        tf.train.list_variables(prefix)
    with pytest.raises(tf.errors.DataLossError, match=r"c\.index"):
        tf.train.list_variables(prefix)
    pathlib.Path(prefix + ".index").write_bytes(good)
    _corrupt(prefix + ".index", 3, b"\xee")
    with pytest.raises(tf.errors.DataLossError, match=r"block checksum mismatch in .*c\.index"):
        tf.train.load_checkpoint(prefix)
    _corrupt(prefix + ".index", 20)
    with pytest.raises(tf.errors.DataLossError, match="too short"):
        tf.train.load_checkpoint(prefix)


def test_every_file_is_fsynced_and_renamed_into_place(tmp_path, monkeypatch):
    import tapeflow.checkpoint.atomic as atomic
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: (calls.append("fsync"),
                                                        real_fsync(fd))[1])
    monkeypatch.setattr(atomic.os, "replace", lambda a, b: (calls.append(
        "replace " + os.path.basename(b)), real_replace(a, b))[1])
    tf.train.Checkpoint(v=tf.Variable(1.0)).save(str(tmp_path / "c"))
    assert [c for c in calls if c.startswith("replace")] == [
        "replace c-1.data-00000-of-00001", "replace c-1.index", "replace checkpoint"]
    # data: file fsync; index: file + directory; state file: file + directory
    assert calls.count("fsync") == 5


def test_manager_deletes_old_checkpoints_only_after_the_state_file_names_the_new_one(
        tmp_path, monkeypatch):
    import tapeflow.checkpoint.atomic as atomic
    import tapeflow.checkpoint.manager as mgr
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)),
                                         str(tmp_path), max_to_keep=1)
    manager.save()
    events = []
    real_replace, real_remove = os.replace, os.remove

    def replace(a, b):
        if os.path.basename(b) == "checkpoint":
            events.append("state: " + pathlib.Path(a).read_text().splitlines()[0])
        else:
            events.append("commit " + os.path.basename(b))
        real_replace(a, b)

    def remove(path):
        events.append("delete " + os.path.basename(path))
        real_remove(path)

    monkeypatch.setattr(atomic.os, "replace", replace)
    monkeypatch.setattr(mgr.os, "remove", remove)
    manager.save()
    assert events == [
        "commit ckpt-2.data-00000-of-00001", "commit ckpt-2.index",
        'state: model_checkpoint_path: "ckpt-2"',
        "delete ckpt-1.index", "delete ckpt-1.data-00000-of-00001",
        'state: model_checkpoint_path: "ckpt-2"']
