"""``tf.summary``: write scalars, histograms, images and text for TensorBoard.

Needs the optional tensorboardX package (``pip install "tapeflow[tensorboard]"``) once a
writer is created.

>>> import tempfile, tapeflow as tf
>>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
>>> with writer.as_default(step=1):
...     ok = tf.summary.scalar("loss", 0.5)
>>> bool(ok), bool(tf.summary.scalar("loss", 0.5, step=2))
(True, False)
"""
from . import experimental
from .ops import histogram, image, scalar, text, write
from .trace import trace_export, trace_off, trace_on
from .writer import (
    SummaryWriter,
    create_file_writer,
    create_noop_writer,
    flush,
    record_if,
    should_record_summaries,
)

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "experimental", "flush",
           "histogram", "image", "record_if", "scalar", "should_record_summaries", "text",
           "trace_export", "trace_off", "trace_on", "write"]
