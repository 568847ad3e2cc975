"""TensorFlow's exception classes (``tf.errors``), with the same names and hierarchy."""

__all__ = [
    "OpError", "CancelledError", "UnknownError", "InvalidArgumentError",
    "DeadlineExceededError", "NotFoundError", "AlreadyExistsError",
    "PermissionDeniedError", "UnauthenticatedError", "ResourceExhaustedError",
    "FailedPreconditionError", "AbortedError", "OutOfRangeError",
    "UnimplementedError", "InternalError", "UnavailableError", "DataLossError",
    "OperatorNotAllowedInGraphError",
]


class _TFErrorType(type):
    """Error classes print as TensorFlow's (``<class '...errors_impl.InvalidArgumentError'>``)."""

    def __repr__(cls):
        return f"<class 'tensorflow.python.framework.errors_impl.{cls.__name__}'>"


class OpError(Exception, metaclass=_TFErrorType):
    """A failed op, as ``tf.errors.OpError``.

    Args:
        node_def: unused, kept for TensorFlow's signature.
        op: unused, kept for TensorFlow's signature.
        message: the error text; ``str(err)`` returns it.
        *args: ignored.
    """

    # True for a shape mismatch TensorFlow finds while it builds a graph (static shapes):
    # a trace raises it even from an op whose output nothing uses (``shape_mismatch``).
    static_shape = False

    def __init__(self, node_def=None, op=None, message="", *args):
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self):
        return self.message


def _make(name, doc):
    cls = type(name, (OpError,), {"__doc__": doc, "__module__": __name__})
    return cls


CancelledError = _make("CancelledError", "An op was cancelled.")
UnknownError = _make("UnknownError", "An unknown error.")
InvalidArgumentError = _make("InvalidArgumentError", "An op received an invalid argument.")
DeadlineExceededError = _make("DeadlineExceededError", "A deadline expired.")
NotFoundError = _make("NotFoundError", "A requested entity was not found.")
AlreadyExistsError = _make("AlreadyExistsError", "An entity already exists.")
PermissionDeniedError = _make("PermissionDeniedError", "Permission denied.")
UnauthenticatedError = _make("UnauthenticatedError", "Not authenticated.")
ResourceExhaustedError = _make("ResourceExhaustedError", "A resource was exhausted.")
FailedPreconditionError = _make("FailedPreconditionError", "A precondition failed.")
AbortedError = _make("AbortedError", "An operation was aborted.")
OutOfRangeError = _make("OutOfRangeError", "An operation ran past the valid range.")
UnimplementedError = _make("UnimplementedError", "An operation is not implemented.")
InternalError = _make("InternalError", "An internal invariant was broken.")
UnavailableError = _make("UnavailableError", "The runtime is unavailable.")
DataLossError = _make("DataLossError", "Unrecoverable data loss.")


class InaccessibleTensorError(ValueError, metaclass=_TFErrorType):
    """A tensor of a finished sub-graph (a loop body, a branch) used outside it, as
    TensorFlow's ``InaccessibleTensorError`` (a ``ValueError``; not in ``tf.errors``)."""


class OperatorNotAllowedInGraphError(TypeError, metaclass=_TFErrorType):
    """A Python operator (``bool``, iteration) applied to a symbolic graph tensor, as
    ``tf.errors.OperatorNotAllowedInGraphError`` (a ``TypeError``)."""


# What follows ``name:`` in TensorFlow's eager errors is the default name its Python wrapper
# gives the op; the wrappers of some ops give none, and their messages end after ``[Op:...]``.
_DEFAULT_NAMES = {"StridedSlice": "strided_slice/", "ConcatV2": "concat", "Pack": "stack"}
_UNNAMED = frozenset({"Reshape", "GatherV2", "ReverseSequence"})


def shape_mismatch(text):
    """What an op's error rule returns for a shape mismatch TensorFlow finds while it builds
    a graph, from static shapes (``Incompatible shapes``, ``Matrix size-incompatible``, a
    reshape's size): an ``InvalidArgumentError`` marked ``static_shape``, so that a trace
    raises it (as a ``ValueError``) even from an op whose output nothing uses."""
    return InvalidArgumentError, text, True


def static_shape(err):
    """Mark the OpError ``err`` as a static shape mismatch (see ``shape_mismatch``); returns it."""
    err.static_shape = True
    return err


def op_error(cls, text, op_name):
    """Build ``cls`` with TensorFlow's eager message form ``'<text> [Op:<name>] name: '``."""
    if op_name in _UNNAMED:
        return cls(None, None, f"{text} [Op:{op_name}]")
    return cls(None, None, f"{text} [Op:{op_name}] name: {_DEFAULT_NAMES.get(op_name, '')}")
