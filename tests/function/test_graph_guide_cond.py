"""The intro_to_graphs guide's ``print(graph.as_graph_def())`` of ``simple_relu``, checked
against TF 2.21's printed text (``tests/compat/programs/intro_to_graphs_guide.tf-2.21.out``,
recorded by ``tools/record_compat.py``): the nodes, and every FunctionDef of the library as
TF prints it: the branch functions numbered by TF's process-wide uid counter
(``cond_true_30``, ``cond_false_31``), AutoGraph's ``do_return`` output, the constants its
checks leave in the else branch, the captured argument ``cond_identity_1_x`` and the
``cond_placeholder`` of the branch that does not read ``x``, and the library's order (TF's
``gtl::FlatMap`` slots: ``cond_false_31`` first)."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "compat"))
import compare  # noqa: E402

PROGRAM = compare.PROGRAMS / "intro_to_graphs_guide.py"


def _graph_text(out):
    """The printed GraphDef of the program's output: its nodes' text and its functions'
    texts keyed by name."""
    start = out.index("node {\n")
    end = out.index("versions {\n", start)
    text = out[start:end]
    lib = text.index("library {\n")
    nodes = text[:lib]
    body = text[lib + len("library {\n"):].rstrip("\n")
    assert body.endswith("}")
    chunks = re.split(r"(?m)^  function \{\n", body[:-1])
    assert chunks[0] == ""
    funcs = {}
    for chunk in chunks[1:]:
        name = re.search(r'^      name: "(\w+)"', chunk, re.M).group(1)
        funcs[name] = chunk
    return nodes, funcs


def test_simple_relu_graph_def_as_tf():
    proc = compare.run(PROGRAM)
    assert proc.returncode == 0, proc.stderr[-2000:]
    want_nodes, want_funcs = _graph_text(PROGRAM.with_suffix(".tf-2.21.out").read_text())
    got_nodes, got_funcs = _graph_text(proc.stdout)
    assert sorted(want_funcs) == ["cond_false_31", "cond_true_30"]
    assert got_nodes.splitlines() == want_nodes.splitlines()
    assert list(got_funcs) == list(want_funcs) == ["cond_false_31", "cond_true_30"]
    for name, text in want_funcs.items():
        assert got_funcs[name].splitlines() == text.splitlines(), name
