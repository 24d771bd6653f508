// Integration tests against a real `greenlight serve` (Docker sandboxes):
// upload → verify (a passing and a failing Python project) → watch of the
// finished run → fix with this client as the patch provider, plus the
// README's quick start. Skipped, saying why, without the binary or Docker,
// unless GREENLIGHT_INTEGRATION=1.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';

import { digestOf, GreenlightClient, pack, type PatchRequest, type Run, type RunEvent, status } from '@greenlight-dev/client';

import { FIXTURES, integrationSkip, type Serve, startServe } from './helpers/serve';
import { snippets } from './readme/index';

// With GREENLIGHT_INTEGRATION=1 a missing prerequisite throws: one failing test says what.
let skip: string | false = false;
let prerequisite: Error | undefined;
try {
  skip = integrationSkip();
} catch (err) {
  prerequisite = err as Error;
}
if (prerequisite) {
  it('has what the integration tests need', () => {
    throw prerequisite;
  });
}
const FAILING_TEST = 'tests/test_calc.py::test_clamp_at_upper_bound';
const FIX_PATCH = readFileSync(join(FIXTURES, 'fix.patch'), 'utf8');

/** collect iterates a stream to its end, returning its events and the finished run. */
async function collect(stream: AsyncIterable<RunEvent> & { run(): Promise<Run> }): Promise<{ events: RunEvent[]; run: Run }> {
  const events: RunEvent[] = [];
  for await (const ev of stream) events.push(ev);
  return { events, run: await stream.run() };
}

function assertWellFormed(events: RunEvent[], run: Run): void {
  assert.equal(events[0]?.kind, 'runCreated');
  assert.equal(events.at(-1)?.kind, 'runFinished');
  events.forEach((ev, i) => {
    assert.equal(ev.seq, i + 1, `event ${i} has seq ${ev.seq}`);
    assert.equal(ev.runId, run.id);
  });
  assert.equal(run.lastSeq, events.length);
}

describe('against a real greenlight serve', { skip: skip || prerequisite !== undefined }, () => {
  let serve: Serve;
  let client: GreenlightClient;
  let failed: Run;

  before(async () => {
    serve = await startServe();
    client = new GreenlightClient({ address: serve.address, token: serve.token });
  }, { timeout: 90_000 });

  after(async () => {
    client?.close();
    await serve?.stop();
  }, { timeout: 60_000 });

  it('uploads bytes and files, each blob once', async () => {
    const bytes = randomBytes(600 * 1024 + 17); // three chunks, the last one short
    const first = await client.uploadWithResult(bytes);
    assert.deepEqual(first, { digest: digestOf(bytes), alreadyExisted: false });
    const dir = mkdtempSync(join(tmpdir(), 'gl-upload-'));
    try {
      writeFileSync(join(dir, 'blob.bin'), bytes);
      assert.deepEqual(await client.uploadWithResult(join(dir, 'blob.bin')), { digest: digestOf(bytes), alreadyExisted: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const empty = await client.upload(new Uint8Array());
    assert.deepEqual(empty, digestOf(new Uint8Array()));
  });

  it('verifies a passing project: PASS', { timeout: 180_000 }, async () => {
    const { events, run } = await collect(client.verify(join(FIXTURES, 'pass')));
    assertWellFormed(events, run);
    assert.equal(run.result?.status, 'VERDICT_PASS', run.result?.summary);
    assert.equal(run.status, 'RUN_STATUS_PASSED');
    assert.equal(run.result?.counts?.passed, 3);
    assert.ok(events.some((e) => e.stepFinished?.result?.name === 'pytest'), 'a pytest step ran');
  });

  it('verifies a failing project: FAIL naming the failing test', { timeout: 180_000 }, async () => {
    const { events, run } = await collect(client.verify(join(FIXTURES, 'fail')));
    assertWellFormed(events, run);
    assert.equal(run.result?.status, 'VERDICT_FAIL', run.result?.summary);
    assert.deepEqual(run.result?.failures.map((f) => f.test), [FAILING_TEST]);
    assert.equal(run.result?.counts?.failed, 1);
    failed = run;
  });

  it('watches the finished run: every stored event, or those after a seq', async () => {
    assert.ok(failed, 'needs the failing verification');
    const all = await collect(client.watch(failed.id));
    assertWellFormed(all.events, all.run);
    assert.equal(all.run.result?.status, 'VERDICT_FAIL');
    const tail = await collect(client.watch(failed.id, 5));
    assert.deepEqual(tail.events.map((e) => e.seq), all.events.slice(5).map((e) => e.seq));
    assert.equal((await client.getRun(failed.id)).result?.status, 'VERDICT_FAIL');
  });

  it('starts a detached verification and cancels it', { timeout: 180_000 }, async () => {
    const started = await client.startVerify(join(FIXTURES, 'pass'));
    assert.match(started.id, /^r_/);
    const cancelled = await client.cancelRun(started.id);
    // Canceled while it ran, or already finished: never left running.
    assert.ok(['RUN_STATUS_CANCELED', 'RUN_STATUS_PASSED'].includes(cancelled.status), cancelled.status);
    const { run } = await collect(client.watch(started.id));
    assert.equal(run.status, cancelled.status);
    await assert.rejects(client.cancelRun('r_20000101T000000_nothere'), (e: { code?: number }) => e.code === status.NOT_FOUND);
  });

  it('fixes the failing project with this client as the patch provider', { timeout: 300_000 }, async () => {
    const requests: PatchRequest[] = [];
    const { events, run } = await collect(client.fix(join(FIXTURES, 'fail'), (request) => {
      requests.push(request);
      return FIX_PATCH;
    }));
    assertWellFormed(events, run);
    assert.equal(requests.length, 1);
    assert.equal(requests[0].attempt, 1);
    assert.ok(requests[0].failures.some((f) => f.test === FAILING_TEST), 'the request names the failing test');
    assert.match(requests[0].prompt, /test_clamp_at_upper_bound/);
    assert.equal(run.kind, 'RUN_KIND_FIX');
    assert.equal(run.metrics?.green, true, run.metrics?.stopReason);
    assert.equal(run.result?.status, 'VERDICT_PASS', run.result?.summary);
    assert.equal(run.patches.length, 1);
    assert.equal(run.patches[0].applied, true);
    assert.equal(run.patches[0].rolledBack, false);
    assert.deepEqual(run.patches[0].files, ['calc/__init__.py']);
    assert.notDeepEqual(run.currentSnapshot, run.snapshot, 'the patched snapshot is a new one');
  });

  it('a provider that gives up ends the fix run not green', { timeout: 300_000 }, async () => {
    let asked = 0;
    const run = await client.fix(join(FIXTURES, 'fail'), () => {
      asked++;
      return null;
    }).run();
    assert.equal(asked, 1);
    assert.equal(run.metrics?.green, false);
    assert.equal(run.result?.status, 'VERDICT_FAIL');
  });

  it('packs what the server accepts: links, long and non-ASCII names, modes', { timeout: 180_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'gl-tricky-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(join(FIXTURES, 'pass'), dir, { recursive: true });
    const deep = join(dir, 'data', 'x'.repeat(60), 'y'.repeat(60));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, `${'z'.repeat(90)}.txt`), 'long path\n');
    writeFileSync(join(dir, 'data', 'naïve-日本.txt'), 'unicode\n');
    writeFileSync(join(dir, 'data', 'empty'), '');
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(dir, 'run.sh'), 0o755);
    symlinkSync('../calc/__init__.py', join(dir, 'data', 'calc.py'));
    symlinkSync('/etc/passwd', join(dir, 'data', 'escape'));
    const packed = await pack(dir);
    assert.equal(packed.symlinks, 1);
    assert.deepEqual(packed.skipped.map((s) => s.path), ['data/escape']);
    const digest = await client.upload(packed.tar);
    assert.deepEqual((await client.discover(digest)).subprojects.map((p) => p.runtime), ['python']);
    const run = await client.verify(digest).run();
    assert.equal(run.result?.status, 'VERDICT_PASS', `${run.error} ${run.result?.summary}`);
  });

  it('refuses a wrong token with UNAUTHENTICATED', async () => {
    const wrong = new GreenlightClient({ address: serve.address, token: 'not-the-token' });
    try {
      await assert.rejects(wrong.getRun(failed?.id ?? 'r_none'), (err: { code?: number }) => err.code === status.UNAUTHENTICATED);
    } finally {
      wrong.close();
    }
  });

  it('runs the README quick start', { timeout: 300_000 }, async (t) => {
    // Compiled from README.md by scripts/snippets.mjs; run where
    // ./my-project is the failing project and fix.patch its fix.
    const work = mkdtempSync(join(tmpdir(), 'gl-readme-'));
    cpSync(join(FIXTURES, 'fail'), join(work, 'my-project'), { recursive: true });
    writeFileSync(join(work, 'fix.patch'), FIX_PATCH);
    const env = { GREENLIGHT_ADDR: process.env.GREENLIGHT_ADDR, GREENLIGHT_TOKEN: process.env.GREENLIGHT_TOKEN };
    const cwd = process.cwd();
    process.env.GREENLIGHT_ADDR = serve.address;
    process.env.GREENLIGHT_TOKEN = serve.token;
    process.chdir(work);
    const expect: Record<string, RegExp[]> = {
      verify: [/pytest: STEP_STATUS_FAILED/, /VERDICT_FAIL/, /test_clamp_at_upper_bound at tests\/test_calc\.py:\d+/, /^1 runCreated$/m],
      fix: [/attempt 1: tests\/test_calc\.py::test_clamp_at_upper_bound/, /^green$/m],
      upload: [/^VERDICT_FAIL [0-9a-f]{64}$/m],
    };
    try {
      assert.deepEqual(Object.keys(snippets).sort(), Object.keys(expect).sort(), 'every README snippet has expectations');
      for (const [name, main] of Object.entries(snippets)) {
        const log = mock.method(console, 'log', () => undefined);
        try {
          await main();
        } finally {
          log.mock.restore();
        }
        const printed = log.mock.calls.map((c) => c.arguments.join(' ')).join('\n');
        for (const re of expect[name]) assert.match(printed, re, `snippet ${name} printed:\n${printed}`);
        t.diagnostic(`snippet ${name}: ok`);
      }
    } finally {
      process.chdir(cwd);
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      rmSync(work, { recursive: true, force: true });
    }
  });
});
