"""Keras 2's HDF5 weight files (the layout of Keras's published ImageNet weights): a
``layer_names`` attribute lists the layers that have weights, each layer's group lists its
``weight_names``; loading matches the model's layers with weights to that list in order."""
import numpy as np

__all__ = ["is_legacy_h5", "load_weights"]


def _h5py():
    from ..saving.weights_h5 import import_h5py
    return import_h5py()


def is_legacy_h5(path) -> bool:
    """True for an HDF5 file in Keras 2's layout (``layer_names`` at its root or in its
    ``model_weights`` group)."""
    if str(path).endswith((".weights.h5", ".keras")):
        return False
    h5py = _h5py()
    if not h5py.is_hdf5(path):
        return False
    with h5py.File(path, "r") as f:
        group = f["model_weights"] if "model_weights" in f else f
        return "layer_names" in group.attrs


def _names(group, attr):
    names = [n.decode("utf8") if hasattr(n, "decode") else str(n)
             for n in group.attrs.get(attr, [])]
    # Keras 2 split long lists over attributes attr0, attr1, ...
    chunk = 0
    while f"{attr}{chunk}" in group.attrs:
        names += [n.decode("utf8") if hasattr(n, "decode") else str(n)
                  for n in group.attrs[f"{attr}{chunk}"]]
        chunk += 1
    return names


def load_weights(model, path):
    """Assign the weights of the Keras 2 HDF5 file ``path`` to ``model``: the k-th layer of
    the file with weights goes to the k-th layer of the model with weights, its values in
    the order trainable then non-trainable (Keras's topological loading).

    Raises:
        ValueError: when the counts of layers or of weights per layer, or a shape, differ.
    """
    h5py = _h5py()
    layers = [layer for layer in model.layers
              if layer.trainable_weights + layer.non_trainable_weights]
    with h5py.File(path, "r") as f:
        group = f["model_weights"] if "model_weights" in f else f
        names = [n for n in _names(group, "layer_names") if _names(group[n], "weight_names")]
        if len(names) != len(layers):
            raise ValueError("Layer count mismatch when loading weights from file. Model "
                             f"expected {len(layers)} layers, found {len(names)} saved "
                             "layers.")
        for k, (name, layer) in enumerate(zip(names, layers)):
            values = [np.asarray(group[name][w]) for w in _names(group[name], "weight_names")]
            variables = layer.trainable_weights + layer.non_trainable_weights
            if len(values) != len(variables):
                raise ValueError(
                    f"Weight count mismatch for layer #{k} (named {layer.name} in the current "
                    f"model, {name} in the save file). Layer expects {len(variables)} "
                    f"weight(s). Received {len(values)} saved weight(s)")
            for v, value in zip(variables, values):
                if tuple(v.shape) != value.shape:
                    raise ValueError(
                        f"Shape mismatch in layer #{k} (named {layer.name}) for weight "
                        f"{v.name}. Weight expects shape {tuple(v.shape)}. Received saved "
                        f"weight with shape {value.shape}")
            for v, value in zip(variables, values):
                v.assign(value.astype(v.dtype.as_numpy_dtype))  # h5py dtypes: equal, not identical
