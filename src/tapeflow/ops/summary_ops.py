"""The summary-writing op (TF's ``WriteSummary``): an effect, not a value.

Its forward reads the data and the step (a tensor or a variable such as an optimizer's
``iterations``), encodes the data with the summary kind's encoder and appends one event to
the writer. A recorder sees it as one op with those inputs, so a replayed program writes on
every call with the values of that call, as TensorFlow's graph does.
"""
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable

__all__ = ["write_summary"]


def _write(data, step, writer, tag, encode):
    writer._write_value(tag, encode(data), int(step))
    return np.True_


WRITE_SUMMARY = nondifferentiable("WriteSummary", _write)


def write_summary(data, step, writer, tag, encode):
    """Append ``encode(data)`` (a ``Summary.Value`` maker) under ``tag`` at ``step`` to
    ``writer``; returns a True bool tensor.

    Args:
        data: a Tensor or Variable.
        step: an integer Tensor or Variable.
        writer: a ``tf.summary`` writer.
        tag: the summary's tag.
        encode: ``encode(array) -> Summary.Value`` without its tag.
    """
    return apply(WRITE_SUMMARY, [data, step], {"writer": writer, "tag": tag, "encode": encode})
