"""``tf.io.gfile``: TensorFlow's file-system helpers on the local file system (plain paths and
``file://`` URLs), through Python's ``os``, ``shutil`` and ``glob``.

Errors are TensorFlow's: ``tf.errors.NotFoundError`` for a missing path,
``tf.errors.AlreadyExistsError`` for ``rename``/``copy`` onto an existing file without
``overwrite``, ``tf.errors.FailedPreconditionError`` for a directory where a file is wanted.
Other schemes (``gs://``, ``s3://``, ``hdfs://``) raise ``tf.errors.UnimplementedError``.
"""
import glob as _glob
import os
import shutil

from ._core import errors

__all__ = ["GFile", "Open", "copy", "exists", "glob", "isdir", "join", "listdir", "makedirs",
           "mkdir", "remove", "rename", "rmtree", "stat", "walk", "get_registered_schemes"]


def _local(path):
    """A local path from a str, bytes, path-like or scalar string tensor."""
    if hasattr(path, "numpy"):
        path = path.numpy()
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode()
    if path.startswith("file://"):
        return path[len("file://"):]
    if "://" in path:
        raise errors.UnimplementedError(
            None, None, f"File system scheme '{path.split('://')[0]}' not implemented "
            f"(file: '{path}')")
    return path


def _not_found(path, what="No such file or directory"):
    return errors.NotFoundError(None, None, f"{path}; {what}")


def get_registered_schemes():
    """The URL schemes tapeflow's gfile reads: ``['', 'file']``."""
    return ["", "file"]


def exists(path):
    """Whether ``path`` exists (``tf.io.gfile.exists``)."""
    return os.path.exists(_local(path))


def isdir(path):
    """Whether ``path`` is a directory (``tf.io.gfile.isdir``)."""
    return os.path.isdir(_local(path))


def join(path, *paths):
    """``os.path.join`` that keeps a URL's ``scheme://`` (``tf.io.gfile.join``)."""
    return os.path.join(path, *paths)


def listdir(path):
    """The names in directory ``path``, unsorted as the OS gives them
    (``tf.io.gfile.listdir``).

    Raises:
        tf.errors.NotFoundError: if ``path`` is not a directory.
    """
    p = _local(path)
    if not os.path.isdir(p):
        raise errors.NotFoundError(None, None, f"Could not find directory {path}")
    return os.listdir(p)


def glob(pattern):
    """Paths matching ``pattern`` (``*``, ``?``, ``[...]``), sorted (``tf.io.gfile.glob``).

    A list of patterns gives the union."""
    if isinstance(pattern, (list, tuple)):
        return sorted({m for p in pattern for m in glob(p)})
    return sorted(_glob.glob(_local(pattern)))


def makedirs(path):
    """Create ``path`` and its missing parents; an existing directory is fine
    (``tf.io.gfile.makedirs``)."""
    os.makedirs(_local(path), exist_ok=True)


def mkdir(path):
    """Create directory ``path`` (``tf.io.gfile.mkdir``).

    Raises:
        tf.errors.NotFoundError: if the parent does not exist.
        tf.errors.AlreadyExistsError: if it exists.
    """
    p = _local(path)
    try:
        os.mkdir(p)
    except FileNotFoundError:
        raise _not_found(path) from None
    except FileExistsError:
        raise errors.AlreadyExistsError(None, None, f"{path}; File exists") from None


def remove(path):
    """Delete the file ``path`` (``tf.io.gfile.remove``).

    Raises:
        tf.errors.NotFoundError: if it does not exist.
    """
    try:
        os.remove(_local(path))
    except FileNotFoundError:
        raise _not_found(path) from None


def rmtree(path):
    """Delete directory ``path`` and everything below it (``tf.io.gfile.rmtree``).

    Raises:
        tf.errors.NotFoundError: if it does not exist.
    """
    p = _local(path)
    if not os.path.exists(p):
        raise _not_found(path)
    shutil.rmtree(p)


def rename(src, dst, overwrite=False):
    """Rename ``src`` to ``dst`` (``tf.io.gfile.rename``).

    Raises:
        tf.errors.AlreadyExistsError: if ``dst`` exists and not ``overwrite``.
        tf.errors.NotFoundError: if ``src`` does not exist.
    """
    os.replace(*_source_and_target(src, dst, overwrite))


def copy(src, dst, overwrite=False):
    """Copy file ``src`` to ``dst`` (``tf.io.gfile.copy``).

    Raises:
        tf.errors.AlreadyExistsError: if ``dst`` exists and not ``overwrite``.
        tf.errors.NotFoundError: if ``src`` does not exist.
    """
    shutil.copyfile(*_source_and_target(src, dst, overwrite))


def _source_and_target(src, dst, overwrite):
    """The local paths of ``src`` and ``dst``, checked as ``rename`` and ``copy`` check them."""
    s, d = _local(src), _local(dst)
    if not os.path.exists(s):
        raise _not_found(src)
    if os.path.exists(d) and not overwrite:
        raise errors.AlreadyExistsError(None, None, f"file already exists: {dst}")
    return s, d


class _Stat:
    """``tf.io.gfile.stat``'s result: ``length`` (bytes), ``mtime_nsec``, ``is_directory``."""

    def __init__(self, st, is_dir):
        self.length = st.st_size
        self.mtime_nsec = st.st_mtime_ns
        self.is_directory = is_dir


def stat(path):
    """Size, modification time (ns) and kind of ``path`` (``tf.io.gfile.stat``).

    Raises:
        tf.errors.NotFoundError: if it does not exist.
    """
    p = _local(path)
    try:
        return _Stat(os.stat(p), os.path.isdir(p))
    except FileNotFoundError:
        raise _not_found(path) from None


def walk(top, topdown=True, onerror=None):
    """``(dirname, subdirs, files)`` for every directory under ``top``
    (``tf.io.gfile.walk``); a missing ``top`` yields nothing."""
    yield from os.walk(_local(top), topdown=topdown, onerror=onerror)


class GFile:
    """A file object (``tf.io.gfile.GFile``, alias ``tf.io.gfile.Open``): ``mode`` as
    ``open``'s (``"r"`` text, ``"rb"`` bytes, ``"w"``, ``"a"``...), usable in ``with``.

    Raises:
        tf.errors.NotFoundError: when reading a missing file (on first read, as TF).
    """

    def __init__(self, name, mode="r"):
        self.name = name
        self.mode = mode
        self._path = _local(name)
        self._f = None

    def _file(self):
        if self._f is None:
            try:
                self._f = open(self._path, self.mode)  # noqa: SIM115 - closed by close()
            except FileNotFoundError:
                raise _not_found(self.name) from None
        return self._f

    def read(self, n=-1):
        return self._file().read(n)

    def readline(self):
        return self._file().readline()

    def readlines(self):
        return self._file().readlines()

    def write(self, data):
        self._file().write(data)

    def seek(self, offset, whence=0):
        return self._file().seek(offset, whence)

    def tell(self):
        return self._file().tell()

    def size(self):
        return os.path.getsize(self._path)

    def flush(self):
        if self._f is not None:
            self._f.flush()

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def __iter__(self):
        return iter(self._file())

    def __next__(self):
        return next(self._file())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


Open = GFile
