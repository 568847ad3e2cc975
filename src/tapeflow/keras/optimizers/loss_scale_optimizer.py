"""LossScaleOptimizer: dynamic loss scaling around another optimizer (Keras 3's rule)."""
from ..._core import dtypes as _dt
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .. import initializers as _init
from .optimizer import Optimizer
from .registry import deserialize, serialize

__all__ = ["LossScaleOptimizer"]


class LossScaleOptimizer(Optimizer):
    """Scale the loss up (``scale_loss``) and the gradients back down; skip a step whose
    gradients are not finite and halve the scale; double it after ``dynamic_growth_steps``
    finite steps in a row (``tf.keras.optimizers.LossScaleOptimizer``).

    A skipped step leaves the variables and the inner optimizer's state as they were: the
    update runs, then every touched variable takes ``where(finite, new, old)``, so no Python
    decision depends on a tensor's value.

    Args:
        inner_optimizer: the optimizer that applies the unscaled gradients.
        initial_scale: the first scale (default ``2**15``).
        dynamic_growth_steps: finite steps before the scale doubles (default 2000).
        name: the optimizer's name.

    Raises:
        ValueError: for ``dynamic=False`` or any base optimizer argument.
    """

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000,
                 name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, "
                             "simply set `loss_scale_factor` directly on the "
                             "`inner_optimizer`.")
        if kwargs:
            raise ValueError("LossScaleOptimizer does not support arguments: "
                             f"`{'`, `'.join(kwargs.keys())}`.")
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.inner_optimizer.loss_scale_factor = None

    def build(self, var_list):
        self.step_counter = self.add_variable((), initializer="zeros", dtype=_dt.int64,
                                              name="step_counter")
        self.dynamic_scale = self.add_variable((), dtype=_dt.float32, name="dynamic_scale",
                                               initializer=_init.Constant(self.initial_scale))
        self.inner_optimizer.build(var_list)
        super().build(var_list)

    @property
    def variables(self) -> list:
        return self._variables + self.inner_optimizer.variables

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def scale_loss(self, loss):
        scale = self.dynamic_scale if self.built else self.initial_scale
        return _m.multiply(loss, scale)

    def check_finite(self, grads):
        """A bool scalar: every gradient finite."""
        flags = [_r.reduce_all(_m.is_finite(g)) for g in grads if g is not None]
        return _r.reduce_all(_a.stack(flags))

    def apply(self, grads, trainable_variables=None):
        grads = list(grads)
        variables = (list(trainable_variables) if trainable_variables is not None
                     else self._trainable_variables)
        self._build_once(variables)
        finite = self.check_finite(grads)
        scale = self.dynamic_scale
        touched = variables + self.inner_optimizer.variables
        before = [v.read_value() for v in touched]
        unscaled = [None if g is None else _m.divide(g, _a.cast(scale, g.dtype)) for g in grads]
        self.inner_optimizer.apply(unscaled, trainable_variables=variables)
        # A non-finite step is undone: every touched variable takes back its value.
        for var, old in zip(touched, before, strict=True):
            var.assign(_a.where(finite, var, old))
        grow = _m.equal(self.step_counter, self.dynamic_growth_steps - 1)
        zero = _a.zeros_like(self.step_counter)
        self.step_counter.assign(_a.where(
            finite, _a.where(grow, zero, _m.add(self.step_counter, 1)), zero))
        self.dynamic_scale.assign(_a.where(
            finite, _a.where(grow, _m.multiply(scale, 2.0), scale), _m.multiply(scale, 0.5)))

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self) -> dict:
        return {"name": self.name, "inner_optimizer": serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["inner_optimizer"] = deserialize(config["inner_optimizer"], custom_objects)
        return cls(**config)
