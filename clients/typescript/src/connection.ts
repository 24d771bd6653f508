import * as grpc from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';

/** TLS settings; PEM contents as Buffers or strings, or file paths. */
export interface TlsOptions {
  /** CA certificates to trust instead of the system's roots. */
  rootCerts?: Buffer | string;
  /** Client certificate chain and key, for mutual TLS. */
  certChain?: Buffer | string;
  privateKey?: Buffer | string;
  /** Name to check the server's certificate against, when it differs from the address's host. */
  serverName?: string;
}

/** ConnectionOptions say where the gateway is and how to reach it. */
export interface ConnectionOptions {
  /** The gateway's gRPC address, host:port; default $GREENLIGHT_ADDR or 127.0.0.1:7070. */
  address?: string;
  /** Bearer token sent as "authorization: Bearer TOKEN"; default $GREENLIGHT_TOKEN. Never sent in clear off loopback. */
  token?: string;
  /**
   * TLS: true for the system's roots, an object for a private CA, a client
   * certificate or a server name, false for plaintext. Default: the
   * environment's GREENLIGHT_TLS, GREENLIGHT_PLAINTEXT, GREENLIGHT_CA_FILE,
   * GREENLIGHT_CERT, GREENLIGHT_KEY and GREENLIGHT_SERVER_NAME (as the CLI
   * reads them), else TLS for every host but loopback, where `greenlight
   * serve` listens in plaintext by default.
   */
  tls?: boolean | TlsOptions;
  /** Extra gRPC channel options (grpc-js ChannelOptions). */
  channelOptions?: grpc.ChannelOptions;
}

/** The server sends messages of up to 16 MiB (pkg/server DefaultMaxMsgBytes); grpc-js accepts 4 MiB by default. */
const MAX_RECEIVE_BYTES = 16 << 20;

/** pem reads a PEM value: a Buffer or PEM text as is, anything else as a file path. */
function pem(v: Buffer | string | undefined): Buffer | null {
  if (v === undefined) return null;
  if (Buffer.isBuffer(v)) return v;
  return v.includes('-----BEGIN') ? Buffer.from(v) : readFileSync(v);
}

/** Loopback addresses: 127.0.0.0/8 and ::1. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * isLoopback says whether address (host:port, [v6]:port, unix:PATH) stays on
 * this machine: a loopback IP, "localhost" or a unix socket. The literal host
 * counts, never what a name resolves to (the Go CLI's rule).
 */
export function isLoopback(address: string): boolean {
  if (/^unix(-abstract)?:/.test(address)) return true;
  let host = address;
  const bracketed = /^\[([^\]]+)\](?::\d*)?$/.exec(address);
  if (bracketed) host = bracketed[1];
  else if (address.split(':').length === 2) host = address.slice(0, address.indexOf(':'));
  if (host.toLowerCase() === 'localhost') return true;
  const family = isIP(host);
  if (family === 0) return false;
  return LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** TokenInClearError: a plaintext channel would carry the token off loopback. */
export class TokenInClearError extends Error {
  constructor(address: string) {
    super(`refusing to send the token in clear to ${address}, which is not loopback: use TLS ` +
      '(leave tls unset or true; tls.rootCerts for a private CA) or reach the gateway over loopback');
    this.name = 'TokenInClearError';
  }
}

/**
 * useTls decides whether a channel to address uses TLS: tls when given,
 * otherwise TLS for every host but loopback. It throws TokenInClearError for
 * tls false with a token to a host off loopback.
 */
export function useTls(address: string, tls: boolean | undefined, token?: string): boolean {
  if (tls === undefined) return !isLoopback(address);
  if (!tls && token && !isLoopback(address)) throw new TokenInClearError(address);
  return tls;
}

/** tlsFromEnv reads the CLI's TLS variables; undefined when none is set. */
export function tlsFromEnv(env: NodeJS.ProcessEnv = process.env): boolean | TlsOptions | undefined {
  const flag = (name: string): boolean | undefined => {
    const v = (env[name] ?? '').trim().toLowerCase();
    if (v === '') return undefined;
    if (['1', 't', 'true'].includes(v)) return true;
    if (['0', 'f', 'false'].includes(v)) return false;
    throw new Error(`${name}=${JSON.stringify(env[name])}: want true or false`);
  };
  const files: TlsOptions = {};
  if (env.GREENLIGHT_CA_FILE) files.rootCerts = env.GREENLIGHT_CA_FILE;
  if (env.GREENLIGHT_CERT) files.certChain = env.GREENLIGHT_CERT;
  if (env.GREENLIGHT_KEY) files.privateKey = env.GREENLIGHT_KEY;
  if (env.GREENLIGHT_SERVER_NAME) files.serverName = env.GREENLIGHT_SERVER_NAME;
  const on = flag('GREENLIGHT_TLS');
  const plaintext = flag('GREENLIGHT_PLAINTEXT');
  if (Object.keys(files).length > 0) {
    if (plaintext) throw new Error('GREENLIGHT_PLAINTEXT excludes GREENLIGHT_CA_FILE, GREENLIGHT_CERT, GREENLIGHT_KEY and GREENLIGHT_SERVER_NAME');
    return files;
  }
  if (on) return true;
  if (plaintext) return false;
  return undefined;
}

/** channelCredentials builds the channel's transport security (false or undefined: plaintext). */
export function channelCredentials(tls: ConnectionOptions['tls']): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  const o = tls === true ? {} : tls;
  if ((o.certChain === undefined) !== (o.privateKey === undefined)) {
    throw new Error('tls: a client certificate needs both certChain and privateKey');
  }
  return grpc.credentials.createSsl(pem(o.rootCerts), pem(o.privateKey), pem(o.certChain));
}

/**
 * tokenInterceptor adds the bearer token to every call. An interceptor rather
 * than call credentials, because grpc-js refuses call credentials on a
 * plaintext channel and `greenlight serve` on loopback is plaintext.
 */
export function tokenInterceptor(token: string): grpc.Interceptor {
  const value = `Bearer ${token}`;
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set('authorization', value);
        next(metadata, listener);
      },
    });
}

/** Resolved is a connection's settings with the defaults applied. */
export interface Resolved {
  address: string;
  channel: grpc.Channel;
  clientOptions: grpc.ClientOptions;
}

/**
 * resolve applies the defaults and opens the one channel both services
 * share; useTls decides its transport.
 */
export function resolve(o: ConnectionOptions): Resolved {
  const address = o.address ?? process.env.GREENLIGHT_ADDR ?? '127.0.0.1:7070';
  const token = o.token ?? process.env.GREENLIGHT_TOKEN ?? '';
  const setting = o.tls ?? tlsFromEnv();
  const tls = typeof setting === 'object' ? setting : undefined;
  const secure = useTls(address, typeof setting === 'object' ? true : setting, token);
  const channelOptions: grpc.ChannelOptions = {
    'grpc.max_receive_message_length': MAX_RECEIVE_BYTES,
    ...(tls?.serverName ? { 'grpc.ssl_target_name_override': tls.serverName, 'grpc.default_authority': tls.serverName } : {}),
    ...o.channelOptions,
  };
  const channel = new grpc.Channel(address, channelCredentials(secure && (tls ?? true)), channelOptions);
  return {
    address,
    channel,
    clientOptions: { channelOverride: channel, interceptors: token ? [tokenInterceptor(token)] : [] },
  };
}
