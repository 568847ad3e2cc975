"""Keras 3's files: ``.weights.h5`` (weights only) and ``.keras`` (a zip of the config, the
weights and the lookup layers' vocabularies under ``assets/``), written atomically
(temporary file, fsync, rename, fsync of the directory)."""
import datetime
import io
import json
import os
import tempfile
import warnings
import zipfile

from ...checkpoint import atomic as _atomic
from .serialization import deserialize_keras_object, serialize_keras_object
from .weights_h5 import import_h5py, load_weights_from_h5, overwrite_ok, save_weights_to_h5

__all__ = ["save_weights", "load_weights", "save_model", "load_model", "model_from_json",
           "KERAS_VERSION"]

# The Keras 3 release whose file layout tapeflow writes (``metadata.json``'s version).
KERAS_VERSION = "3.15.1"
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.h5"
_ASSETS = "assets"


def _is_legacy(path):
    return path.endswith((".h5", ".hdf5")) and not path.endswith(".weights.h5")


def save_weights(model, filepath, overwrite=True, max_shard_size=None):
    """Write ``model``'s weights (and its optimizer's) to a Keras 3 ``.weights.h5`` file
    (``tf.keras.saving.save_weights``; ``Model.save_weights`` calls it).

    Args:
        model: a built model.
        filepath: a path ending in ``.weights.h5``.
        overwrite: if False and the file exists, ask on the console.
        max_shard_size: not supported (sharded files).

    Raises:
        ValueError: if the model is not built, or the name does not end in ``.weights.h5``.
        ImportError: without h5py (``pip install "tapeflow[h5]"``).
    """
    filepath = os.fspath(filepath)
    if not model.built:
        raise ValueError("You are saving a model that has not yet been built. Try building "
                         "the model first by calling it on some data or by using `build()`.")
    if max_shard_size is not None:
        raise ValueError("tapeflow does not write sharded weights files (`max_shard_size`).")
    if not filepath.endswith(".weights.h5"):
        raise ValueError("The filename must end in `.weights.h5`. Received: "
                         f"filepath={filepath}")
    h5py = import_h5py()
    if not overwrite_ok(filepath, overwrite):
        return
    with _atomic.atomic_path(filepath) as tmp:
        with h5py.File(tmp, "w") as f:
            save_weights_to_h5(model, f)


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """Assign the weights in a ``.weights.h5`` or ``.keras`` file to ``model``
    (``tf.keras.saving.load_weights``), matched by Keras 3's group paths.

    Args:
        model: a built model of the same architecture.
        filepath: a ``.weights.h5`` or ``.keras`` file (from tapeflow or Keras 3).
        skip_mismatch: warn, instead of raising, about objects that do not fit.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import tapeflow as tf
    >>> def make():
    ...     return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    >>> model, copy = make(), make()
    >>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
    >>> model.save_weights(path)
    >>> copy.load_weights(path)
    >>> bool(np.array_equal(copy.layers[0].kernel.numpy(), model.layers[0].kernel.numpy()))
    True

    Raises:
        ValueError: if the model is not built, for another file type, or when variables
            do not match (unless ``skip_mismatch``).
        ImportError: without h5py.
    """
    filepath = os.fspath(filepath)
    if kwargs:
        raise ValueError(f"Invalid keyword arguments: {kwargs}")
    if _is_legacy(filepath) and model.built:
        from .legacy_h5 import load_weights_from_hdf5
        load_weights_from_hdf5(model, filepath)
        return
    if not filepath.endswith((".weights.h5", ".keras")) and not _is_legacy(filepath):
        raise ValueError(f"File format not supported: filepath={filepath}. Keras 3 only supports "
                         "V3 `.keras` files, `.weights.h5` files, legacy H5 format files "
                         "(`.h5` extension), or Orbax checkpoints.")
    if not model.built:
        raise ValueError("You are loading weights into a model that has not yet been built. "
                         "Try building the model first by calling it on some data or by "
                         "using `build()`.")
    h5py = import_h5py()
    if filepath.endswith(".keras"):
        with zipfile.ZipFile(filepath, "r") as archive:
            data = io.BytesIO(archive.read(_WEIGHTS))
        with h5py.File(data, "r") as f:
            load_weights_from_h5(model, f, skip_mismatch)
        return
    with h5py.File(filepath, "r") as f:
        load_weights_from_h5(model, f, skip_mismatch)


def _config_json(model):
    return json.dumps(serialize_keras_object(model))


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Write ``model`` to a Keras 3 ``.keras`` file: a stored zip of ``metadata.json``,
    ``config.json``, ``model.weights.h5`` and the files each layer's ``save_assets`` writes
    (``assets/<layer path>/vocabulary.txt`` of an adapted StringLookup, IntegerLookup or
    TextVectorization) (``tf.keras.models.save_model``).

    Args:
        model: the model (its layers must have configs; a ``Lambda`` has none).
        filepath: a path ending in ``.keras``, or ``.h5``/``.hdf5`` for Keras's legacy
            HDF5 model file (``saving.legacy_h5``).
        overwrite: if False and the file exists, ask on the console.
        zipped: only True (the default) is supported.
        include_optimizer: for a legacy ``.h5`` file, whether to keep the training config
            and the optimizer's state (default True).

    Raises:
        ValueError: for a name not ending in ``.keras``, or a layer without a config.
        ImportError: without h5py.
    """
    filepath = os.fspath(filepath)
    include_optimizer = kwargs.pop("include_optimizer", True)
    if _is_legacy(filepath):
        from .legacy_h5 import save_model_to_hdf5
        if kwargs:
            raise ValueError("The following argument(s) are not supported with the legacy "
                             f"HDF5 format: {list(kwargs.keys())}")
        save_model_to_hdf5(model, filepath, overwrite, include_optimizer)
        return
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs.keys())}")
    if zipped is False:
        raise ValueError("tapeflow writes zipped `.keras` files only (`zipped=False` is not "
                         "supported).")
    if not filepath.endswith(".keras"):
        raise ValueError(
            "Invalid filepath extension for saving. Please add either a `.keras` extension "
            "for the native Keras format (recommended) or a `.h5` extension. Use "
            "`model.export(filepath)` if you want to export a SavedModel for use with "
            f"TFLite/TFServing/etc. Received: filepath={filepath}.")
    h5py = import_h5py()
    if not model.built:
        warnings.warn("You are saving a model that has not yet been built. It might not "
                      "contain any weights yet. Consider building the model first by calling "
                      "it on some data.", stacklevel=3)
    config_json = _config_json(model)
    metadata_json = json.dumps({
        "keras_version": KERAS_VERSION,
        "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")})
    weights = io.BytesIO()
    with tempfile.TemporaryDirectory() as assets_dir:
        with h5py.File(weights, "w") as f:
            save_weights_to_h5(model, f, assets_dir=assets_dir)
        assets = _read_tree(assets_dir)
    if not overwrite_ok(filepath, overwrite):
        return
    with _atomic.atomic_path(filepath) as tmp:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED) as archive:
            archive.writestr(_METADATA, metadata_json)
            archive.writestr(_CONFIG, config_json)
            archive.writestr(_WEIGHTS, weights.getbuffer())
            for name, data in assets:
                archive.writestr(f"{_ASSETS}/{name}", data)


def _read_tree(root):
    """``[(relative path with '/', bytes)]`` of the files under ``root`` (sorted; empty
    folders leave nothing, as in Keras's zip)."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(folder, name)
            with open(full, "rb") as f:
                out.append((os.path.relpath(full, root).replace(os.sep, "/"), f.read()))
    return out


# An asset member that unpacks to more than this and to over 100 times its stored size is
# refused as a decompression bomb (Keras 3's extraction limits).
_ASSET_BOMB_FLOOR = 1 << 28
_ASSET_MAX_EXPANSION = 100


def _extract_assets(archive, root):
    """Write the archive's ``assets/...`` members into ``root``, refusing any name that
    would land outside it and any likely decompression bomb."""
    import shutil
    base = os.path.realpath(root)
    for info in archive.infolist():
        name = info.filename
        if not name.startswith(_ASSETS + "/") or name.endswith("/"):
            continue
        target = os.path.realpath(os.path.join(base, name[len(_ASSETS) + 1:]))
        if os.path.commonpath([base, target]) != base:
            raise ValueError(f"Invalid asset path: '{name}' escapes the asset directory.")
        if (info.file_size > _ASSET_BOMB_FLOOR
                and info.file_size > _ASSET_MAX_EXPANSION * info.compress_size):
            raise ValueError(f"Not allowed: archive member '{name}' declares "
                             f"{info.file_size} bytes but only {info.compress_size} are "
                             "stored; refusing to extract a potential decompression bomb.")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with archive.open(info) as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Rebuild a model from a Keras 3 ``.keras`` file: its config, compile arguments and
    weights, optimizer state included, and its layers' ``assets/`` (vocabularies), read as
    Keras does when the zip has more than three members (``tf.keras.models.load_model``).

    Args:
        filepath: a ``.keras`` file (or a legacy ``.h5`` model file) written by tapeflow
            or Keras 3.
        custom_objects: ``{name: class}`` for classes not registered with
            ``register_keras_serializable``.
        compile: whether to compile the model with the saved arguments.
        safe_mode: False to allow the Python lambdas of ``Lambda`` layers.

    Returns:
        The model.

    >>> import os, tempfile
    >>> import tapeflow as tf
    >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    >>> model.compile(optimizer="adam", loss="mse")
    >>> _ = model.fit(tf.ones((4, 3)), tf.zeros((4, 2)), verbose=0)
    >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
    >>> model.save(path)
    >>> again = tf.keras.models.load_model(path)
    >>> again.layers[0].units, type(again.optimizer).__name__
    (2, 'Adam')
    >>> int(again.optimizer.iterations.numpy())
    1

    Raises:
        ValueError: for another file type or a missing file, an asset path leaving
            ``assets/``, or objects whose weights or assets did not load (Keras's message
            listing them).
        TypeError: for a class that is neither built in nor registered / in
            ``custom_objects``.
        ImportError: without h5py.
    """
    filepath = os.fspath(filepath)
    if _is_legacy(filepath) and os.path.exists(filepath):
        from .legacy_h5 import load_model_from_hdf5
        return load_model_from_hdf5(filepath, custom_objects, compile, safe_mode)
    if not filepath.endswith(".keras"):
        raise ValueError(
            f"File format not supported: filepath={filepath}. Keras 3 only supports V3 "
            "`.keras` files, legacy H5 format files (`.h5` extension). Note that the legacy "
            "SavedModel format is not supported by `load_model()` in Keras 3. In order to "
            "reload a TensorFlow SavedModel as an inference-only layer in Keras 3, use "
            f"`keras.layers.TFSMLayer({filepath}, call_endpoint='serving_default')` (note "
            "that your `call_endpoint` might have a different name).")
    if not zipfile.is_zipfile(filepath):
        raise ValueError(f"File not found: filepath={filepath}. Please ensure the file is an "
                         "accessible `.keras` zip file.")
    h5py = import_h5py()
    with tempfile.TemporaryDirectory() as assets_dir:
        with zipfile.ZipFile(filepath, "r") as archive:
            config = json.loads(archive.read(_CONFIG))
            weights = io.BytesIO(archive.read(_WEIGHTS))
            # Keras reads assets only when the zip holds more than its three files
            has_assets = len(archive.namelist()) > 3
            if has_assets:
                _extract_assets(archive, assets_dir)
        if not compile:
            config["compile_config"] = None
        model = deserialize_keras_object(config, custom_objects, safe_mode=safe_mode)
        with h5py.File(weights, "r") as f:
            load_weights_from_h5(model, f, assets_dir=assets_dir if has_assets else None)
    return model


def model_from_json(json_string, custom_objects=None):
    """A new (unweighted) model from ``Model.to_json()``'s text
    (``tf.keras.models.model_from_json``).

    >>> import tapeflow as tf
    >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    >>> tf.keras.models.model_from_json(model.to_json()).layers[0].units
    2
    """
    return deserialize_keras_object(json.loads(json_string), custom_objects)
