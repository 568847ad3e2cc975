"""``tf.keras.config``: Keras 3.15's global settings.

The float type, fuzz factor and image layout live in ``keras.backend`` (which exports their
setters too, as Keras does); the dtype policy is ``keras.mixed_precision``'s one global; the
rest (epoch and step caps for ``fit``, interactive logging, traceback filtering, flash
attention) live here. Every setting is process-wide, as in Keras.
"""
import os as _os
import warnings as _warnings

from . import backend as _backend_module
from .backend import (
    backend,
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from .mixed_precision.policy import dtype_policy, set_dtype_policy

__all__ = ["backend", "disable_flash_attention", "disable_interactive_logging",
           "disable_traceback_filtering", "dtype_policy", "enable_flash_attention",
           "enable_interactive_logging", "enable_traceback_filtering",
           "enable_unsafe_deserialization", "epsilon", "floatx", "image_data_format",
           "is_flash_attention_enabled", "is_interactive_logging_enabled", "is_nnx_enabled",
           "is_traceback_filtering_enabled", "max_epochs", "max_steps_per_epoch",
           "set_backend", "set_dtype_policy", "set_epsilon", "set_floatx",
           "set_image_data_format", "set_max_epochs", "set_max_steps_per_epoch"]


def _env_int(name):
    value = _os.environ.get(name)
    return int(value) if value else None


# Keras reads the caps from the environment when it is imported.
_state = {"max_epochs": _env_int("KERAS_MAX_EPOCHS"),
          "max_steps_per_epoch": _env_int("KERAS_MAX_STEPS_PER_EPOCH"),
          "interactive_logging": True, "traceback_filtering": True, "flash_attention": None}


def set_max_epochs(max_epochs):
    """Cap the epochs of every ``fit`` (``tf.keras.config.set_max_epochs``): a debugging aid,
    also set by the ``KERAS_MAX_EPOCHS`` environment variable.

    Args:
        max_epochs: an int, or None for no cap. ``fit(epochs=n)`` with a larger ``n`` warns
            ``Limiting epochs to <cap>`` (a ``UserWarning``) and runs the cap.
    """
    _state["max_epochs"] = max_epochs


def max_epochs():
    """The epoch cap of ``fit`` (``tf.keras.config.max_epochs``), or None."""
    return _state["max_epochs"]


def set_max_steps_per_epoch(max_steps_per_epoch):
    """Cap the steps of each epoch of ``fit``, ``evaluate`` and ``predict``
    (``tf.keras.config.set_max_steps_per_epoch``; environment: ``KERAS_MAX_STEPS_PER_EPOCH``).

    Args:
        max_steps_per_epoch: an int, or None for no cap. A larger or absent
            ``steps_per_epoch``/``steps`` warns ``Limiting steps_per_epoch to <cap>``.
    """
    _state["max_steps_per_epoch"] = max_steps_per_epoch


def max_steps_per_epoch():
    """The per-epoch step cap (``tf.keras.config.max_steps_per_epoch``), or None."""
    return _state["max_steps_per_epoch"]


def enable_interactive_logging():
    """Print Keras's progress bars, epoch lines and summaries to stdout (the default;
    ``tf.keras.config.enable_interactive_logging``)."""
    _state["interactive_logging"] = True


def disable_interactive_logging():
    """Send what Keras would print to the ``absl`` logger at INFO level instead of stdout
    (``tf.keras.config.disable_interactive_logging``): silent unless that logger's level
    is INFO or lower (``absl.logging.set_verbosity``)."""
    _state["interactive_logging"] = False


def is_interactive_logging_enabled():
    """Whether Keras prints to stdout (``tf.keras.config.is_interactive_logging_enabled``)."""
    return _state["interactive_logging"]


def print_msg(message, line_break=True):
    """Write ``message`` as Keras's ``io_utils.print_msg``: to stdout (with a line break),
    or to the ``absl`` logger at INFO level when interactive logging is off."""
    message = str(message)
    if _state["interactive_logging"]:
        import sys
        sys.stdout.write(f"{message}\n" if line_break else message)
        sys.stdout.flush()
    else:
        import logging
        logging.getLogger("absl").info(message)


def enable_traceback_filtering():
    """Turn traceback filtering on (the default; ``tf.keras.config.enable_traceback_filtering``).
    tapeflow records the switch for programs that read it; its tracebacks are not filtered."""
    _state["traceback_filtering"] = True


def disable_traceback_filtering():
    """Turn traceback filtering off (``tf.keras.config.disable_traceback_filtering``)."""
    _state["traceback_filtering"] = False


def is_traceback_filtering_enabled():
    """Whether traceback filtering is on (``tf.keras.config.is_traceback_filtering_enabled``)."""
    return _state["traceback_filtering"]


def enable_flash_attention():
    """Let attention layers made from now on try flash attention, the default
    (``tf.keras.config.enable_flash_attention``). As in Keras 3.15 this restores the unset
    state, so :func:`is_flash_attention_enabled` then returns None."""
    _state["flash_attention"] = None


def disable_flash_attention():
    """Keep attention layers made from now on off flash attention
    (``tf.keras.config.disable_flash_attention``)."""
    _state["flash_attention"] = False


def is_flash_attention_enabled():
    """The flash-attention switch (``tf.keras.config.is_flash_attention_enabled``): None
    (unset, the default, and after :func:`enable_flash_attention`) or False (disabled).
    ``MultiHeadAttention`` and ``GroupQueryAttention`` made without ``flash_attention`` take
    it; on TensorFlow's backend an explicit ``flash_attention=True`` is refused."""
    return _state["flash_attention"]


def is_nnx_enabled():
    """Whether JAX's NNX features are on (``tf.keras.config.is_nnx_enabled``): always False
    on TensorFlow's backend."""
    return False


def set_backend(backend):
    """Switch Keras's backend (``tf.keras.config.set_backend``).

    Keras re-imports itself for the new backend. tapeflow is TensorFlow's backend only:
    ``"tensorflow"`` is accepted (with Keras's warning that existing objects are not
    converted); the others fail as they fail under Keras 3.15 installed with TensorFlow
    alone.

    Raises:
        ModuleNotFoundError: for ``"jax"``, ``"numpy"`` (``No module named 'jax'``) and
            ``"torch"`` (``No module named 'torch'``), ``"openvino"``.
        ValueError: for any other name (``Unable to import backend : <name>``).
    """
    _os.environ["KERAS_BACKEND"] = backend   # Keras sets it before it tries the import
    missing = {"jax": "jax", "numpy": "jax", "torch": "torch", "openvino": "openvino"}
    if backend in missing:
        raise ModuleNotFoundError(f"No module named '{missing[backend]}'",
                                  name=missing[backend])
    if backend != "tensorflow":
        raise ValueError(f"Unable to import backend : {backend}")
    _warnings.warn(
        "Using `keras.config.set_backend` is dangerous and should be done carefully. "
        "Already-instantiated objects will not be converted. Thus, any layers / tensors / "
        "etc. already created will no longer be usable without errors. It is strongly "
        "recommended not to keep around any Keras-originated objects instances created "
        "before calling `set_backend()`. This includes any function or class instance that "
        "uses any Keras functionality. All such code needs to be re-executed after calling "
        "`set_backend()` and re-importing all imported `keras` modules.", stacklevel=2)


def _reset():
    """Every setting back to its default, the dtype policy unset (for tests)."""
    from . import backend as _backend
    from .mixed_precision import policy as _mp
    _backend._FLOATX, _backend._EPSILON = "float32", 1e-7
    _backend._IMAGE_DATA_FORMAT = "channels_last"
    _mp._global[0] = None
    _state.update(max_epochs=None, max_steps_per_epoch=None, interactive_logging=True,
                  traceback_filtering=True, flash_attention=None)


def enable_unsafe_deserialization():
    """Allow loading Python lambdas everywhere (``keras.config.enable_unsafe_deserialization``):
    ``Lambda`` layers and lambda arguments deserialize as if every load had
    ``safe_mode=False``."""
    _backend_module.UNSAFE_DESERIALIZATION[0] = True
