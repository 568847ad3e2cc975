"""Keras 3 optimizers (``tf.keras.optimizers``)."""
from . import legacy, schedules
from .adagrad import Adadelta, Adafactor, Adagrad
from .adam import Adam, Adamax, AdamW, Nadam
from .ftrl import Ftrl
from .lion import Lion
from .loss_scale_optimizer import LossScaleOptimizer
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Lion",
           "LossScaleOptimizer", "Nadam", "Optimizer", "RMSprop", "SGD", "get", "legacy",
           "schedules",
           "serialize", "deserialize"]

_BY_NAME = {c.__name__.lower(): c for c in (Adadelta, Adafactor, Adagrad, Adam, AdamW, Adamax,
                                            Ftrl, Lion, Nadam, RMSprop, SGD)}


def serialize(optimizer) -> dict:
    """The optimizer as Keras 3 serializes it: module, class name and ``get_config()``."""
    return {"module": "keras.optimizers", "class_name": type(optimizer).__name__,
            "config": optimizer.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """An optimizer from :func:`serialize`'s dict (or a ``{'class_name', 'config'}``)."""
    classes = dict(_BY_NAME, losscaleoptimizer=LossScaleOptimizer,
                   lossscaleoptimizer=LossScaleOptimizer)
    classes.update({k.lower(): v for k, v in (custom_objects or {}).items()})
    cls = classes.get(config["class_name"].lower())
    if cls is None:
        raise ValueError(f"Could not interpret optimizer identifier: {config}")
    return cls.from_config(dict(config["config"]))


def get(identifier):
    """An optimizer from a name ('adam', 'sgd', 'rmsprop', ...), a config dict or an
    instance.

    Raises:
        ValueError: for an unknown identifier.
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
