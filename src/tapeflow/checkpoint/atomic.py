"""Atomic file writes: a temporary in the destination directory, fsync, rename, fsync dir.

A reader sees the old file or the complete new one, never a part, even after a crash or
power loss: the bytes are on disk (``fsync``) before the rename makes them visible, and
the rename itself is made durable by fsyncing the directory. Temporaries are named
``.<name>.tmp-<host>-<pid>-<random>``; loaders ignore them and :func:`remove_stale`
deletes those left by a process of this host that died (another host's only after a day:
its process may still be writing to a shared file system).
"""
import contextlib
import os
import re
import socket
import time

__all__ = ["atomic_write", "atomic_path", "write_bytes", "fsync_dir", "remove_stale",
           "is_temporary"]

_TMP = re.compile(r"^\..+\.tmp-([A-Za-z0-9_-]*)-(\d+)-[0-9a-f]+$")
_HOST = re.sub(r"[^A-Za-z0-9_-]", "_", socket.gethostname())[:40]
_FOREIGN_AGE = 24 * 3600.0


def is_temporary(name: str) -> bool:
    """Whether ``name`` (a base name) is one of these writers' temporaries."""
    return _TMP.match(name) is not None


def fsync_dir(directory: str):
    """Make renames and deletions in ``directory`` durable (a no-op where unsupported)."""
    try:
        fd = os.open(directory or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_write(path: str, sync_dir: bool = True, before_replace=None):
    """Open a temporary beside ``path`` for binary writing; on success it replaces ``path``.

    ``before_replace()``, if given, runs once the temporary is complete and on disk, just
    before the rename. On any exception (disk full, KeyboardInterrupt, ...) the temporary
    is removed and the exception propagates; ``path`` is untouched.
    """
    directory, name = os.path.split(os.path.abspath(path))
    tmp = os.path.join(directory,
                       f".{name}.tmp-{_HOST}-{os.getpid()}-{os.urandom(4).hex()}")
    f = open(tmp, "xb")
    try:
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if before_replace is not None:
            before_replace()
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
    if sync_dir:
        fsync_dir(directory)


@contextlib.contextmanager
def atomic_path(path: str, sync_dir: bool = True):
    """Yield a temporary path beside ``path`` for a writer that opens files by name (h5py,
    zipfile); once the block has written and closed it, fsync it and rename it over ``path``.
    Stale temporaries of dead writers in the directory are removed first. On any exception
    the temporary is removed and ``path`` is untouched."""
    directory, name = os.path.split(os.path.abspath(path))
    remove_stale(directory)
    tmp = os.path.join(directory,
                       f".{name}.tmp-{_HOST}-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
    if sync_dir:
        fsync_dir(directory)


def write_bytes(path: str, data, sync_dir: bool = True):
    """Atomically replace ``path`` with ``data`` (bytes-like)."""
    with atomic_write(path, sync_dir) as f:
        f.write(data)


def remove_stale(directory: str):
    """Delete temporaries in ``directory`` left by processes that no longer run."""
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return
    for name in names:
        m = _TMP.match(name)
        if m is None:
            continue
        path = os.path.join(directory, name)
        host, pid = m.group(1), int(m.group(2))
        if host == _HOST:
            if pid == os.getpid() or _alive(pid):
                continue  # a live process (maybe this one) is writing it now
        else:
            with contextlib.suppress(OSError):
                if time.time() - os.path.getmtime(path) < _FOREIGN_AGE:
                    continue
        with contextlib.suppress(OSError):
            os.remove(path)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
