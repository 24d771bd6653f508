"""Shared fixtures: a real `greenlight serve` for the integration tests.

The server is the binary `make build` writes (.bin/greenlight, or
$GREENLIGHT_BIN), started once per session on free ports (port 0: the
server picks them and prints the gateway's) with a temporary --home and a
--token. Without Docker, the binary or the Python sandbox image the
integration tests are skipped with the reason, unless
GREENLIGHT_INTEGRATION=1, when they fail instead.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from greenlight_client import Client

collect_ignore = ["fixtures"]  # the fixture projects' own tests run in the sandbox

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REPO = HERE.parents[2]
SANDBOX_IMAGE = "greenlight/sandbox-python"
START_TIMEOUT = 60.0


@dataclass
class Server:
    """A running greenlight serve."""

    address: str
    token: str
    binary: str
    home: Path

    def cli(self, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess:
        """Runs the greenlight CLI against this server."""
        cmd = [self.binary, "--addr", self.address, "--token", self.token, *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)


def _unavailable(reason: str) -> None:
    """Skips (or, with GREENLIGHT_INTEGRATION=1, fails) the requesting test."""
    if os.environ.get("GREENLIGHT_INTEGRATION") == "1":
        pytest.fail(f"GREENLIGHT_INTEGRATION=1 but {reason}", pytrace=False)
    pytest.skip(f"integration test skipped: {reason} (GREENLIGHT_INTEGRATION=1 makes this a failure)")


def _missing_prerequisite() -> str:
    """Names what the integration tests lack, or returns ""."""
    binary = _binary()
    if not os.access(binary, os.X_OK):
        return f"no greenlight binary at {binary} (run `make build`, or set GREENLIGHT_BIN)"
    if shutil.which("docker") is None:
        return "no docker CLI on PATH (Docker is needed to run sandboxes)"
    info = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True, text=True,
                          timeout=30, check=False)
    if info.returncode != 0:
        return f"the Docker engine is not reachable ({info.stderr.strip()[:200]}; `make engine` starts one)"
    img = subprocess.run(["docker", "image", "inspect", SANDBOX_IMAGE], capture_output=True, timeout=30, check=False)
    if img.returncode != 0:
        return f"sandbox image {SANDBOX_IMAGE} is missing (`make images` builds it)"
    return ""


def _binary() -> str:
    return os.environ.get("GREENLIGHT_BIN") or str(REPO / ".bin" / "greenlight")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Starts greenlight serve for the session and stops it afterwards."""
    missing = _missing_prerequisite()
    if missing:
        _unavailable(missing)
    home = tmp_path_factory.mktemp("greenlight-home")
    token = secrets.token_hex(16)
    log_path = home / "serve.log"
    cmd = [_binary(), "serve", "--home", str(home), "--token", token] + [
        f"--{name}-addr=127.0.0.1:0" for name in ("gateway", "http", "loop", "discovery", "executor")]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=log, stdin=subprocess.DEVNULL, cwd=str(home))
    try:
        address = _await_serving(proc, log_path)
        yield Server(address=address, token=token, binary=_binary(), home=home)
    finally:
        _stop(proc)


def _await_serving(proc: subprocess.Popen, log_path: Path) -> str:
    """Waits for serve's "serving; gateway ADDR" line and returns ADDR."""
    deadline = time.monotonic() + START_TIMEOUT
    pattern = re.compile(r"greenlight: serving; gateway (\S+)")
    while time.monotonic() < deadline:
        m = pattern.search(log_path.read_text(errors="replace"))
        if m:
            return m.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    tail = log_path.read_text(errors="replace")[-3000:]
    _stop(proc)
    pytest.fail(f"greenlight serve did not start (exit {proc.returncode}); its output ends:\n{tail}", pytrace=False)
    raise AssertionError("unreachable")


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM (graceful: running runs end CANCELED, containers removed),
    then SIGKILL after 30 s."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def client(server: Server) -> Iterator[Client]:
    """A Client of the session's server, connected."""
    with Client(server.address, token=server.token) as c:
        c.wait_ready(timeout=10)
        yield c


@pytest.fixture
def project(tmp_path: Path):
    """Copies a fixture project (by name) into a fresh directory outside
    git, so it is packed by walking, and returns the copy's path."""

    def copy(name: str) -> Path:
        dst = tmp_path / name
        shutil.copytree(FIXTURES / name, dst, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        return dst

    return copy
