"""``tf.errors``: re-exports of TensorFlow's exception classes."""
from ._core.errors import (
                           AbortedError,
                           AlreadyExistsError,
                           CancelledError,
                           DataLossError,
                           DeadlineExceededError,
                           FailedPreconditionError,
                           InternalError,
                           InvalidArgumentError,
                           NotFoundError,
                           OperatorNotAllowedInGraphError,
                           OpError,
                           OutOfRangeError,
                           PermissionDeniedError,
                           ResourceExhaustedError,
                           UnauthenticatedError,
                           UnavailableError,
                           UnimplementedError,
                           UnknownError,
)

__all__ = [
    "AbortedError", "AlreadyExistsError", "CancelledError", "DataLossError",
    "DeadlineExceededError", "FailedPreconditionError", "InternalError", "InvalidArgumentError",
    "NotFoundError", "OpError", "OperatorNotAllowedInGraphError", "OutOfRangeError",
    "PermissionDeniedError",
    "ResourceExhaustedError", "UnauthenticatedError", "UnavailableError", "UnimplementedError",
    "UnknownError",
]
