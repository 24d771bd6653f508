import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';

import { IgnoreRules } from './exclude';
import { writeTar } from './tarfile';
import type { Digest } from './types';
import { type Entry, Lister, PackError, type Skipped } from './walk';

export { PackError, type Skipped, symlinkReason } from './walk';

// pack() writes a workspace as the snapshot tar greenlight's server accepts
// (pkg/workspace: Validate on the executor, unpacked by discovery and the
// loop). It follows the Go packer's walk mode (workspace.Pack outside git):
// sorted entries, fixed times, uid/gid 0, modes 0644/0755 (0755 when any
// execute bit is set), directories as "dir/" entries, symlinks kept only
// when they cannot resolve outside the root, no special files, and the
// same size, count and depth limits, checked before a byte is written.
// Headers are written by tar-stream, so the bytes (and so the digest) are
// not the Go packer's: a tree packed by this client and by the greenlight
// CLI gives two different, equally valid snapshots.

/** Limits bound a workspace; a negative value means no limit. Defaults as in pkg/workspace. */
export interface PackLimits {
  /** Sum of file sizes; default 1 GiB. */
  maxBytes?: number;
  /** One file's size; default 256 MiB. */
  maxFileBytes?: number;
  /** Entries of every kind; default 100,000. */
  maxFiles?: number;
  /** Path components of an entry; default 256. */
  maxDepth?: number;
}

/** PackOptions configures pack(). */
export interface PackOptions {
  limits?: PackLimits;
  /** Extra gitignore-syntax patterns, relative to the directory. */
  exclude?: readonly string[];
}

/** PackStats describes a packed workspace. */
export interface PackStats {
  digest: Digest;
  entries: number;
  files: number;
  dirs: number;
  symlinks: number;
  /** Sum of the packed files' sizes. */
  bytes: number;
  /** Files left out by .gitignore or exclude patterns. */
  ignored: number;
  /** Directories and files left out for a reason worth telling. */
  skipped: Skipped[];
}

/** PackResult is a workspace packed in memory. */
export interface PackResult extends PackStats {
  /** The tar. */
  tar: Buffer;
}

const DEFAULT_LIMITS: Required<PackLimits> = {
  maxBytes: 1 << 30,
  maxFileBytes: 256 << 20,
  maxFiles: 100_000,
  maxDepth: 256,
};

/** pack packs directory into an in-memory tar and returns it with its digest. */
export async function pack(directory: string, options: PackOptions = {}): Promise<PackResult> {
  const chunks: Buffer[] = [];
  const stats = await packTo(directory, (b) => void chunks.push(b), options);
  return { ...stats, tar: Buffer.concat(chunks) };
}

/** packToFile packs directory into the file at path, for workspaces too large to hold in memory. */
export async function packToFile(directory: string, path: string, options: PackOptions = {}): Promise<PackStats> {
  const out = createWriteStream(path);
  const closed = once(out, 'close');
  try {
    return await packTo(directory, async (b) => {
      if (!out.write(b)) await once(out, 'drain');
    }, options);
  } finally {
    out.end();
    await closed;
  }
}

/** packTo packs directory, handing each piece of the tar to sink in order. */
export async function packTo(
  directory: string,
  sink: (chunk: Buffer) => void | Promise<void>,
  options: PackOptions = {},
): Promise<PackStats> {
  const root = await realpath(directory); // walk the directory, not a link to it
  if (!(await stat(root)).isDirectory()) throw new Error(`${directory}: not a directory`);
  const lister = new Lister(options.exclude ?? []);
  await lister.walk(root, '', IgnoreRules.root([]));
  const entries = lister.entries.sort((a, b) => Buffer.compare(Buffer.from(a.rel), Buffer.from(b.rel)));
  checkPlan(entries, { ...DEFAULT_LIMITS, ...options.limits });
  const hash = createHash('sha256');
  let size = 0;
  await writeTar(root, entries, async (chunk) => {
    hash.update(chunk);
    size += chunk.length;
    await sink(chunk);
  });
  const count = (k: Entry['kind']) => entries.filter((e) => e.kind === k).length;
  return {
    digest: { hash: hash.digest('hex'), sizeBytes: size },
    entries: entries.length,
    files: count('file'),
    dirs: count('dir'),
    symlinks: count('symlink'),
    bytes: entries.reduce((n, e) => n + e.size, 0),
    ignored: lister.ignored,
    skipped: lister.skipped,
  };
}

/** checkPlan applies the limits to the sorted entries, naming the first entry past one. */
function checkPlan(entries: Entry[], lim: Required<PackLimits>): void {
  const over = (v: number, limit: number) => limit >= 0 && v > limit;
  let total = 0;
  entries.forEach((e, i) => {
    if (over(i + 1, lim.maxFiles)) {
      throw new PackError(e.rel, 'too_many_files', `workspace has more than ${lim.maxFiles} entries; stopped here`);
    }
    const depth = e.rel.split('/').length;
    if (over(depth, lim.maxDepth)) {
      throw new PackError(e.rel, 'unsafe', `path has ${depth} components, over the limit of ${lim.maxDepth}`);
    }
    if (e.kind !== 'file') return;
    if (over(e.size, lim.maxFileBytes)) {
      throw new PackError(e.rel, 'too_large', `file is ${e.size} bytes, over the per-file limit of ${lim.maxFileBytes}`);
    }
    total += e.size;
    if (over(total, lim.maxBytes)) {
      throw new PackError(e.rel, 'too_large', `workspace exceeds ${lim.maxBytes} bytes; stopped here`);
    }
  });
}
