"""Opening a gRPC channel to a greenlight gateway."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import grpc
import grpc.aio

# The server sends messages of up to 16 MiB (a run with its results and
# test records); grpc's client default would refuse anything over 4 MiB.
MAX_MESSAGE_BYTES = 16 << 20


ChannelOptions = List[Tuple[str, Any]]


def channel_config(address: str, *, tls: bool = False,
                   root_certificates: Optional[bytes] = None) -> Tuple[Optional[grpc.ChannelCredentials], ChannelOptions]:
    """Says how to reach address: the channel credentials (None:
    plaintext) and the channel options. open_channel and open_aio_channel
    both build their channel from it, so the sync and asyncio clients
    connect the same way.

    Args:
        tls: use TLS, verifying the server against the system's roots, or
            root_certificates (PEM) when given. Giving root_certificates
            implies TLS.
    """
    del address  # the same settings for every address, for now
    options: ChannelOptions = [
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ]
    if tls or root_certificates is not None:
        return grpc.ssl_channel_credentials(root_certificates=root_certificates), options
    return None, options


def open_channel(address: str, *, tls: bool = False, root_certificates: Optional[bytes] = None) -> grpc.Channel:
    """Opens a channel to address ("host:port"); the arguments are
    channel_config's."""
    creds, options = channel_config(address, tls=tls, root_certificates=root_certificates)
    if creds is not None:
        return grpc.secure_channel(address, creds, options=options)
    return grpc.insecure_channel(address, options=options)


def open_aio_channel(address: str, *, tls: bool = False,
                     root_certificates: Optional[bytes] = None) -> grpc.aio.Channel:
    """Opens an asyncio channel (grpc.aio) to address ("host:port"); the
    arguments are channel_config's. Call it with an event loop running."""
    creds, options = channel_config(address, tls=tls, root_certificates=root_certificates)
    if creds is not None:
        return grpc.aio.secure_channel(address, creds, options=options)
    return grpc.aio.insecure_channel(address, options=options)


def bearer_metadata(token: Optional[str]) -> Sequence[Tuple[str, str]]:
    """The call metadata that authenticates to the gateway: "authorization:
    Bearer TOKEN" (the gateway requires one when it has a --token)."""
    return (("authorization", f"Bearer {token}"),) if token else ()
