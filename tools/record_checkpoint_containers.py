#!/usr/bin/env python3
"""TF 2.21's object graph of a ``tf.Module`` with empty and stateless lists, dicts and tuples
(``tests/checkpoint/cases.py:containers_program``): per node its children (local name, node
id), and the sha256 of the ``.index`` file, written to
``tests/fixtures/checkpoint/containers.json``. tapeflow's checkpoint of the same program must
be byte for byte the same (``tests/checkpoint/test_containers.py``).

Usage (where TF 2.21 is installed):
    TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_checkpoint_containers.py
"""
import hashlib
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "tests", "fixtures", "checkpoint", "containers.json")


def main():
    import tensorflow as tf
    from tensorflow.core.protobuf import trackable_object_graph_pb2

    from tests.checkpoint.cases import containers_program
    with tempfile.TemporaryDirectory() as d:
        path = tf.train.Checkpoint(m=containers_program(tf)).write(os.path.join(d, "c"))
        graph = trackable_object_graph_pb2.TrackableObjectGraph()
        graph.ParseFromString(tf.train.load_checkpoint(path).get_tensor(
            "_CHECKPOINTABLE_OBJECT_GRAPH"))
        with open(path + ".index", "rb") as fh:
            sha = hashlib.sha256(fh.read()).hexdigest()
    nodes = [[[c.local_name, c.node_id] for c in n.children] for n in graph.nodes]
    with open(OUT, "w") as fh:
        json.dump({"tensorflow": tf.__version__, "nodes": nodes, "index_sha256": sha}, fh,
                  indent=1)
        fh.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
