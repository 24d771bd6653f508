// Starts a real `greenlight serve` for the integration tests: the binary
// `make build` puts in .bin/ (or $GREENLIGHT_BIN), free random loopback
// ports, a temporary --home and a --token.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The package's root directory (tests run from build/test). */
export const PACKAGE_ROOT = resolve(__dirname, '..', '..', '..');
export const FIXTURES = join(PACKAGE_ROOT, 'test', 'fixtures');
const SANDBOX_IMAGE = 'greenlight/sandbox-python:latest';

/** binaryPath is the greenlight binary the tests start. */
export function binaryPath(): string {
  return process.env.GREENLIGHT_BIN ?? resolve(PACKAGE_ROOT, '..', '..', '.bin', 'greenlight');
}

/**
 * integrationSkip says why the integration tests cannot run here, or false
 * when they can. With GREENLIGHT_INTEGRATION=1 a missing piece is an error
 * instead (CI must not pass by skipping).
 */
export function integrationSkip(): string | false {
  const why = missing();
  if (!why) return false;
  if (process.env.GREENLIGHT_INTEGRATION === '1') {
    throw new Error(`GREENLIGHT_INTEGRATION=1 but ${why}`);
  }
  return `${why} (set GREENLIGHT_INTEGRATION=1 to make this an error)`;
}

function missing(): string {
  const bin = binaryPath();
  if (!existsSync(bin)) return `no greenlight binary at ${bin}: run \`make build\` in the repository root`;
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 30_000 });
  if (info.error || info.status !== 0) return `no Docker engine answers (docker info: ${info.error?.message ?? info.stderr.trim()}): run \`make engine\``;
  const img = spawnSync('docker', ['image', 'inspect', SANDBOX_IMAGE], { encoding: 'utf8', timeout: 30_000 });
  if (img.status !== 0) return `the sandbox image ${SANDBOX_IMAGE} is missing: run \`make images\``;
  return '';
}

/** freePorts finds n free loopback ports (held together so they differ). */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: n }, () => new Promise<ReturnType<typeof createServer>>((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => res(s));
  })));
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((res) => s.close(res))));
  return ports;
}

/** Serve is a running `greenlight serve`. */
export interface Serve {
  address: string;
  token: string;
  home: string;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** startServe starts the stack and waits until it says it is serving; extra are more serve flags (--tls-cert ...). */
export async function startServe(extra: string[] = []): Promise<Serve> {
  const [gw, http, loop, disc, exec] = await freePorts(5);
  const home = mkdtempSync(join(tmpdir(), 'greenlight-ts-client-'));
  const token = randomBytes(24).toString('hex');
  const addr = (p: number) => `127.0.0.1:${p}`;
  const child = spawn(binaryPath(), ['serve', '--home', home, '--token', token,
    '--gateway-addr', addr(gw), '--http-addr', addr(http), '--loop-addr', addr(loop),
    '--discovery-addr', addr(disc), '--executor-addr', addr(exec), '--log-level', 'warn', ...extra],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  const stop = () => stopChild(child, home);
  try {
    await waitFor(child, () => out.includes('greenlight: serving'), 60_000, () => out);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address: addr(gw), token, home, output: () => out, stop };
}

function waitFor(child: ChildProcess, ready: () => boolean, ms: number, out: () => string): Promise<void> {
  return new Promise((res, rej) => {
    const timer = setInterval(check, 50);
    const deadline = Date.now() + ms;
    function check() {
      if (ready()) done();
      else if (child.exitCode !== null || child.signalCode) done(new Error(`greenlight serve exited (${child.exitCode ?? child.signalCode}):\n${out()}`));
      else if (Date.now() > deadline) done(new Error(`greenlight serve not serving after ${ms} ms:\n${out()}`));
    }
    function done(err?: Error) {
      clearInterval(timer);
      if (err) rej(err);
      else res();
    }
  });
}

/** stopChild ends serve with SIGTERM (it shuts down gracefully), SIGKILL after 30 s, and removes its home. */
async function stopChild(child: ChildProcess, home: string): Promise<void> {
  if (child.exitCode === null && !child.signalCode) {
    const exited = new Promise((res) => child.once('exit', res));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(home, { recursive: true, force: true });
}
