"""The order of a GraphDef's function library: TF 2.21 lists the functions in the slot
order of its C++ ``gtl::FlatMap`` of names (``graph_def.library_order``). Checked on the
libraries TF printed (``tools/record_graph_library.py``): the functions, added in the order
TF numbered them, come out in TF's order, for one bucket and for a grown table (twelve
functions), with colliding slots."""
import json
import os
import re

import pytest

import tapeflow as tf
from tapeflow import _protobuf as pb
from tapeflow.function import graph_def as gd
from tests.function.graph_library_cases import CASES, run_case

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "function",
                       "graph_library.json")
with open(FIXTURE) as fh:
    TF = json.load(fh)["cases"]


def _uid(name):
    return int(re.search(r"_(\d+)$", name).group(1))


def _fdef(name):
    return pb.Message("tensorflow.FunctionDef", signature=pb.Message("tensorflow.OpDef",
                                                                      name=name))


@pytest.mark.parametrize("name", sorted(CASES))
def test_library_order_as_tf(name):
    want = TF[name]
    made = [_fdef(n) for n in sorted(want, key=_uid)]
    assert [f.signature.name for f in gd.library_order(made)] == want


def test_hash64_known_values():
    """Slots of names TF listed (``(hash >> 8) & 7``) in a one-bucket library."""
    assert [(gd._hash64(n) >> 8) & 7 for n in ("cond_true_30", "cond_false_31",
                                                "cond_true_14", "cond_false_15")] == \
        [5, 2, 3, 3]


@pytest.mark.parametrize("name", sorted(CASES))
def test_function_library_holds_tf_functions(name, tmp_path):
    """tapeflow's library for the case: the same kinds of functions as TF's (names up to
    their process-wide numbers), listed by the same rule."""
    f, args = run_case(name, tf, str(tmp_path))
    lib = f.get_concrete_function(*args).graph.as_graph_def().library.function
    got = [fd.signature.name for fd in lib]
    assert sorted(re.sub(r"_\d+$", "", n) for n in got) == \
        sorted(re.sub(r"_\d+$", "", n) for n in TF[name])
    assert got == [f.signature.name for f in gd.library_order(
        [_fdef(n) for n in sorted(got, key=_uid)])]
