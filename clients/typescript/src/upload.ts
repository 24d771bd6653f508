import type * as grpc from '@grpc/grpc-js';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { open } from 'node:fs/promises';

import type { BlobServiceClient } from './generated/greenlight/v1/BlobService';
import type { WriteRequest } from './generated/greenlight/v1/WriteRequest';
import type { WriteResponse__Output } from './generated/greenlight/v1/WriteResponse';
import type { Digest } from './types';

/** The payload of one WriteRequest, as the Go client sends (docs/architecture.md, blob store). */
export const DEFAULT_CHUNK_SIZE = 256 << 10;

/** digestOf returns the digest of bytes: lowercase hex sha256 and size. */
export function digestOf(data: Uint8Array): Digest {
  return { hash: createHash('sha256').update(data).digest('hex'), sizeBytes: data.byteLength };
}

/** digestOfFile hashes the file at path without holding it in memory. */
export async function digestOfFile(path: string): Promise<Digest> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of chunksOfFile(path, DEFAULT_CHUNK_SIZE)) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { hash: hash.digest('hex'), sizeBytes: size };
}

/** chunksOfFile reads a file in pieces of at most size bytes. */
async function* chunksOfFile(path: string, size: number): AsyncGenerator<Buffer> {
  const fh = await open(path, 'r');
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(size); // fresh each time: the consumer may keep it
      const { bytesRead } = await fh.read(buf, 0, size, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

/** asBuffer views bytes as a Buffer without copying. */
function asBuffer(u: Uint8Array): Buffer {
  return Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}

function* chunksOf(data: Uint8Array, size: number): Generator<Uint8Array> {
  for (let off = 0; off < data.byteLength; off += size) yield data.subarray(off, off + size);
}

/** UploadResult is what the store confirmed. */
export interface UploadResult {
  digest: Digest;
  /** The store had the blob already and nothing was sent. */
  alreadyExisted: boolean;
}

/**
 * upload stores a blob: the bytes given, or the file at a path. The protocol
 * declares the digest in the first message, so the content is hashed first
 * (a file is read twice); a blob the store already has (Stat) is not sent.
 * The server checks hash and size before the blob becomes visible.
 */
export async function upload(
  blobs: BlobServiceClient,
  source: Uint8Array | string,
  chunkSize = DEFAULT_CHUNK_SIZE,
): Promise<UploadResult> {
  const want = typeof source === 'string' ? await digestOfFile(source) : digestOf(source);
  const stat = await new Promise<{ found: boolean }>((res, rej) =>
    blobs.Stat({ digest: want }, (err, r) => (err ? rej(err) : res(r!))));
  if (stat.found) return { digest: want, alreadyExisted: true };
  const chunks = typeof source === 'string' ? chunksOfFile(source, chunkSize) : chunksOf(source, chunkSize);
  const got = await write(blobs, want, chunks);
  const d = got.digest;
  if (!d || d.hash !== want.hash || Number(d.sizeBytes) !== want.sizeBytes) {
    throw new Error(`upload: stored as ${d?.hash}/${d?.sizeBytes}, sent ${want.hash}/${want.sizeBytes}`);
  }
  return { digest: want, alreadyExisted: got.alreadyExisted };
}

/** write runs one BlobService.Write: the digest with the first chunk, finish_write on the last. */
async function write(
  blobs: BlobServiceClient,
  digest: Digest,
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): Promise<WriteResponse__Output> {
  let call!: grpc.ClientWritableStream<WriteRequest>;
  const done = new Promise<WriteResponse__Output>((res, rej) => {
    call = blobs.Write((err, r) => (err ? rej(err) : res(r!)));
  });
  // A write after the server has answered (say, with an error) would wait
  // for a drain that never comes: every wait also ends when the call does.
  const ended = done.then(() => undefined, () => undefined);
  let first = true;
  try {
    for await (const data of chunks) {
      const msg: WriteRequest = first ? { digest, data: asBuffer(data) } : { data: asBuffer(data) };
      first = false;
      if (!call.write(msg)) await Promise.race([once(call, 'drain'), ended]);
    }
    call.write(first ? { digest, data: Buffer.alloc(0), finishWrite: true } : { finishWrite: true });
    call.end();
  } catch (err) {
    call.cancel();
    await ended;
    throw err;
  }
  return done;
}
