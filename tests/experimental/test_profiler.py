"""``tf.profiler.experimental`` against TF 2.21 (tools/record_profiler.py): the XSpace bytes
TF's own protobuf writes, the file layout, the misuse errors; and real region timings."""
import json
import pathlib
import threading
import time

import pytest

import tapeflow as tf
from tapeflow import profiler

FIXTURE = pathlib.Path(__file__).parent.parent / "fixtures/experimental/profiler.json"
DATA = json.loads(FIXTURE.read_text())


def _decode(buf):
    """A protobuf wire-format reader: {field: [values]} (length-delimited kept as bytes)."""
    out, i = {}, 0
    while i < len(buf):
        key, i = _uvarint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _uvarint(buf, i)
        else:
            n, i = _uvarint(buf, i)
            v, i = buf[i:i + n], i + n
        out.setdefault(num, []).append(v)
    return out


def _uvarint(buf, i):
    shift = v = 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def test_xspace_bytes_match_tf():
    assert profiler.encode_xspace(DATA["space"]).hex() == DATA["bytes"]


def test_misuse_errors():
    cls, msg = DATA["errors"]["stop_without_start"]
    with pytest.raises(getattr(tf.errors, cls), match=msg.replace(".", r"\.")):
        tf.profiler.experimental.stop()
    tf.profiler.experimental.start("unused")
    try:
        cls, msg = DATA["errors"]["start_twice"]
        with pytest.raises(getattr(tf.errors, cls), match=msg.replace(".", r"\.")):
            tf.profiler.experimental.start("unused")
    finally:
        tf.profiler.experimental.stop(save=False)


def _profile(tmp_path):
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) == 1
    rel = files[0].relative_to(tmp_path)
    assert "/".join(rel.parts[:2]) + "/<run>/<host>" + "".join(rel.suffixes) in DATA["layout"]
    space = _decode(files[0].read_bytes())
    plane = _decode(space[1][0])
    assert plane[2] == [b"/host:CPU"]
    meta = {}
    for entry in plane[4]:
        e = _decode(entry)
        m = _decode(e[2][0])
        meta[m[1][0]] = m[2][0].decode()
    lines = [_decode(ln) for ln in plane[3]]
    return meta, lines


def test_steps_recorded_with_their_durations(tmp_path):
    with tf.profiler.experimental.Profile(str(tmp_path)):
        for step in range(3):
            with tf.profiler.experimental.Trace("train", step_num=step, _r=1):
                time.sleep(0.02)
    meta, lines = _profile(tmp_path)
    assert sorted(meta.values()) == [f"train#step_num={s},_r=1#" for s in range(3)]
    events = [_decode(e) for e in lines[0][4]]
    assert len(events) == 3
    for e in events:
        assert e[3][0] >= 20 * 10**9   # duration_ps of a 20 ms sleep, at least
    offsets = [e.get(2, [0])[0] for e in events]
    assert offsets == sorted(offsets)


def test_trace_is_inert_without_a_profile():
    with tf.profiler.experimental.Trace("x", step_num=1) as t:
        pass
    assert t._t0 is None


def test_client_trace_captures_another_thread(tmp_path):
    tf.profiler.experimental.server.start(6009)
    done = threading.Event()

    def work():
        while not done.is_set():
            with tf.profiler.experimental.Trace("work"):
                time.sleep(0.005)

    th = threading.Thread(target=work, name="worker")
    th.start()
    try:
        tf.profiler.experimental.client.trace("grpc://localhost:6009", str(tmp_path), 100)
    finally:
        done.set()
        th.join()
    meta, lines = _profile(tmp_path)
    assert set(meta.values()) == {"work"}
    assert any(ln[2] == [b"worker"] for ln in lines)
    with pytest.raises(tf.errors.UnavailableError):
        tf.profiler.experimental.client.trace("grpc://localhost:6010", str(tmp_path), 1)
