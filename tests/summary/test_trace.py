"""tf.summary.trace_on / trace_export: the graphs of the functions traced in between, written
as TensorBoard's ``graph_run_metadata_graph`` summary. What TF 2.21 does (checked by hand
with TF 2.21; see ``summary/trace.py``): a function traced before ``trace_on`` is not
exported, one traced after is; the summary's plugin is ``graph_run_metadata_graph`` with
content ``b"1"``, its tensor a serialized RunMetadata; ``trace_export`` returns None and ends
the trace, so a second export raises ValueError."""
import pytest

import tapeflow as tf
from tapeflow import _protobuf as pb

pytest.importorskip("tensorboardX")
from tapeflow.summary import reader  # noqa: E402


def _fields(buf):
    """(number, payload) of each length-delimited field of a protobuf message."""
    pos, out = 0, []
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        size, pos = _varint(buf, pos)
        assert key & 7 == 2
        out.append((key >> 3, buf[pos:pos + size]))
        pos += size
    return out


def _varint(buf, pos):
    shift = value = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, pos


def test_trace_export_writes_the_graphs_traced_after_trace_on(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def before(x):
        return x * 2.0

    before(tf.ones([2]))
    tf.summary.trace_on(graph=True, profiler=False)

    @tf.function
    def f(x, y):
        return tf.nn.relu(tf.matmul(x, y))

    f(tf.ones([2, 2]), tf.ones([2, 2]))
    before(tf.ones([2]))                     # already traced: not exported (as TF)
    with writer.as_default():
        assert tf.summary.trace_export(name="my_trace", step=3) is None
    writer.flush()
    with pytest.raises(ValueError, match="Must enable trace before export through "
                                         "tf.summary.trace_on."):
        tf.summary.trace_export(name="again", step=0)
    events = [e for path in tmp_path.iterdir() for e in reader.read_events(str(path))
              if e.HasField("summary")]
    assert len(events) == 1 and events[0].step == 3
    value = events[0].summary.value[0]
    assert value.tag == "my_trace"
    assert value.metadata.plugin_data.plugin_name == "graph_run_metadata_graph"
    assert value.metadata.plugin_data.content == b"1"
    graphs = [payload for number, payload in _fields(value.tensor.string_val[0])]
    assert [n for n, _ in _fields(value.tensor.string_val[0])] == [4]   # function_graphs
    pre = dict(_fields(graphs[0]))[2]                                   # pre_optimization
    graph = pb.decode("tensorflow.GraphDef", pre)
    assert [(n.name, n.op) for n in graph.node] == [
        ("x", "Placeholder"), ("y", "Placeholder"), ("MatMul", "MatMul"), ("Relu", "Relu"),
        ("Identity", "Identity")]


def test_trace_off_drops_the_collection(tmp_path):
    tf.summary.trace_on()
    tf.summary.trace_off()
    with pytest.raises(ValueError):
        tf.summary.trace_export(name="t", step=0)
