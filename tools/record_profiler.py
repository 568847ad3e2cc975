"""Record TF 2.21's profiler facts for tapeflow's ``tf.profiler`` (run under the TF venv).

Writes ``tests/fixtures/experimental/profiler.json``: the bytes TF's own ``xplane_pb2``
serialises for a described XSpace (tapeflow's encoder must produce the same bytes), the
TraceMe names ``tf.profiler.experimental.Trace`` builds from keyword arguments, and the
exceptions ``start``/``stop`` raise when misused.
Usage: TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_profiler.py
"""
import json
import pathlib
import tempfile

SPACE = {
    "hostnames": ["host-a"],
    "planes": [{
        "id": 0, "name": "/host:CPU",
        "event_metadata": [[1, "train#step_num=1,_r=1#"], [2, "matmul"]],
        "stat_metadata": [[1, "step_num"]],
        "lines": [{"id": 7, "name": "python", "timestamp_ns": 1795942000123456789,
                   "events": [[1, 0, 2500000], [2, 1000000, 300000000000], [1, 5, 0]]}],
    }],
}


def xspace_bytes(space):
    from tensorflow.tsl.profiler.protobuf import xplane_pb2 as x
    s = x.XSpace()
    s.hostnames.extend(space["hostnames"])
    for p in space["planes"]:
        plane = s.planes.add(id=p["id"], name=p["name"])
        for mid, name in p["event_metadata"]:
            plane.event_metadata[mid].id = mid
            plane.event_metadata[mid].name = name
        for sid, name in p["stat_metadata"]:
            plane.stat_metadata[sid].id = sid
            plane.stat_metadata[sid].name = name
        for ln in p["lines"]:
            line = plane.lines.add(id=ln["id"], name=ln["name"],
                                   timestamp_ns=ln["timestamp_ns"])
            for mid, off, dur in ln["events"]:
                line.events.add(metadata_id=mid, offset_ps=off, duration_ps=dur)
    return s.SerializeToString(deterministic=True)


def main():
    import tensorflow as tf
    out = {"space": SPACE, "bytes": xspace_bytes(SPACE).hex()}
    out["errors"] = {}
    d = tempfile.mkdtemp()
    try:
        tf.profiler.experimental.stop()
    except Exception as exc:  # noqa: BLE001 - the class is the record
        out["errors"]["stop_without_start"] = [type(exc).__name__, str(exc)]
    tf.profiler.experimental.start(d)
    try:
        tf.profiler.experimental.start(d)
    except Exception as exc:  # noqa: BLE001
        out["errors"]["start_twice"] = [type(exc).__name__, str(exc)]
    with tf.profiler.experimental.Trace("train", step_num=1, _r=1):
        tf.matmul(tf.ones((2, 2)), tf.ones((2, 2)))
    tf.profiler.experimental.stop()
    # plugins/profile/<run>/<host>.xplane.pb: the parts that do not vary
    files = sorted("/".join(p.relative_to(d).parts[:2]) + "/<run>/<host>" + "".join(p.suffixes)
                   for p in pathlib.Path(d).rglob("*") if p.is_file())
    out["layout"] = files
    path = (pathlib.Path(__file__).resolve().parent.parent
            / "tests/fixtures/experimental/profiler.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(path, out["errors"], files)


if __name__ == "__main__":
    main()
