"""``tf.saved_model.save``: an object's variables and ``tf.function``s as a SavedModel that
TensorFlow 2.21 loads, serves and differentiates.

The directory gets ``variables/`` (a checkpoint bundle, written by the checkpoint writer),
``assets/``, then ``saved_model.pb`` (by temporary file and rename: its presence means the
export is complete) and ``fingerprint.pb``. Everything is built in memory first, so a refused
export (a function TF's graph cannot express the same way) writes nothing.

TF's counterpart: ``tensorflow/python/saved_model/save.py``.
"""
import hashlib
import os
import uuid

import numpy as np

from .. import _protobuf as pb
from ..checkpoint import atomic, bundle
from ..checkpoint.graph import OBJECT_GRAPH_KEY
from ..function.concrete_function import ConcreteFunction
from ..function.polymorphic import Function
from . import export, objects, revive

__all__ = ["save"]

DEFAULT_KEY = "serving_default"


def save(obj, export_dir, signatures=None, options=None):
    """Save ``obj`` (a ``tf.Module`` or other trackable object) as a SavedModel in
    ``export_dir`` (``tf.saved_model.save``).

    Its variables, sub-objects and ``tf.function`` attributes (each trace; a function with
    an ``input_signature`` is traced if it was not) are saved; TF's ``tf.saved_model.load``
    gives them back as attributes and callable restored functions.

    Args:
        obj: the root object.
        export_dir: a directory path (str or path-like); created if needed.
        signatures: None (the root's single ``tf.function`` with an ``input_signature``, if
            there is exactly one, becomes ``serving_default``; else what the root's
            ``_default_save_signature()`` returns, TF's protocol for Keras models; an object
            loaded from a SavedModel keeps its signatures), a ``tf.function`` with an
            input signature or a concrete function (``serving_default``), or a dict of
            them by signature key.
        options: a ``tf.saved_model.SaveOptions``; of its options only
            ``experimental_custom_gradients`` changes the files (True, the default: the
            gradient of each ``tf.custom_gradient`` call is saved as a function of the
            library, so TF and tapeflow differentiate the loaded function with it).

    Returns:
        None.

    Raises:
        ValueError: a function that cannot be exported faithfully (a Python call such as
            ``tf.py_function`` or ``tf.print``, a Python read of a tensor value, a loop over
            a dataset, a program that does not serve every size of its ``None``
            dimensions, a tapeflow-only op), a variable used by a function but not
            reachable from ``obj``, or a bad ``signatures`` value. Nothing is written.
        OSError: from the file system; ``saved_model.pb`` is then absent.
    """
    export_dir = os.fspath(export_dir)
    sig_map = _signatures(obj, signatures)
    nodes = objects.walk(obj, objects.SignatureMap(sig_map))
    custom = getattr(options, "experimental_custom_gradients", True)
    ex, graph, ckpt, tensors = export.build(nodes, custom_gradients=bool(custom))
    ckpt_bytes = pb.encode(ckpt)
    meta = ex.meta_graph(graph, ckpt_bytes)
    data = pb.encode(pb.Message("tensorflow.SavedModel", saved_model_schema_version=1,
                                meta_graphs=[meta]))
    tensors.append((OBJECT_GRAPH_KEY, "string", (), np.array(ckpt_bytes, object)))
    # Writing: the old saved_model.pb goes first (no "complete" marker over new files).
    os.makedirs(export_dir, exist_ok=True)
    pb_path = os.path.join(export_dir, "saved_model.pb")
    if os.path.exists(pb_path):
        os.remove(pb_path)
        atomic.fsync_dir(export_dir)
    variables = os.path.join(export_dir, "variables")
    os.makedirs(variables, exist_ok=True)
    prefix = os.path.join(variables, "variables")
    bundle.write_bundle(prefix, tensors)
    os.makedirs(os.path.join(export_dir, "assets"), exist_ok=True)
    atomic.write_bytes(pb_path, data)
    atomic.write_bytes(os.path.join(export_dir, "fingerprint.pb"),
                       _fingerprint(data, meta, prefix))


def _signatures(obj, signatures):
    """``{key: ConcreteFunction}``."""
    if signatures is None:
        loaded = objects.loaded_signatures(obj)
        if loaded is not None:       # a loaded object keeps its signatures
            return loaded
        found = [f for _, f in objects.functions_of(obj)
                 if getattr(f, "_input_signature", None) is not None]
        if len(found) == 1:
            return {DEFAULT_KEY: found[0].get_concrete_function()}
        # TF's protocol: an object (a Keras model) may say what serves by default
        default = getattr(obj, "_default_save_signature", None)
        if callable(default):
            got = default()
            if got is not None:
                return _signatures(obj, got)
        return {}
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_KEY: signatures}
    out = {}
    for key, f in signatures.items():
        if not isinstance(key, str):
            raise ValueError(f"Signature keys must be strings, got {key!r}.")
        if isinstance(f, Function):
            if f._input_signature is None:
                raise ValueError(
                    f"Expected a TensorFlow function for which to generate a signature "
                    f"(the signature {key!r}): `{f.name}` has no input_signature; pass "
                    f"`{f.name}.get_concrete_function(...)` or give it an input_signature.")
            f = f.get_concrete_function()
        if not isinstance(f, (ConcreteFunction, revive.RestoredConcreteFunction)):
            raise ValueError(f"Expected a TensorFlow function for which to generate a "
                             f"signature, but got {f!r} for the signature {key!r}.")
        out[key] = f
    return out


def _hash(data):
    h = int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")
    return h or 1


def _fingerprint(data, meta, prefix):
    """FingerprintDef: stable 64-bit hashes of the parts (TF: FarmHash64 of regularized
    parts; any stable nonzero hash loads), version 4, a random 128-bit uuid."""
    with open(bundle.index_path(prefix), "rb") as fh:
        ckpt = fh.read()
    sigs = b"".join(k.encode() + pb.encode(v) for k, v in sorted(meta.signature_def.items()))
    return pb.encode(pb.Message(
        "tensorflow.FingerprintDef", saved_model_checksum=_hash(data),
        graph_def_program_hash=_hash(pb.encode(meta.graph_def.library)),
        signature_def_hash=_hash(sigs),
        saved_object_graph_hash=_hash(pb.encode(meta.object_graph_def)),
        checkpoint_hash=_hash(ckpt),
        version=pb.Message("tensorflow.VersionDef", producer=4),
        uuid=str(uuid.uuid4().int)))
