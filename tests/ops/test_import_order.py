"""The op modules import each other in one direction: array_ops at the bottom, nothing
re-exported, no circle (imports inside functions count too)."""
import ast
import functools
import pathlib

OPS = pathlib.Path(__file__).resolve().parents[2] / "src" / "tapeflow" / "ops"


def _module_name(path):
    rel = path.relative_to(OPS).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(parts) or "__init__"


def _ops_imports(path):
    """The op modules ``path`` imports (as dotted names under ``tapeflow.ops``)."""
    here = _module_name(path).split(".")
    package = here[:-1] if path.name != "__init__.py" else here
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
        if node.level - 1 > len(package):
            continue  # above tapeflow.ops
        target = base + (node.module.split(".") if node.module else [])
        candidates = [".".join(target + [a.name]) for a in node.names] + [".".join(target)]
        for c in candidates:
            f = OPS.joinpath(*c.split("."))
            if c and (f.with_suffix(".py").exists() or (f / "__init__.py").exists()):
                out.add(c)
    return out


@functools.lru_cache(maxsize=1)
def _graph():
    """Each op module -> the op modules it imports (parsed once for the tests here)."""
    files = [p for p in OPS.rglob("*.py") if p.name != "__init__.py"]
    return {_module_name(p): _ops_imports(p) - {_module_name(p)} for p in files}


def test_op_modules_import_each_other_without_a_circle():
    graph = _graph()
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt):] + [nxt] if nxt in stack else [node, nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for n in sorted(graph):
        if n not in state:
            visit(n, [n])
    assert not cycles, "op modules that import each other: " + "; ".join(
        " -> ".join(c) for c in cycles)


def test_array_ops_is_the_lowest_op_module():
    assert _graph()["array_ops"] <= {"_helpers", "composite_dispatch"}


def test_no_op_module_grows_by_appending_to_all():
    grown = [p.name for p in OPS.rglob("*.py") if "__all__ +=" in p.read_text()]
    assert not grown, f"one __all__ per module: {grown}"


def test_no_op_module_is_over_1200_lines():
    big = {p.name: n for p in OPS.rglob("*.py")
           if (n := len(p.read_text().splitlines())) > 1200}
    assert not big, big
