"""``tf.types``: the abstract types of TensorFlow's API, for ``isinstance`` checks and for
user-defined trace types (``tf.types.experimental``).

``tf.types.experimental.TraceType`` is what a class returns from ``__tf_tracing_type__``
to tell ``tf.function`` when two of its instances may share a trace: ``tf.function`` keys a
call by the returned object (``__eq__``/``__hash__``), so instances whose trace types are
equal reuse one concrete function. ``GenericFunction`` (alias ``PolymorphicFunction``) is
what ``tf.function`` returns, ``ConcreteFunction`` what ``get_concrete_function`` returns;
``TensorLike`` is the union of what converts to a tensor.

TensorFlow counterpart: ``tensorflow.python.types.core`` and ``tensorflow.python.types.trace``.
"""
import abc
import sys as _sys
import types as _pytypes
import typing

import numpy as _np

__all__ = ["experimental"]


class TraceType(metaclass=abc.ABCMeta):
    """A type of values for ``tf.function``'s tracing (``tf.types.experimental.TraceType``).

    A subclass defines ``is_subtype_of(other)`` (bool), ``most_specific_common_supertype(
    others)`` (a TraceType or None), ``placeholder_value(placeholder_context)`` (the value the
    traced body sees), ``__eq__`` and ``__hash__``: ``tf.function`` reuses a trace for a call
    whose arguments' trace types equal the trace's. Instantiating a subclass that leaves one
    of these undefined raises ``TypeError`` (an abstract class).
    """

    @abc.abstractmethod
    def is_subtype_of(self, other):
        """Whether every value of this type is also of type ``other``."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The most specific type that this and every one of ``others`` subtype, or None."""

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context):
        """The value a traced body receives for an argument of this type."""

    def to_tensors(self, value):
        """The tensors ``value`` of this type consists of (none for a Python value)."""
        return []

    def from_tensors(self, tensors):
        """A value of this type from the tensors ``to_tensors`` gave."""
        return self.placeholder_value(None)

    def flatten(self):
        """The TraceTypes of the tensors ``to_tensors`` gives (none for a Python value)."""
        return []

    def cast(self, value, cast_context):
        """``value`` as a value of this type (unchanged by default)."""
        return value

    @abc.abstractmethod
    def __eq__(self, other):
        ...

    @abc.abstractmethod
    def __hash__(self):
        ...


@typing.runtime_checkable
class SupportsTracingProtocol(typing.Protocol):
    """A class whose instances say their own trace type: ``__tf_tracing_type__(context)``
    returns a :class:`TraceType` (``tf.types.experimental.SupportsTracingProtocol``)."""

    @abc.abstractmethod
    def __tf_tracing_type__(self, context):
        ...


class Callable(metaclass=abc.ABCMeta):  # noqa: B024 - a type for isinstance
    """Something callable with TensorFlow semantics (``tf.types.experimental.Callable``):
    ``tf.function``'s functions and concrete functions."""


class PolymorphicFunction(Callable):
    """What ``tf.function`` returns: traces per input signature
    (``tf.types.experimental.GenericFunction``, alias ``PolymorphicFunction``)."""


class ConcreteFunction(Callable):
    """One trace of a ``tf.function`` (``tf.types.experimental.ConcreteFunction``)."""


class AtomicFunction(Callable):
    """A single graph function (``tf.types.experimental.AtomicFunction``); tapeflow makes
    none."""


class FunctionType(metaclass=abc.ABCMeta):  # noqa: B024 - a type for isinstance
    """The signature type of a function (``tf.types.experimental.FunctionType``)."""


def _tensor_like():
    from ._core.tensor import TensorType
    return typing.Union[TensorType, int, float, bool, str, bytes, complex, tuple, list,
                        _np.ndarray, _np.generic]


def _register():
    from .function.concrete_function import ConcreteFunction as _Concrete
    from .function.concrete_function import FunctionType as _FunctionType
    from .function.polymorphic import Function as _Function
    PolymorphicFunction.register(_Function)
    ConcreteFunction.register(_Concrete)
    FunctionType.register(_FunctionType)
    from .function.concrete_function import _AtomicFunction
    AtomicFunction.register(_AtomicFunction)


_register()

experimental = _pytypes.ModuleType("tapeflow.types.experimental", "tf.types.experimental")
experimental.TraceType = TraceType
experimental.SupportsTracingProtocol = SupportsTracingProtocol
experimental.Callable = Callable
experimental.GenericFunction = PolymorphicFunction
experimental.PolymorphicFunction = PolymorphicFunction
experimental.ConcreteFunction = ConcreteFunction
experimental.AtomicFunction = AtomicFunction
experimental.FunctionType = FunctionType
experimental.TensorLike = _tensor_like()
experimental.__all__ = ["AtomicFunction", "Callable", "ConcreteFunction", "FunctionType",
                        "GenericFunction", "PolymorphicFunction", "SupportsTracingProtocol",
                        "TensorLike", "TraceType"]
_sys.modules[experimental.__name__] = experimental
