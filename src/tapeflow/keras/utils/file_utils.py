"""get_file: fetch a file once into ``~/.keras/<cache_subdir>``, check its hash, and unpack
tar/zip archives (``keras.utils.get_file``, Keras 3's cache layout)."""
import hashlib
import os
import pathlib
import shutil
import tempfile
import warnings

__all__ = ["get_file", "keras_home", "validate_file", "extract_archive"]


class OfflineError(Exception):
    """A file is neither cached nor downloadable. Keras raises a plain ``Exception`` with
    ``"URL fetch failure on <origin>: <errno> -- <reason>"``; this subclass of ``Exception``
    keeps that text and adds where the cached copy is looked for."""


def keras_home():
    """``$KERAS_HOME`` if set, else ``~/.keras`` (read at each call, unlike Keras, which
    reads it once at import)."""
    if os.environ.get("KERAS_HOME"):
        return os.environ["KERAS_HOME"]
    base = os.path.expanduser("~")
    if not os.access(base, os.W_OK):
        base = "/tmp"
    return os.path.join(base, ".keras")


def _hasher(algorithm, file_hash=None):
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None
                                 and len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def _hash_file(path, hasher, chunk_size=65535):
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(chunk_size), b""):
            hasher.update(block)
    return hasher.hexdigest()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """Whether the file's sha256 or md5 (``algorithm='auto'``: sha256 for a 64-digit hash)
    equals ``file_hash``."""
    return str(_hash_file(fpath, _hasher(algorithm, file_hash), chunk_size)) == str(file_hash)


def _inside(base, name):
    base = os.path.realpath(base)
    target = os.path.realpath(os.path.join(base, name))
    return os.path.commonpath([base, target]) == base


def extract_archive(file_path, path=".", archive_format="auto"):
    """Unpack a tar (any compression) or zip archive into ``path``, skipping members that
    would land outside it. Returns whether the file was an archive of an accepted format."""
    import tarfile
    import zipfile
    if archive_format is None:
        return False
    formats = ["tar", "zip"] if archive_format == "auto" else (
        [archive_format] if isinstance(archive_format, str) else list(archive_format))
    file_path, path = os.fspath(file_path), os.fspath(path)
    for kind in formats:
        if kind == "tar":
            if not tarfile.is_tarfile(file_path):
                continue
            with tarfile.open(file_path) as archive:
                members = [m for m in archive.getmembers() if _inside(path, m.name) and (
                    not (m.issym() or m.islnk()) or _inside(
                        path, os.path.join(os.path.dirname(m.name), m.linkname)))]
                archive.extractall(path, members=members, filter="data")
            return True
        if kind == "zip":
            if not zipfile.is_zipfile(file_path):
                continue
            with zipfile.ZipFile(file_path) as archive:
                archive.extractall(path, members=[m for m in archive.infolist()
                                                  if _inside(path, m.filename)])
            return True
        raise NotImplementedError(kind)
    return False


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None, force_download=False):
    """The local path of ``fname``, downloading it from ``origin`` unless a copy with the
    right hash is already cached (``tf.keras.utils.get_file``, Keras 3's layout).

    Args:
        fname: the file name under ``cache_dir/cache_subdir`` (default: the URL's last part).
            A name with a path separator is refused, as in Keras 3.
        origin: the URL to download from.
        untar: deprecated spelling of ``extract=True`` for tar files.
        md5_hash: deprecated spelling of ``file_hash`` with ``hash_algorithm='md5'``.
        file_hash: the expected hash (hex); with ``'auto'``, 64 digits mean sha256, else md5.
        cache_subdir: the folder under ``cache_dir`` (an absolute path is used as it is).
        hash_algorithm: 'auto', 'sha256' or 'md5'.
        extract: unpack the archive; the archive is kept as ``<fname>_archive`` (or as
            ``fname`` when it has an extension, unpacked into ``<stem>_extracted``) and the
            extraction folder is returned.
        archive_format: 'auto' (tar then zip), 'tar', 'zip' or None.
        cache_dir: default ``$KERAS_HOME`` or ``~/.keras``.
        force_download: download even when a cached copy exists.

    Returns:
        The path of the file, or of the extraction folder with ``extract``.

    Raises:
        ValueError: without ``origin``, for a ``fname`` with a path separator, or if the
            downloaded file's hash differs from ``file_hash``.
        Exception: ``"URL fetch failure on <origin>: ..."`` when the file must be downloaded
            and cannot be (offline); the message also names the cache path to fill.
    """
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if cache_dir is None:
        cache_dir = keras_home()
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    base = os.path.expanduser(os.fspath(cache_dir))
    if not os.access(base, os.W_OK) and os.path.exists(base):
        base = os.path.join("/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir(), ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    provided = fname
    fname = os.fspath(fname) if isinstance(fname, (str, pathlib.PurePath)) else fname
    if not fname:
        import urllib.parse
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
        if not fname:
            raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'."
                             "Please specify the `fname` argument.")
    elif os.sep in fname:
        raise ValueError("Paths are no longer accepted as the `fname` argument. To specify the "
                         "file's parent directory, use the `cache_dir` argument. Received: "
                         f"fname={fname}")
    extraction_dir = None
    if extract or untar:
        if provided and "." in fname:
            target = os.path.join(datadir, fname)
            extraction_dir = os.path.join(datadir, f"{fname[:fname.find('.')]}_extracted")
        else:
            extraction_dir = os.path.join(datadir, fname)
            target = os.path.join(datadir, f"{fname}_archive")
    else:
        target = os.path.join(datadir, fname)

    download = True
    if not force_download and os.path.exists(target):
        download = False
        if file_hash is not None and not validate_file(target, file_hash, hash_algorithm):
            print("A local file was found, but it seems to be incomplete or outdated because "
                  f"the {hash_algorithm} file hash does not match the original value of "
                  f"{file_hash} so we will re-download the data.")
            download = True
    if download:
        _download(origin, target)
        if file_hash is not None and not validate_file(target, file_hash, hash_algorithm):
            raise ValueError(f"Incomplete or corrupted file detected. The {hash_algorithm} "
                             f"file hash does not match the provided value of {file_hash}.")
    if extraction_dir is not None:
        if not extract_archive(target, extraction_dir, "tar" if untar else archive_format):
            warnings.warn("Could not extract archive.", stacklevel=2)
        return extraction_dir
    return target


def _download(origin, target):
    import urllib.error
    import urllib.request
    print(f"Downloading data from {origin}")
    tmp = tempfile.NamedTemporaryFile(delete=False, dir=os.path.dirname(target))
    try:
        with tmp:
            try:
                with urllib.request.urlopen(origin) as response:
                    shutil.copyfileobj(response, tmp)
            except urllib.error.HTTPError as e:
                raise OfflineError(f"URL fetch failure on {origin}: {e.code} -- {e.msg}. "
                                   f"To work offline, place the file at {target}") from None
            except (urllib.error.URLError, OSError) as e:
                reason = getattr(e, "reason", e)
                raise OfflineError(f"URL fetch failure on {origin}: {e.errno} -- {reason}. "
                                   f"To work offline, place the file at {target}") from None
        os.replace(tmp.name, target)
    except BaseException:
        if os.path.exists(tmp.name):
            os.remove(tmp.name)
        raise
