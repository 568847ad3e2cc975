"""``tf.config``: devices as TensorFlow reports them on a CPU-only machine."""
import collections
import types

__all__ = ["PhysicalDevice", "LogicalDevice", "LogicalDeviceConfiguration",
           "set_logical_device_configuration", "get_logical_device_configuration",
           "list_physical_devices", "list_logical_devices",
           "set_visible_devices", "get_visible_devices", "experimental", "run_functions_eagerly",
           "functions_run_eagerly", "threading"]

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
_CPU = PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
_logical = {"CPU": None}  # the CPU's logical device configurations, once set


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

    Raises:
        ValueError: for a device other than the CPU or an empty list.
    """
    if getattr(device, "device_type", None) != "CPU":
        raise ValueError(f"Unrecognized device: {device!r}")
    if not logical_devices:
        raise ValueError("logical_devices must be a non-empty list")
    _logical["CPU"] = list(logical_devices)


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


def _set_memory_growth(device, enable):
    """Accepted for TensorFlow's API: there is no GPU memory to manage."""


def _get_memory_growth(device):
    return False


experimental = types.SimpleNamespace(
    set_memory_growth=_set_memory_growth,
    get_memory_growth=_get_memory_growth,
    list_physical_devices=list_physical_devices,
)
threading = types.SimpleNamespace(
    set_inter_op_parallelism_threads=lambda n: None,
    set_intra_op_parallelism_threads=lambda n: None,
)
