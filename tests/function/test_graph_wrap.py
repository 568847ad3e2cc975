"""``tf.compat.v1.wrap_function`` as TensorFlow 2.21 gives it (fixtures recorded by
``tools/record_graph_wrap.py`` from ``graph_wrap_cases.py``): calls, variables created
inside kept and read at each call, gradients through the call, ``prune`` to intermediate
tensors (fed from placeholders or from an intermediate), structured outputs, input
placeholders (``Placeholder``, a spec's own name) and ``structured_input_signature``."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.function.graph_wrap_cases import CASES, run_case

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "function",
                       "graph_wrap.json")
with open(FIXTURE) as fh:
    TF = json.load(fh)["cases"]


def plain(x):
    if isinstance(x, dict):
        return {k: plain(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        return {"dtype": x.dtype.name, "value": np.asarray(x.numpy()).tolist()}
    return x


@pytest.mark.parametrize("name", sorted(CASES))
def test_wrap_function_as_tf(name):
    assert plain(run_case(name, tf)) == TF[name]


def test_pruned_function_refuses_foreign_tensors():
    wf = tf.compat.v1.wrap_function(lambda x: x * 2.0, [tf.TensorSpec([], tf.float32)])
    other = tf.compat.v1.wrap_function(lambda y: y + 1.0, [tf.TensorSpec([], tf.float32)])
    with pytest.raises(ValueError):
        wf.prune(feeds=wf.inputs[0], fetches=other.graph.get_tensor_by_name("add:0"))
