"""Runs README.md's code blocks, so the quick start cannot rot.

Every ```python block runs against the session's server, in a directory
holding my-project (a copy of the failing fixture), with my_model standing
in for the reader's model. The ```bash install block runs (all but its
apt-get line, which test.sh runs) on a copy of the package, so packaging
(py.typed, the .pyi stubs) is checked too.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import List

import pytest

from greenlight_client.v1 import types_pb2
from test_server import FIX_DIFF

HERE = Path(__file__).resolve().parent
PKG = HERE.parent
README = PKG / "README.md"


def blocks(lang: str) -> List[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", README.read_text(), flags=re.S | re.M)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server) -> Path:
    shutil.copytree(HERE / "fixtures" / "failing", tmp_path / "my-project")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREENLIGHT_ADDR", server.address)
    monkeypatch.setenv("GREENLIGHT_TOKEN", server.token)
    return tmp_path


def test_readme_has_the_snippets():
    assert len(blocks("python")) == 5 and len(blocks("bash")) == 1


@pytest.mark.parametrize("index", range(5))
def test_python_snippet(index: int, workdir: Path, capsys: pytest.CaptureFixture):
    code = blocks("python")[index]
    prompts: List[str] = []

    def my_model(prompt: str) -> str:
        prompts.append(prompt)
        return FIX_DIFF

    ns = {"__name__": "readme", "my_model": my_model}
    exec(compile(code, f"README.md python block {index + 1}", "exec"), ns)
    out = capsys.readouterr().out
    run = ns["run"]
    if "gl.fix(" in code:
        assert run.metrics.green and "green: True" in out and ".upper()" in out
        assert prompts and "test_initials" in prompts[0]
    else:
        assert run.result.status == types_pb2.VERDICT_FAIL, run.result.summary
    if "failure.test" in code:
        assert "test_initials" in out
    if "gl.watch(" in code:
        assert "run_finished" in out and out.rstrip().endswith(run.result.summary)
    if "AsyncClient" in code:
        assert "VERDICT_FAIL" in out and run.id in out and "runtimes: ['python']" in out, out
        assert "exit 1" in out  # the failing pytest step, from a step_finished event


def test_install_snippet(tmp_path: Path):
    """The install recipe works when the first python3 on PATH is not
    Debian's (issue 26: a pyenv python3 first made a venv without grpcio,
    setuptools' wheel or Debian's packages, and the install failed). A
    stand-in python3 that refuses to run is first on PATH: the recipe must
    not use it."""
    src = tmp_path / "clients" / "python"
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("tests", "__pycache__", "build", "*.egg-info", ".venv"))
    lines = [ln for ln in blocks("bash")[0].splitlines() if ln.strip() and not ln.startswith("apt-get ")]
    assert any("pip install" in ln for ln in lines)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name in ("python3", "python", "pip", "pip3"):
        shim = bindir / name
        shim.write_text(f"#!/bin/sh\necho \"a {name} that is not Debian's (no python3-grpcio)\" >&2\nexit 97\n")
        shim.chmod(0o755)
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}")
    env.pop("PYTHONPATH", None)
    res = subprocess.run(["bash", "-euxc", "\n".join(lines)], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    check = ("import greenlight_client as g, greenlight_client.aio as a, os; d = os.path.dirname(g.__file__); "
             "print(os.path.exists(d + '/py.typed'), os.path.exists(d + '/v1/run_pb2.pyi'), "
             "a.AsyncClient is g.AsyncClient, g.__file__)")
    out = subprocess.run([str(tmp_path / ".venv" / "bin" / "python"), "-c", check], cwd="/", capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[:3] == ["True", "True", "True"] and str(tmp_path / ".venv") in out[3]


def test_build_wheel(tmp_path: Path):
    """build-wheel.sh (what make dist calls) writes a wheel holding the
    whole package, type information included, that installs and imports
    in a fresh venv."""
    out = tmp_path / "dist"
    res = subprocess.run(["bash", str(PKG / "build-wheel.sh"), str(out)], capture_output=True, text=True,
                         timeout=300, check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    wheels = sorted(out.glob("greenlight_client-*-py3-none-any.whl"))
    assert len(wheels) == 1 and sorted(out.glob("greenlight-client-*.tar.gz")), sorted(out.iterdir())
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    for want in ("greenlight_client/py.typed", "greenlight_client/aio/client.py", "greenlight_client/v1/run_pb2.pyi",
                 "greenlight_client/v1/run_pb2_grpc.py"):
        assert want in names, want
    assert not [n for n in names if n.startswith("tests/") or "__pycache__" in n]
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--no-deps", "--no-index", "--quiet", str(wheels[0])],
                   check=True, timeout=300)
    got = subprocess.run([str(venv / "bin" / "python"), "-c",
                          "import greenlight_client as g; print(g.AsyncClient.__name__, g.__file__)"],
                         cwd="/", capture_output=True, text=True, check=True).stdout.split()
    assert got[0] == "AsyncClient" and str(venv) in got[1]
