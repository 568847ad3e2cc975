"""get_file: fetch a file once into ``~/.keras/<cache_subdir>`` and check its SHA-256."""
import hashlib
import os
import shutil
import tempfile
import urllib.request

__all__ = ["get_file"]


def _hash(path, algorithm="sha256"):
    digest = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def get_file(fname=None, origin=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, force_download=False, cache_dir=None):
    """The local path of ``fname``, downloading it from ``origin`` unless a copy with the
    right hash is already cached (``tf.keras.utils.get_file``).

    Args:
        fname: the file name (an absolute path is used as it is).
        origin: the URL to download from.
        file_hash: the expected hash (hex), or None to skip the check.
        hash_algorithm: ``"sha256"``, ``"md5"`` or ``"auto"`` (SHA-256 for a 64-digit
            hash, MD5 otherwise, as Keras decides).
        cache_subdir: the folder under ``cache_dir``.
        cache_dir: default ``$KERAS_HOME`` or ``~/.keras``.

    Returns:
        The path of the file.

    Raises:
        ValueError: if the downloaded file's hash differs from ``file_hash``.
        urllib.error.URLError: if the download fails.
    """
    if fname is None:
        fname = os.path.basename(origin)
    algorithm = hash_algorithm
    if algorithm == "auto":
        algorithm = "sha256" if file_hash is not None and len(file_hash) == 64 else "md5"
    cache_dir = cache_dir or os.environ.get("KERAS_HOME") or os.path.join(
        os.path.expanduser("~"), ".keras")
    folder = os.path.join(cache_dir, cache_subdir)
    path = os.path.join(folder, fname)
    if os.path.exists(path) and not force_download:
        if file_hash is None or _hash(path, algorithm) == file_hash:
            return path
        print("A local file was found, but it seems to be incomplete or outdated because "
              f"the {algorithm} file hash does not match the original value of "
              f"{file_hash} so we will re-download the data.")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    print(f"Downloading data from {origin}")
    with tempfile.NamedTemporaryFile(delete=False, dir=os.path.dirname(path)) as tmp:
        try:
            with urllib.request.urlopen(origin) as response:
                shutil.copyfileobj(response, tmp)
        except BaseException:
            tmp.close()
            os.remove(tmp.name)
            raise
    if file_hash is not None and _hash(tmp.name, algorithm) != file_hash:
        os.remove(tmp.name)
        raise ValueError(f"Incomplete or corrupted file detected. The {algorithm} file hash does "
                         f"not match the provided value of {file_hash}.")
    os.replace(tmp.name, path)
    return path
