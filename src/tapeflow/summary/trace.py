"""``tf.summary.trace_on`` / ``trace_export`` / ``trace_off``: the graphs of the functions
traced in between, written as TensorBoard's ``graph_run_metadata_graph`` summary.

TF 2.21 collects, while a trace is on, the graphs the runtime instantiates: a ``tf.function``
traced (first run) after ``trace_on``, not one traced before it. tapeflow records the same
functions: each new trace of a ``tf.function`` (a listener in ``function/polymorphic.py``,
run once per trace, never per call). ``trace_export`` writes one summary whose tensor is a
serialized ``RunMetadata`` with a ``FunctionGraphs`` entry per function (its GraphDef as
``pre_optimization_graph`` and ``post_optimization_graph``), plugin
``graph_run_metadata_graph`` with content ``"1"``, as TF writes it; TensorBoard's graph
dashboard reads it. TF's entries also hold graphs of its own runtime (``_EagerConst``
wrappers of eager constants), which tapeflow has not. Profiling (``profiler=True``) is not
recorded: ``tf.profiler.experimental`` writes profiles.
"""
from .._core.backend import np
from ..function import polymorphic as _polymorphic
from . import ops as _ops

__all__ = ["trace_on", "trace_off", "trace_export"]

_STATE = {"on": False, "functions": []}


def _record(concrete):
    if _STATE["on"]:
        _STATE["functions"].append(concrete)


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start collecting the graphs of ``tf.function`` traces (``tf.summary.trace_on``).

    Args:
        graph: collect graphs (the only kind tapeflow collects).
        profiler: accepted for TF's signature; profiles are ``tf.profiler.experimental``'s.
        profiler_outdir: ignored, as ``profiler``.
    """
    del profiler, profiler_outdir
    if _record not in _polymorphic.TRACE_LISTENERS:
        _polymorphic.TRACE_LISTENERS.append(_record)
    _STATE["on"] = bool(graph)
    _STATE["functions"] = []


def trace_off():
    """Stop collecting and drop what was collected (``tf.summary.trace_off``)."""
    _STATE["on"] = False
    _STATE["functions"] = []


def _len_field(number, payload):
    from .._protobuf import _varint
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def run_metadata_bytes(functions):
    """A serialized ``RunMetadata`` whose ``function_graphs`` (field 4) hold each function's
    GraphDef as ``pre_optimization_graph`` (2) and ``post_optimization_graph`` (3)."""
    from .. import _protobuf as pb
    out = b""
    for concrete in functions:
        graph = pb.encode(concrete.graph.as_graph_def())
        out += _len_field(4, _len_field(2, graph) + _len_field(3, graph))
    return out


def trace_export(name, step=None, profiler_outdir=None):
    """Write the collected graphs as one summary under ``name`` and stop the trace
    (``tf.summary.trace_export``).

    Args:
        name: the summary tag.
        step: the step (default: the writer's step, ``tf.summary.experimental.set_step``).
        profiler_outdir: ignored (no profile is collected).

    Raises:
        ValueError: without an active ``trace_on`` (TF's text).
    """
    del profiler_outdir
    if not _STATE["on"]:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    data = np.array(run_metadata_bytes(_STATE["functions"]), dtype=object)
    try:
        _ops._write(name, data, "graph_run_metadata_graph", step, None,
                    lambda a: _ops._tensor_proto(np.asarray(a, dtype=object), "string"),
                    content=b"1")
    finally:
        trace_off()
