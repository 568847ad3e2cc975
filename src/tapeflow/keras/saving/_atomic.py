"""Crash-safe file replacement: write a temporary beside the target, fsync, rename, fsync the dir.

A reader never sees a half-written file under the final name: it sees the previous version or
the new one. On any exception (disk full, KeyboardInterrupt) the temporary is removed and the
exception re-raised; the previous file is untouched.
"""
import contextlib
import glob
import os
import secrets

__all__ = ["atomic_path", "remove_stale_temporaries"]


def _temporary_name(path):
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, f".{name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")


def remove_stale_temporaries(path):
    """Delete temporaries a crashed writer left beside ``path`` (``.<name>.tmp-*``)."""
    folder, name = os.path.split(os.path.abspath(path))
    for stale in glob.glob(os.path.join(glob.escape(folder), f".{glob.escape(name)}.tmp-*")):
        with contextlib.suppress(OSError):
            os.remove(stale)


def _fsync_dir(folder):
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems that refuse directory fsync
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(path):
    """Yield a temporary path in ``path``'s directory; on success it replaces ``path``.

    The writer inside the block writes and closes the temporary; this then fsyncs it,
    renames it over ``path`` and fsyncs the directory.
    """
    remove_stale_temporaries(path)
    tmp = _temporary_name(path)
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
    _fsync_dir(os.path.dirname(os.path.abspath(path)))
