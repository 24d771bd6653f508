// Unit tests of the client's protocol handling against an in-process fake
// gateway (grpc-js server on the same public protos): upload chunking,
// the bearer token, event following with ResumeFrom, the Fix stream's
// patch replies, cancellation. No Docker, no greenlight binary.
import * as grpc from '@grpc/grpc-js';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';

import { digestOf, GreenlightClient, loadPackage, type RunEvent, type Run, status } from '@greenlight-dev/client';

const TOKEN = 'unit-token';

/** What the fake records and how it behaves; reset before each test. */
interface Fake {
  writes: { digest?: { hash: string; sizeBytes: number } | null; data: Buffer; finishWrite: boolean }[];
  stored: Set<string>;
  auth: string[];
  fixMessages: unknown[];
  /** Events WatchRun sends for a (runId, afterSeq); a 'resume' entry sends ResumeFrom and ends. */
  watch: (runId: string, afterSeq: number) => (Partial<RunEvent> | { resume: number })[];
  verifyEvents: Partial<RunEvent>[];
  verifyCancelled: boolean;
}

let fake: Fake;

function ev(runId: string, seq: number, kind: string, body: object = {}): Partial<RunEvent> {
  return { runId, seq, [kind]: body };
}

function finishedRun(id: string): Run {
  return { id, status: 'RUN_STATUS_PASSED', result: { status: 'VERDICT_PASS', summary: 'ok' }, lastSeq: 3 } as unknown as Run;
}

function handlers(): grpc.UntypedServiceImplementation {
  const authed = (md: grpc.Metadata) => {
    fake.auth.push(String(md.get('authorization')[0] ?? ''));
    return md.get('authorization')[0] === `Bearer ${TOKEN}`;
  };
  const denied = { code: status.UNAUTHENTICATED, details: 'bad token' };
  return {
    Stat(call: grpc.ServerUnaryCall<any, any>, cb: grpc.sendUnaryData<any>) {
      if (!authed(call.metadata)) return cb(denied);
      cb(null, { found: fake.stored.has(call.request.digest.hash), sizeBytes: 0 });
    },
    Write(call: grpc.ServerReadableStream<any, any>, cb: grpc.sendUnaryData<any>) {
      if (!authed(call.metadata)) return cb(denied);
      let digest: { hash: string } | undefined;
      call.on('data', (m) => {
        fake.writes.push(m);
        digest ??= m.digest;
      });
      call.on('end', () => {
        fake.stored.add(digest!.hash);
        cb(null, { digest, alreadyExisted: false });
      });
    },
    GetRun(call: grpc.ServerUnaryCall<any, any>, cb: grpc.sendUnaryData<any>) {
      if (!authed(call.metadata)) return cb(denied);
      cb(null, { run: finishedRun(call.request.runId) });
    },
    WatchRun(call: grpc.ServerWritableStream<any, any>) {
      if (!authed(call.metadata)) return call.destroy(Object.assign(new Error('bad token'), denied));
      for (const e of fake.watch(call.request.runId, Number(call.request.afterSeq))) {
        if ('resume' in e) {
          call.write({ event: { runId: call.request.runId, seq: 0, resumeFrom: { afterSeq: e.resume, reason: 'slow' } } });
          break;
        }
        call.write({ event: e });
      }
      call.end();
    },
    Verify(call: grpc.ServerWritableStream<any, any>) {
      call.on('cancelled', () => (fake.verifyCancelled = true));
      for (const e of fake.verifyEvents) call.write({ event: e });
      if (!fake.verifyEvents.some((e) => e.runFinished)) return; // stays open until cancelled
      call.end();
    },
    Fix(call: grpc.ServerDuplexStream<any, any>) {
      let seq = 0;
      const send = (kind: string, body: object) => call.write({ event: ev('r_fix', ++seq, kind, body) });
      call.on('data', (m) => {
        fake.fixMessages.push(m);
        if (m.start) {
          send('runCreated', { run: { id: 'r_fix' } });
          send('patchRequested', { request: { runId: 'r_fix', attempt: 1, prompt: 'fix it' } });
        } else if (m.patch?.attempt === 1) {
          send('patchRequested', { request: { runId: 'r_fix', attempt: 2, feedback: 'did not apply' } });
        } else if (m.patch?.attempt === 2) {
          send('runFinished', { status: 'RUN_STATUS_FAILED' });
        }
      });
      call.on('end', () => call.end());
    },
  };
}

describe('client against a fake gateway', () => {
  let server: grpc.Server;
  let address: string;
  let client: GreenlightClient;

  before(async () => {
    const pkg = loadPackage();
    server = new grpc.Server();
    const impl = handlers();
    server.addService(pkg.BlobService.service, impl);
    server.addService(pkg.RunService.service, impl);
    const port = await new Promise<number>((res, rej) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? rej(err) : res(p))));
    address = `127.0.0.1:${port}`;
    client = new GreenlightClient({ address, token: TOKEN });
  });

  after(() => {
    client.close();
    server.forceShutdown();
  });

  beforeEach(() => {
    fake = { writes: [], stored: new Set(), auth: [], fixMessages: [], watch: () => [], verifyEvents: [], verifyCancelled: false };
  });

  it('uploads in 256 KiB chunks, the digest in the first message only', async () => {
    const data = Buffer.alloc(600 * 1024, 7);
    const d = await client.upload(data);
    assert.deepEqual(d, digestOf(data));
    assert.deepEqual(fake.writes.map((w) => w.data.length), [256 * 1024, 256 * 1024, 88 * 1024, 0]);
    assert.deepEqual(fake.writes[0].digest, { hash: d.hash, sizeBytes: d.sizeBytes });
    assert.ok(fake.writes.slice(1).every((w) => w.digest === null), 'later messages carry no digest');
    assert.deepEqual(fake.writes.map((w) => w.finishWrite), [false, false, false, true]);
    assert.ok(fake.auth.every((a) => a === `Bearer ${TOKEN}`), 'every call carries the bearer token');
  });

  it('does not send a blob the store already has', async () => {
    const data = Buffer.from('already there');
    fake.stored.add(digestOf(data).hash);
    assert.deepEqual(await client.uploadWithResult(data), { digest: digestOf(data), alreadyExisted: true });
    assert.equal(fake.writes.length, 0);
  });

  it('surfaces UNAUTHENTICATED for a wrong token', async () => {
    const wrong = new GreenlightClient({ address, token: 'wrong' });
    try {
      await assert.rejects(wrong.getRun('r1'), (e: grpc.ServiceError) => e.code === status.UNAUTHENTICATED);
    } finally {
      wrong.close();
    }
  });

  it('re-attaches after ResumeFrom without repeating events', async () => {
    const all = [ev('r1', 1, 'runCreated'), ev('r1', 2, 'stepStarted'), ev('r1', 3, 'runFinished', { status: 'RUN_STATUS_PASSED' })];
    const asked: number[] = [];
    fake.watch = (_id, after) => {
      asked.push(after);
      // First stream: two events, then the gateway drops us at seq 1.
      return after === 0 ? [all[0], all[1], { resume: 1 }] : all.filter((e) => e.seq! > after);
    };
    const stream = client.watch('r1');
    const seqs: number[] = [];
    for await (const e of stream) seqs.push(e.seq);
    assert.deepEqual(asked, [0, 1]);
    assert.deepEqual(seqs, [1, 2, 3]);
    assert.equal((await stream.run()).result?.status, 'VERDICT_PASS');
  });

  it('fails when a stream ends before the run finished', async () => {
    fake.watch = () => [ev('r2', 1, 'runCreated')];
    await assert.rejects(client.watch('r2').run(), /ended before the run finished/);
  });

  it('answers each patch request on the Fix stream, echoing its attempt', async () => {
    const seen: string[] = [];
    const stream = client.fix({ hash: 'a'.repeat(64), sizeBytes: 10 }, (req, ctx) => {
      seen.push(`${ctx.runId}#${req.attempt}:${req.prompt || req.feedback}`);
      return req.attempt === 1 ? '--- a/x\n+++ b/x\n' : null;
    }, { maxRounds: 2 });
    const kinds: string[] = [];
    for await (const e of stream) kinds.push(e.kind!);
    assert.deepEqual(kinds, ['runCreated', 'patchRequested', 'patchRequested', 'runFinished']);
    assert.deepEqual(seen, ['r_fix#1:fix it', 'r_fix#2:did not apply']);
    const [start, first, second] = fake.fixMessages as any[];
    assert.equal(start.start.options.provider.kind, 'PROVIDER_KIND_CLIENT');
    assert.equal(start.start.options.maxRounds, 2);
    assert.deepEqual([first.patch.attempt, first.patch.patch, first.patch.giveUp], [1, '--- a/x\n+++ b/x\n', false]);
    assert.deepEqual([second.patch.attempt, second.patch.giveUp], [2, true]);
  });

  it('ends the fix with the provider\'s error', async () => {
    const stream = client.fix({ hash: 'b'.repeat(64), sizeBytes: 1 }, () => {
      throw new Error('model unavailable');
    });
    await assert.rejects(stream.run(), /patch provider failed on attempt 1: model unavailable/);
  });

  it('cancels the call when the caller stops early or aborts', async () => {
    fake.verifyEvents = [ev('r3', 1, 'runCreated'), ev('r3', 2, 'stepStarted')];
    for await (const e of client.verify({ hash: 'c'.repeat(64), sizeBytes: 1 })) {
      if (e.kind === 'stepStarted') break;
    }
    await waitUntil(() => fake.verifyCancelled);

    fake.verifyCancelled = false;
    const ctl = new AbortController();
    const v = client.verify({ hash: 'c'.repeat(64), sizeBytes: 1 }, {}, { signal: ctl.signal });
    const got: RunEvent[] = [];
    await assert.rejects((async () => {
      for await (const e of v) {
        got.push(e);
        if (got.length === 2) ctl.abort();
      }
    })(), (e: Error) => e.name === 'AbortError');
    await waitUntil(() => fake.verifyCancelled);
  });
});

async function waitUntil(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
