"""``tf.saved_model.experimental``: ``read_fingerprint`` and ``Fingerprint``."""
import os

from .. import _protobuf as pb

__all__ = ["Fingerprint", "read_fingerprint"]

_HASHES = ("saved_model_checksum", "graph_def_program_hash", "signature_def_hash",
           "saved_object_graph_hash", "checkpoint_hash")


class Fingerprint:
    """A SavedModel's fingerprint (TF's ``tf.saved_model.experimental.Fingerprint``).

    Attributes: ``saved_model_checksum``, ``graph_def_program_hash``, ``signature_def_hash``,
    ``saved_object_graph_hash``, ``checkpoint_hash`` (ints, uint64), ``version`` (a VersionDef
    message).
    """

    def __init__(self, saved_model_checksum=None, graph_def_program_hash=None,
                 signature_def_hash=None, saved_object_graph_hash=None, checkpoint_hash=None,
                 version=None):
        self.saved_model_checksum = saved_model_checksum
        self.graph_def_program_hash = graph_def_program_hash
        self.signature_def_hash = signature_def_hash
        self.saved_object_graph_hash = saved_object_graph_hash
        self.checkpoint_hash = checkpoint_hash
        self.version = version

    @classmethod
    def from_proto(cls, proto):
        """A Fingerprint from a ``FingerprintDef`` message."""
        return cls(*(getattr(proto, h) for h in _HASHES), version=proto.version)

    def singleprint(self):
        """``"graph_def_program_hash/signature_def_hash/saved_object_graph_hash/checkpoint_hash"``."""
        return "/".join(str(getattr(self, h)) for h in _HASHES[1:])

    def __eq__(self, other):
        if not isinstance(other, Fingerprint):
            return NotImplemented
        return all(getattr(self, h) == getattr(other, h) for h in _HASHES)

    __hash__ = None

    def __str__(self):
        lines = [f"  {h}: {getattr(self, h)}" for h in _HASHES]
        return "SavedModel Fingerprint\n" + "\n".join(lines)

    def __repr__(self):
        return (f"Fingerprint({', '.join(f'{h}={getattr(self, h)}' for h in _HASHES)}, "
                f"version={getattr(self.version, 'producer', None)})")


def read_fingerprint(export_dir: str) -> Fingerprint:
    """The fingerprint of the SavedModel in ``export_dir`` (its ``fingerprint.pb``).

    Raises:
        FileNotFoundError: no ``fingerprint.pb`` in ``export_dir``.
        RuntimeError: ``fingerprint.pb`` does not parse.
    """
    path = os.path.join(os.fspath(export_dir), "fingerprint.pb")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise FileNotFoundError(
            "SavedModel Fingerprint Error: Could not find fingerprint in directory: "
            f"{os.fspath(export_dir)}\nNOT_FOUND: {path} not found") from None
    try:
        proto = pb.decode("tensorflow.FingerprintDef", data)
    except pb.DecodeError as e:
        raise RuntimeError(
            "SavedModel Fingerprint Error: Could not read fingerprint from fingerprint.pb file "
            f"in directory: {os.fspath(export_dir)}\n{e}") from None
    return Fingerprint.from_proto(proto)
