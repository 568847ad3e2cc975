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
    "NotFoundError", "OpError", "OutOfRangeError", "PermissionDeniedError",
    "ResourceExhaustedError", "UnauthenticatedError", "UnavailableError", "UnimplementedError",
    "UnknownError",
]
