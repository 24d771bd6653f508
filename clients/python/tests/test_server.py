"""Integration tests against a real greenlight serve (see conftest.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path
from typing import List

import grpc
import pytest

from greenlight_client import CHUNK_BYTES, Client, ProviderError, pack
from greenlight_client.v1 import run_pb2, types_pb2

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# Deadline of one run's stream: a hung run fails its test instead of the
# whole suite (a verify takes about a second with warm sandboxes).
STREAM_TIMEOUT = 180.0

# The fix of tests/fixtures/failing: initials() forgot .upper().
FIX_DIFF = '''--- a/textutil/__init__.py
+++ b/textutil/__init__.py
@@ -8,4 +8,4 @@
 
 def initials(name):
     """Returns the initials of a name: "ada lovelace" -> "AL"."""
-    return "".join(word[0] for word in name.split())
+    return "".join(word[0] for word in name.split()).upper()
'''


def kinds(events: List[run_pb2.RunEvent]) -> List[str]:
    return [e.WhichOneof("kind") for e in events]


def assert_well_formed(events: List[run_pb2.RunEvent]) -> None:
    """A run's events: one run, seq 1, 2, ... without gaps (the client
    drops nothing but duplicates), created first, finished last."""
    assert events, "no events"
    assert {e.run_id for e in events} == {events[0].run_id}
    seqs = [e.seq for e in events]
    assert seqs == list(range(1, len(events) + 1)), seqs
    assert kinds(events)[0] == "run_created"
    assert kinds(events)[-1] == "run_finished"


@pytest.fixture(scope="module")
def failing_run(client: Client, tmp_path_factory: pytest.TempPathFactory):
    """Verifies the failing fixture once: (events, final run)."""
    d = tmp_path_factory.mktemp("failing") / "project"
    shutil.copytree(FIXTURES / "failing", d)
    stream = client.verify(d, timeout=STREAM_TIMEOUT)
    events = list(stream)
    return events, stream.wait()


def test_upload_in_chunks_and_dedupe(client: Client):
    data = os.urandom(2 * CHUNK_BYTES + 1000)  # three chunks
    digest = client.upload(data)
    assert digest.hash == hashlib.sha256(data).hexdigest()
    assert digest.size_bytes == len(data)
    st = client.stat(digest)
    assert st.found and st.size_bytes == len(data)
    assert client.upload(data) == digest  # already stored: not sent again
    assert client.upload(b"").size_bytes == 0


def test_pack_is_byte_identical_to_the_cli(server, client: Client, tmp_path: Path):
    """The CLI packs with the Go packer and uploads; the Python pack of the
    same tree must name a blob the store now has."""
    tree = tmp_path / "tree"
    (tree / "src" / "pkg").mkdir(parents=True)
    (tree / "src" / "pkg" / "__init__.py").write_text("x = 1\n")
    (tree / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (tree / "run.sh").chmod(0o755)
    (tree / "blocks.bin").write_bytes(b"\x00" * 1024)
    (tree / "ünicode.txt").write_text("ü\n")
    deep = tree / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    (deep / "long-name.txt").write_text("prefix-split name\n")
    (tree / ("f" * 101)).mkdir()
    (tree / ("f" * 101) / "x").write_text("PAX path\n")
    (tree / "link").symlink_to("run.sh")
    (tree / "node_modules" / "m").mkdir(parents=True)
    (tree / "node_modules" / "m" / "index.js").write_text("skipped\n")
    with pack(tree) as packed:
        assert client.stat(packed.digest).found is False
        res = server.cli("discover", str(tree))
        assert res.returncode == 0, res.stderr
        assert client.stat(packed.digest).found, "the Go CLI's snapshot of the tree differs from pack()'s"


def test_verify_passing(client: Client, project):
    d = project("passing")
    # A path over 100 bytes (PAX header): the server's validation takes it.
    (d / ("long" * 30 + ".txt")).write_text("data\n")
    stream = client.verify(d, timeout=STREAM_TIMEOUT)
    events = list(stream)
    run = stream.wait()
    assert_well_formed(events)
    assert run.result.status == types_pb2.VERDICT_PASS, run.result.summary
    assert run.status == run_pb2.RUN_STATUS_PASSED
    assert run.result.counts.passed == 2 and run.result.counts.failed == 0
    assert run.source_dir == str(d.resolve())


def test_verify_failing_names_the_test(failing_run):
    events, run = failing_run
    assert_well_formed(events)
    assert run.result.status == types_pb2.VERDICT_FAIL
    assert run.status == run_pb2.RUN_STATUS_FAILED
    tests = [f.test for f in run.result.failures]
    assert any(t.endswith("test_initials") for t in tests), tests
    assert run.result.counts.failed == 1 and run.result.counts.passed == 1
    assert events[-1].run_finished.result.status == types_pb2.VERDICT_FAIL


def test_verify_an_uploaded_digest(client: Client, project):
    with pack(project("passing")) as packed:
        digest = client.upload(packed)
    run = client.verify(digest, timeout=STREAM_TIMEOUT).wait()
    assert run.snapshot == digest
    assert run.result.status == types_pb2.VERDICT_PASS


def test_watch_replays_a_finished_run(client: Client, failing_run):
    events, run = failing_run
    replayed = list(client.watch(run.id, timeout=STREAM_TIMEOUT))
    assert [e.seq for e in replayed] == [e.seq for e in events]
    assert kinds(replayed) == kinds(events)
    assert replayed[-1].HasField("run_finished")
    later = list(client.watch(run.id, after_seq=3, timeout=STREAM_TIMEOUT))
    assert [e.seq for e in later] == [e.seq for e in events[3:]]
    assert client.get_run(run.id).status == run_pb2.RUN_STATUS_FAILED


def test_fix_with_the_client_as_provider(client: Client, project):
    requests: List[run_pb2.PatchRequest] = []

    def provider(req: run_pb2.PatchRequest) -> str:
        requests.append(req)
        return FIX_DIFF

    stream = client.fix(project("failing"), provider=provider, timeout=STREAM_TIMEOUT)
    events = list(stream)
    run = stream.wait()
    assert_well_formed(events)
    assert len(requests) == 1
    req = requests[0]
    assert req.attempt == 1
    assert any(f.test.endswith("test_initials") for f in req.failures), req.failures
    assert "pytest" in req.failing_command and req.prompt
    assert "patch_requested" in kinds(events) and "patch_evaluated" in kinds(events)
    assert run.kind == run_pb2.RUN_KIND_FIX
    assert run.status == run_pb2.RUN_STATUS_PASSED, run.result.summary
    assert run.result.status == types_pb2.VERDICT_PASS
    assert run.metrics.green and run.metrics.attempts_to_green == 1
    patch = run.patches[0]
    assert patch.applied and not patch.rolled_back, patch.reason
    assert list(patch.files) == ["textutil/__init__.py"]
    assert ".upper()" in patch.diff
    assert run.current_snapshot != run.snapshot


def test_fix_provider_error_cancels(client: Client, project):
    def provider(req: run_pb2.PatchRequest) -> str:
        raise RuntimeError("model unavailable")

    stream = client.fix(project("failing"), provider=provider, timeout=STREAM_TIMEOUT)
    with pytest.raises(ProviderError) as exc:
        stream.wait()
    assert isinstance(exc.value.__cause__, RuntimeError)
    # Dropping the Fix stream ends the run on the server: CANCELED, or
    # (the server's client provider seeing the stream go) FAILED with stop
    # reason provider_gave_up; either way it must not hang.
    deadline = time.monotonic() + 30
    while client.get_run(stream.run_id).status in (run_pb2.RUN_STATUS_PENDING, run_pb2.RUN_STATUS_RUNNING):
        assert time.monotonic() < deadline, "the run did not stop after its stream was canceled"
        time.sleep(0.2)
    run = client.get_run(stream.run_id)
    assert run.status in (run_pb2.RUN_STATUS_CANCELED, run_pb2.RUN_STATUS_FAILED), run_pb2.RunStatus.Name(run.status)
    assert not run.metrics.green


def test_start_detached_then_cancel(client: Client, project):
    started = client.start_verify(project("passing"))
    assert started.id.startswith("r_")
    cancelled = client.cancel_run(started.id)
    # Canceled while it ran, or already finished: never left running.
    assert cancelled.status in (run_pb2.RUN_STATUS_CANCELED, run_pb2.RUN_STATUS_PASSED)
    assert client.watch(started.id).wait().status == cancelled.status
    with pytest.raises(grpc.RpcError) as err:
        client.cancel_run("r_20000101T000000_nothere")
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_wrong_token_is_unauthenticated(server):
    with Client(server.address, token="not-the-token-0123456789") as c:
        with pytest.raises(grpc.RpcError) as exc:
            c.get_run("r_nope")
    assert exc.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_list_runs_newest_first_by_status_and_page(client: Client, failing_run, project):
    _, failed = failing_run
    passed = client.verify(project("passing"), timeout=STREAM_TIMEOUT).wait()
    listed = client.list_runs()
    ids = [r.id for r in listed.runs]
    assert passed.id in ids and failed.id in ids
    assert ids.index(passed.id) < ids.index(failed.id), "not newest first"
    assert not any(r.HasField("result") for r in listed.runs), "ListRuns leaves results out"
    only_failed = client.list_runs(statuses=[run_pb2.RUN_STATUS_FAILED])
    assert failed.id in [r.id for r in only_failed.runs]
    assert {r.status for r in only_failed.runs} == {run_pb2.RUN_STATUS_FAILED}
    first = client.list_runs(page_size=1)
    assert [r.id for r in first.runs] == ids[:1] and first.next_page_token
    second = client.list_runs(page_size=1, page_token=first.next_page_token)
    assert [r.id for r in second.runs] == ids[1:2]


def test_discover_a_directory_and_a_digest(client: Client, project):
    d = project("passing")
    caps = client.discover(d)
    assert [s.runtime for s in caps.subprojects] == ["python"], caps.subprojects
    assert caps.subprojects[0].has_tests
    assert any("pytest" in c.command for c in caps.commands), [c.command for c in caps.commands]
    with pack(d) as packed:
        digest = client.upload(packed)
    assert client.discover(digest) == caps
