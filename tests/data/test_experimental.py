"""tf.data's ignore_errors, save/load, snapshot, ragged_batch, sparse_batch and
rejection_resample: against TensorFlow 2.21's results recorded by
tools/record_data_experimental.py into tests/fixtures/data/experimental.json (the cases
of tests/data/experimental_cases.py), plus tapeflow's own on-disk guarantees (crash safety, chunks,
another process reading a snapshot) and rejection_resample's class distribution measured
against its target."""
import gzip
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
from tests.data import experimental_cases as cases  # noqa: E402

with open(os.path.join(HERE, "..", "fixtures", "data", "experimental.json")) as f:
    FIXTURES = json.load(f)
CASES = FIXTURES["cases"]

# TensorFlow's text names its own files or formats; tapeflow raises the same class with a
# message about its own format (see docs/keras_and_data.md).
CLASS_ONLY = {"load_gzip_as_plain", "load_plain_as_gzip"}
TEXT_FIXES = {"load_missing": ("dataset_spec.pb", "dataset_spec.json")}
# TensorFlow's load orders a dict spec's keys differently from run to run: compared sorted
DICT_ORDER = {"save_dict"}
# element_specs tapeflow reads off an element where TensorFlow's shape inference says None
# (none now: ``map`` traces its function on the element spec, as TensorFlow does)
INFERRED = {}


@pytest.fixture(scope="module")
def env():
    cases.reset_root()
    return cases.namespace(tf)


def _strip(text):
    """TensorFlow's message without its ``{{function_node ...}} `` prefix."""
    return text[text.index("}}") + 3:] if text.startswith("{{") else text


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tensorflow(name, env):
    case = CASES[name]
    if "error" in case:
        cls, text = case["error"]
        with pytest.raises(Exception) as info:  # noqa: PT011 - the class is checked below
            out = eval(case["source"], dict(env))  # noqa: S307 - the case table
            if isinstance(out, tf.data.Dataset):
                list(out)
        assert type(info.value).__name__ == cls
        if name not in CLASS_ONLY:
            old, new = TEXT_FIXES.get(name, ("", ""))
            assert str(info.value).split("\n")[0] == _strip(text).replace(old, new)
        return
    got = cases.record(tf, name, case["source"], env)
    keys = ["value", "cardinality", "elements"]
    keys += ["element_spec_sorted"] if name in DICT_ORDER else ["repr", "element_spec"]
    for key in keys:
        assert (key in got) == (key in case), key
        if key in case:
            want = case[key]
            if name in INFERRED and key in ("repr", "element_spec"):
                want = want.replace(*INFERRED[name])
            assert got[key] == want, key


def test_ignore_errors_logs_each_dropped_element(capsys):
    want = FIXTURES["log_warning"]
    ds = tf.data.Dataset.from_tensor_slices(["1", "2", "x", "3", "y", "4"])
    print([float(x) for x in ds.map(tf.strings.to_number).ignore_errors(log_warning=True)])
    out = capsys.readouterr()
    assert out.out.strip() == want["stdout"]
    lines = [ln for ln in out.err.splitlines() if "Error raised with error message" in ln]
    assert len(lines) == want["warnings"] == 2
    assert lines[0].startswith("W") and "] Error raised with error message " in lines[0]
    assert "StringToNumberOp could not correctly convert string: x" in lines[0]
    assert "could not correctly convert string: y" in lines[1]


def test_ignore_errors_keeps_other_python_errors():
    """A Python exception that is not an OpError (a bug in the function, which TensorFlow
    raises when it traces it) is not swallowed."""
    def bad(x):
        if int(x) == 2:
            raise KeyError("bug")
        return x
    with pytest.raises(KeyError):
        list(tf.data.Dataset.range(4).map(bad).ignore_errors())


@pytest.mark.parametrize("name", sorted(FIXTURES["function_cases"]))
def test_for_over_the_dataset_in_a_function(name, env):
    case = FIXTURES["function_cases"][name]
    ds = eval(case["source"], dict(env))  # noqa: S307 - the case table
    total = cases.total_function(tf)
    assert [[int(t) for t in total(ds)] for _ in range(2)] == case["calls"]


@pytest.mark.parametrize("make", [
    lambda: tf.data.Dataset.from_generator(lambda: iter([[1], [2, 3]]), output_signature=(
        tf.TensorSpec([None], tf.int64))).ragged_batch(2),
    lambda: tf.data.Dataset.from_generator(lambda: iter([[1], [2, 3]]), output_signature=(
        tf.TensorSpec([None], tf.int64))).sparse_batch(2, [3]),
])
def test_function_loop_over_composite_elements_is_refused(make):
    total = cases.total_function(tf)
    with pytest.raises(NotImplementedError, match="not in tapeflow"):
        total(make())


def test_default_reader_interleaves_cpu_count_shards(tmp_path):
    """Without reader_func the shards are interleaved, as many at once as CPU cores (as
    TensorFlow's default reader): checked against the explicit interleave."""
    path = str(tmp_path / "d")
    tf.data.Dataset.range(10).save(path, shard_func=lambda x: x % 3)
    got = list(tf.data.Dataset.load(path).as_numpy_iterator())
    want = list(tf.data.Dataset.load(path, reader_func=lambda d: d.interleave(
        lambda x: x, cycle_length=os.cpu_count())).as_numpy_iterator())
    assert got == want and sorted(got) == list(range(10))
    if os.cpu_count() == FIXTURES["cpu_count"] == 2:   # TensorFlow's order on 2 cores
        assert got == [0, 1, 3, 4, 6, 7, 9, 2, 5, 8]


# -- tapeflow's on-disk format ---------------------------------------------------------------
def test_layout_chunks_order_and_gzip(tmp_path):
    n = 2 * cases_chunk() + 100   # three chunks
    values = np.arange(n, dtype=np.float32) * 0.5
    ds = tf.data.Dataset.from_tensor_slices((values, np.arange(n)))
    path = str(tmp_path / "g")
    ds.save(path, compression="GZIP")
    names = sorted(os.listdir(os.path.join(path, "shard_00000000")))
    assert names == [f"chunk_{i:08d}.npz.gz" for i in range(3)]
    with open(os.path.join(path, "shard_00000000", names[0]), "rb") as f:
        assert f.read(2) == b"\x1f\x8b"     # gzip's magic number
    assert gzip.decompress(open(os.path.join(path, "shard_00000000", names[0]),
                                "rb").read())[:2] == b"PK"   # an npz inside
    meta = json.load(open(os.path.join(path, "tapeflow_dataset.json")))
    assert meta["compression"] == "GZIP" and meta["cardinality"] == n
    out = list(tf.data.Dataset.load(path, compression="GZIP").as_numpy_iterator())
    assert [float(a) for a, _ in out] == values.tolist()
    assert [int(b) for _, b in out] == list(range(n))


def cases_chunk():
    from tapeflow.data import saving
    return saving.CHUNK


def test_namedtuple_and_strings_round_trip(tmp_path):
    import collections
    Point = collections.namedtuple("Point", ["x", "name"])
    ds = tf.data.Dataset.from_tensor_slices(Point(np.array([[1, 2], [3, 4]], np.int32),
                                                  np.array([b"a", b"bc"], object)))
    ds.save(str(tmp_path / "p"))
    back = tf.data.Dataset.load(str(tmp_path / "p"))
    spec = back.element_spec
    assert type(spec).__name__ == "Point" and spec._fields == ("x", "name")
    assert repr(spec.x) == "TensorSpec(shape=(2,), dtype=tf.int32, name=None)"
    got = list(back.as_numpy_iterator())
    assert [e.x.tolist() for e in got] == [[1, 2], [3, 4]]
    assert [e.name for e in got] == [b"a", b"bc"]


def test_interrupted_save_leaves_nothing_that_loads(tmp_path):
    path = str(tmp_path / "x")

    def gen():
        for i in range(5):
            if i == 3:
                raise KeyboardInterrupt
            yield np.int64(i)
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64))
    with pytest.raises(KeyboardInterrupt):
        ds.save(path)
    assert os.listdir(tmp_path) == []          # no directory, no temporary left
    with pytest.raises(tf.errors.NotFoundError):
        tf.data.Dataset.load(path)
    # an interrupted overwrite keeps the complete dataset that was there
    tf.data.Dataset.range(4).save(path)
    with pytest.raises(KeyboardInterrupt):
        ds.save(path)
    assert sorted(os.listdir(tmp_path)) == ["x"]
    assert list(tf.data.Dataset.load(path).as_numpy_iterator()) == [0, 1, 2, 3]


def test_a_killed_writer_s_temporary_does_not_load(tmp_path):
    """A process killed while writing leaves only its temporary sibling directory (whose
    metadata file is written last): the path itself does not exist."""
    from tapeflow.data import saving
    writer = saving._Writer(str(tmp_path / "k"), tf.TensorSpec([], tf.int64), None)
    writer.add([np.int64(1)])
    writer._flush(0, writer.shards[0])   # chunks on disk, never committed
    assert not os.path.exists(tmp_path / "k")
    with pytest.raises(tf.errors.NotFoundError):
        tf.data.Dataset.load(str(tmp_path / "k"))
    with pytest.raises(tf.errors.NotFoundError, match="Could not find metadata file"):
        tf.data.Dataset.load(writer.tmp, element_spec=tf.TensorSpec([], tf.int64))


def test_tensorflow_saved_directory_is_named(tmp_path):
    for name in ("dataset_spec.pb", "snapshot.metadata"):
        open(tmp_path / name, "wb").close()
    with pytest.raises(tf.errors.UnimplementedError, match="saved by TensorFlow"):
        tf.data.Dataset.load(str(tmp_path))


def test_checkpoint_args_accepted(tmp_path):
    path = str(tmp_path / "c")
    tf.data.Dataset.range(3).save(path, checkpoint_args={
        "directory": str(tmp_path / "ckpt"), "max_to_keep": 2})
    assert list(tf.data.Dataset.load(path).as_numpy_iterator()) == [0, 1, 2]


def test_save_of_ragged_elements_is_refused(tmp_path):
    ds = tf.data.Dataset.from_generator(lambda: iter([[1], [2, 3]]), output_signature=(
        tf.TensorSpec([None], tf.int64))).ragged_batch(2)
    with pytest.raises(TypeError, match="RaggedTensorSpec"):
        ds.save(str(tmp_path / "r"))
    assert os.listdir(tmp_path) == []


# -- snapshot --------------------------------------------------------------------------------
def test_snapshot_partial_pass_writes_nothing(tmp_path):
    ds = tf.data.Dataset.range(5).snapshot(str(tmp_path))
    assert list(ds.take(2).as_numpy_iterator()) == [0, 1]
    assert os.listdir(tmp_path) == []
    assert list(ds.as_numpy_iterator()) == [0, 1, 2, 3, 4]
    (fp,) = os.listdir(tmp_path)
    assert os.path.exists(tmp_path / fp / "tapeflow_dataset.json")


SNAPSHOT_PROGRAM = """
import sys
import tapeflow as tf
log = sys.argv[2]

def note(x):
    with open(log, "a") as f:
        f.write(f"{int(x)}\\n")
    return x

ds = tf.data.Dataset.range(4).map(lambda x: tf.py_function(note, [x * 3], tf.int64))
print([int(x) for x in ds.snapshot(sys.argv[1])])
"""


def test_snapshot_is_read_by_another_process(tmp_path):
    """The fingerprint of a pipeline is the same in a new process: the second run reads
    the files and does not compute the elements."""
    envvars = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(HERE, "..", "..", "src"), os.environ.get("PYTHONPATH", "")]))
    outs, computed = [], []
    for run_index in range(2):
        log = str(tmp_path / f"log{run_index}")
        open(log, "w").close()
        run = subprocess.run([sys.executable, "-c", SNAPSHOT_PROGRAM, str(tmp_path / "s"),
                              log], capture_output=True, text=True, env=envvars, check=True)
        outs.append(run.stdout.strip())
        computed.append(open(log).read().split())
    assert outs == ["[0, 3, 6, 9]"] * 2
    assert computed == [["0", "3", "6", "9"], []]


def test_snapshot_fingerprint_tells_pipelines_apart(tmp_path):
    from tapeflow.data import saving
    r = tf.data.Dataset.range
    a = saving.fingerprint(r(5).map(lambda x: x * 2))
    assert a == saving.fingerprint(r(5).map(lambda x: x * 2))
    assert a != saving.fingerprint(r(5).map(lambda x: x * 3))      # another constant
    assert a != saving.fingerprint(r(6).map(lambda x: x * 2))      # another source
    assert a != saving.fingerprint(r(5).map(lambda x: x + 2))      # another operation
    k = 2
    assert saving.fingerprint(r(5).map(lambda x: x * k)) != saving.fingerprint(
        r(5).map(lambda x: x * (k + 1)))                           # a captured value
    s1 = tf.data.Dataset.from_tensor_slices(np.arange(4.0))
    s2 = tf.data.Dataset.from_tensor_slices(np.arange(4.0) + 1)
    assert saving.fingerprint(s1) != saving.fingerprint(s2)       # the arrays' bytes


# -- rejection_resample: the class distribution ---------------------------------------------
def _expected_length(n, initial, target):
    """TensorFlow's mixing: outputs until the rejection stream runs out (its acceptance
    rate sum p_i a_i per input), a fraction 1 - m of them from that stream."""
    ratio = np.asarray(target) / np.asarray(initial)
    m, top = ratio.min(), ratio.max()
    rate = float(np.sum(np.asarray(initial) * (ratio - m) / (top - m)))
    mean = n * rate / (1 - m)
    sd = np.sqrt(n * rate * (1 - rate)) / (1 - m)
    return mean, sd


@pytest.mark.parametrize("given", [True, False])
def test_rejection_resample_reaches_the_target(given):
    initial, target = [0.6, 0.3, 0.1], [0.2, 0.3, 0.5]
    n_in = 20000
    labels = np.random.default_rng(0).choice(3, size=n_in, p=initial).astype(np.int32)
    ds = tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices(labels),
                              tf.data.Dataset.range(n_in)))
    kw = {"initial_dist": initial} if given else {}
    out = list(ds.rejection_resample(lambda c, i: c, target, seed=3, **kw)
               .as_numpy_iterator())
    classes = np.array([c for c, _ in out])
    # the structure: (class, element) with class == class_func(element)
    assert all(c == e[0] and labels[e[1]] == c for c, e in out)
    n = len(classes)
    fractions = np.bincount(classes, minlength=3) / n
    bound = 4.5 * np.sqrt(np.asarray(target) * (1 - np.asarray(target)) / n)
    assert np.all(np.abs(fractions - target) < bound), (fractions, bound)
    ref = FIXTURES["resample_fractions"]["given" if given else "estimated"]
    assert np.all(np.abs(np.asarray(ref["fractions"]) - target) < bound)  # TF's: same bound
    mean, sd = _expected_length(n_in, initial, target)
    assert abs(n - mean) < 5 * sd, (n, mean, sd)
    # without resampling the input's own distribution is far outside the bound
    assert np.any(np.abs(np.bincount(labels, minlength=3) / n_in - target) > 10 * bound)


def test_rejection_resample_seed_reproduces():
    ds = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 1, 1, 0] * 50,
                                                     np.int32))
    def run(seed):
        return [int(c) for c, _ in ds.rejection_resample(
            lambda x: x, [0.5, 0.5], initial_dist=[0.375, 0.625], seed=seed)]
    assert run(7) == run(7)
    assert run(7) != run(8)


def test_rejection_resample_warns_like_tf_print(capsys):
    ds = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 1, 1, 0] * 4,
                                                     np.int32))
    list(ds.rejection_resample(lambda x: x, [0.5, 0.5], initial_dist=[0.375, 0.625],
                               seed=1))   # accepts [1, 0]: 0.625 of the inputs rejected
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["Proportion of examples rejected by sampler is high: "
                     "[0.625][0.375 0.625][1 0]"] * 10   # tf.Print's first_n=10
