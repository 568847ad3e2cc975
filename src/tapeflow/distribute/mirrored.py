"""MirroredStrategy (replicas as threads of this process) and OneDeviceStrategy.

As TF's ``mirrored_run``: one thread per replica, run one at a time; a replica that calls
``merge_call`` parks; when all have parked the merge function runs once, in the calling
thread, on the per-replica arguments, and each replica resumes with its view of the result.
Replicas run in a fixed order, so results are deterministic.
"""
import threading

from .. import _logging
from .._core import dispatch
from . import _context
from .strategy import ReplicaContext, Strategy
from .values import mirror_variable, regroup, select_replica

__all__ = ["MirroredStrategy", "OneDeviceStrategy", "CentralStorageStrategy"]

_warned = []


def _canonical(device):
    d = str(device).upper().replace("/DEVICE:", "").lstrip("/")
    kind, _, index = d.rpartition(":")
    kind = kind.rsplit("/", 1)[-1] or "CPU"
    return f"/job:localhost/replica:0/task:0/device:{kind}:{index or 0}"


class MirroredStrategy(Strategy):
    """Synchronous data parallelism over the devices of this process
    (``tf.distribute.MirroredStrategy``).

    With no ``devices``, one replica per logical CPU device: one, unless
    ``tf.config.set_logical_device_configuration`` made more, as in TensorFlow. Each replica
    runs in its own thread; variables made in ``scope()`` are mirrored (one buffer, updated
    once per step).

    Args:
        devices: device names such as ``["CPU:0", "CPU:1"]`` (default all logical CPUs).
        cross_device_ops: accepted (``HierarchicalCopyAllReduce()``...), no effect.

    >>> import tapeflow as tf
    >>> strategy = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
    >>> print("Number of devices: {}".format(strategy.num_replicas_in_sync))
    Number of devices: 2
    >>> print(strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group))
    PerReplica:{
      0: tf.Tensor(0, shape=(), dtype=int32),
      1: tf.Tensor(1, shape=(), dtype=int32)
    }
    """

    def __init__(self, devices=None, cross_device_ops=None):
        from .. import config
        if devices is None:
            devices = [d.name for d in config.list_logical_devices("CPU")]
        config._initialized[0] = True
        if not devices:
            raise ValueError("No devices given to MirroredStrategy.")
        super().__init__([_canonical(d) for d in devices])
        self._cross_device_ops = cross_device_ops

    def _call_for_each_replica(self, fn, args, kwargs):
        n = len(self._devices)
        if len(_warned) < 5 and dispatch.current_tracer() is None:
            # eager calls only, the first five of the process (of every strategy run this
            # way), as TF's log_first_n
            _warned.append(True)
            _logging.warning(
                f"Using {type(self).__name__} eagerly has significant overhead currently. We "
                "will be working on improving this in the future, but for now please wrap "
                "`call_for_each_replica` or `experimental_run` or `run` inside a tf.function "
                "to get the best performance.")
        if n == 1:
            return super()._call_for_each_replica(fn, args, kwargs)
        threads = [_ReplicaThread(self, i, fn, select_replica(args, i),
                                  select_replica(kwargs, i)) for i in range(n)]
        # Inside a tf.function trace the replicas record into the caller's tracer: they run
        # one at a time, so the one recording is the replicas' ops in order.
        tracer = dispatch.current_tracer()
        for t in threads:
            t.tracer = tracer
        try:
            for t in threads:
                t.start()
            while True:
                for t in threads:
                    t.step()
                done = [t.done for t in threads]
                if all(done):
                    break
                if any(done):
                    raise RuntimeError("`merge_call` called while defining a new graph or a "
                                       "tf.function. Some replicas called it and others "
                                       "finished: every replica must make the same calls.")
                merge_args = regroup([t.merge_args for t in threads])
                merge_kwargs = regroup([t.merge_kwargs for t in threads])
                _context.push(self, None)
                try:
                    result = threads[0].merge_fn(self, *merge_args, **merge_kwargs)
                finally:
                    _context.pop()
                for i, t in enumerate(threads):
                    t.merge_result = select_replica(result, i)
        finally:
            for t in threads:
                t.shutdown()
        return regroup([t.result for t in threads])


class _Aborted(BaseException):
    pass


class _ReplicaThread(threading.Thread):
    """One replica's thread; it runs only while the caller waits in ``step``."""

    def __init__(self, strategy, index, fn, args, kwargs):
        super().__init__(name=f"replica_{index}", daemon=True)
        self.strategy, self.index = strategy, index
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.should_run = threading.Event()
        self.has_paused = threading.Event()
        self.done = False
        self.aborted = False
        self.result = None
        self.error = None
        self.merge_fn = self.merge_args = self.merge_kwargs = self.merge_result = None
        self.tracer = None

    def run(self):
        self.should_run.wait()
        self.should_run.clear()
        if self.tracer is not None:
            dispatch._state.tracer = self.tracer  # this thread's own state: never popped
        ctx = ReplicaContext(self.strategy, self.strategy._comm.rank * len(
            self.strategy._devices) + self.index, self.index)
        ctx._thread = self
        _context.push(self.strategy, ctx)
        try:
            if not self.aborted:
                self.result = self.fn(*self.args, **self.kwargs)
        except _Aborted:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            self.error = exc
        finally:
            _context.pop()
            self.done = True
            self.has_paused.set()

    def step(self):
        """Let the replica run until it parks in ``merge_call`` or finishes."""
        if self.done:
            return
        self.should_run.set()
        self.has_paused.wait()
        self.has_paused.clear()
        if self.error is not None:
            raise self.error

    def merge(self, merge_fn, args, kwargs):
        self.merge_fn, self.merge_args, self.merge_kwargs = merge_fn, args, kwargs
        self.has_paused.set()
        self.should_run.wait()
        self.should_run.clear()
        if self.aborted:
            raise _Aborted()
        result = self.merge_result
        self.merge_result = None
        return result

    def shutdown(self):
        if not self.done:
            self.aborted = True
            self.should_run.set()
            self.join(timeout=10)


class OneDeviceStrategy(Strategy):
    """Everything on one device (``tf.distribute.OneDeviceStrategy``): one replica, run in the
    calling thread.

    Args:
        device: the device name, e.g. ``"/cpu:0"`` (``"/gpu:0"`` is accepted and means the CPU
            here: tapeflow computes with NumPy).

    >>> import tapeflow as tf
    >>> s = tf.distribute.OneDeviceStrategy("/cpu:0")
    >>> float(s.run(lambda x: x * 2.0, args=(tf.constant(1.5),)))
    3.0
    """

    def __init__(self, device):
        super().__init__([_canonical(device)])

    def _on_variable_created(self, var):
        pass  # plain variables, as TF's OneDeviceStrategy makes


class CentralStorageStrategy(MirroredStrategy):
    """Variables on one device, computation replicated over the compute devices
    (``tf.distribute.experimental.CentralStorageStrategy``).

    The replicas are threads, as in :class:`MirroredStrategy`; variables made in ``scope()``
    stay plain variables (TF keeps them on the parameter device and prints them as plain
    ``tf.Variable``): an update from a replica function is applied once for all replicas.

    Args:
        compute_devices: device names (default: the one CPU, as TF without GPUs).
        parameter_device: accepted; the variables live in this process's memory.

    >>> import tapeflow as tf
    >>> s = tf.distribute.experimental.CentralStorageStrategy(["CPU:0", "CPU:1"])
    >>> s.num_replicas_in_sync
    2
    """

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__(compute_devices or ["CPU:0"])
        self._parameter_device = _canonical(parameter_device or "CPU:0")
        self.extended._parameter_devices = (self._parameter_device,)

    def _on_variable_created(self, var):
        if len(self._devices) > 1:
            mirror_variable(var, len(self._devices), plain=True)
