"""``tf.summary.experimental``: the default step."""
from .writer import get_step, set_step

__all__ = ["get_step", "set_step"]
