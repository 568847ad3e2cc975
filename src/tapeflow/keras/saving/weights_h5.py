"""Keras 3's ``.weights.h5`` layout: each saveable's own variables in ``<path>/vars/0..n``.

The walk visits what Keras 3's ``saving_lib._walk_saveable`` visits, so the group paths are
Keras's: a Sequential or functional model first lists ``layers`` (each named after its class
in snake case, ``dense``, ``dense_1``, ... in model order, not after ``layer.name``), then every
attribute in sorted order, private ones last; an attribute holding a layer gives
``<attr>/...``, a list or dict of layers ``<attr>/<snake_class>``, a nested list
``<attr>/container/...``. A saveable reached twice is stored once, at its first path. Each
``vars`` group carries the attribute ``name`` (the object's ``.name``) and holds its
trainable variables, then its non-trainable ones; the optimizer's are ``iterations``, the
learning rate, then its slots in Keras's order. A layer with Keras's
``save_own_variables``/``load_own_variables`` hooks fills or reads its group itself (a
tf_idf lookup layer's ``idf_weights`` dataset); ``save_assets``/``load_assets`` get the
folder ``<assets>/<path>`` of a ``.keras`` file's ``assets/`` tree.
"""
import os

from ..._core.backend import np
from .. import _naming
from .serialization import MODEL_CLASSES

__all__ = ["import_h5py", "overwrite_ok", "save_weights_to_h5", "load_weights_from_h5", "walk",
           "asset_dir"]


def import_h5py():
    """h5py, or an ImportError naming tapeflow's ``h5`` extra."""
    try:
        import h5py
    except ImportError as e:
        raise ImportError('Saving and loading Keras `.weights.h5` and `.keras` files needs h5py: '
                          'pip install "tapeflow[h5]"') from e
    return h5py


def overwrite_ok(filepath, overwrite):
    """True if ``filepath`` may be written: ``overwrite``, no file there yet, or "y" answered
    on the console (Keras 3's prompt and tip); False if the answer is "n"."""
    if overwrite or not os.path.exists(filepath):
        return True
    answer = input(f"[WARNING] {filepath} already exists - overwrite? [y/n]").strip().lower()
    while answer not in ("y", "n"):
        answer = input('Enter "y" (overwrite) or "n" (cancel).').strip().lower()
    if answer == "n":
        return False
    print("[TIP] Next time specify overwrite=True!")
    return True


def _is_saveable(obj):
    from ..layers.layer import Layer
    from ..optimizers.optimizer import Optimizer
    return isinstance(obj, (Layer, Optimizer))


def _name_key(name):
    return f"~{name}" if name.startswith("_") else name


def _functional_or_sequential(obj):
    return isinstance(obj, MODEL_CLASSES["Sequential"]) or (
        isinstance(obj, MODEL_CLASSES["Model"]) and getattr(obj, "_fn_outputs", None) is not None)


def keras_layer_order(model):
    """A Sequential's or functional model's layers in Keras 3's order."""
    if isinstance(model, MODEL_CLASSES["Sequential"]):
        return model.layers
    from .functional import graph
    return graph(model)[0]


def _attributes(obj):
    """``(name, value)`` pairs in Keras 3's walk order."""
    from ..optimizers.optimizer import Optimizer
    if _functional_or_sequential(obj):
        yield "layers", keras_layer_order(obj)
    if isinstance(obj, Optimizer):
        return
    names = set(vars(obj))
    if isinstance(obj, MODEL_CLASSES["Model"]):
        names |= {"layers", "optimizer"}
    for name in sorted(names - _base_attributes(), key=_name_key):
        if name.startswith("__"):
            continue
        if name == "layers":
            value = obj._sublayers() if not _functional_or_sequential(obj) else obj.layers
        else:
            value = getattr(obj, name, None)
        yield name, value


_BASE = set()


def _base_attributes():
    """Attributes tapeflow's own Layer / Model / Trainer set: internals, never user state
    (Keras skips its base classes' attributes the same way)."""
    if not _BASE:
        from ..layers.layer import Layer
        _BASE.update(vars(Layer(name="_saving_probe")))
        _BASE.update({"_fn_layers", "_fn_inputs", "_fn_outputs", "_layers", "_input_shape",
                      "_loss_tracker", "_compile_metrics", "_loss_fn", "loss",
                      "_compile_loss", "_given_output_names",
                      "compiled", "history", "stop_training", "_initial_epoch",
                      "_inbound_nodes", "_input_layer", "_seq_layers", "_seq_output",
                      "_states"})
    return _BASE


def walk(obj, path="", visited=None):
    """Yield ``(path, saveable)`` for ``obj`` and everything below it, as Keras 3 does."""
    if visited is None:
        visited = set()
    if id(obj) in visited:
        return
    visited.add(id(obj))
    yield path, obj
    for name, value in _attributes(obj):
        child = f"{path}/{name}" if path else name
        if _is_saveable(value):
            yield from walk(value, child, visited)
        elif isinstance(value, (list, tuple, dict)):
            yield from _walk_container(value, child, visited, set())


def _unique(name, used):
    if name in used:
        used[name] += 1
        return f"{name}_{used[name]}"
    used[name] = 0
    return name


def _walk_container(container, path, visited, seen_containers):
    if id(container) in seen_containers:
        return
    seen_containers.add(id(container))
    used = {}
    items = container.values() if isinstance(container, dict) else container
    for item in items:
        if _is_saveable(item):
            name = _unique(_naming.to_snake_case(type(item).__name__), used)
            yield from walk(item, f"{path}/{name}", visited)
        elif isinstance(item, (list, tuple, dict)):
            name = _unique("container", used)
            yield from _walk_container(item, f"{path}/{name}", visited, seen_containers)


def keras_trainable_order(layer):
    """``layer.trainable_variables`` in Keras 3's order (a functional model lists its
    layers' variables in Keras's layer order)."""
    if not _functional_or_sequential(layer):
        return layer.trainable_weights
    out, seen = [], set()
    for sub in keras_layer_order(layer):
        for v in keras_trainable_order(sub):
            if v._id not in seen:
                seen.add(v._id)
                out.append(v)
    return out


def own_variables(obj, model=None):
    """The variables Keras stores in ``obj``'s own ``vars`` group, in order."""
    from ..optimizers.optimizer import Optimizer
    if isinstance(obj, Optimizer):
        return optimizer_variables(obj, model)
    own = list(obj._own_weights)
    return [v for v in own if v.trainable] + [v for v in own if not v.trainable]


def optimizer_variables(opt, model=None):
    """What Keras 3 stores for an optimizer: its ``variables``: ``iterations``, the learning
    rate unless a schedule drives it, then the slots, made per variable of the model in
    Keras's order of the model's variables (which this sorts them into, when tapeflow's
    order differs), each kind of slot in turn."""
    variables = list(opt.variables)
    refs = getattr(opt, "_slot_refs", {})
    if model is None or not refs:
        return variables
    head = [v for v in variables if id(v) not in refs]
    slots = [v for v in variables if id(v) in refs]
    rank = {id(v): i for i, v in enumerate(keras_trainable_order(model))}
    slots.sort(key=lambda s: (refs[id(s)][0], rank.get(id(refs[id(s)][1]), len(rank))))
    return head + slots


def _value_of(var):
    return np.asarray(var.numpy())


def save_weights_to_h5(model, file, assets_dir=None):
    """Write every saveable's variables into the open h5py ``file`` (a layer with a
    ``save_own_variables(store)`` method fills its group's datasets itself, under its own
    keys, as Keras 3's lookup layers do); with ``assets_dir``, also let each saveable with
    a ``save_assets(dir_path)`` method write its files into ``<assets_dir>/<path>``."""
    for path, obj in walk(model):
        group = file.create_group(f"{path}/vars" if path else "vars")
        name = getattr(obj, "name", None)
        if isinstance(name, str):
            group.attrs["name"] = name
        if hasattr(obj, "save_own_variables"):
            store = {}
            obj.save_own_variables(store)
            for key, value in store.items():
                group[str(key)] = np.asarray(value)
        else:
            for i, var in enumerate(own_variables(obj, model)):
                group[str(i)] = _value_of(var)
        if assets_dir is not None and hasattr(obj, "save_assets"):
            obj.save_assets(asset_dir(assets_dir, path, make=True))


def asset_dir(root, path, make=False):
    """``<root>/<path>``, the folder of the saveable at ``path`` in an extracted
    ``assets/`` tree (made if ``make``; None when it does not exist).

    Raises:
        ValueError: a path that leaves ``root`` (Keras's text).
    """
    if not path:
        return root
    base = os.path.realpath(root)
    full = os.path.realpath(os.path.join(base, path))
    if os.path.commonpath([base, full]) != base:
        raise ValueError(f"Invalid asset path: '{path}' escapes the asset directory.")
    if make:
        os.makedirs(full, exist_ok=True)
        return full
    return full if os.path.exists(full) else None


def _store(file, path):
    key = f"{path}/vars" if path else "vars"
    return file[key] if key in file else {}


def _load_layer(layer, store):
    variables = own_variables(layer)
    if len(store) != len(variables):
        if not variables and not layer.built:
            raise ValueError(
                f"Layer '{layer.name}' was never built and thus it doesn't have any "
                f"variables. However the weights file lists {len(store)} variables for this "
                "layer.")
        raise ValueError(f"Layer '{layer.name}' expected {len(variables)} variables, but "
                         f"received {len(store)} variables during loading. Expected: "
                         f"{[v.name for v in variables]}")
    for i, var in enumerate(variables):
        value = np.asarray(store[str(i)])
        if tuple(value.shape) != tuple(var.shape):
            raise ValueError(f"The shape of the target variable and the shape of the target "
                             f"value in `variable.assign(value)` must match. "
                             f"variable.shape={tuple(var.shape)}, Received: "
                             f"value.shape={value.shape}. Target variable: {var}")
        var.assign(value.astype(var.dtype._np))


def _load_optimizer(opt, store, model):
    if len(store) > len(optimizer_variables(opt)) and isinstance(model, MODEL_CLASSES["Model"]):
        # Slots are made on the first update; make them now so saved state can land.
        opt._build_once(keras_trainable_order(model))
    variables = optimizer_variables(opt, model)
    if len(store) != len(variables):
        import warnings
        msg = (f"Skipping variable loading for optimizer '{opt.name}', because it has "
               f"{len(variables)} variables whereas the saved optimizer has {len(store)} "
               "variables. ")
        warnings.warn(msg, stacklevel=4)
        return
    for i, var in enumerate(variables):
        var.assign(np.asarray(store[str(i)]).astype(var.dtype._np))


def load_weights_from_h5(model, file, skip_mismatch=False, assets_dir=None):
    """Assign the values in the open h5py ``file`` to ``model``'s saveables (a layer with a
    ``load_own_variables(store)`` method reads its group itself); with ``assets_dir`` (an
    extracted ``assets/`` folder), then give each saveable with a ``load_assets(dir_path)``
    method its folder ``<assets_dir>/<path>`` (None if absent), as Keras 3 does.

    Raises:
        ValueError: listing every object whose variables (or assets) did not load (Keras's
            message), unless ``skip_mismatch``, which only warns.
    """
    from ..optimizers.optimizer import Optimizer
    errors = []
    for path, obj in walk(model):
        store = _store(file, path)
        try:
            if isinstance(obj, Optimizer):
                _load_optimizer(obj, store, model)
            elif hasattr(obj, "load_own_variables"):
                obj.load_own_variables(store)
            else:
                _load_layer(obj, store)
            if assets_dir is not None and hasattr(obj, "load_assets"):
                obj.load_assets(asset_dir(assets_dir, path))
        except (ValueError, KeyError, OSError) as e:
            errors.append((obj, e))
    if errors:
        first, error = errors[0]
        msg = (f"A total of {len(errors)} objects could not be loaded. Example error message "
               f"for object {first}:\n\n{error}\n\nList of objects that could not be loaded:\n"
               f"{[o for o, _ in errors]}")
        if skip_mismatch:
            import warnings
            warnings.warn(msg, stacklevel=3)
        else:
            raise ValueError(msg)
