"""Errors raised by greenlight_client.

gRPC failures are raised as they come (grpc.RpcError, with the server's
status code and message); these cover what happens on the client side.
"""

from __future__ import annotations


class GreenlightError(Exception):
    """Base class of the client's own errors."""


class PackError(GreenlightError):
    """A directory cannot be packed into a snapshot.

    Attributes:
        path: the entry (relative to the packed directory) where packing
            stopped, or "" when the directory itself is the problem.
    """

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class UploadError(GreenlightError):
    """The blob store confirmed a different digest than the one uploaded."""


class StreamEndedError(GreenlightError):
    """A run's event stream ended before its RunFinished event."""


class ProviderError(GreenlightError):
    """The patch provider callback of a fix raised; the run was canceled.

    The callback's exception is the __cause__.
    """
