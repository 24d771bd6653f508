// TLS: the transport rule (TLS by default off loopback, never a token in
// clear off loopback) without connecting anywhere, and a real `greenlight
// serve --tls-cert --tls-key` reached with a private CA, refused with
// another CA and in plaintext, and with --tls-client-ca refused without a
// client certificate. Certificates come from the openssl command.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { type ConnectionOptions, GreenlightClient, isLoopback, status, tlsFromEnv, TokenInClearError, useTls } from '@greenlight-dev/client';

import { integrationSkip, type Serve, startServe } from './helpers/serve';

describe('the transport rule', () => {
  it('uses TLS for every host but loopback unless told', () => {
    const cases: Array<[string, boolean | undefined, string | undefined, boolean]> = [
      ['127.0.0.1:7070', undefined, 't', false],
      ['localhost:7070', undefined, 't', false],
      ['[::1]:7070', undefined, 't', false],
      ['unix:///run/greenlight.sock', undefined, 't', false],
      ['greenlight.example.com:443', undefined, 't', true],
      ['10.0.0.5:7070', undefined, undefined, true],
      ['0.0.0.0:7070', undefined, 't', true],
      ['127.0.0.1:7070', true, undefined, true],
      ['gw.example:7070', false, undefined, false],
      ['127.0.0.1:7070', false, 't', false],
    ];
    for (const [address, tls, token, want] of cases) {
      assert.equal(useTls(address, tls, token), want, `${address} tls=${tls} token=${token}`);
    }
    assert.equal(isLoopback('[2001:db8::1]:7070'), false);
  });

  it('never sends a token in clear off loopback', () => {
    for (const address of ['gw.example:7070', '10.0.0.5:7070', '[2001:db8::1]:7070']) {
      assert.throws(() => useTls(address, false, 'secret-token'), TokenInClearError);
      // The client refuses before any connection is attempted.
      assert.throws(() => new GreenlightClient({ address, token: 'secret-token', tls: false }),
        (err: Error) => err instanceof TokenInClearError && err.message.includes(`refusing to send the token in clear to ${address}`));
    }
  });

  it('reads the CLI\'s variables', () => {
    assert.equal(tlsFromEnv({}), undefined);
    assert.equal(tlsFromEnv({ GREENLIGHT_TLS: '1' }), true);
    assert.equal(tlsFromEnv({ GREENLIGHT_PLAINTEXT: 'true' }), false);
    assert.deepEqual(tlsFromEnv({ GREENLIGHT_CA_FILE: '/ca.pem', GREENLIGHT_CERT: '/c.pem', GREENLIGHT_KEY: '/k.pem', GREENLIGHT_SERVER_NAME: 'gw' }),
      { rootCerts: '/ca.pem', certChain: '/c.pem', privateKey: '/k.pem', serverName: 'gw' });
    assert.throws(() => tlsFromEnv({ GREENLIGHT_TLS: 'maybe' }), /GREENLIGHT_TLS/);
    assert.throws(() => tlsFromEnv({ GREENLIGHT_PLAINTEXT: '1', GREENLIGHT_CA_FILE: '/ca.pem' }), /excludes/);
  });
});

/** Pki is a private CA with server and client certificates, and another CA. */
interface Pki {
  dir: string;
  ca: string;
  wrongCa: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

function makePki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'greenlight-ts-pki-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  for (const name of ['ca', 'wrong']) {
    openssl('req', '-x509', ...ec, '-days', '2', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.pem`);
  }
  const issue = (name: string, ext: string) => {
    writeFileSync(join(dir, `${name}.ext`), ext);
    openssl('req', ...ec, '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2',
      '-extfile', `${name}.ext`, '-out', `${name}.pem`);
  };
  issue('server', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  issue('client', 'extendedKeyUsage=clientAuth\n');
  const p = (f: string) => join(dir, f);
  return { dir, ca: p('ca.pem'), wrongCa: p('wrong.pem'), serverCert: p('server.pem'), serverKey: p('server.key'),
    clientCert: p('client.pem'), clientKey: p('client.key') };
}

let skip: string | false = false;
let prerequisite: Error | undefined;
try {
  skip = integrationSkip();
} catch (err) {
  prerequisite = err as Error;
}

describe('against a real greenlight serve with TLS', { skip: skip || prerequisite !== undefined }, () => {
  let pki: Pki;
  let tlsServe: Serve;
  let mtlsServe: Serve;

  before(async () => {
    pki = makePki();
    const files = ['--tls-cert', pki.serverCert, '--tls-key', pki.serverKey, '--pool-size', '0'];
    [tlsServe, mtlsServe] = await Promise.all([startServe(files), startServe([...files, '--tls-client-ca', pki.ca])]);
  }, { timeout: 120_000 });

  after(async () => {
    await Promise.all([tlsServe?.stop(), mtlsServe?.stop()]);
    if (pki) rmSync(pki.dir, { recursive: true, force: true });
  });

  /** listRuns calls ListRuns with serve's token and the given tls setting. */
  async function listRuns(serve: Serve, tls: ConnectionOptions['tls']) {
    const client = new GreenlightClient({ address: serve.address, token: serve.token, tls });
    try {
      return await client.listRuns({}, { signal: AbortSignal.timeout(20_000) });
    } finally {
      client.close();
    }
  }

  it('reaches serve trusting the private CA (a path or PEM text)', async () => {
    await listRuns(tlsServe, { rootCerts: pki.ca });
    await listRuns(tlsServe, { rootCerts: readFileSync(pki.ca, 'utf8') });
  });

  it('refuses another CA, the system roots and plaintext', async () => {
    for (const tls of [{ rootCerts: pki.wrongCa }, true, false]) {
      await assert.rejects(listRuns(tlsServe, tls), (err: { code?: number }) => err.code === status.UNAVAILABLE,
        `tls ${JSON.stringify(tls)}`);
    }
  });

  it('with --tls-client-ca, needs a client certificate', async () => {
    await listRuns(mtlsServe, { rootCerts: pki.ca, certChain: pki.clientCert, privateKey: pki.clientKey });
    await assert.rejects(listRuns(mtlsServe, { rootCerts: pki.ca }), (err: { code?: number }) => err.code === status.UNAVAILABLE);
  });
});

if (prerequisite) {
  it('has what the TLS integration tests need', () => {
    throw prerequisite;
  });
}
