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
    "tapeflow.audio", "tapeflow.io.gfile",
    "tapeflow.distribute", "tapeflow.keras.ops", "tapeflow.keras.ops.numpy",
    "tapeflow.keras.ops.nn", "tapeflow.keras.ops.linalg", "tapeflow.keras.ops.image",
    "tapeflow.saved_model", "tapeflow.saved_model.experimental",
]


def _module(name):
    """The module at dotted ``name``: imported, or an attribute of its parent (``tf.io.gfile``
    is a module bound in ``tapeflow.io``, not a submodule file)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        parent, _, attr = name.rpartition(".")
        return getattr(_module(parent), attr)


def public_names(module_name):
    module = _module(module_name)
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
