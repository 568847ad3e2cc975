"""``tf.autograph``: the converted source of a function, and opting out of conversion."""
import types as _types

from .function.autograph import do_not_convert, to_code

experimental = _types.SimpleNamespace(do_not_convert=do_not_convert)

__all__ = ["to_code", "experimental"]
