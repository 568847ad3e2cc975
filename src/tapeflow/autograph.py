"""``tf.autograph``: the converted source of a function, opting out of conversion, and the
verbosity of AutoGraph's log messages."""
import os as _os
import types as _types

from .function.autograph import do_not_convert, to_code

experimental = _types.SimpleNamespace(do_not_convert=do_not_convert)

_verbosity = []


def set_verbosity(level, alsologtostdout=False):
    """Set AutoGraph's log verbosity (``tf.autograph.set_verbosity``): 0 logs nothing of its
    own; higher levels are stored and reported by ``get_verbosity`` (tapeflow's AutoGraph
    logs no conversion details). Overrides the ``AUTOGRAPH_VERBOSITY`` environment variable.
    """
    _verbosity[:] = [int(level), bool(alsologtostdout)]


def get_verbosity():
    """The AutoGraph verbosity: ``set_verbosity``'s level, else ``AUTOGRAPH_VERBOSITY``
    (default 0) (``tf.autograph.get_verbosity``)."""
    if _verbosity:
        return _verbosity[0]
    return int(_os.environ.get("AUTOGRAPH_VERBOSITY", 0))


__all__ = ["to_code", "experimental", "set_verbosity", "get_verbosity"]
