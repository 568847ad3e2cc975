"""The floors of the house hold: no package imports one above it (docs: DESIGN.md).

Read from the source with ``ast``, so it sees every way a module can reach another: imports at
the top and inside functions (relative or absolute), ``importlib.import_module``/``__import__``
strings, and ``sys.modules`` lookups by name. A lower floor that needs something from a higher
one gets it by registration (the higher floor fills a table or registers a hook on import),
never by naming it.
"""
import ast
import collections
import functools
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parent.parent / "src" / "tapeflow"

# floor -> the floors it may import besides itself. A floor is a package of tapeflow; the
# top-level modules (tapeflow/__init__.py, math.py, nn.py, ...) are "public": thin bindings
# that may import anything, and that no floor imports (but see LEAVES).
ANY = "any floor"
FLOORS = {
    "_core": set(),
    "ops": {"_core"},
    "function": {"ops", "_core"},
    "checkpoint": {"function", "ops", "_core"},
    "saved_model": {"checkpoint", "function", "ops", "_core"},
    "summary": {"function", "ops", "_core"},
    "data": {"checkpoint", "saved_model", "function", "ops", "_core"},
    "distribute": {"checkpoint", "saved_model", "function", "ops", "_core"},
    "keras": ANY,
    # tf.experimental sits beside the public tf.* modules: anything but keras
    "experimental": {"public", "data", "distribute", "summary", "checkpoint", "saved_model",
                     "function", "ops", "_core"},
    "public": ANY,
    # tf.compat beside the public tf.* modules (v2 is tapeflow itself; v1's wrap_function
    # is built on tf.function)
    "compat": {"public", "function", "ops", "_core"},
}
# Top-level modules that import at most _core, so any floor may import them.
LEAVES = {
    "_crc32c": "CRC-32C of TFRecord, event and checkpoint files: NumPy through _core.backend",
    "config": "tf.config: the device list and the run_functions_eagerly switch, no imports",
    "_logging": "tf.get_logger: TensorFlow's `tensorflow` logger and its handler, stdlib only",
    "_gfile": "tf.io.gfile: local file-system helpers over os/shutil/glob, errors from _core",
    "_protobuf": "the SavedModel protobuf schema and wire codec: plain Python, no imports",
}
def module_of(path):
    """``(dotted module name, its package)`` of a file under src/tapeflow."""
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


@functools.lru_cache(maxsize=None)
def _resolve(name):
    """The longest prefix of dotted ``name`` that is a module or package of tapeflow."""
    parts = name.split(".")
    for k in range(len(parts), 1, -1):
        cand = SRC.parent.joinpath(*parts[:k])
        if cand.with_suffix(".py").is_file() or (cand / "__init__.py").is_file():
            return ".".join(parts[:k])
    return "tapeflow"


def _dotted(node):
    """``a.b.c`` for a chain of names and attributes, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _string(node):
    return [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []


def _name_strings(node):
    """String constants by which ``node`` loads a module: ``import_module("x")``,
    ``__import__("x")``, ``sys.modules["x"]``, ``sys.modules.get("x")``, ``"x" in sys.modules``."""
    if isinstance(node, ast.Call):
        func = _dotted(node.func) or ""
        if func.endswith("import_module") or func == "__import__" \
                or func.startswith("sys.modules."):
            return _string(node.args[0]) if node.args else []
    elif isinstance(node, ast.Subscript) and _dotted(node.value) == "sys.modules":
        return _string(node.slice)
    elif isinstance(node, ast.Compare) and any(_dotted(c) == "sys.modules"
                                               for c in node.comparators):
        return _string(node.left)
    return []


def imports_of(source, module, package):
    """``(line, imported tapeflow module)`` for every way ``source`` names another module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = ".".join(base[: len(base) - node.level + 1])
                full = base + ("." + node.module if node.module else "")
            else:
                full = node.module
            found += [(node.lineno, f"{full}.{a.name}") for a in node.names]
        else:
            found += [(node.lineno, s) for s in _name_strings(node)]
    return [(line, _resolve(name)) for line, name in found
            if name == "tapeflow" or name.startswith("tapeflow.")]


def floor_of(module):
    """The floor of a dotted tapeflow module: its package, ``public`` or a leaf's name."""
    parts = module.split(".")
    if len(parts) == 1:
        return "public"
    if (SRC / parts[1]).is_dir():
        return parts[1]
    return parts[1] if parts[1] in LEAVES else "public"


def violations(source, module, package):
    """``(line, imported module)`` for each import of ``source`` above its floor."""
    floor = floor_of(module)
    allowed = FLOORS.get(floor, {"_core"})  # a leaf imports at most _core
    bad = []
    for line, target in imports_of(source, module, package):
        to = floor_of(target)
        if allowed is ANY or to == floor or to in allowed or to in LEAVES:
            continue
        bad.append((line, target))
    return bad


def _sources():
    for path in sorted(SRC.rglob("*.py")):
        module, package = module_of(path)
        yield str(path.relative_to(SRC)), path.read_text(), module, package


@functools.lru_cache(maxsize=1)
def _all_violations():
    found = collections.defaultdict(list)
    for rel, source, module, package in _sources():
        for line, target in violations(source, module, package):
            found[(rel, target)].append(line)
    return dict(found)


def test_every_package_has_a_floor():
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    assert packages <= set(FLOORS), f"give {sorted(packages - set(FLOORS))} a floor"


def test_no_floor_imports_one_above_it():
    found = _all_violations()
    assert not found, ("imports that point up a floor (get it by registration instead, as ops "
                     "fills _core/engine_ops):\n" + "\n".join(
                         f"{rel}:{lines[0]} -> {target} ({floor_of(target)} is above "
                         f"{rel.split('/')[0]})" for (rel, target), lines in sorted(found.items())))


@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_leaves_import_at_most_core(leaf):
    path = SRC / f"{leaf}.py"
    module, package = module_of(path)
    assert {floor_of(t) for _, t in imports_of(path.read_text(), module, package)} <= {"_core"}


def test_core_has_no_import_circle():
    graph = collections.defaultdict(set)
    for _, source, module, package in _sources():
        if module.startswith("tapeflow._core"):
            for _, target in imports_of(source, module, package):
                if target.startswith("tapeflow._core.") and target != module:
                    graph[module].add(target)
    state = {}

    def visit(m, path):
        state[m] = "open"
        for n in sorted(graph[m]):
            assert state.get(n) != "open", f"import circle in _core: {' -> '.join(path + [n])}"
            if n not in state:
                visit(n, path + [n])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


# ---------------------------------------------------------------------------- self-tests


BAD_CORE = '''
import sys
from . import tensor
from ..ops import math_ops

def f():
    from ..keras.layers import _masking
    from ..function import tracer
    import tapeflow.data.dataset
    import importlib
    importlib.import_module("tapeflow.keras.layers._masking")
    return sys.modules.get("tapeflow.distribute._context"), sys.modules["tapeflow.keras"]
'''


def test_the_lint_finds_every_way_core_names_an_upper_floor():
    bad = violations(BAD_CORE, "tapeflow._core.sample", "tapeflow._core")
    assert sorted((line, floor_of(t)) for line, t in bad) == [
        (4, "ops"), (7, "keras"), (8, "function"), (9, "data"), (11, "keras"),
        (12, "distribute"), (12, "keras")]


def test_the_lint_allows_downward_and_public_imports():
    down = "from .._core import dispatch\nfrom . import math_ops\nfrom .. import _crc32c\n"
    assert violations(down, "tapeflow.ops.sample", "tapeflow.ops") == []
    assert violations("from ..function import tracer\n", "tapeflow.ops.sample",
                      "tapeflow.ops") == [(1, "tapeflow.function.tracer")]
    assert violations("from .keras import layers\n", "tapeflow.nn", "tapeflow") == []
    assert violations("from ..data import dataset\n", "tapeflow.function.sample",
                      "tapeflow.function") == [(1, "tapeflow.data.dataset")]


# ----------------------------------------------------------------- Keras's own floors
# keras/ is one floor of the house (it may import any package below it), and inside it the
# modules stand on floors of their own (docs/architecture.md, "Keras's floors"): a module
# imports modules of its own floor or lower ones, never a higher one, and no two keras modules
# import each other, directly or round a ring. A lower floor that needs a higher one gets it
# by registration: KerasVariable's initializer names (initializers registers ``get``),
# KerasTensor arithmetic (layers/_operation registers ``apply``), the model classes that
# saving and callbacks test for (models fills ``serialization.MODEL_CLASSES``), the
# optimizer table (the optimizers face fills ``optimizers/registry.py``), the namespaces a
# config's names are found in (keras/__init__.py fills ``serialization._NAMESPACES``).
KERAS_TOP = 6
# A dotted name under tapeflow.keras -> its floor; the longest matching prefix wins, and a
# module no prefix names stands on the top floor (models, trainers, metrics, optimizers,
# callbacks, saving, export, applications, utils, datasets, the package faces).
KERAS_FLOORS = {
    # 1: settings and registries (floatx, keras.config, dtype policies, unique names, the
    # custom-object registry, the config format) and helpers that import nothing of Keras
    "backend": 1, "config": 1, "_naming": 1, "mixed_precision.policy": 1,
    "saving.object_registration": 1, "saving.serialization": 1,
    "utils.argument_validation": 1,
    # 2: variables and random seeds (a SeedGenerator holds a KerasVariable)
    "_variable": 2, "random": 2,
    # 3: functions on tensors (keras.ops, activations, losses) and what fills and bounds a
    # variable (initializers, regularizers, constraints)
    "ops": 3, "activations": 3, "losses": 3, "initializers": 3, "regularizers": 3,
    "constraints": 3,
    # 4: the symbolic graph (KerasTensor, nodes) and the Layer base with its side tables
    "_symbolic": 4, "layers.layer": 4, "layers._operation": 4, "layers.input_layer": 4,
    "layers.input_spec": 4, "layers._masking": 4, "layers._spec": 4,
    # 5: the layers
    "layers": 5,
}


def keras_floor(module):
    """The floor of a dotted tapeflow.keras module (``KERAS_FLOORS``, else the top)."""
    parts = module.split(".")[2:]
    for k in range(len(parts), 0, -1):
        floor = KERAS_FLOORS.get(".".join(parts[:k]))
        if floor is not None:
            return floor
    return KERAS_TOP


def keras_imports(source, module, package):
    """``(line, keras module)`` for every way a keras module names another keras module."""
    return [(line, t) for line, t in imports_of(source, module, package)
            if t.startswith("tapeflow.keras.") and t != module]


def keras_violations(source, module, package):
    """``(line, imported module)`` for each import of a keras module above its floor."""
    floor = keras_floor(module)
    return [(line, t) for line, t in keras_imports(source, module, package)
            if keras_floor(t) > floor]


def keras_circle(graph):
    """One import circle of ``graph`` (module -> imported modules) as a list, else None."""
    state = {}
    for start in sorted(graph):
        if start in state:
            continue
        state[start] = "open"
        path, stack = [start], [iter(sorted(graph[start]))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = "done"
                stack.pop()
            elif state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            elif nxt not in state:
                state[nxt] = "open"
                path.append(nxt)
                stack.append(iter(sorted(graph.get(nxt, ()))))
    return None


def _keras_sources():
    return [s for s in _sources() if s[2] == "tapeflow.keras" or s[2].startswith("tapeflow.keras.")]


def test_no_keras_module_imports_a_floor_above_its_own():
    found = [f"keras/{rel.partition('keras/')[2]}:{line} (floor {keras_floor(module)}) -> "
             f"{target} (floor {keras_floor(target)})"
             for rel, source, module, package in _keras_sources()
             for line, target in keras_violations(source, module, package)]
    assert not found, ("keras imports that point up a floor (get it by registration instead, "
                       "as KerasTensor finds its Operation):\n" + "\n".join(found))


def test_keras_has_no_import_circle():
    graph = {module: {t for _, t in keras_imports(source, module, package)}
             for _, source, module, package in _keras_sources()}
    circle = keras_circle(graph)
    assert circle is None, "import circle in keras: " + " -> ".join(circle)


def computed_imports(source):
    """Lines where ``source`` loads a module by a name it computes (``import_module(name)``,
    ``__import__(name)``): an import no lint can follow."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call)
            and ((_dotted(node.func) or "").endswith("import_module")
                 or _dotted(node.func) == "__import__")
            and node.args and not _string(node.args[0])]


def test_keras_floors_below_the_top_load_no_module_by_a_computed_name():
    found = [f"keras/{rel.partition('keras/')[2]}:{line}"
             for rel, source, module, _ in _keras_sources() if keras_floor(module) < KERAS_TOP
             for line in computed_imports(source)]
    assert not found, ("a module found by a computed name hides an import from the floors "
                       "(register it from above instead):\n" + "\n".join(found))


def test_every_keras_floor_names_a_module():
    names = {m for _, _, m, _ in _keras_sources()}
    for prefix in KERAS_FLOORS:
        full = "tapeflow.keras." + prefix
        assert any(m == full or m.startswith(full + ".") for m in names), prefix


BAD_KERAS = '''
from .backend import floatx
from .layers import layer

def f():
    from .models import Model
    import importlib
    return importlib.import_module("tapeflow.keras.optimizers")
'''


def test_the_keras_lint_finds_imports_up_a_floor_and_circles():
    bad = keras_violations(BAD_KERAS, "tapeflow.keras._variable", "tapeflow.keras")
    assert [(line, keras_floor(t)) for line, t in bad] == [(3, 4), (6, 6), (8, 6)]
    assert keras_violations(BAD_KERAS, "tapeflow.keras.models", "tapeflow.keras") == []
    assert keras_floor("tapeflow.keras.layers.dense") == 5
    assert keras_floor("tapeflow.keras.layers.layer") == 4
    assert keras_floor("tapeflow.keras.mixed_precision") == KERAS_TOP
    assert keras_floor("tapeflow.keras.mixed_precision.policy") == 1
    assert computed_imports(BAD_KERAS) == []
    assert computed_imports("import importlib\nname = 'x'\nimportlib.import_module(name)\n"
                            "__import__('os')\n__import__(name)\n") == [3, 5]
    assert keras_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert keras_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
