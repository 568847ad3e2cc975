"""``name=`` of ops made inside ``tf.Graph().as_default()`` as TensorFlow 2.21 names their
nodes (fixtures recorded by ``tools/record_graph_names.py`` from ``graph_name_cases.py``):
``sum``, ``sum_1`` when taken, ``scope/sum`` under ``tf.name_scope``, an op's constant inputs
under its name (``flat/shape``), the tensors named ``<node>:0``."""
import json
import os

import pytest

import tapeflow as tf
from tests.function.graph_name_cases import CASES, run_case

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "function",
                       "graph_names.json")
with open(FIXTURE) as fh:
    TF = json.load(fh)["cases"]


# Where tapeflow's names differ, and why: `tf.add(a, b)` without a name is TF's `Add` (the
# default of tf.add's Python wrapper; `a + b` is `add`, uniquified case-insensitively to
# `add_1` after it); tapeflow names both by the op type, `add` and `add_1`.
KNOWN = {"binary": {"Add": "add"}}


def _expected(name):
    ren = KNOWN.get(name, {})

    def tensor(t):
        op, _, k = t.partition(":")
        return ren.get(op, op) + ":" + k
    want = TF[name]
    return {"shown": [tensor(t) for t in want["shown"]],
            "operations": [[ren.get(n, n), op, [tensor(i) for i in ins]]
                           for n, op, ins in want["operations"]]}


@pytest.mark.parametrize("name", sorted(CASES))
def test_names_as_tf(name):
    g, shown = run_case(name, tf)
    want = _expected(name)
    assert [t.name for t in shown] == want["shown"]
    assert [[op.name, op.type, [t.name for t in op.inputs]]
            for op in g.get_operations()] == want["operations"]
    assert [n.name for n in g.as_graph_def().node] == [o[0] for o in want["operations"]]
