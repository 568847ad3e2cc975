"""Print tapeflow's public namespace, one ``module.name`` a line (tests/fixtures/public_api.txt).

Run ``python tools/public_api.py > tests/fixtures/public_api.txt`` after adding public names
on purpose; tests/test_public_api.py fails on any other change.
"""
import importlib
import types

MODULES = [
    "tapeflow", "tapeflow.math", "tapeflow.nn", "tapeflow.linalg", "tapeflow.random",
    "tapeflow.nest", "tapeflow.config", "tapeflow.dtypes", "tapeflow.autodiff",
    "tapeflow.debugging", "tapeflow.test", "tapeflow.errors", "tapeflow.data",
    "tapeflow.keras", "tapeflow.keras.layers", "tapeflow.keras.losses",
    "tapeflow.keras.optimizers", "tapeflow.keras.metrics", "tapeflow.keras.initializers",
    "tapeflow.keras.activations", "tapeflow.image", "tapeflow.keras.random",
    "tapeflow.summary", "tapeflow.summary.experimental", "tapeflow.train",
    "tapeflow.keras.saving", "tapeflow.keras.models", "tapeflow.keras.callbacks",
    "tapeflow.strings", "tapeflow.ragged", "tapeflow.io", "tapeflow.sparse", "tapeflow.signal",
    "tapeflow.audio", "tapeflow._gfile",
    "tapeflow.distribute", "tapeflow.saved_model", "tapeflow.saved_model.experimental",
]


def public_names(module_name):
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    out = []
    for n in sorted(set(names)):
        value = getattr(module, n)
        if isinstance(value, types.ModuleType) and module_name == "tapeflow":
            continue  # submodules are listed by their own names
        out.append(f"{module_name}.{n}")
    return out


def main():
    import tapeflow
    lines = [f"{m}.{n}" for m in ["tapeflow"] for n in sorted(tapeflow._LAZY_MODULES)]
    for m in MODULES:
        lines += public_names(m)
    print("\n".join(sorted(set(lines))))


if __name__ == "__main__":
    main()
