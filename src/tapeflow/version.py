"""``tf.version``: the version of tapeflow (``VERSION``, equal to ``tf.__version__``).

TensorFlow counterpart: ``tf.version.VERSION`` (TensorFlow's own release there; tapeflow
reports its own, the API it follows being TensorFlow 2.21's).
"""
from . import __version__ as VERSION

__all__ = ["VERSION"]
