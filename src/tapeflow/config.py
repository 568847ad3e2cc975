"""``tf.config``: devices as TensorFlow reports them on a CPU-only machine, logical CPUs for
in-process replicas, and the runtime switches TF programs set (optimizer options, JIT, soft
placement, op determinism), kept and reported as TensorFlow reports them."""
import collections
import types

__all__ = ["PhysicalDevice", "LogicalDevice", "LogicalDeviceConfiguration",
           "set_logical_device_configuration", "get_logical_device_configuration",
           "list_physical_devices", "list_logical_devices",
           "set_visible_devices", "get_visible_devices", "experimental", "run_functions_eagerly",
           "functions_run_eagerly", "threading", "optimizer", "set_soft_device_placement",
           "get_soft_device_placement", "experimental_connect_to_cluster"]

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
_CPU = PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
_logical = {"CPU": None}  # the CPU's logical device configurations, once set
# TensorFlow fixes its devices when its runtime starts (the first device listing, strategy,
# or op); tapeflow counts the runtime started at the first device listing or strategy.
_initialized = [False]


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration",
        ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """One logical device to make from a physical one (``tf.config.LogicalDeviceConfiguration``).

    >>> import tapeflow as tf
    >>> tf.config.LogicalDeviceConfiguration()
    LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, \
experimental_device_ordinal=None)
    """

    def __new__(cls, memory_limit=None, experimental_priority=None,
                experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority,
                               experimental_device_ordinal)


def set_logical_device_configuration(device, logical_devices):
    """Split the CPU into ``len(logical_devices)`` logical devices, as TensorFlow does; a
    ``MirroredStrategy()`` made afterwards has one replica (one thread) per logical CPU.

    Args:
        device: the physical CPU (``tf.config.list_physical_devices("CPU")[0]``).
        logical_devices: a list of ``LogicalDeviceConfiguration``.

    ``tf.config.experimental.set_virtual_device_configuration`` is the same function.

    Raises:
        ValueError: for a device other than the CPU or an empty list.
        RuntimeError: once the devices were listed or a strategy made (TF: once its runtime
            started), unless the configuration is the one already set.

    >>> import tapeflow as tf
    >>> cpu = tf.config.list_physical_devices("CPU")[0]
    >>> tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()])
    """
    if getattr(device, "device_type", None) != "CPU":
        raise ValueError(f"Unrecognized device: {device!r}")
    if not logical_devices:
        raise ValueError("logical_devices must be a non-empty list")
    new = list(logical_devices)
    if _initialized[0]:
        if new == (_logical["CPU"] or [LogicalDeviceConfiguration()]):
            return
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    _logical["CPU"] = new


def get_logical_device_configuration(device):
    """The logical configurations set for ``device`` (``None`` if never set)."""
    return _logical.get(getattr(device, "device_type", None))
_eager = {"functions": False}


def list_physical_devices(device_type=None) -> list:
    """The devices of a kind (``'CPU'``, ``'GPU'``); tapeflow computes on the CPU only."""
    if device_type is None or device_type.upper() == "CPU":
        return [_CPU]
    return []


def list_logical_devices(device_type=None):
    """The logical devices (``/device:CPU:0`` ..., one per configuration set by
    :func:`set_logical_device_configuration`, else one)."""
    _initialized[0] = True
    if device_type is not None and device_type.upper() != "CPU":
        return []
    n = len(_logical["CPU"] or [None])
    return [LogicalDevice(name=f"/device:CPU:{i}", device_type="CPU") for i in range(n)]


def set_visible_devices(devices, device_type=None):
    """Accepted for TensorFlow's API; nothing to hide on a CPU-only engine."""


def get_visible_devices(device_type=None) -> list:
    return list_physical_devices(device_type)


def run_functions_eagerly(run_eagerly: bool):
    """Make every ``tf.function`` call run its Python body eagerly (for debugging), as
    ``tf.config.run_functions_eagerly``; the environment variable
    ``TAPEFLOW_RUN_FUNCTIONS_EAGERLY=1`` does the same for a whole run."""
    _eager["functions"] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _eager["functions"]


def set_soft_device_placement(enabled):
    """Whether an op without a kernel on its requested device falls back to another
    (``tf.config.set_soft_device_placement``); every op runs on the CPU here, so the flag is
    only kept and reported.

    Args:
        enabled: a bool.
    """
    _flags["soft_placement"] = bool(enabled)


def get_soft_device_placement() -> bool:
    """The flag of :func:`set_soft_device_placement` (True unless set)."""
    return _flags["soft_placement"]


_flags = {"soft_placement": True, "jit": "", "determinism": False}
_optimizer_options = {}


def _set_experimental_options(options):
    """Grappler's graph-rewrite switches (``tf.config.optimizer.set_experimental_options``):
    kept and reported by ``get_experimental_options``; tapeflow's traces are not rewritten by
    them (their results are the same either way).

    Args:
        options: a dict such as ``{'layout_optimizer': False, 'constant_folding': True}``.
    """
    for key, value in dict(options).items():
        if key in _OPTIMIZER_KEYS:
            _optimizer_options[key] = value


_OPTIMIZER_KEYS = (
    "layout_optimizer", "constant_folding", "shape_optimization", "remapping",
    "arithmetic_optimization", "dependency_optimization", "loop_optimization",
    "function_optimization", "debug_stripper", "disable_model_pruning",
    "scoped_allocator_optimization", "pin_to_host_optimization",
    "implementation_selector", "auto_mixed_precision", "disable_meta_optimizer",
    "min_graph_nodes", "auto_parallel", "use_plugin_optimizers")


def _get_experimental_options() -> dict:
    """The options set, plus TF's two reported defaults (``disable_model_pruning`` and
    ``disable_meta_optimizer``, False).

    >>> import tapeflow as tf
    >>> tf.config.optimizer.get_experimental_options()
    {'disable_model_pruning': False, 'disable_meta_optimizer': False}
    """
    out = dict(_optimizer_options)
    out.setdefault("disable_model_pruning", False)
    out.setdefault("disable_meta_optimizer", False)
    return out


def _set_jit(enabled):
    """XLA auto-clustering (``tf.config.optimizer.set_jit``): kept and reported; tapeflow
    compiles nothing.

    Args:
        enabled: True or ``"autoclustering"`` (on), False (off).

    Raises:
        ValueError: for another string.
    """
    if isinstance(enabled, str) and enabled != "autoclustering":
        raise ValueError(f"Unknown value for enabled: {enabled!r}; expected True, False or "
                         "'autoclustering'.")
    _flags["jit"] = "autoclustering" if enabled else ""


def _get_jit() -> str:
    """``'autoclustering'`` when set on, else ``''`` (as ``tf.config.optimizer.get_jit``)."""
    return _flags["jit"]


def _enable_op_determinism():
    """``tf.config.experimental.enable_op_determinism``: tapeflow's ops are deterministic
    already (fixed reduction order, no atomics), so this only records the request."""
    _flags["determinism"] = True


def _memory_device(device):
    name = str(device).upper().replace("/DEVICE:", "").lstrip("/")
    names = {d.name.upper().replace("/DEVICE:", "") for d in list_logical_devices("CPU")}
    if name not in names:
        raise ValueError(f"No matching devices found for '{device}'")


def _get_memory_info(device) -> dict:
    """``{'current': 0, 'peak': 0}`` for a CPU device, as TensorFlow reports the host (its
    allocator statistics are kept for accelerators only).

    Raises:
        ValueError: "No matching devices found for 'GPU:0'" for a device not present.
    """
    _memory_device(device)
    return {"current": 0, "peak": 0}


def _reset_memory_stats(device):
    """Reset the peak of :func:`get_memory_info` (nothing kept for the CPU).

    Raises:
        ValueError: for a device not present.
    """
    _memory_device(device)


def experimental_connect_to_cluster(cluster_spec_or_resolver, job_name="localhost",
                                    task_index=0, protocol=None,
                                    make_master_device_default=True,
                                    cluster_device_filters=None):
    """Make a cluster's devices usable here (``tf.config.experimental_connect_to_cluster``).

    An empty cluster, or one whose every address is served in this process by a
    ``tf.distribute.Server``, connects; tapeflow has no remote runtime.

    Args:
        cluster_spec_or_resolver: a ``tf.train.ClusterSpec`` or a cluster resolver.
        job_name, task_index, protocol, make_master_device_default, cluster_device_filters:
            TensorFlow's; accepted.

    Raises:
        ValueError: for something that is neither a ClusterSpec nor a resolver.
        tf.errors.UnavailableError: when an address is not served in this process.
    """
    spec = cluster_spec_or_resolver
    if hasattr(spec, "cluster_spec"):      # a cluster resolver
        spec = spec.cluster_spec()
    if hasattr(spec, "as_dict"):           # a tf.train.ClusterSpec
        spec = spec.as_dict()
    if not isinstance(spec, dict):
        raise ValueError("`cluster_spec_or_resolver` must be a `ClusterSpec` or a "
                         "`ClusterResolver`.")
    check_served(spec)


# "host:port" -> the tf.distribute.Server serving it in this process (filled by
# distribute/cluster_resolver.py: tapeflow has no remote runtime)
served = {}


def check_served(cluster, jobs=None):
    """Raise ``tf.errors.UnavailableError`` for the first address of ``cluster`` (a dict
    ``{job: [addresses] or {index: address}}``, restricted to ``jobs``) not served here."""
    from ._core import errors
    for job, tasks in cluster.items():
        if jobs is not None and job not in jobs:
            continue
        addresses = tasks.values() if isinstance(tasks, dict) else tasks
        for address in addresses:
            if address is not None and address not in served:
                raise errors.UnavailableError(
                    None, None,
                    f"failed to connect to all addresses; last error: {address} (job "
                    f"'{job}'): tapeflow runs a cluster only in this process: start a "
                    "tf.distribute.Server for every task here.")


def _set_memory_growth(device, enable):
    """Accepted for TensorFlow's API: there is no GPU memory to manage."""


def _get_memory_growth(device):
    return False


experimental = types.SimpleNamespace(
    set_memory_growth=_set_memory_growth,
    get_memory_growth=_get_memory_growth,
    list_physical_devices=list_physical_devices,
    list_logical_devices=list_logical_devices,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    enable_op_determinism=_enable_op_determinism,
    get_memory_info=_get_memory_info,
    reset_memory_stats=_reset_memory_stats,
)
optimizer = types.SimpleNamespace(
    set_experimental_options=_set_experimental_options,
    get_experimental_options=_get_experimental_options,
    set_jit=_set_jit,
    get_jit=_get_jit,
)
threading = types.SimpleNamespace(
    set_inter_op_parallelism_threads=lambda n: None,
    set_intra_op_parallelism_threads=lambda n: None,
)
