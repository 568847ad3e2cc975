"""Clusters as data: ``tf.train.ClusterSpec``, the cluster resolvers
(``tf.distribute.cluster_resolver``), and ``tf.distribute.Server``.

A ClusterSpec and the resolvers are pure data and behave exactly as TensorFlow's. tapeflow
has no remote runtime: a ``Server`` serves its address *in this process* (a table of
addresses), so a cluster whose every task has a Server here (TensorFlow's in-process test
clusters, the parameter-server tutorial's ``create_in_process_cluster``) can be connected
to and used; any other address raises ``tf.errors.UnavailableError`` where TF would have to
reach the network.
"""
import json
import os

from .. import config as _config
from .._core import errors

__all__ = ["ClusterSpec", "ClusterResolver", "SimpleClusterResolver",
           "TFConfigClusterResolver", "Server", "connect", "served", "cluster_spec_of"]


class ClusterSpec:
    """A cluster as a set of jobs, each a set of task addresses (``tf.train.ClusterSpec``).

    Args:
        cluster: a dict from job name to a list of ``"host:port"`` addresses or to a dict
            ``{task index: address}``; or another ClusterSpec.

    Raises:
        TypeError: for anything else, or a job whose tasks are neither list nor dict.

    >>> import tapeflow as tf
    >>> cs = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": ["p0:2222"]})
    >>> cs
    ClusterSpec({'ps': ['p0:2222'], 'worker': ['w0:2222', 'w1:2222']})
    >>> cs.num_tasks("worker"), cs.task_address("ps", 0)
    (2, 'p0:2222')
    """

    def __init__(self, cluster):
        if isinstance(cluster, dict):
            spec = {}
            for job, tasks in cluster.items():
                if isinstance(tasks, (list, tuple)):
                    spec[job] = dict(enumerate(tasks))
                elif isinstance(tasks, dict):
                    spec[job] = {int(i): t for i, t in tasks.items()}
                else:
                    raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary "
                                    "from integers to strings.")
            self._spec = spec
        elif isinstance(cluster, ClusterSpec):
            # TF copies through its ClusterDef proto, which lists jobs and tasks sorted
            self._spec = {job: dict(sorted(cluster._spec[job].items()))
                          for job in sorted(cluster._spec)}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterDef` protocol buffer")

    def __bool__(self):
        return bool(self._spec)

    def __eq__(self, other):
        if isinstance(other, ClusterSpec):
            other = other._spec
        return self._spec == other

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        d = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {d[k]!r}" for k in sorted(d)) + "})"

    def as_dict(self) -> dict:
        """``{job: [addresses]}``, or ``{job: {index: address}}`` where indices are sparse."""
        out = {}
        for job in self.jobs:
            idx = self.task_indices(job)
            if not idx:
                out[job] = {}
            elif max(idx) + 1 == len(idx):
                out[job] = self.job_tasks(job)
            else:
                out[job] = {i: self.task_address(job, i) for i in idx}
        return out

    def as_cluster_def(self):
        """The cluster as the ``ClusterDef`` text TF's proto prints (jobs and tasks sorted)."""
        return _ClusterDef(self._spec)

    @property
    def jobs(self) -> list:
        """The job names, in the order given."""
        return list(self._spec)

    def _job(self, job_name):
        try:
            return self._spec[job_name]
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def num_tasks(self, job_name) -> int:
        """The number of tasks of a job.

        Raises:
            ValueError: "No such job in cluster: 'x'".
        """
        return len(self._job(job_name))

    def task_indices(self, job_name) -> list:
        """The sorted task indices of a job."""
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index) -> str:
        """The address of one task.

        Raises:
            ValueError: for an unknown job or task index.
        """
        job = self._job(job_name)
        try:
            return job[task_index]
        except KeyError:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}") \
                from None

    def job_tasks(self, job_name) -> list:
        """The addresses of a job by index, ``None`` at indices without a task."""
        job = self._job(job_name)
        out = [None] * (max(job) + 1) if job else []
        for i, address in job.items():
            out[i] = address
        return out


class _ClusterDef:
    def __init__(self, spec):
        self.job = [(name, dict(sorted(spec[name].items()))) for name in sorted(spec)]

    def __str__(self):
        lines = []
        for name, tasks in self.job:
            lines += ["job {", f'  name: "{name}"']
            for i, address in tasks.items():
                lines += ["  tasks {", f"    key: {i}", f'    value: "{address}"', "  }"]
            lines.append("}")
        return "\n".join(lines) + ("\n" if lines else "")

    def __eq__(self, other):
        return isinstance(other, _ClusterDef) and self.job == other.job

    __hash__ = None


class ClusterResolver:
    """Base of the cluster resolvers (``tf.distribute.cluster_resolver.ClusterResolver``):
    ``cluster_spec()``, ``master()``, ``task_type``, ``task_id``, ``rpc_layer``,
    ``environment``, ``num_accelerators()``."""

    task_type = None
    task_id = None
    rpc_layer = None
    environment = ""

    def cluster_spec(self) -> ClusterSpec:
        raise NotImplementedError

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        raise NotImplementedError

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """``{}``: tapeflow computes on the CPU (TF counts GPUs and TPUs only)."""
        return {}


def _with_rpc(address, rpc_layer):
    return f"{rpc_layer}://{address}" if rpc_layer else address


class SimpleClusterResolver(ClusterResolver):
    """A resolver holding what it is given
    (``tf.distribute.cluster_resolver.SimpleClusterResolver``).

    Args:
        cluster_spec: a ClusterSpec.
        master: the master address (default ``''``).
        task_type, task_id: this task (default None).
        environment: default ``''``.
        num_accelerators: a dict (default ``{}``).
        rpc_layer: e.g. ``"grpc"`` (default None).

    Raises:
        TypeError: if ``cluster_spec`` is not a ClusterSpec.

    >>> import tapeflow as tf
    >>> r = tf.distribute.cluster_resolver.SimpleClusterResolver(
    ...     tf.train.ClusterSpec({"worker": ["w0:1", "w1:1"]}), task_type="worker",
    ...     task_id=1, rpc_layer="grpc")
    >>> r.master("worker", 0), r.task_id
    ('grpc://w0:1', 1)
    """

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None,
                 environment="", num_accelerators=None, rpc_layer=None):
        if not isinstance(cluster_spec, ClusterSpec):
            raise TypeError("cluster_spec must be a `tf.train.ClusterSpec`.")
        self._cluster_spec = cluster_spec
        self._master = master
        self.task_type = task_type
        self.task_id = task_id
        self.environment = environment
        self._num_accelerators = dict(num_accelerators or {})
        self.rpc_layer = rpc_layer

    def cluster_spec(self) -> ClusterSpec:
        return self._cluster_spec

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The address of ``(task_type, task_id)`` if given, else the master given, with
        ``rpc_layer://`` in front when there is an rpc layer."""
        rpc = rpc_layer or self.rpc_layer
        if task_type is not None and task_id is not None:
            return _with_rpc(self._cluster_spec.task_address(task_type, task_id), rpc)
        return _with_rpc(self._master, rpc)

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        return dict(self._num_accelerators)


class TFConfigClusterResolver(ClusterResolver):
    """The cluster of the ``TF_CONFIG`` environment variable (JSON with ``cluster``,
    ``task`` ``{type, index}``, ``rpc_layer``), read when asked
    (``tf.distribute.cluster_resolver.TFConfigClusterResolver``). Without ``TF_CONFIG`` the
    cluster is empty and ``task_type``/``task_id`` are None.

    Args:
        task_type, task_id, rpc_layer, environment: override what TF_CONFIG says.

    >>> import tapeflow as tf
    >>> r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    >>> r.task_type is None, r.cluster_spec()   # TF_CONFIG unset
    (True, ClusterSpec({}))
    """

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type = task_type
        self._task_id = task_id
        self._rpc_layer = rpc_layer
        self._environment = environment

    @staticmethod
    def _config() -> dict:
        raw = os.environ.get("TF_CONFIG")
        return json.loads(raw) if raw else {}

    @property
    def task_type(self):
        if self._task_type is not None:
            return self._task_type
        task = self._config().get("task", {})
        return str(task["type"]) if "type" in task else None

    @task_type.setter
    def task_type(self, value):
        self._task_type = value

    @property
    def task_id(self):
        if self._task_id is not None:
            return self._task_id
        task = self._config().get("task", {})
        return int(task["index"]) if "index" in task else None

    @task_id.setter
    def task_id(self, value):
        self._task_id = value

    @property
    def rpc_layer(self):
        if self._rpc_layer is not None:
            return self._rpc_layer
        return self._config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, value):
        self._rpc_layer = value

    @property
    def environment(self):
        return self._environment

    def cluster_spec(self) -> ClusterSpec:
        return ClusterSpec(self._config().get("cluster", {}))

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The address of ``(task_type, task_id)`` (default this task), ``''`` without one."""
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        if task_type is None or task_id is None:
            return ""
        return _with_rpc(self.cluster_spec().task_address(task_type, task_id),
                         rpc_layer or self.rpc_layer)


# -- servers in this process ----------------------------------------------------------------
_SERVED = _config.served  # address -> Server (tf.config checks it too)


class Server:
    """A task of a cluster, served in this process (``tf.distribute.Server``).

    tapeflow has no RPC runtime: the server records its address in a table of this
    process, which ``experimental_connect_to_cluster``, ``ParameterServerStrategy`` and
    ``ClusterCoordinator`` consult; work for its task runs in the calling thread.

    Args:
        server_or_cluster_def: a ClusterSpec or a dict a ClusterSpec takes.
        job_name: this task's job (needed when the cluster has more than one job).
        task_index: this task's index (needed when the job has more than one task).
        protocol: ``"grpc"`` (default).
        config: accepted.
        start: start serving now (default True).

    Raises:
        ValueError: "Must specify an explicit `job_name`." / "... `task_index`.".
        tf.errors.InternalError: a job or task not in the cluster (as TF's server).

    >>> import tapeflow as tf
    >>> cs = tf.train.ClusterSpec({"worker": ["localhost:2222"]})
    >>> tf.distribute.Server(cs, job_name="worker", task_index=0, start=False).target
    'grpc://localhost:2222'
    """

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None,
                 config=None, start=True):
        spec = server_or_cluster_def
        if not isinstance(spec, ClusterSpec):
            spec = ClusterSpec(spec)
        if job_name is None:
            if len(spec.jobs) != 1:
                raise ValueError("Must specify an explicit `job_name`.")
            job_name = spec.jobs[0]
        if job_name not in spec.jobs:
            raise errors.InternalError(None, None,
                                       f'Job "{job_name}" was not defined in cluster')
        if task_index is None:
            if spec.num_tasks(job_name) != 1:
                raise ValueError("Must specify an explicit `task_index`.")
            task_index = spec.task_indices(job_name)[0]
        if task_index not in spec.task_indices(job_name):
            raise errors.InternalError(
                None, None, f'Task {task_index} was not defined in job "{job_name}"')
        self._cluster_spec = spec
        self._job_name, self._task_index = job_name, task_index
        self._protocol = protocol or "grpc"
        self._address = spec.task_address(job_name, task_index)
        self.server_def = _ServerDef(spec, job_name, task_index, self._protocol)
        if start:
            self.start()

    @staticmethod
    def create_local_server(config=None, start=True):
        """A one-task server on a free localhost port (``Server.create_local_server``)."""
        import socket
        with socket.socket() as s:
            s.bind(("localhost", 0))
            port = s.getsockname()[1]
        return Server({"localhost": [f"localhost:{port}"]}, protocol="grpc", config=config,
                      start=start)

    @property
    def target(self) -> str:
        """``"grpc://host:port"``."""
        return f"{self._protocol}://{self._address}"

    def start(self):
        """Serve this task's address in this process."""
        _SERVED[self._address] = self

    def join(self):
        """TF blocks forever serving; a tapeflow server has nothing to wait for, so this
        returns at once (its work runs in the threads that use it)."""


class _ServerDef:
    def __init__(self, spec, job_name, task_index, protocol):
        self.cluster = spec.as_cluster_def()
        self.job_name, self.task_index, self.protocol = job_name, task_index, protocol


def served(address) -> bool:
    """Whether a Server of this process serves ``address``."""
    return address in _SERVED


def cluster_spec_of(cluster_spec_or_resolver) -> ClusterSpec:
    if isinstance(cluster_spec_or_resolver, ClusterSpec):
        return cluster_spec_or_resolver
    if isinstance(cluster_spec_or_resolver, ClusterResolver):
        return cluster_spec_or_resolver.cluster_spec()
    if isinstance(cluster_spec_or_resolver, dict):
        return ClusterSpec(cluster_spec_or_resolver)
    raise ValueError("`cluster_spec_or_resolver` must be a `ClusterSpec` or a "
                     "`ClusterResolver`.")


def connect(cluster_spec_or_resolver, jobs=None):
    """Check that every task of the cluster (of ``jobs``, default all) is served here.

    Raises:
        tf.errors.UnavailableError: naming the first address not served in this process.
    """
    spec = cluster_spec_of(cluster_spec_or_resolver)
    _config.check_served(spec.as_dict(), jobs)
    return spec
