"""Keras 3 optimizers (``tf.keras.optimizers``)."""
from . import legacy, registry, schedules
from .adagrad import Adadelta, Adafactor, Adagrad
from .adam import Adam, Adamax, AdamW, Nadam
from .ftrl import Ftrl
from .lion import Lion
from .loss_scale_optimizer import LossScaleOptimizer
from .optimizer import Optimizer
from .registry import deserialize, get, serialize
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Lion",
           "LossScaleOptimizer", "Nadam", "Optimizer", "RMSprop", "SGD", "get", "legacy",
           "schedules",
           "serialize", "deserialize"]

registry.register((Adadelta, Adafactor, Adagrad, Adam, AdamW, Adamax, Ftrl, Lion, Nadam, RMSprop,
                   SGD), losscaleoptimizer=LossScaleOptimizer,
                  lossscaleoptimizer=LossScaleOptimizer)
