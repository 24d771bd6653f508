"""TLS: the transport rule (TLS by default off loopback, no token in clear
off loopback) and a real `greenlight serve --tls-cert --tls-key` reached
with a private CA, refused with another CA, and with --tls-client-ca
refused without a client certificate.

The certificates are made with the openssl command (Debian's openssl).
"""

from __future__ import annotations

import asyncio
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator

import grpc
import pytest

from conftest import _await_serving, _binary, _missing_prerequisite, _stop, _unavailable
from greenlight_client import Client
from greenlight_client.connection import TokenInClearError, channel_config, is_loopback, tls_from_env, use_tls
from greenlight_client.v1 import run_pb2


@pytest.mark.parametrize("address,tls,token,want", [
    ("127.0.0.1:7070", None, "t", False),
    ("localhost:7070", None, "t", False),
    ("[::1]:7070", None, "t", False),
    ("unix:///run/greenlight.sock", None, "t", False),
    ("greenlight.example.com:443", None, "t", True),
    ("10.0.0.5:7070", None, None, True),
    ("0.0.0.0:7070", None, "t", True),
    ("127.0.0.1:7070", True, None, True),
    ("gw.example:7070", False, None, False),
    ("127.0.0.1:7070", False, "t", False),
])
def test_use_tls(address: str, tls, token, want: bool) -> None:
    assert use_tls(address, tls, token=token) is want


@pytest.mark.parametrize("address", ["gw.example:7070", "10.0.0.5:7070", "[2001:db8::1]:7070"])
def test_no_token_in_clear_off_loopback(address: str) -> None:
    assert not is_loopback(address)
    with pytest.raises(TokenInClearError, match="refusing to send the token in clear to " + address.replace("[", r"\[")):
        channel_config(address, tls=False, token="secret-token")
    # The Client refuses before any connection is attempted.
    with pytest.raises(TokenInClearError):
        Client(address, token="secret-token", tls=False)


def test_channel_config_arguments() -> None:
    creds, _ = channel_config("127.0.0.1:7070")
    assert creds is None  # loopback: plaintext
    creds, options = channel_config("127.0.0.1:7070", root_certificates=b"-----BEGIN CERTIFICATE-----\n", server_name="gw")
    assert creds is not None and ("grpc.ssl_target_name_override", "gw") in options
    with pytest.raises(ValueError, match="tls=False excludes"):
        channel_config("127.0.0.1:7070", tls=False, root_certificates=b"pem")
    with pytest.raises(ValueError, match="both certificate_chain and private_key"):
        channel_config("gw.example:7070", certificate_chain=b"-----BEGIN CERTIFICATE-----\n")


def test_tls_from_env() -> None:
    assert tls_from_env({}) == {}
    assert tls_from_env({"GREENLIGHT_TLS": "1", "GREENLIGHT_CA_FILE": "/ca.pem", "GREENLIGHT_CERT": "/c.pem",
                         "GREENLIGHT_KEY": "/k.pem", "GREENLIGHT_SERVER_NAME": "gw"}) == {
        "tls": True, "root_certificates": "/ca.pem", "certificate_chain": "/c.pem", "private_key": "/k.pem",
        "server_name": "gw"}
    assert tls_from_env({"GREENLIGHT_PLAINTEXT": "true"}) == {"tls": False}
    with pytest.raises(ValueError, match="GREENLIGHT_TLS"):
        tls_from_env({"GREENLIGHT_TLS": "maybe"})


@dataclass
class Pki:
    """A private CA with a server and a client certificate, and another CA."""

    ca: Path
    wrong_ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


def _make_ca(d: Path, name: str) -> Path:
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
             "-subj", f"/CN={name}", "-keyout", str(d / f"{name}.key"), "-out", str(d / f"{name}.pem"))
    return d / f"{name}.pem"


def _issue(d: Path, ca: str, name: str, ext: str) -> None:
    (d / f"{name}.ext").write_text(ext)
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", f"/CN={name}",
             "-keyout", str(d / f"{name}.key"), "-out", str(d / f"{name}.csr"))
    _openssl("x509", "-req", "-in", str(d / f"{name}.csr"), "-CA", str(d / f"{ca}.pem"), "-CAkey", str(d / f"{ca}.key"),
             "-CAcreateserial", "-days", "2", "-extfile", str(d / f"{name}.ext"), "-out", str(d / f"{name}.pem"))


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    if shutil.which("openssl") is None:
        _unavailable("no openssl command (apt-get install openssl)")
    d = tmp_path_factory.mktemp("pki")
    ca, wrong = _make_ca(d, "ca"), _make_ca(d, "wrong")
    _issue(d, "ca", "server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    _issue(d, "ca", "client", "extendedKeyUsage=clientAuth\n")
    return Pki(ca=ca, wrong_ca=wrong, server_cert=d / "server.pem", server_key=d / "server.key",
               client_cert=d / "client.pem", client_key=d / "client.key")


def _serve_tls(home: Path, token: str, pki: Pki, *extra: str) -> Iterator[str]:
    missing = _missing_prerequisite()
    if missing:
        _unavailable(missing)
    cmd = [_binary(), "serve", "--home", str(home), "--token", token, "--pool-size", "0",
           "--tls-cert", str(pki.server_cert), "--tls-key", str(pki.server_key), *extra] + [
        f"--{name}-addr=127.0.0.1:0" for name in ("gateway", "http", "loop", "discovery", "executor")]
    log_path = home / "serve.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=log, stdin=subprocess.DEVNULL, cwd=str(home))
    try:
        yield _await_serving(proc, log_path)
    finally:
        _stop(proc)


TOKEN = secrets.token_hex(16)


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory, pki: Pki) -> Iterator[str]:
    yield from _serve_tls(tmp_path_factory.mktemp("tls-home"), TOKEN, pki)


@pytest.fixture(scope="module")
def mtls_server(tmp_path_factory: pytest.TempPathFactory, pki: Pki) -> Iterator[str]:
    yield from _serve_tls(tmp_path_factory.mktemp("mtls-home"), TOKEN, pki, "--tls-client-ca", str(pki.ca))


def _list_runs(address: str, **kwargs: object) -> run_pb2.ListRunsResponse:
    with Client(address, token=TOKEN, **kwargs) as gl:  # type: ignore[arg-type]
        return gl.runs.ListRuns(run_pb2.ListRunsRequest(), metadata=gl.metadata, timeout=20)


def test_tls_with_private_ca(tls_server: str, pki: Pki) -> None:
    _list_runs(tls_server, root_certificates=pki.ca)  # a path
    _list_runs(tls_server, root_certificates=pki.ca.read_bytes())  # PEM bytes


def test_tls_from_environment(tls_server: str, pki: Pki, monkeypatch: pytest.MonkeyPatch) -> None:
    env: Dict[str, str] = {"GREENLIGHT_ADDR": tls_server, "GREENLIGHT_TOKEN": TOKEN, "GREENLIGHT_CA_FILE": str(pki.ca)}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with Client.from_env() as gl:
        gl.runs.ListRuns(run_pb2.ListRunsRequest(), metadata=gl.metadata, timeout=20)


@pytest.mark.parametrize("kwargs", [
    pytest.param({"root_certificates": "wrong"}, id="another CA"),
    pytest.param({"tls": True}, id="system roots"),
    pytest.param({}, id="plaintext (loopback default)"),
])
def test_tls_refusals(tls_server: str, pki: Pki, kwargs: Dict[str, object]) -> None:
    if kwargs.get("root_certificates") == "wrong":
        kwargs = {"root_certificates": pki.wrong_ca}
    with pytest.raises(grpc.RpcError) as err:
        _list_runs(tls_server, **kwargs)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE  # type: ignore[attr-defined]


def test_mtls_requires_client_certificate(mtls_server: str, pki: Pki) -> None:
    _list_runs(mtls_server, root_certificates=pki.ca, certificate_chain=pki.client_cert, private_key=pki.client_key)
    with pytest.raises(grpc.RpcError) as err:
        _list_runs(mtls_server, root_certificates=pki.ca)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE  # type: ignore[attr-defined]


def test_async_client_same_rule(tls_server: str, pki: Pki) -> None:
    """AsyncClient takes the same TLS arguments through channel_config."""
    from greenlight_client.aio import AsyncClient

    with pytest.raises(TokenInClearError):
        AsyncClient("gw.example:7070", token="secret-token", tls=False)

    async def list_runs(**kwargs: object) -> None:
        async with AsyncClient(tls_server, token=TOKEN, **kwargs) as gl:  # type: ignore[arg-type]
            await gl.runs.ListRuns(run_pb2.ListRunsRequest(), metadata=gl.metadata, timeout=20)

    asyncio.run(list_runs(root_certificates=pki.ca))
    with pytest.raises(grpc.RpcError) as err:
        asyncio.run(list_runs(root_certificates=pki.wrong_ca))
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE  # type: ignore[attr-defined]
