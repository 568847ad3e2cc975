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
