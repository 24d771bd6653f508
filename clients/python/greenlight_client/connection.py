"""Opening a gRPC channel to a greenlight gateway."""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

import grpc

# The server sends messages of up to 16 MiB (a run with its results and
# test records); grpc's client default would refuse anything over 4 MiB.
MAX_MESSAGE_BYTES = 16 << 20


def open_channel(address: str, *, tls: bool = False, root_certificates: Optional[bytes] = None) -> grpc.Channel:
    """Opens a channel to address ("host:port").

    Args:
        tls: use TLS, verifying the server against the system's roots, or
            root_certificates (PEM) when given. Giving root_certificates
            implies TLS.
    """
    options = [
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ]
    if tls or root_certificates is not None:
        creds = grpc.ssl_channel_credentials(root_certificates=root_certificates)
        return grpc.secure_channel(address, creds, options=options)
    return grpc.insecure_channel(address, options=options)


def bearer_metadata(token: Optional[str]) -> Sequence[Tuple[str, str]]:
    """The call metadata that authenticates to the gateway: "authorization:
    Bearer TOKEN" (the gateway requires one when it has a --token)."""
    return (("authorization", f"Bearer {token}"),) if token else ()
