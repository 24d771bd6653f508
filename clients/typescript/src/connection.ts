import * as grpc from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';

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
  /** Bearer token sent as "authorization: Bearer TOKEN"; default $GREENLIGHT_TOKEN. */
  token?: string;
  /**
   * TLS: true for the system's roots, an object for more. Default plaintext,
   * as `greenlight serve` speaks it (a TLS proxy fronts it off the host).
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

/** channelCredentials builds the channel's transport security. */
export function channelCredentials(tls: ConnectionOptions['tls']): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  const o = tls === true ? {} : tls;
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

/** resolve applies the defaults and opens the one channel both services share. */
export function resolve(o: ConnectionOptions): Resolved {
  const address = o.address ?? process.env.GREENLIGHT_ADDR ?? '127.0.0.1:7070';
  const token = o.token ?? process.env.GREENLIGHT_TOKEN ?? '';
  const tls = o.tls && o.tls !== true ? o.tls : undefined;
  const channelOptions: grpc.ChannelOptions = {
    'grpc.max_receive_message_length': MAX_RECEIVE_BYTES,
    ...(tls?.serverName ? { 'grpc.ssl_target_name_override': tls.serverName, 'grpc.default_authority': tls.serverName } : {}),
    ...o.channelOptions,
  };
  const channel = new grpc.Channel(address, channelCredentials(o.tls), channelOptions);
  return {
    address,
    channel,
    clientOptions: { channelOverride: channel, interceptors: token ? [tokenInterceptor(token)] : [] },
  };
}
