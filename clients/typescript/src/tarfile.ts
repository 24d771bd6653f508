import { once } from 'node:events';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import * as tar from 'tar-stream';

import { type Entry, PackError } from './walk';

// Writing a planned pack as a tar with tar-stream.

/** A fixed, plausible time (some tools warn about the epoch), as the Go packer uses. */
const PACK_TIME = new Date(Date.UTC(2000, 0, 1));
const CHUNK = 256 << 10;

/** header is an entry's normalized tar header: only path, kind, size, mode and link target vary. */
function header(e: Entry): Partial<tar.Header> & { name: string } {
  const h = { name: e.rel, mtime: PACK_TIME, uid: 0, gid: 0, uname: '', gname: '' };
  switch (e.kind) {
    case 'dir':
      return { ...h, name: `${e.rel}/`, type: 'directory', mode: 0o755 };
    case 'symlink':
      return { ...h, type: 'symlink', mode: 0o777, linkname: e.target };
    default:
      return { ...h, type: 'file', mode: e.exec ? 0o755 : 0o644, size: e.size };
  }
}

/** writeTar streams the entries through tar-stream into sink. */
export async function writeTar(root: string, entries: Entry[], sink: (chunk: Buffer) => Promise<void>): Promise<void> {
  const packer = tar.pack();
  const drained = (async () => {
    for await (const chunk of packer) await sink(chunk as Buffer);
  })();
  drained.catch(() => undefined); // awaited below; no unhandled rejection while entries are written
  try {
    for (const e of entries) {
      await new Promise<void>((resolve, reject) => {
        const entry = packer.entry(header(e), (err) => (err ? reject(err) : resolve()));
        if (e.kind === 'file') copyFile(root, e, entry).then(() => entry.end(undefined), (err) => entry.destroy(err));
      });
    }
    packer.finalize();
  } catch (err) {
    packer.destroy(err as Error);
    await drained.catch(() => undefined);
    throw err;
  }
  await drained;
}

/**
 * copyFile writes one listed file's content into its tar entry. The file is
 * opened without following a final symlink and must still be the inode that
 * was listed, with the listed size: whatever happened to the tree in
 * between, only the listed file's bytes are packed.
 */
async function copyFile(root: string, e: Entry, out: ReturnType<tar.Pack['entry']>): Promise<void> {
  const fh = await open(join(root, ...e.rel.split('/')), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await fh.stat();
    if (info.ino !== e.info?.ino || info.dev !== e.info?.dev || !info.isFile() || info.size !== e.size) {
      throw new PackError(e.rel, 'changed', 'replaced or resized while packing');
    }
    let done = 0;
    while (done < e.size) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, e.size - done)); // tar-stream keeps the buffer
      const { bytesRead } = await fh.read(buf, 0, buf.length, done);
      if (bytesRead === 0) throw new PackError(e.rel, 'changed', `shrank while packing (${done} of ${e.size} bytes read)`);
      done += bytesRead;
      if (!out.write(buf.subarray(0, bytesRead))) await once(out as unknown as NodeJS.EventEmitter, 'drain');
    }
  } finally {
    await fh.close();
  }
}
