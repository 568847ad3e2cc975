"""``tf.profiler.experimental``: user-annotated step and region timings written as TF's
profile (``<logdir>/plugins/profile/<run>/<host>.xplane.pb``, an XSpace protobuf the
TensorBoard profile plugin reads).

What is recorded (a documented subset of TF's profiler): every ``Trace`` region entered while
a profile runs, on one XLine per Python thread of the ``/host:CPU`` plane, its name encoded
as TF's TraceMe encodes keyword arguments (``"train#step_num=1,_r=1#"``, which the plugin
reads as a step).  Individual ops are not timed (that would cost every op while profiling is
off); the NumPy kernels run inside the regions that contain them.  ``Trace`` costs one
attribute check when no profile runs.
"""
import collections
import datetime
import os
import socket
import threading
import time
import types

from ._core import errors as _errors

__all__ = ["experimental"]

_STATE = {"session": None}
_SERVERS = set()


class _Session:
    def __init__(self, logdir):
        self.logdir = logdir
        self.start_ns = time.time_ns()
        self.perf0 = time.perf_counter_ns()
        self.events = collections.defaultdict(list)   # thread ident -> [(name, t0, t1)]
        self.names = {}
        self.lock = threading.Lock()

    def record(self, name, t0, t1):
        th = threading.current_thread()
        with self.lock:
            self.names[th.ident] = th.name
            self.events[th.ident].append((name, t0 - self.perf0, t1 - t0))


# ---------------------------------------------------------------- protobuf wire format
def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _int(num, value):
    return _varint(num << 3) + _varint(value) if value else b""


def _bytes(num, payload):
    return _varint(num << 3 | 2) + _varint(len(payload)) + payload


def _str(num, s):
    return _bytes(num, s.encode()) if s else b""


def encode_xspace(space):
    """The XSpace protobuf bytes of ``space`` (``{"hostnames": [...], "planes": [{"id",
    "name", "event_metadata": [[id, name]], "stat_metadata": [[id, name]], "lines": [{"id",
    "name", "timestamp_ns", "events": [[metadata_id, offset_ps, duration_ps]]}]}]}``),
    serialised as TF's ``SerializeToString(deterministic=True)`` does."""
    out = b""
    for p in space["planes"]:
        plane = _int(1, p["id"]) + _str(2, p["name"])
        for ln in p["lines"]:
            line = _int(1, ln["id"]) + _str(2, ln["name"]) + _int(3, ln["timestamp_ns"])
            for mid, off, dur in ln["events"]:
                # offset_ps sits in a oneof: written even when 0
                line += _bytes(4, _int(1, mid) + _varint(2 << 3) + _varint(off) + _int(3, dur))
            plane += _bytes(3, line)
        # map entries in descending key order, as TF's upb writes them deterministically
        for mid, name in sorted(p["event_metadata"], reverse=True):
            plane += _bytes(4, _int(1, mid) + _bytes(2, _int(1, mid) + _str(2, name)))
        for sid, name in sorted(p["stat_metadata"], reverse=True):
            plane += _bytes(5, _int(1, sid) + _bytes(2, _int(1, sid) + _str(2, name)))
        out += _bytes(1, plane)
    for h in space["hostnames"]:
        out += _str(4, h)
    return out


def _space(session):
    meta = {}
    lines = []
    for k, (tid, evs) in enumerate(sorted(session.events.items())):
        events = []
        for name, off_ns, dur_ns in evs:
            mid = meta.setdefault(name, len(meta) + 1)
            events.append([mid, off_ns * 1000, dur_ns * 1000])
        lines.append({"id": k + 1, "name": session.names[tid],
                      "timestamp_ns": session.start_ns, "events": events})
    return {"hostnames": [socket.gethostname()],
            "planes": [{"id": 0, "name": "/host:CPU", "lines": lines,
                        "event_metadata": [[i, n] for n, i in meta.items()],
                        "stat_metadata": []}]}


# ---------------------------------------------------------------- the public API
ProfilerOptions = collections.namedtuple(
    "ProfilerOptions", ["host_tracer_level", "python_tracer_level", "device_tracer_level",
                        "delay_ms"], defaults=[2, 0, 1, None])
ProfilerOptions.__doc__ = ("Options of ``start`` (``tf.profiler.experimental.ProfilerOptions``);"
                           " accepted, and without effect on what tapeflow records.")


def start(logdir, options=None):
    """Start profiling into ``logdir`` (``tf.profiler.experimental.start``).

    Raises:
        tf.errors.AlreadyExistsError: a profile already runs ("Another profiler is running.").
    """
    if _STATE["session"] is not None:
        raise _errors.AlreadyExistsError(None, None, "Another profiler is running.")
    _STATE["session"] = _Session(os.fspath(logdir))


def stop(save=True):
    """Stop profiling; with ``save``, write ``<logdir>/plugins/profile/<run>/<host>.xplane.pb``
    (``tf.profiler.experimental.stop``).

    Raises:
        tf.errors.UnavailableError: no profile runs.
    """
    session = _STATE["session"]
    if session is None:
        raise _errors.UnavailableError(
            None, None, "Cannot export profiling results. No profiler is running.")
    _STATE["session"] = None
    if not save:
        return
    run = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S")
    d = os.path.join(session.logdir, "plugins", "profile", run)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"{socket.gethostname()}.xplane.pb"), "wb") as f:
        f.write(encode_xspace(_space(session)))


def _traceme_name(name, kwargs):
    if not kwargs:
        return name
    return name + "#" + ",".join(f"{k}={v}" for k, v in kwargs.items()) + "#"


class Trace:
    """A timed region (``tf.profiler.experimental.Trace``): ``with Trace("train",
    step_num=step, _r=1):`` marks a training step for the profile plugin.  Free when no
    profile runs."""

    __slots__ = ("_name", "_kwargs", "_t0")

    def __init__(self, name, **kwargs):
        self._name = name
        self._kwargs = kwargs
        self._t0 = None

    def __enter__(self):
        if _STATE["session"] is not None:
            self._t0 = time.perf_counter_ns()
        return self

    def __exit__(self, *exc):
        session = _STATE["session"]
        if self._t0 is not None and session is not None:
            session.record(_traceme_name(self._name, self._kwargs), self._t0,
                           time.perf_counter_ns())
        self._t0 = None
        return False


class Profile:
    """``with Profile(logdir):`` profiles the block (``tf.profiler.experimental.Profile``)."""

    def __init__(self, logdir, options=None):
        self._logdir = logdir
        self._options = options

    def __enter__(self):
        start(self._logdir, self._options)
        return self

    def __exit__(self, *exc):
        stop()
        return False


def _server_start(port):
    """Accept ``client.trace`` requests for ``localhost:port`` from this process
    (``tf.profiler.experimental.server.start``; no socket is opened)."""
    _SERVERS.add(int(port))


def _client_trace(service_addr, logdir, duration_ms, worker_list="", num_tracing_attempts=3,
                  options=None):
    """Profile this process for ``duration_ms`` into ``logdir`` when ``service_addr``
    (``grpc://localhost:<port>`` or ``localhost:<port>``) names a ``server.start`` port of
    this process (``tf.profiler.experimental.client.trace``); other threads' ``Trace``
    regions are what it captures.

    Raises:
        tf.errors.UnavailableError: no such server in this process (remote capture is not
            provided).
    """
    addr = service_addr.split("://")[-1]
    host, _, port = addr.rpartition(":")
    if host not in ("localhost", "127.0.0.1", socket.gethostname()) or not port.isdigit() \
            or int(port) not in _SERVERS:
        raise _errors.UnavailableError(None, None, f"No profiler server at {service_addr}")
    start(logdir, options)
    try:
        time.sleep(duration_ms / 1000.0)
    finally:
        stop()


experimental = types.ModuleType("tapeflow.profiler.experimental", "``tf.profiler.experimental``")
experimental.start = start
experimental.stop = stop
experimental.Trace = Trace
experimental.Profile = Profile
experimental.ProfilerOptions = ProfilerOptions
experimental.server = types.ModuleType("tapeflow.profiler.experimental.server")
experimental.server.start = _server_start
experimental.client = types.ModuleType("tapeflow.profiler.experimental.client")
experimental.client.trace = _client_trace
