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
import sys
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
    assert len(blocks("python")) == 4 and len(blocks("bash")) == 1


@pytest.mark.parametrize("index", range(4))
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


def test_install_snippet(tmp_path: Path):
    src = tmp_path / "clients" / "python"
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("tests", "__pycache__", "build", "*.egg-info", ".venv"))
    lines = [ln for ln in blocks("bash")[0].splitlines() if ln.strip() and not ln.startswith("apt-get ")]
    assert any("pip install" in ln for ln in lines)
    # python3 is the interpreter whose (Debian) grpcio and protobuf the tests use.
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python3").symlink_to(sys.executable)
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}")
    res = subprocess.run(["bash", "-euxc", "\n".join(lines)], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    check = ("import greenlight_client as g, os; d = os.path.dirname(g.__file__); "
             "print(os.path.exists(d + '/py.typed'), os.path.exists(d + '/v1/run_pb2.pyi'), g.__file__)")
    out = subprocess.run([str(tmp_path / ".venv" / "bin" / "python"), "-c", check], cwd="/", capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[:2] == ["True", "True"] and str(tmp_path / ".venv") in out[2]
