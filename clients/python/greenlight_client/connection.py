"""Opening a gRPC channel to a greenlight gateway."""

from __future__ import annotations

import ipaddress
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import grpc
import grpc.aio

# The server sends messages of up to 16 MiB (a run with its results and
# test records); grpc's client default would refuse anything over 4 MiB.
MAX_MESSAGE_BYTES = 16 << 20


ChannelOptions = List[Tuple[str, Any]]

PEM = Union[bytes, str, "os.PathLike[str]"]
"""PEM contents (bytes, or text with "-----BEGIN") or the path of a PEM file."""

_LOCAL_PREFIXES = ("unix:", "unix-abstract:")


class TokenInClearError(ValueError):
    """A plaintext channel would carry the bearer token off loopback."""


def is_loopback(address: str) -> bool:
    """Whether address ("host:port", "unix:PATH") stays on this machine:
    a loopback IP, "localhost" or a unix socket. The literal host counts,
    never what a name resolves to (the Go CLI's rule, pkg/config)."""
    if address.startswith(_LOCAL_PREFIXES):
        return True
    host = address
    if address.startswith("["):
        host = address[1:address.find("]")] if "]" in address else address
    elif address.count(":") == 1:
        host = address.split(":", 1)[0]
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def use_tls(address: str, tls: Optional[bool] = None, *, token: Optional[str] = None) -> bool:
    """Decides whether a channel to address uses TLS: tls when given,
    otherwise TLS for every host but loopback (where `greenlight serve`
    listens in plaintext by default).

    Raises:
        TokenInClearError: tls=False with a token to a host off loopback:
            the token would cross the network in clear.
    """
    if tls is None:
        return not is_loopback(address)
    if not tls and token and not is_loopback(address):
        raise TokenInClearError(
            f"refusing to send the token in clear to {address}, which is not loopback: use TLS "
            f"(tls=None or True; root_certificates for a private CA) or reach the gateway over loopback")
    return tls


def _pem(value: Optional[PEM]) -> Optional[bytes]:
    """Reads a PEM argument: bytes or PEM text as is, anything else as a path."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value
    if isinstance(value, str) and "-----BEGIN" in value:
        return value.encode()
    with open(value, "rb") as f:
        return f.read()


def channel_config(address: str, *, tls: Optional[bool] = None, root_certificates: Optional[PEM] = None,
                   certificate_chain: Optional[PEM] = None, private_key: Optional[PEM] = None,
                   server_name: Optional[str] = None,
                   token: Optional[str] = None) -> Tuple[Optional[grpc.ChannelCredentials], ChannelOptions]:
    """Says how to reach address: the channel credentials (None:
    plaintext) and the channel options. open_channel and open_aio_channel
    both build their channel from it, so the sync and asyncio clients
    connect the same way.

    Args:
        tls: True for TLS, False for plaintext, None (default) for TLS to
            every host but loopback (use_tls). Any other TLS argument
            implies TLS.
        root_certificates: the CAs the server's certificate is checked
            against instead of the system's roots (a private CA).
        certificate_chain, private_key: a client certificate and its key,
            for a gateway that requires one (serve --tls-client-ca).
        server_name: the name the server's certificate must carry when it
            is not address's host.
        token: the bearer token the channel's calls will carry; with it a
            plaintext channel off loopback is refused (TokenInClearError).
    """
    options: ChannelOptions = [
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ]
    tls_args = (root_certificates, certificate_chain, private_key, server_name)
    if any(a is not None for a in tls_args):
        if tls is False:
            raise ValueError("tls=False excludes root_certificates, certificate_chain, private_key and server_name")
        tls = True
    if (certificate_chain is None) != (private_key is None):
        raise ValueError("a client certificate needs both certificate_chain and private_key")
    if not use_tls(address, tls, token=token):
        return None, options
    if server_name:
        options.append(("grpc.ssl_target_name_override", server_name))
    creds = grpc.ssl_channel_credentials(root_certificates=_pem(root_certificates),
                                         private_key=_pem(private_key), certificate_chain=_pem(certificate_chain))
    return creds, options


def tls_from_env(environ: Optional[Mapping[str, str]] = None) -> Dict[str, Any]:
    """The TLS arguments the environment sets, as the greenlight CLI reads
    them: GREENLIGHT_TLS / GREENLIGHT_PLAINTEXT (true or false),
    GREENLIGHT_CA_FILE, GREENLIGHT_CERT and GREENLIGHT_KEY (PEM files),
    GREENLIGHT_SERVER_NAME. Clients' from_env pass them on."""
    env = os.environ if environ is None else environ
    out: Dict[str, Any] = {}
    for name, value in (("GREENLIGHT_TLS", True), ("GREENLIGHT_PLAINTEXT", False)):
        raw = env.get(name, "").strip().lower()
        if raw in ("1", "t", "true"):
            out["tls"] = value
        elif raw not in ("", "0", "f", "false"):
            raise ValueError(f"{name}={env[name]!r}: want true or false")
    for name, arg in (("GREENLIGHT_CA_FILE", "root_certificates"), ("GREENLIGHT_CERT", "certificate_chain"),
                      ("GREENLIGHT_KEY", "private_key"), ("GREENLIGHT_SERVER_NAME", "server_name")):
        if env.get(name):
            out[arg] = env[name]
    return out


def open_channel(address: str, **kwargs: Any) -> grpc.Channel:
    """Opens a channel to address ("host:port"); the keyword arguments
    are channel_config's."""
    creds, options = channel_config(address, **kwargs)
    if creds is not None:
        return grpc.secure_channel(address, creds, options=options)
    return grpc.insecure_channel(address, options=options)


def open_aio_channel(address: str, **kwargs: Any) -> grpc.aio.Channel:
    """Opens an asyncio channel (grpc.aio) to address ("host:port"); the
    keyword arguments are channel_config's. Call it with an event loop
    running."""
    creds, options = channel_config(address, **kwargs)
    if creds is not None:
        return grpc.aio.secure_channel(address, creds, options=options)
    return grpc.aio.insecure_channel(address, options=options)


def bearer_metadata(token: Optional[str]) -> Sequence[Tuple[str, str]]:
    """The call metadata that authenticates to the gateway: "authorization:
    Bearer TOKEN" (the gateway requires one when it has a --token)."""
    return (("authorization", f"Bearer {token}"),) if token else ()
