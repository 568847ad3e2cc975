"""Optimizer: Keras 3's base: ``apply_gradients``, ``iterations``, a learning-rate variable."""
import sys
import warnings

from ..._core import dtypes as _dt
from ..._core import explain as _explain
from ..._core.backend import np
from ..._core.tensor import Tensor, _TensorLike
from ..._core.variable import Variable
from .. import _naming
from .._variable import KerasVariable

__all__ = ["Optimizer"]


def _replica_context():
    """The ReplicaContext when running as one of several replicas of a strategy, else None
    (tf.distribute is looked up only if something loaded it)."""
    ctx = sys.modules.get("tapeflow.distribute._context")
    if ctx is None:
        return None
    replica = ctx.get_replica_context()
    if replica is None or replica.num_replicas_in_sync == 1:
        return None
    return replica


class Optimizer:
    """Base class of the optimizers (``tf.keras.optimizers.Optimizer``, Keras 3).

    Subclasses implement ``build(variables)`` (make slot variables) and
    ``update_step(gradient, variable, learning_rate)`` on NumPy values; the base filters
    missing gradients, counts ``iterations`` and keeps slots per variable. Updates are
    assignments, never recorded on a tape.

    Args:
        learning_rate: a float, or a callable of no arguments (or of the step) returning one.
        name: the optimizer's name (default the class name in snake case).
        weight_decay: optional decoupled weight decay: before each update
            ``w -= w * weight_decay * learning_rate`` (Loshchilov & Hutter 2019).
        clipnorm, clipvalue, global_clipnorm: optional gradient clipping, as in Keras.
    """

    def __init__(self, learning_rate, name=None, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, **kwargs):
        self.name = name or _naming.to_snake_case(type(self).__name__)
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.weight_decay = weight_decay
        if kwargs.get("use_ema") or kwargs.get("gradient_accumulation_steps"):
            raise NotImplementedError("tapeflow's optimizers have no EMA or gradient "
                                      "accumulation")
        self._no_decay_ids, self._no_decay_names = set(), ()
        self._schedule = learning_rate if callable(learning_rate) else None
        with _naming.name_scope(self.name, self):
            self._iterations = KerasVariable(np.int64(0), name="iteration", trainable=False,
                                             dtype=_dt.int64)
            initial = 0.0 if self._schedule else learning_rate
            self._learning_rate = KerasVariable(np.float32(initial), name="learning_rate",
                                                trainable=False, dtype=_dt.float32)
        self._slots = {}
        self._variables = [self._iterations, self._learning_rate]
        self.built = False

    @property
    def iterations(self) -> KerasVariable:
        """How many times ``apply_gradients`` has run (an int64 variable)."""
        return self._iterations

    @property
    def learning_rate(self):
        """The learning rate: a float32 variable (assignable), or with a schedule the
        schedule's rate at the current step (a Tensor), as in Keras."""
        if self._schedule is not None:
            return Tensor(np.float32(self._current_rate()))
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if callable(value):
            self._schedule = value
        else:
            self._schedule = None
            self._learning_rate._value = np.float32(value)

    lr = learning_rate

    @property
    def variables(self) -> list:
        return list(self._variables)

    def _current_rate(self):
        if self._schedule is None:
            return self._learning_rate._value
        try:
            rate = self._schedule(self._iterations)
        except TypeError:
            rate = self._schedule()
        return np.float32(rate._value if isinstance(rate, _TensorLike) else rate)

    def add_variable_from_reference(self, reference_variable, name):
        """A zero slot variable shaped like ``reference_variable``, named after it."""
        ref = getattr(reference_variable, "path", reference_variable.name.split(":")[0])
        short = ref.replace("/", "_")
        with _naming.name_scope(self.name, self):
            var = KerasVariable(np.zeros_like(reference_variable._value),
                                name=f"{short}_{name}", trainable=False,
                                dtype=reference_variable.dtype)
        self._variables.append(var)
        return var

    def _slot(self, variable, kind):
        return self._slots[(variable._id, kind)]

    def build(self, variables):
        """Create the slot variables for ``variables``; the base creates none."""
        self.built = True

    def _build_for(self, variables):
        new = [v for v in variables if all((v._id, k) not in self._slots
                                           for k in self._slot_kinds())]
        if new or not self.built:
            self.build(new)
            self.built = True

    def _slot_kinds(self):
        return ("",)

    def _make_slots(self, variables, kinds):
        for v in variables:
            for kind in kinds:
                self._slots[(v._id, kind)] = self.add_variable_from_reference(v, kind)

    def apply_gradients(self, grads_and_vars):
        """Update each variable from its gradient; then ``iterations += 1``.

        Args:
            grads_and_vars: an iterable of ``(gradient, variable)`` pairs; a ``None``
                gradient skips its variable (with a warning).

        Returns:
            The ``iterations`` variable.

        Raises:
            ValueError: if every gradient is None ("No gradients provided for any
                variable.", then a ``Hint:`` line per variable saying why, from
                ``GradientTape.explain``).
            AttributeError: if a Tensor stands where a Variable is needed (the usual
                ``w = w - lr * g`` mistake); the message says so.
        """
        pairs = list(grads_and_vars)
        if not pairs:
            return self._iterations
        grads, variables = zip(*pairs, strict=True)
        self.apply(grads, variables)
        return self._iterations

    def apply(self, grads, trainable_variables):
        """Update ``trainable_variables`` from ``grads`` (same order). See apply_gradients.

        In a replica function of a strategy with several replicas the gradients are first
        summed over all replicas (one packed all-reduce per dtype across processes) and the
        update then runs once, in cross-replica context, as Keras 3 on TensorFlow does.
        """
        grads, variables = list(grads), list(trainable_variables)
        if not grads:
            return
        replica = _replica_context()
        if replica is not None:
            kept = [i for i, g in enumerate(grads) if g is not None]
            summed = replica.all_reduce("SUM", [grads[i] for i in kept])
            for i, g in zip(kept, summed):
                grads[i] = g
            replica.merge_call(lambda strategy: self._apply(grads, variables))
            return
        self._apply(grads, variables)

    def _apply(self, grads, variables):
        for i, v in enumerate(variables):
            if not isinstance(v, Variable):
                raise AttributeError(_explain.not_a_variable_message(v, i))
        self._build_for(variables)
        kept = [(g, v) for g, v in zip(grads, variables, strict=True) if g is not None]
        if not kept:
            raise ValueError(_explain.no_gradients_message(zip(grads, variables)))
        if len(kept) < len(grads):
            missing = [getattr(v, "path", v.name) for g, v in zip(grads, variables, strict=True)
                       if g is None]
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing "
                          "the loss. If using `model.compile()`, did you forget to provide a "
                          "`loss` argument?", stacklevel=3)
        values = [g._value if isinstance(g, _TensorLike) else np.asarray(g) for g, _ in kept]
        values = self._clip(values)
        rate = self._current_rate()
        if self.weight_decay:
            for _, v in kept:
                if self._decays(v):
                    dt = v._value.dtype.type
                    v._value = v._value - v._value * dt(self.weight_decay) * dt(rate)
        for g, (_, v) in zip(values, kept, strict=True):
            dt = v._value.dtype
            self.update_step(np.asarray(g, dt), v, dt.type(rate))
            if v.constraint is not None:
                v.assign(v.constraint(v))
        self._iterations._value = self._iterations._value + np.int64(1)

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Keep weight decay off the variables given, or those whose name contains one of
        ``var_names``."""
        self._no_decay_ids |= {v._id for v in var_list or ()}
        self._no_decay_names = tuple(var_names or ())

    def _decays(self, variable):
        if variable._id in self._no_decay_ids:
            return False
        return not any(n in variable.name for n in self._no_decay_names)

    def _clip(self, values):
        if self.clipnorm:
            out = []
            for g in values:
                norm = np.sqrt(np.sum(np.square(g)))
                out.append(g * (self.clipnorm / norm) if norm > self.clipnorm else g)
            values = out
        elif self.global_clipnorm:
            norm = np.sqrt(sum(np.sum(np.square(g)) for g in values))
            if norm > self.global_clipnorm:
                values = [g * (self.global_clipnorm / norm) for g in values]
        if self.clipvalue:
            values = [np.clip(g, -self.clipvalue, self.clipvalue) for g in values]
        return values

    def update_step(self, gradient, variable, learning_rate):
        """Update ``variable`` in place from the NumPy ``gradient``; subclasses implement it."""
        raise NotImplementedError

    def get_config(self) -> dict:
        return {"name": self.name, "learning_rate": float(self._current_rate())}
