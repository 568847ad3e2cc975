"""TensorFlow's Python logger (``tf.get_logger()``): ``logging.getLogger("tensorflow")``,
given a stderr handler printing ``WARNING:tensorflow:<message>`` (``logging.BASIC_FORMAT``)
when the program has configured no root handler, as TensorFlow does; in an interactive
session it prints to stdout from level INFO.

tapeflow's warnings that TensorFlow also gives go through it, worded as TensorFlow's, so
``logging`` filters, ``caplog`` and ``tf.get_logger().setLevel`` treat them alike; what
TensorFlow logs only at verbosity levels (``vlog``) is logged at that numeric level (below
DEBUG, so it is not shown by default). ``logging`` is imported on first use, to keep it off
``import tapeflow``.
"""
import sys
import threading

__all__ = ["get_logger", "warning", "vlog"]

_lock = threading.Lock()
_logger = []


def get_logger():
    """The ``tensorflow`` logger (``tf.get_logger``), configured once."""
    if _logger:
        return _logger[0]
    import logging
    with _lock:
        if _logger:
            return _logger[0]
        logger = logging.getLogger("tensorflow")
        if not logging.getLogger().handlers:
            interactive = hasattr(sys, "ps1") or bool(sys.flags.interactive)
            if interactive:
                logger.setLevel(logging.INFO)
            handler = logging.StreamHandler(sys.stdout if interactive else sys.stderr)
            handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT, None))
            logger.addHandler(handler)
        _logger.append(logger)
        return logger


def warning(message, *args):
    """Log ``message % args`` at WARNING on the ``tensorflow`` logger."""
    get_logger().warning(message, *args)


def vlog(level, message, *args):
    """TensorFlow's ``logging.vlog``: a message at numeric ``level`` (1 is below DEBUG)."""
    get_logger().log(level, message, *args)
