"""The legacy HDF5 model file (``model.save("m.h5")``), as Keras 3 writes and reads it.

A file holds, as attributes of its root, ``model_config`` (the model's config in Keras's
legacy form: a layer entry is ``{"class_name", "config"}`` without ``module``), the
``training_config`` of a compiled model, ``keras_version`` and ``backend``; the group
``model_weights`` lists ``layer_names`` and holds one group per layer (sorted by name) whose
``weight_names`` are the variables' paths, trainable ones first, each a dataset at its
path; ``optimizer_weights`` holds the optimizer's variables the same way. Weights load by
position: the i-th layer with weights in the model takes the i-th such group of the file.
"""
import json
import logging
import os

from ..._core.backend import np
from .serialization import SafeModeScope, deserialize_keras_object, serialize_keras_object
from .weights_h5 import import_h5py, overwrite_ok

__all__ = ["is_legacy_h5", "load_model_from_hdf5", "load_weights_from_hdf5",
           "save_model_to_hdf5"]

KERAS_VERSION = "3.15.1"
_LAYER_KEYS = ("module", "registered_name", "build_config", "compile_config")


def is_legacy_h5(path) -> bool:
    """Whether ``path`` names a legacy model file (``.h5``/``.hdf5``, not ``.weights.h5``)."""
    path = os.fspath(path)
    return path.endswith((".h5", ".hdf5")) and not path.endswith(".weights.h5")


def _legacy_entry(entry):
    """A layer (or model) entry in Keras's legacy form, nested layer lists included."""
    out = {k: v for k, v in entry.items() if k not in _LAYER_KEYS}
    config = out.get("config")
    if isinstance(config, dict) and isinstance(config.get("layers"), list):
        out["config"] = dict(config, layers=[_legacy_entry(e) for e in config["layers"]])
    return out


def _training_config(model):
    config = model.get_compile_config()
    if not config:
        return None
    optimizer = config.pop("optimizer")
    out = {"loss": config.get("loss"), "loss_weights": config.get("loss_weights"),
           "metrics": config.get("metrics"),
           "weighted_metrics": config.get("weighted_metrics"),
           "run_eagerly": bool(config.get("run_eagerly") or False),
           "steps_per_execution": config.get("steps_per_execution", 1),
           "jit_compile": bool(config.get("jit_compile") or False)}
    if optimizer is not None:
        out["optimizer_config"] = {"class_name": optimizer["class_name"],
                                   "config": optimizer["config"]}
    return out


def _legacy_weights(layer):
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _write_weights(group, weights):
    names = [str(w.path) for w in weights]
    group.attrs["weight_names"] = np.asarray([n.encode("utf8") for n in names], dtype=object) \
        if names else np.zeros((0,))
    for name, w in zip(names, weights):
        value = np.asarray(w.numpy())
        group.create_dataset(name, data=value, shape=value.shape, dtype=value.dtype)


def _names(group, key):
    return [n.decode("utf8") if hasattr(n, "decode") else str(n)
            for n in group.attrs.get(key, [])]


def save_model_to_hdf5(model, filepath, overwrite=True, include_optimizer=True):
    """Write ``model`` to a legacy ``.h5`` file that Keras 3's ``load_model`` reads.

    Raises:
        ImportError: without h5py.
    """
    h5py = import_h5py()
    from ...checkpoint import atomic as _atomic
    logging.getLogger("tapeflow").warning(
        "You are saving your model as an HDF5 file via `model.save()` or "
        "`keras.saving.save_model(model)`. This file format is considered legacy. We "
        "recommend using instead the native Keras format, e.g. "
        "`model.save('my_model.keras')` or `keras.saving.save_model(model, "
        "'my_model.keras')`. ")
    filepath = os.fspath(filepath)
    if not overwrite_ok(filepath, overwrite):
        return
    model_config = _legacy_entry(serialize_keras_object(model))
    training = _training_config(model) if include_optimizer else None
    dirpath = os.path.dirname(filepath)
    if dirpath:
        os.makedirs(dirpath, exist_ok=True)
    with _atomic.atomic_path(filepath) as tmp, h5py.File(tmp, "w") as f:
        f.attrs["backend"] = "tensorflow"
        f.attrs["keras_version"] = KERAS_VERSION
        f.attrs["model_config"] = json.dumps(model_config).encode("utf8")
        if training is not None:
            f.attrs["training_config"] = json.dumps(training).encode("utf8")
        weights_group = f.create_group("model_weights")
        weights_group.attrs["layer_names"] = np.asarray(
            [layer.name.encode("utf8") for layer in model.layers], dtype=object)
        weights_group.attrs["backend"] = b"tensorflow"
        weights_group.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
        for layer in sorted(model.layers, key=lambda la: la.name):
            _write_weights(weights_group.create_group(layer.name), _legacy_weights(layer))
        _write_weights(weights_group.create_group("top_level_model_weights"),
                       [v for v in model._own_weights] if hasattr(model, "_own_weights")
                       else [])
        optimizer = getattr(model, "optimizer", None)
        if include_optimizer and training is not None and optimizer is not None \
                and optimizer.variables:
            _write_weights(f.create_group("optimizer_weights"), list(optimizer.variables))


def _assign_all(where, variables, values):
    if len(values) != len(variables):
        raise ValueError(f"Weight count mismatch for {where}. Layer expects "
                         f"{len(variables)} weight(s). Received {len(values)} saved "
                         "weight(s)")
    for var, value in zip(variables, values):
        if tuple(var.shape) != tuple(value.shape):
            raise ValueError(f"Shape mismatch in {where}for weight {var.path}. Weight "
                             f"expects shape {tuple(var.shape)}. Received saved weight with "
                             f"shape {tuple(value.shape)}")
        var.assign(value.astype(var.dtype._np))


def _read_values(group):
    return [np.asarray(group[name]) for name in _names(group, "weight_names")]


def _load_weights(model, group):
    layers = [layer for layer in model.layers if _legacy_weights(layer)]
    names = [n for n in _names(group, "layer_names") if _names(group[n], "weight_names")]
    if len(names) != len(layers):
        raise ValueError("Layer count mismatch when loading weights from file. Model "
                         f"expected {len(layers)} layers, found {len(names)} saved layers.")
    for k, (name, layer) in enumerate(zip(names, layers)):
        _assign_all(f"layer #{k} (named {layer.name} in the current model, {name} in the "
                    "save file)", _legacy_weights(layer), _read_values(group[name]))


def load_weights_from_hdf5(model, filepath):
    """Assign a legacy ``.h5`` file's weights to the built ``model`` by position
    (``model.load_weights("m.h5")``).

    Raises:
        ValueError: when the layers or their weights do not fit.
    """
    h5py = import_h5py()
    with h5py.File(os.fspath(filepath), "r") as f:
        _load_weights(model, f["model_weights"] if "model_weights" in f else f)


def load_model_from_hdf5(filepath, custom_objects=None, compile=True, safe_mode=True):
    """A model from a legacy ``.h5`` file written by Keras 3 (or :func:`save_model_to_hdf5`),
    compiled with its training config and optimizer state when the file has them.

    Raises:
        ValueError: for a file without a model config, or weights that do not fit.
        ImportError: without h5py.
    """
    h5py = import_h5py()
    with h5py.File(os.fspath(filepath), "r") as f:
        model_config = f.attrs.get("model_config")
        if model_config is None:
            raise ValueError(f"No model config found in the file at {filepath}.")
        if hasattr(model_config, "decode"):
            model_config = model_config.decode("utf-8")
        with SafeModeScope(safe_mode):
            model = deserialize_keras_object(json.loads(model_config), custom_objects)
        _load_weights(model, f["model_weights"])
        if not compile:
            return model
        training = f.attrs.get("training_config")
        if training is None:
            logging.getLogger("tapeflow").warning(
                "No training configuration found in the save file, so the model was *not* "
                "compiled. Compile it manually.")
            return model
        if hasattr(training, "decode"):
            training = training.decode("utf-8")
        training = json.loads(training)
        optimizer = training.get("optimizer_config")
        model.compile(
            optimizer=deserialize_keras_object(optimizer, custom_objects) if optimizer
            else "rmsprop",
            loss=deserialize_keras_object(training.get("loss"), custom_objects),
            metrics=deserialize_keras_object(training.get("metrics"), custom_objects),
            weighted_metrics=deserialize_keras_object(training.get("weighted_metrics"),
                                                      custom_objects),
            loss_weights=training.get("loss_weights"))
        if "optimizer_weights" in f:
            model.optimizer._build_once(model.trainable_variables)
            group = f["optimizer_weights"]
            saved = dict(zip(_names(group, "weight_names"), _read_values(group)))
            variables = {v.path: v for v in model.optimizer.variables}
            if all(name in variables for name in saved):
                for name, value in saved.items():
                    variables[name].assign(value.astype(variables[name].dtype._np))
            else:
                logging.getLogger("tapeflow").warning(
                    "Error in loading the saved optimizer state. As a result, your model is "
                    "starting with a freshly initialized optimizer.")
    return model
