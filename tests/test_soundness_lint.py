"""Graph-mode soundness lint: code outside the op layer never touches a tensor's raw value.

A replayed ``tf.function`` program sees only op calls and variable reads and writes; a raw
``t._value`` read from Keras or data code would freeze a value into the program, and a
``v._value = ...`` write would change state behind the recorder's back. State changes go
through ``Variable.assign*``, values through ops (``ops/`` may read ``_value``: op forwards
are where raw values live).
"""
import ast
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parent.parent / "src" / "tapeflow"
CHECKED = ("keras", "data", "checkpoint", "summary", "distribute")
# (file under src/tapeflow, enclosing function) -> why a raw read is sound there.
ALLOWED = {
    ("keras/_variable.py", "KerasVariable.__repr__"):
        "printing shows the current value, as Keras's repr does; nothing is computed from it",
    ("checkpoint/graph.py", "serialize"):
        "saving writes the stored value to a file (TF's SaveV2); never inside a traced program",
}


def _raw_value_uses(path):
    """``(line, enclosing function, 'read'|'write')`` for every ``<expr>._value``."""
    tree = ast.parse(path.read_text(), str(path))
    found = []

    def visit(node, scope):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = f"{scope}.{node.name}" if scope else node.name
        if isinstance(node, ast.Attribute) and node.attr == "_value":
            kind = "write" if isinstance(node.ctx, (ast.Store, ast.Del)) else "read"
            found.append((node.lineno, scope, kind))
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(tree, "")
    return found


def _files():
    for package in CHECKED:
        if (SRC / package).is_dir():
            yield from sorted((SRC / package).rglob("*.py"))


@pytest.mark.parametrize("path", list(_files()), ids=lambda p: str(p.relative_to(SRC)))
def test_no_raw_tensor_values_in_keras_and_data(path):
    rel = str(path.relative_to(SRC))
    bad = [f"{rel}:{line} {kind} of ._value in {scope or '<module>'}"
           for line, scope, kind in _raw_value_uses(path) if (rel, scope) not in ALLOWED]
    assert not bad, ("raw tensor values outside op implementations (use ops, .shape/.dtype, "
                     "or Variable.assign*):\n" + "\n".join(bad))


def test_the_lint_finds_reads_and_writes(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("class M:\n    def f(self, v, t):\n        v._value = t._value + 1\n")
    assert sorted(_raw_value_uses(sample)) == [(3, "M.f", "read"), (3, "M.f", "write")]


def test_every_allowed_use_still_exists():
    for rel, scope in ALLOWED:
        scopes = {s for _, s, _ in _raw_value_uses(SRC / rel)}
        assert scope in scopes, f"stale allow-list entry {rel} {scope}"
