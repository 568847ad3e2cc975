"""Optimizer: Keras 3's base: ``apply_gradients``, ``iterations``, a learning-rate variable.

Every change of state goes through ``Variable.assign*`` and every computed value through ops
(the fused updates of ``ops/training_ops.py`` for the built-in rules), so a recorder that sees
only op calls and variable reads and writes replays an optimizer step exactly.
"""
import re
import sys
import warnings

from ..._core import dtypes as _dt
from ..._core import explain as _explain
from ..._core.indexed_slices import IndexedSlices
from ..._core.tensor import _TensorLike, convert_to_tensor
from ..._core.variable import as_variable
from ...checkpoint import tracking as _tracking
from ...ops import array_ops as _a
from ...ops import clip_ops as _cl
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from ...ops import training_ops as _t
from .. import _naming
from .. import initializers as _init
from .._variable import KerasVariable
from ..backend import floatx
from .schedules import LearningRateSchedule

__all__ = ["Optimizer"]


def _check_shapes(grads, variables):
    """TensorFlow's error for a gradient shaped unlike its variable (never a silent
    broadcast into the variable); Keras 3's update reaches it at ``assign_sub``."""
    from ..._core import errors
    for i, (g, v) in enumerate(zip(grads, variables, strict=True)):
        gshape, vshape = tuple(g.shape), tuple(v.shape)
        if gshape != vshape:
            raise errors.InvalidArgumentError(
                None, None, f"Cannot update variable with shape [{','.join(map(str, vshape))}] "
                f"using a Tensor with shape [{','.join(map(str, gshape))}], shapes must be "
                f"equal. [Op:AssignSubVariableOp] name: \nHint: the gradient for variable "
                f"{v.name!r} (pair {i} of grads_and_vars) has shape {gshape}, the variable "
                f"{vshape}.")


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

    Subclasses create slot variables in ``build(var_list)`` (``add_variable_from_reference``
    or ``add_optimizer_variables``) and update one variable in
    ``update_step(gradient, variable, learning_rate)`` with ops and ``self.assign*``. The
    base filters missing gradients, unscales, clips, applies weight decay, runs the
    updates, keeps the EMA of the weights, applies constraints and counts ``iterations``.

    Args:
        learning_rate: a float, a ``LearningRateSchedule``, or a callable of no arguments.
        weight_decay: optional decoupled weight decay: before each update
            ``w -= w * weight_decay * learning_rate`` (Loshchilov & Hutter 2019).
        clipnorm: clip each gradient to this L2 norm.
        clipvalue: clip each gradient element to ``[-clipvalue, clipvalue]``.
        global_clipnorm: clip the gradients together to this global norm.
        use_ema: keep an exponential moving average of the weights (``ema_momentum``) in
            the optimizer's variables; ``ema_overwrite_frequency`` steps copy it into them;
            ``finalize_variable_values`` copies it at the end.
        loss_scale_factor: gradients are divided by it (``scale_loss`` multiplies).
        name: the optimizer's name (default the class name in snake case, made unique).

    Raises:
        ValueError: for an unknown keyword, a non-float learning rate, more than one clip
            argument, or ``ema_momentum`` outside ``[0, 1]``.
    """

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.",
                          stacklevel=2)
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if gradient_accumulation_steps and not gradient_accumulation_steps >= 2:
            raise ValueError("`gradient_accumulation_steps` must be an integer >= 2. "
                             f"Received: gradient_accumulation_steps="
                             f"{gradient_accumulation_steps}")
        self.name = name or _naming.auto_name(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.use_ema = use_ema
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        if use_ema:
            if ema_momentum > 1 or ema_momentum < 0:
                raise ValueError("`ema_momentum` must be in the range [0, 1]. "
                                 f"Received: ema_momentum={ema_momentum}")
            if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                            or ema_overwrite_frequency < 1):
                raise ValueError("`ema_overwrite_frequency` must be an integer >= 1 or None. "
                                 f"Received: ema_overwrite_frequency={ema_overwrite_frequency}")
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be "
                             f"set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}")
        self.built = False
        self._variables = []
        self._slot_refs = {}
        self._trainable_variables = []
        self._index = {}
        self._no_decay_ids, self._no_decay_pattern = set(), None
        with _naming.name_scope(self.name, self):
            self._iterations = KerasVariable(0, name="iteration", trainable=False,
                                             dtype=_dt.int64)
        self._variables.append(self._iterations)
        if callable(learning_rate):
            self._learning_rate = learning_rate
        else:
            if not isinstance(learning_rate, float):
                raise ValueError(
                    "Argument `learning_rate` should be float, or an instance of "
                    "LearningRateSchedule, or a callable (that takes in the current "
                    "iteration value and returns the corresponding learning rate value). "
                    f"Received instead: learning_rate={learning_rate}")
            with _naming.name_scope(self.name, self):
                self._learning_rate = KerasVariable(learning_rate, name="learning_rate",
                                                    trainable=False, dtype=floatx())
            self._variables.append(self._learning_rate)

    # -- state ---------------------------------------------------------------------------
    @property
    def iterations(self):
        """How many times ``apply_gradients`` has run (an int64 variable); with
        ``gradient_accumulation_steps``, how many updates (a Tensor), as in Keras."""
        if self.gradient_accumulation_steps:
            return _m.floordiv(self._iterations, self.gradient_accumulation_steps)
        return self._iterations

    @property
    def learning_rate(self):
        """The learning-rate variable (of ``keras.config.floatx()``, float32 by default when
        the optimizer is made), or with a schedule its rate at the current
        step (a Tensor), as in Keras."""
        return self._get_current_learning_rate()

    @learning_rate.setter
    def learning_rate(self, value):
        if callable(value):
            if as_variable(self._learning_rate) is not None:
                self._variables = [v for v in self._variables if v is not self._learning_rate]
            self._learning_rate = value
            return
        if as_variable(self._learning_rate) is None:
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object "
                            "as its `learning_rate` constructor argument, hence its learning "
                            "rate is not settable. If you need the learning rate to be "
                            "settable, you should instantiate the optimizer with a float "
                            "`learning_rate` argument.")
        self._learning_rate.assign(convert_to_tensor(value, dtype=self._learning_rate.dtype))

    lr = learning_rate

    def _get_current_learning_rate(self):
        lr = self._learning_rate
        if as_variable(lr) is not None:
            return lr
        if isinstance(lr, LearningRateSchedule):
            return lr(self._iterations)
        return lr()

    def _rate_tensor(self):
        lr = self._get_current_learning_rate()
        if isinstance(lr, _TensorLike):
            # float32, or float64 under keras.config.set_floatx("float64")
            return lr if lr.dtype in (_dt.float32, _dt.float64) else _a.cast(lr, _dt.float32)
        return convert_to_tensor(lr, dtype=_dt.float32)

    @property
    def variables(self) -> list:
        """``iterations``, the learning rate variable, then the slot variables."""
        return list(self._variables)

    def add_variable(self, shape, initializer="zeros", dtype=None, aggregation="none",
                     layout=None, name=None) -> KerasVariable:
        """A non-trainable optimizer variable of ``shape`` (``initializer`` default zeros)."""
        dtype = _dt.as_dtype(dtype or floatx())
        value = _init.get(initializer)(tuple(shape), dtype=dtype)
        with _naming.name_scope(self.name, self):
            var = KerasVariable(value, name=name or "variable", trainable=False, dtype=dtype)
        self._variables.append(var)
        _tracking.created(self)  # a pending restore fills it, as TF's list append does
        return var

    def add_variable_from_reference(self, reference_variable, name=None,
                                    initializer="zeros") -> KerasVariable:
        """A slot variable shaped like ``reference_variable``, named
        ``<reference path with _>_<name>`` as Keras names it."""
        name = name or "var"
        path = getattr(reference_variable, "path", None)
        ref = path.replace("/", "_") if path is not None else str(
            reference_variable.name).replace("/", "_").replace(":", "_")
        return self.add_variable(tuple(reference_variable.shape), initializer,
                                 reference_variable.dtype, name=f"{ref}_{name}")

    def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        """One slot per variable for each name (interleaved, as Keras creates them);
        a list for one name, a tuple of lists for several."""
        names = [name] if isinstance(name, str) else list(name)
        inits = initializer if isinstance(initializer, (list, tuple)) else [initializer] * len(
            names)
        out = tuple([] for _ in names)
        block = len(self._slot_refs)
        for v in trainable_variables:
            for i, (n, init) in enumerate(zip(names, inits, strict=True)):
                slot = self.add_variable_from_reference(v, n, init)
                out[i].append(slot)
                # Which call and which variable made this slot: files order slots by it.
                self._slot_refs[id(slot)] = (block, v)
        return out[0] if isinstance(name, str) else out

    def _build_once(self, variables):
        """Build for ``variables`` (make the slots) unless already built."""
        if not self.built:
            with _naming.name_scope(self.name, self):
                self.build(variables)
            self.built = True
            _tracking.created(self)  # a pending checkpoint restore fills the new slots

    def _get_variable_index(self, variable) -> int:
        return self._index[id(variable)]

    def build(self, var_list):
        """Remember ``var_list`` (the variables this optimizer updates) and make the base's
        slots (the EMA averages); subclasses add theirs after calling it."""
        if self.use_ema:
            self._model_variables_moving_average = self.add_optimizer_variables(
                var_list, "average")
        if self.gradient_accumulation_steps:
            self._accumulated_gradients = self.add_optimizer_variables(
                var_list, "gradient_accumulator")
        for i, v in enumerate(var_list):
            self._index[id(v)] = i
        self._trainable_variables = list(var_list)
        self.built = True

    def assign(self, variable, value):
        variable.assign(value)

    def assign_add(self, variable, value):
        variable.assign_add(value)

    def assign_sub(self, variable, value):
        variable.assign_sub(value)

    # -- applying ------------------------------------------------------------------------
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
                ``GradientTape.explain``), or for a variable the optimizer was not built
                with.
            AttributeError: if a Tensor stands where a Variable is needed (the usual
                ``w = w - lr * g`` mistake); the message says so.
            tf.errors.InvalidArgumentError: if a gradient's shape differs from its
                variable's.
        """
        pairs = list(grads_and_vars)
        if not pairs:
            return self._iterations
        grads, variables = zip(*pairs, strict=True)
        self.apply(grads, variables)
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Update ``trainable_variables`` (default those it was built with) from ``grads``.

        In a replica function of a strategy with several replicas the gradients are first
        summed over all replicas (one packed all-reduce per dtype across processes;
        ``IndexedSlices`` gradients are gathered: every replica's slices) and the update then
        runs once, in cross-replica context, as Keras 3 on TensorFlow does.

        Raises:
            ValueError: if ``grads`` and ``trainable_variables`` differ in length (Keras zips
                them and silently drops the extra ones).
        """
        grads = list(grads)
        if trainable_variables is not None:
            trainable_variables = list(trainable_variables)
            if len(grads) != len(trainable_variables):
                raise ValueError("`grads` and `trainable_variables` must have the same length, "
                                 f"got {len(grads)} and {len(trainable_variables)}.")
        if not grads:
            return
        replica = _replica_context()
        if replica is not None:
            kept = [i for i, g in enumerate(grads) if g is not None]
            sparse = [i for i in kept if isinstance(grads[i], IndexedSlices)]
            dense = [i for i in kept if not isinstance(grads[i], IndexedSlices)]
            if dense:
                summed = replica.all_reduce("SUM", [convert_to_tensor(grads[i]) for i in dense])
                for i, g in zip(dense, summed, strict=True):
                    grads[i] = g
            if sparse:
                # As TF all-reduces IndexedSlices: every replica's slices, concatenated (a
                # sparse update then sees each slice, as on one replica with the whole batch).
                parts = replica.all_gather(
                    [t for i in sparse for t in (grads[i].values, grads[i].indices)], axis=0)
                for k, i in enumerate(sparse):
                    grads[i] = IndexedSlices(parts[2 * k], parts[2 * k + 1],
                                             grads[i].dense_shape)
            replica.merge_call(lambda strategy: self._apply(grads, trainable_variables))
            return
        self._apply(grads, trainable_variables)

    def _apply(self, grads, trainable_variables):
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer "
                                 "must already be built on a list of variables. Call "
                                 "`optimizer.build(trainable_variables)` first. ")
            variables = self._trainable_variables
        else:
            variables = list(trainable_variables)
            for i, v in enumerate(variables):
                if as_variable(v) is None:
                    raise AttributeError(_explain.not_a_variable_message(v, i))
            self._build_once(variables)
            index = self._index
            for v in variables:
                if id(v) not in index:
                    raise ValueError(
                        f"Unknown variable: {v}. This optimizer can only be called for the "
                        "variables it was originally built with. When working with a new "
                        "set of variables, you should recreate a new optimizer instance.")
        kept_g, kept_v = [], []
        for g, v in zip(grads, variables, strict=True):
            if g is not None:
                kept_g.append(g if isinstance(g, (_TensorLike, IndexedSlices))
                              else convert_to_tensor(g))
                kept_v.append(v)
        if not kept_g:
            raise ValueError(_explain.no_gradients_message(zip(grads, variables, strict=True)))
        if len(kept_g) < len(grads):
            missing = [getattr(v, "path", v.name) for g, v in zip(grads, variables, strict=True)
                       if g is None]
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing "
                          "the loss. If using `model.compile()`, did you forget to provide a "
                          "`loss` argument?", stacklevel=4)
        _check_shapes(kept_g, kept_v)
        if (self.loss_scale_factor is not None or self.gradient_accumulation_steps
                or self.clipnorm or self.clipvalue or self.global_clipnorm):
            # these transform whole gradients: a sparse one is summed first
            kept_g = [convert_to_tensor(g) if isinstance(g, IndexedSlices) else g
                      for g in kept_g]
        if self.loss_scale_factor is not None:
            kept_g = [_m.divide(g, self.loss_scale_factor) for g in kept_g]
        if self.gradient_accumulation_steps:
            self._accumulate_and_update(kept_g, kept_v)
        else:
            self._update(kept_g, kept_v)
        if self.use_ema:
            self._update_model_variables_moving_average(self._trainable_variables)
            if self.ema_overwrite_frequency:
                self._maybe_overwrite_with_average()
        for v in kept_v:
            if v.constraint is not None:
                v.assign(v.constraint(v))
        self._iterations.assign_add(_ONE)

    def _update(self, grads, variables):
        grads = self._clip_gradients(grads)
        learning_rate = self._rate_tensor()
        if self.weight_decay is not None:
            self._apply_weight_decay(variables, learning_rate)
        self._backend_update_step(grads, variables, learning_rate)

    def _accumulate_and_update(self, grads, variables):
        """Keras's gradient accumulation without a Python decision on tensor values: every
        step sums into the accumulators; the update runs with their mean, and on steps that
        are not update steps every variable it touched takes back its value."""
        steps = self.gradient_accumulation_steps
        is_update = _m.equal(_m.floormod(_m.add(self._iterations, _ONE), steps), 0)
        accumulators = [self._accumulated_gradients[self._index[id(v)]] for v in variables]
        summed = [_m.add(g, _a.cast(a, g.dtype)) for g, a in zip(grads, accumulators,
                                                                  strict=True)]
        protected = [v for v in variables + self._variables if v is not self._iterations
                     and all(v is not a for a in self._accumulated_gradients)]
        before = [v.read_value() for v in protected]
        self._update([_m.divide(g, float(steps)) for g in summed], variables)
        for var, old in zip(protected, before, strict=True):
            var.assign(_a.where(is_update, var, old))
        for acc, total in zip(accumulators, summed, strict=True):
            acc.assign(_a.where(is_update, _a.zeros_like(acc), _a.cast(total, acc.dtype)))

    # Optimizers whose update_step takes an IndexedSlices gradient (as Keras applies it
    # sparsely); the others see it summed into a dense tensor.
    _sparse_updates = False

    def _backend_update_step(self, grads, trainable_variables, learning_rate):
        for g, v in zip(grads, trainable_variables, strict=True):
            if isinstance(g, IndexedSlices) and not self._sparse_updates:
                g = convert_to_tensor(g)
            self.update_step(g, v, learning_rate)

    def update_step(self, gradient, variable, learning_rate):
        """Update ``variable`` from ``gradient`` (Tensors); subclasses implement it."""
        raise NotImplementedError

    def _apply_weight_decay(self, variables, learning_rate):
        for v in variables:
            if self._use_weight_decay(v):
                lr = _a.cast(learning_rate, v.dtype)
                v.assign_sub(_m.multiply(_m.multiply(v, float(self.weight_decay)), lr))

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Keep weight decay off the variables given, or those whose name contains one of
        ``var_names`` (call it before the optimizer is built).

        Raises:
            ValueError: if the optimizer is already built.
        """
        if self.built:
            raise ValueError("`exclude_from_weight_decay()` can only be configured before "
                             "the optimizer is built.")
        self._no_decay_ids = {id(v) for v in var_list or ()}
        self._no_decay_pattern = re.compile("|".join(set(var_names))) if var_names else None

    def _use_weight_decay(self, variable):
        if id(variable) in self._no_decay_ids:
            return False
        pattern = self._no_decay_pattern
        return pattern is None or pattern.search(variable.name) is None

    def _clip_gradients(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [_cl.clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            norm = _m.sqrt(_m.add_n([_r.reduce_sum(_m.square(g)) for g in grads]))
            scale = _m.multiply(self.global_clipnorm, _m.minimum(
                _m.divide(1.0, norm), 1.0 / self.global_clipnorm))
            scale = _m.add(scale, _m.subtract(norm, norm))
            return [_m.multiply(g, _a.cast(scale, g.dtype)) for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            v = self.clipvalue
            return [_m.minimum(_m.maximum(g, -v), v) for g in grads]
        return grads

    def _update_model_variables_moving_average(self, trainable_variables):
        not_first = _m.not_equal(self.iterations, _ZERO)
        for var, average in zip(trainable_variables, self._model_variables_moving_average,
                                strict=True):
            momentum = _m.multiply(_a.cast(not_first, var.dtype), float(self.ema_momentum))
            average.assign(_m.add(_m.multiply(momentum, average),
                                  _m.multiply(_m.subtract(1.0, momentum), var)))

    def _maybe_overwrite_with_average(self):
        due = _m.equal(_m.floormod(_m.add(self.iterations, _ONE),
                                   self.ema_overwrite_frequency), 0)
        for var, average in zip(self._trainable_variables,
                                self._model_variables_moving_average, strict=True):
            var.assign(_a.where(due, average, var))

    def finalize_variable_values(self, var_list):
        """With ``use_ema``, copy the moving averages into the model's variables."""
        if self.use_ema:
            for var, average in zip(var_list, self._model_variables_moving_average,
                                    strict=True):
                var.assign(average)

    def scale_loss(self, loss):
        """``loss * loss_scale_factor`` (unchanged without a factor)."""
        if self.loss_scale_factor is not None:
            return _m.multiply(loss, self.loss_scale_factor)
        return loss

    def get_config(self) -> dict:
        """Keras 3's config: the base arguments (a schedule as its serialized config), then
        the subclass's hyperparameters, so Keras and tapeflow both rebuild the optimizer."""
        from ..saving.serialization import serialize_keras_object, signature_config
        lr = self._learning_rate
        if isinstance(lr, LearningRateSchedule):
            learning_rate = serialize_keras_object(lr)
        elif as_variable(lr) is not None:
            learning_rate = float(lr.numpy())
        else:
            learning_rate = lr
        config = {"name": self.name, "learning_rate": learning_rate,
                  "weight_decay": self.weight_decay, "clipnorm": self.clipnorm,
                  "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                  "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                  "ema_overwrite_frequency": self.ema_overwrite_frequency,
                  "loss_scale_factor": self.loss_scale_factor,
                  "gradient_accumulation_steps": self.gradient_accumulation_steps}
        own = signature_config(self, skip=("learning_rate", "name"))
        config.update({k: v for k, v in own.items() if k not in config})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """An optimizer from :meth:`get_config`'s dict (or Keras 3's)."""
        from ..saving.serialization import deserialize_keras_object
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = deserialize_keras_object(config["learning_rate"],
                                                               custom_objects)
        return cls(**config)

    def _fused(self, kind, variable, slots, gradient, extra, **attrs):
        """Run the fused rule ``kind`` of ``ops.training_ops`` on one variable."""
        return _t.apply_update(kind, variable, slots, gradient, extra, **attrs)


_ONE = convert_to_tensor(1, dtype=_dt.int64)
_ZERO = convert_to_tensor(0, dtype=_dt.int64)
