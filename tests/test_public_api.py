"""The public namespace is held against a committed list, and public modules only re-export."""
import importlib
import inspect
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
THIN = ["math", "nn", "linalg", "random", "nest", "dtypes", "autodiff", "debugging", "test",
        "image", "errors"]


def test_public_names_match_the_committed_list():
    listed = (ROOT / "tests" / "fixtures" / "public_api.txt").read_text().split()
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "public_api.py")],
                         capture_output=True, text=True, check=True).stdout.split()
    added = sorted(set(out) - set(listed))
    removed = sorted(set(listed) - set(out))
    assert not added and not removed, (
        f"public names changed; if on purpose, run tools/public_api.py > "
        f"tests/fixtures/public_api.txt\nadded: {added}\nremoved: {removed}")


def test_thin_public_modules_define_nothing_of_their_own():
    for name in THIN:
        module = importlib.import_module(f"tapeflow.{name}")
        own = [n for n, v in vars(module).items()
               if (inspect.isfunction(v) or inspect.isclass(v))
               and v.__module__ == module.__name__]
        assert not own, f"tapeflow.{name} defines {own}: put the logic in _core or ops"


def test_every_listed_name_resolves():
    import tapeflow
    for line in (ROOT / "tests" / "fixtures" / "public_api.txt").read_text().split():
        parts = line.split(".")
        obj = tapeflow
        for p in parts[1:]:
            obj = getattr(obj, p)
        assert obj is not None or parts[-1] in {"newaxis"}, line


# The four namespaces where one TensorFlow function is bound under several names.
OP_NAMESPACES = ["", "math", "nn", "linalg"]


def _public_functions(prefix):
    import tapeflow
    module = importlib.import_module(f"tapeflow.{prefix}") if prefix else tapeflow
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for n in names:
        v = getattr(module, n)
        if inspect.isfunction(v):
            yield (f"tf.{prefix}.{n}" if prefix else f"tf.{n}"), n, v


def test_one_name_is_one_object_across_tf_math_nn_linalg():
    seen = {}
    for prefix in OP_NAMESPACES:
        for where, n, f in _public_functions(prefix):
            seen.setdefault(n, []).append((where, f))
    split = {n: [w for w, _ in fs] for n, fs in seen.items()
             if len({id(f) for _, f in fs}) > 1}
    assert not split, f"one TensorFlow function, several objects: {split}"


# TensorFlow's own aliases: the public name is another name of the function.
ALIASES = {"mod": "floormod", "truediv": "divide", "swish": "silu"}


def test_every_op_function_has_its_tensorflow_name():
    wrong = []
    for prefix in OP_NAMESPACES:
        for where, n, f in _public_functions(prefix):
            if f.__name__ != ALIASES.get(n, n) or f.__qualname__ != f.__name__ \
                    or not f.__module__.startswith("tapeflow."):
                wrong.append(f"{where}: {f.__module__}.{f.__qualname__}")
    assert not wrong, "functions under another name:\n" + "\n".join(wrong)


def test_every_op_function_has_a_docstring():
    bare = [where for prefix in OP_NAMESPACES for where, n, f in _public_functions(prefix)
            if len((f.__doc__ or "").strip()) < 40]
    assert not bare, f"{len(bare)} public functions without a docstring: {bare}"
