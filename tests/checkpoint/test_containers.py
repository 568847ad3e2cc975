"""Empty and stateless lists and dicts are nodes of a tf.Module's object graph, as TF tracks
them (``tests/fixtures/checkpoint/containers.json``, recorded by
``tools/record_checkpoint_containers.py``): the checkpoint's object graph and ``.index``
bytes equal TF's, and a SavedModel keeps an empty list attribute."""
import hashlib
import json
import os

import tapeflow as tf
from tapeflow import _protobuf as pb
from tests.checkpoint.cases import containers_program

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "checkpoint",
                       "containers.json")
with open(FIXTURE) as _fh:
    TF = json.load(_fh)


def test_object_graph_and_index_bytes_equal_tf(tmp_path):
    path = tf.train.Checkpoint(m=containers_program(tf)).write(str(tmp_path / "c"))
    graph = pb.decode("tensorflow.TrackableObjectGraph", tf.train.load_checkpoint(
        path).get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
    nodes = [[[c.local_name, c.node_id] for c in n.children] for n in graph.nodes]
    assert nodes == TF["nodes"]
    with open(path + ".index", "rb") as fh:
        assert hashlib.sha256(fh.read()).hexdigest() == TF["index_sha256"]


def test_empty_list_survives_a_saved_model(tmp_path):
    root = containers_program(tf)
    tf.saved_model.save(root, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert loaded.empty == [] and loaded.non_trainable_variables_like == []
    assert loaded.nested[0] == [] and loaded.nested[1]["a"] == []
    assert [float(x) for x in loaded.tv[0].numpy()] == [1.0, 2.0]
    assert loaded.ints == [] and loaded.d == {} and not hasattr(loaded, "t")
    assert loaded.tl[0] == []
