"""The CIFAR batch files: pickled dicts of ``data`` (n x 3072 uint8) and labels."""
from ._files import RestrictedUnpickler

__all__ = ["load_batch"]


def load_batch(fpath, label_key="labels"):
    """``(data, labels)`` of one CIFAR batch file: data uint8 ``(n, 3, 32, 32)``, labels a
    list of ints (``label_key``: 'labels', 'fine_labels' or 'coarse_labels')."""
    with open(fpath, "rb") as f:
        d = RestrictedUnpickler(f, encoding="bytes").load()
    d = {k.decode("utf8") if isinstance(k, bytes) else k: v for k, v in d.items()}
    data = d["data"]
    return data.reshape(data.shape[0], 3, 32, 32), d[label_key]
