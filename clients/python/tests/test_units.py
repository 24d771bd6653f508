"""Client pieces that need no server: upload framing, fix options and replies."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from greenlight_client import CHUNK_BYTES, digest_of, write_requests
from greenlight_client.connection import bearer_metadata
from greenlight_client.fixing import fix_options, to_reply
from greenlight_client.v1 import run_pb2, types_pb2


def test_write_requests_first_message_carries_the_digest():
    data = bytes(range(256)) * (CHUNK_BYTES // 256 * 2 + 3)  # two full chunks and a bit
    digest = digest_of(data)
    chunks = [data[i:i + CHUNK_BYTES] for i in range(0, len(data), CHUNK_BYTES)]
    reqs = list(write_requests(digest, chunks))
    assert len(reqs) == 3
    assert reqs[0].digest == digest
    assert not any(r.HasField("digest") for r in reqs[1:])
    assert [r.finish_write for r in reqs] == [False, False, True]
    assert b"".join(r.data for r in reqs) == data
    assert all(len(r.data) <= CHUNK_BYTES for r in reqs)


def test_write_requests_of_an_empty_blob():
    digest = digest_of(b"")
    (req,) = write_requests(digest, [])
    assert req.digest == digest and req.finish_write and req.data == b""
    assert digest.hash == hashlib.sha256(b"").hexdigest()


def test_digest_of_a_file(tmp_path: Path):
    p = tmp_path / "blob"
    p.write_bytes(b"x" * (CHUNK_BYTES + 1))
    assert digest_of(p) == types_pb2.Digest(hash=hashlib.sha256(p.read_bytes()).hexdigest(),
                                            size_bytes=CHUNK_BYTES + 1)
    assert digest_of(str(p)) == digest_of(p.read_bytes())


def test_bearer_metadata():
    assert bearer_metadata("tok") == (("authorization", "Bearer tok"),)
    assert bearer_metadata(None) == ()


def test_fix_options_pick_the_client_provider():
    base = run_pb2.FixOptions(max_rounds=2)
    opts = fix_options(base, provider=lambda req: None)
    assert opts.provider.kind == run_pb2.PROVIDER_KIND_CLIENT and opts.max_rounds == 2
    assert not base.HasField("provider")  # the caller's options are not changed


def test_fix_options_refuse_mismatches():
    with pytest.raises(ValueError, match="needs a provider callback"):
        fix_options(None, provider=None)
    replay = run_pb2.FixOptions(provider=run_pb2.ProviderConfig(kind=run_pb2.PROVIDER_KIND_REPLAY, recording_id="r"))
    with pytest.raises(ValueError, match="PROVIDER_KIND_CLIENT"):
        fix_options(replay, provider=lambda req: None)
    assert fix_options(replay, provider=None).provider.recording_id == "r"


def test_to_reply():
    assert to_reply("--- a/x\n+++ b/x\n").patch == "--- a/x\n+++ b/x\n"
    assert to_reply(None).give_up and to_reply("  \n").give_up
    explicit = run_pb2.PatchReply(patch="p", usage=types_pb2.Usage(prompt_tokens=3))
    assert to_reply(explicit) is explicit
    with pytest.raises(TypeError):
        to_reply(42)  # type: ignore[arg-type]
