"""Distributed values: one component per local replica (``PerReplica``, ``Mirrored``) and the
mirrored variables that strategies make from variables created in their scope.

In one process a mirrored variable is one buffer behind N named handles: reads on any replica
see it, an update from a replica function is applied once (replica 0's), and updates inside a
``merge_call`` (the optimizer's) run once in cross-replica context. Metric state is one shared
buffer too: replicas run one at a time, so each replica's update adds in, which is what TF's
sum-on-read gives.
"""
import abc

from .._core import nest
from .._core.tensor import Tensor
from .._core.variable import ResourceVariable, Variable, VariableAggregation
from . import _context

__all__ = ["DistributedValues", "PerReplica", "Mirrored", "MirroredVariable",
           "AggregatingVariable", "regroup",
           "select_replica", "mirror_variable", "sync_on_read"]


class DistributedValues(metaclass=abc.ABCMeta):  # noqa: B024 - registers MirroredVariable
    """Values of several replicas, one per local replica (``tf.distribute.DistributedValues``).

    Get the components with ``strategy.experimental_local_results(value)``; pass a
    DistributedValues to ``strategy.run`` and each replica receives its own component.

    Args:
        values: a tuple with one value per local replica.
    """

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self) -> tuple:
        return self._values

    # TensorFlow's nest protocol: a tf.function keys and rebuilds the components (so a new
    # distributed batch of the same shapes reuses the trace)
    def __tf_flatten__(self):
        return None, self._values

    @classmethod
    def __tf_unflatten__(cls, metadata, components):
        return cls(components)

    def _text(self, fmt):
        body = ",\n".join(f"  {i}: {fmt(v)}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{body}\n}}"

    def __str__(self):
        return self._text(str)

    def __repr__(self):
        return self._text(repr)


class PerReplica(DistributedValues):
    """A different value on each replica: a distributed batch, a ``run`` result."""


class Mirrored(DistributedValues):
    """The same value on every replica."""


class _MirroredMixin:
    """Turns a Variable into a mirrored one by class change (same memory layout)."""

    __slots__ = ()
    _num_replicas = 1
    _sync_on_read = False

    @property
    def values(self) -> tuple:
        """The components, one per local replica (one buffer behind them all here)."""
        return (self,) * self._num_replicas

    _values = values

    def _skip_update(self):
        # In-process replicas share one buffer: replica 0's update stands for all, except
        # for sync-on-read state (metrics), where every replica's update adds in.
        return (self._num_replicas > 1 and not self._sync_on_read
                and _context.replica_id() > 0)

    def _aggregated(self, method, value, args, kwargs):
        """An update from a replica function of a variable made with an aggregation (SUM,
        MEAN, ONLY_FIRST_REPLICA): the replicas' values are combined once in a merge call
        and the result applied once, as TF's mirrored variables do."""
        agg = VariableAggregation(self.aggregation.value)  # (no aggregation: TF's v1 NONE)
        if (agg is VariableAggregation.NONE or self._num_replicas == 1
                or self._sync_on_read):
            return None
        top = _context.current()
        ctx = top[1] if top is not None else None
        if ctx is None or ctx._thread is None:
            return None
        base = super()

        def merge(strategy, per_replica):
            parts = list(per_replica.values) if isinstance(per_replica, DistributedValues) \
                else [per_replica] * self._num_replicas
            if agg is VariableAggregation.ONLY_FIRST_REPLICA:
                total = parts[0]
            else:
                from ..ops import array_ops, math_ops
                total = math_ops.add_n([array_ops.identity(p) for p in parts])
                if agg is VariableAggregation.MEAN:
                    total = math_ops.divide(total, array_ops.cast(len(parts), total.dtype))
            getattr(base, method)(total, *args, **kwargs)
            return self

        return ctx.merge_call(merge, args=(value,))

    def assign(self, value, *args, **kwargs):
        out = self._aggregated("assign", value, args, kwargs)
        if out is not None:
            return out
        if self._skip_update():
            self._new_value(value, "assign")
            return self
        # Keras variables take only the value; tf.Variable also use_locking, name, read_value
        return super().assign(value, *args, **kwargs)

    def assign_add(self, delta, *args, **kwargs):
        out = self._aggregated("assign_add", delta, args, kwargs)
        if out is not None:
            return out
        if self._skip_update():
            self._new_value(delta, "assign_add")
            return self
        # Keras variables take only the value; tf.Variable also use_locking, name, read_value
        return super().assign_add(delta, *args, **kwargs)

    def assign_sub(self, delta, *args, **kwargs):
        out = self._aggregated("assign_sub", delta, args, kwargs)
        if out is not None:
            return out
        if self._skip_update():
            self._new_value(delta, "assign_sub")
            return self
        # Keras variables take only the value; tf.Variable also use_locking, name, read_value
        return super().assign_sub(delta, *args, **kwargs)


class MirroredVariable(_MirroredMixin, Variable):
    """A variable made in a strategy's scope, printed as TF prints it.

    >>> import tapeflow as tf
    >>> with tf.distribute.MirroredStrategy(["CPU:0"]).scope():
    ...     v = tf.Variable(1.0)
    >>> type(v).__name__
    'MirroredVariable'
    """

    __slots__ = ()

    def _component_text(self, i):
        base = Variable.__repr__(self)
        if i == 0:
            return base
        return base.replace(f"'{self._name}:0'", f"'{self._name}/replica_{i}:0'", 1)

    def __repr__(self):
        body = ",\n".join(f"  {i}: {self._component_text(i)}"
                          for i in range(self._num_replicas))
        return f"MirroredVariable:{{\n{body}\n}}"

    __str__ = __repr__


DistributedValues.register(MirroredVariable)


class AggregatingVariable(_MirroredMixin, Variable):
    """A variable of ``CentralStorageStrategy``: one copy, printed as a plain variable,
    updated once for all replicas (TF's ``AggregatingVariable``; not a DistributedValues)."""

    __slots__ = ()

    def __repr__(self):
        return Variable.__repr__(self)

    __str__ = __repr__


_classes = {}


def mirror_variable(var, num_replicas, sync_on_read=False, plain=False):
    """Make ``var`` a mirrored variable of ``num_replicas`` replicas (in place). A
    ``sync_on_read`` variable (metric state) takes every replica's update; a ``plain`` one
    (CentralStorageStrategy's) prints and answers ``isinstance`` as a plain variable."""
    base = next(c for c in type(var).__mro__ if not issubclass(c, _MirroredMixin))
    plain = plain or getattr(type(var), "_plain", False)
    key = (base, num_replicas, sync_on_read, plain)
    cls = _classes.get(key)
    if cls is None:
        attrs = {"__slots__": (), "_num_replicas": num_replicas,
                 "_sync_on_read": sync_on_read, "_plain": plain}
        if plain and (base is Variable or base is ResourceVariable):
            attrs.update(__module__=__name__, __qualname__="AggregatingVariable")
            cls = type("AggregatingVariable", (AggregatingVariable,), attrs)
        elif base is Variable or base is ResourceVariable:  # tf.Variable(...) makes the latter
            attrs.update(__module__=__name__, __qualname__="MirroredVariable")
            cls = type("MirroredVariable", (MirroredVariable,), attrs)
        elif getattr(base, "_mirror_as_tf_variable", False):
            # a tf.Variable subclass of the core (a Generator's state): TF's mirrored form,
            # the subclass's behaviour kept
            attrs.update(__module__=__name__, __qualname__="MirroredVariable")
            cls = type("MirroredVariable", (MirroredVariable, base), attrs)
        else:
            # Keras variables keep their own printed form under a strategy, as in Keras 3.
            attrs["__module__"] = base.__module__
            cls = type(base.__name__, (_MirroredMixin, base), attrs)
        _classes[key] = cls
    var.__class__ = cls
    return var


def sync_on_read(var):
    """Mark a variable made under a strategy as sync-on-read (a metric's state)."""
    if isinstance(var, _MirroredMixin):
        mirror_variable(var, var._num_replicas, sync_on_read=True)
    return var


def regroup(per_replica_results):
    """Turn N per-replica nests into one nest of PerReplica leaves (a leaf that is the same
    object on every replica and not a tensor, such as a variable, stays itself)."""
    first = per_replica_results[0]
    if len(per_replica_results) == 1:
        return first
    flats = [nest.flatten(r) for r in per_replica_results]
    leaves = []
    for parts in zip(*flats):
        if not isinstance(parts[0], Tensor) and all(p is parts[0] for p in parts):
            leaves.append(parts[0])
        else:
            leaves.append(PerReplica(parts))
    return nest.pack_sequence_as(first, leaves)


def select_replica(structure, i):
    """Replica ``i``'s view of a nest that may hold DistributedValues."""
    def pick(x):
        if isinstance(x, _MirroredMixin):
            return x
        return x._values[i] if isinstance(x, DistributedValues) else x
    return nest.map_structure(pick, structure)
