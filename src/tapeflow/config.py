"""``tf.config``: devices as TensorFlow reports them on a CPU-only machine."""
import collections
import types

__all__ = ["PhysicalDevice", "list_physical_devices", "list_logical_devices",
           "set_visible_devices", "get_visible_devices", "experimental", "run_functions_eagerly",
           "functions_run_eagerly", "threading"]

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
_CPU = PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
_eager = {"functions": False}


def list_physical_devices(device_type=None) -> list:
    """The devices of a kind (``'CPU'``, ``'GPU'``); tapeflow computes on the CPU only."""
    if device_type is None or device_type.upper() == "CPU":
        return [_CPU]
    return []


def list_logical_devices(device_type=None) -> list:
    """As :func:`list_physical_devices`, with logical device names."""
    return [PhysicalDevice(name="/device:CPU:0", device_type="CPU")] if (
        device_type is None or device_type.upper() == "CPU") else []


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
