"""tf.summary: event files that TensorBoard reads as it reads TensorFlow's own.

tools/record_keras_train.py ran tests/compat/summary/write_summaries.py under
TensorFlow 2.21 and under tapeflow, and recorded what TensorBoard's EventAccumulator read
from each file; here tapeflow writes again and its file is read back with the checked
TFRecord reader of tapeflow.summary.reader.
"""
import json
import pathlib
import struct
import zlib

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("tensorboardX")
from tapeflow.summary import reader  # noqa: E402

HERE = pathlib.Path(__file__).parents[1]
FIX = json.loads((HERE / "fixtures" / "keras" / "train" / "summary.json").read_text())
PROGRAM = HERE / "compat" / "summary" / "write_summaries.py"


def _png_pixels(png):
    """Decode the 8-bit, unfiltered PNGs tapeflow writes."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    w, h, _, color, _, _, _ = header
    c = {0: 1, 4: 2, 2: 3, 6: 4}[color]
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, 1 + w * c)
    return raw[:, 1:].reshape(h, w, c).tolist()


def _read(logdir):
    (path,) = list(pathlib.Path(logdir).iterdir())
    assert path.name.startswith("events.out.tfevents.") and path.name.endswith(".v2")
    out = {}
    for event in reader.read_events(path):
        for v in event.summary.value:
            plugin = v.metadata.plugin_data.plugin_name
            t = v.tensor
            shape = [d.size for d in t.tensor_shape.dim]
            if plugin == "images":
                strings = list(t.string_val)
                value = {"size": [int(strings[0]), int(strings[1])],
                         "pixels": [_png_pixels(p) for p in strings[2:]]}
            elif plugin == "text":
                value = t.string_val[0].decode() if not shape else [
                    s.decode() for s in t.string_val]
            else:
                dtype = np.float64 if plugin == "histograms" else np.float32
                value = np.frombuffer(t.tensor_content, dtype).reshape(shape).tolist()
            out.setdefault(v.tag, []).append({"step": event.step, "plugin": plugin,
                                              "value": value})
    return out


def test_tensorboard_reads_tapeflow_files_as_tensorflow_files(tmp_path):
    exec(compile(PROGRAM.read_text(), str(PROGRAM), "exec"),
         {"tf": tf, "np": np, "logdir": str(tmp_path)})
    ours = _read(tmp_path)
    assert ours == FIX["tensorboard_read_tapeflow"]
    assert sorted(ours) == sorted(FIX["tensorflow_wrote"])
    for tag, rows in FIX["tensorflow_wrote"].items():
        for got, want in zip(ours[tag], rows, strict=True):
            assert got["step"] == want["step"] and got["plugin"] == want["plugin"], tag
            if isinstance(want["value"], (int, float, list)) and tag != "img":
                np.testing.assert_allclose(got["value"], want["value"], rtol=1e-12)
            else:
                assert got["value"] == want["value"], tag
    (path,) = list(tmp_path.iterdir())
    order = [[e.step, v.tag] for e in reader.read_events(path) for v in e.summary.value]
    assert order == FIX["summary_iterator_read_tapeflow"]


def test_ops_without_a_writer_or_step_behave_as_tensorflow(tmp_path):
    assert bool(tf.summary.scalar("a", 1.0, step=1)) is False
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("a", 1.0)
        with pytest.raises(ValueError, match="must have rank 4"):
            tf.summary.image("im", np.zeros((2, 2)), step=1)
        assert tf.summary.should_record_summaries()
        with tf.summary.record_if(lambda: False):
            assert not tf.summary.should_record_summaries()
    with writer.as_default(step=5):
        assert tf.summary.experimental.get_step() == 5
    assert tf.summary.experimental.get_step() is None
    with tf.summary.create_noop_writer().as_default():
        assert bool(tf.summary.scalar("a", 1.0, step=1)) is False
    writer.close()
    with pytest.raises(RuntimeError, match="closed"), writer.as_default():
        tf.summary.scalar("a", 1.0, step=1)


def test_a_write_is_one_op_reading_its_step_variable(tmp_path):
    from tapeflow._core.registry import PRIMITIVES
    step = tf.Variable(3, dtype=tf.int64)
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert bool(tf.summary.scalar("v", tf.constant(2.5), step=step))
        step.assign_add(1)
        tf.summary.scalar("v", tf.constant(3.5), step=step)
    (path,) = list(tmp_path.iterdir())
    assert reader.scalars(path) == {"v": [(3, 2.5), (4, 3.5)]}
    assert not PRIMITIVES["WriteSummary"].differentiable


def test_a_torn_record_is_reported(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        tf.summary.scalar("x", 1.0, step=0)
    writer.close()
    (path,) = list(tmp_path.iterdir())
    data = bytearray(path.read_bytes())
    data[-6] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="corrupt record"):
        list(reader.read_events(path))
