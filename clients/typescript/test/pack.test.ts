// Unit tests of pack(): what goes into the snapshot tar and how.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import * as tarStream from 'tar-stream';

import { digestOf, pack, PackError, packToFile, symlinkReason } from '@greenlight-dev/client';

interface TarEntry {
  name: string;
  type: string;
  mode: number;
  size: number;
  mtime: number;
  uid: number;
  gid: number;
  linkname: string | null;
  body: string;
}

/** entriesOf reads a tar back with tar-stream's parser. */
async function entriesOf(tar: Buffer): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  const ex = tarStream.extract();
  Readable.from([tar]).pipe(ex as unknown as NodeJS.WritableStream);
  for await (const entry of ex) {
    const chunks: Buffer[] = [];
    for await (const c of entry) chunks.push(c as Buffer);
    const h = entry.header;
    out.push({ name: h.name, type: h.type, mode: h.mode, size: h.size, mtime: h.mtime.getTime(), uid: h.uid, gid: h.gid,
      linkname: h.linkname, body: Buffer.concat(chunks).toString() });
  }
  return out;
}

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** temp makes a temporary directory, removed when the tests end. */
function temp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** tree writes files (path → content; a trailing '/' makes a directory) under a new temp dir. */
function tree(files: Record<string, string>): string {
  const root = temp('gl-pack-');
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    if (rel.endsWith('/')) {
      mkdirSync(p, { recursive: true });
      continue;
    }
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return root;
}

describe('pack', () => {
  it('writes sorted, normalized entries', async () => {
    const dir = tree({ 'b.txt': 'bee\n', 'a/z.py': 'print(1)\n', 'a/y/': '', 'run.sh': '#!/bin/sh\n' });
    chmodSync(join(dir, 'run.sh'), 0o750);
    symlinkSync('z.py', join(dir, 'a', 'link.py'));
    const { tar, digest, files, dirs, symlinks, bytes } = await pack(dir);
    assert.deepEqual(digest, digestOf(tar));
    assert.deepEqual({ files, dirs, symlinks, bytes }, { files: 3, dirs: 2, symlinks: 1, bytes: 23 });
    const entries = await entriesOf(tar);
    assert.deepEqual(entries.map((e) => [e.name, e.type, e.mode.toString(8)]), [
      ['a/', 'directory', '755'],
      ['a/link.py', 'symlink', '777'],
      ['a/y/', 'directory', '755'],
      ['a/z.py', 'file', '644'],
      ['b.txt', 'file', '644'],
      ['run.sh', 'file', '755'],
    ]);
    for (const e of entries) {
      assert.equal(e.mtime, Date.UTC(2000, 0, 1), e.name);
      assert.equal(e.uid, 0);
      assert.equal(e.gid, 0);
    }
    assert.equal(entries.find((e) => e.name === 'a/link.py')?.linkname, 'z.py');
    assert.equal(entries.find((e) => e.name === 'b.txt')?.body, 'bee\n');
  });

  it('is deterministic: the same tree gives the same digest, whatever the file times', async () => {
    const dir = tree({ 'x/1.txt': 'one', 'x/2.txt': 'two', 'y.txt': '' });
    const first = await pack(dir);
    utimesSync(join(dir, 'x', '1.txt'), new Date(2020, 1, 1), new Date(2020, 1, 1));
    const second = await pack(dir);
    assert.deepEqual(second.digest, first.digest);
    writeFileSync(join(dir, 'y.txt'), 'changed');
    assert.notEqual((await pack(dir)).digest.hash, first.digest.hash);
  });

  it('keeps long and non-ASCII names intact', async () => {
    const long = `${'d'.repeat(80)}/${'e'.repeat(80)}/${'f'.repeat(120)}.txt`;
    const dir = tree({ [long]: 'long', 'naïve-日本.txt': 'unicode' });
    const entries = await entriesOf((await pack(dir)).tar);
    assert.equal(entries.find((e) => e.name === long)?.body, 'long');
    assert.equal(entries.find((e) => e.name === 'naïve-日本.txt')?.body, 'unicode');
  });

  it('leaves out VCS metadata, dependencies, caches, virtualenvs and build outputs', async () => {
    const dir = tree({
      'src/app.py': '',
      '.git/config': '', 'node_modules/x/index.js': '', 'web/node_modules/y.js': '', '__pycache__/a.pyc': '',
      '.venv/bin/python': '', 'env/pyvenv.cfg': '', 'env/lib/x.py': '', 'cache/CACHEDIR.TAG': '',
      'pyproject.toml': '', 'dist/calc.whl': '', 'build/lib/x.py': '',
      'lib/build/keep.go': '', 'lib/dist/keep.txt': '',
    });
    const { tar, skipped } = await pack(dir);
    const names = (await entriesOf(tar)).map((e) => e.name).filter((n) => !n.endsWith('/'));
    assert.deepEqual(names, ['lib/build/keep.go', 'lib/dist/keep.txt', 'pyproject.toml', 'src/app.py']);
    assert.deepEqual(skipped.map((s) => s.path).sort(),
      ['.git', '.venv', '__pycache__', 'build', 'cache', 'dist', 'env', 'node_modules', 'web/node_modules']);
    assert.match(skipped.find((s) => s.path === 'dist')!.reason, /next to pyproject\.toml/);
  });

  it('honours nested .gitignore files with negation, and exclude patterns', async () => {
    const dir = tree({
      '.gitignore': '*.log\nsecret/\n',
      'a.log': '', 'keep.txt': '', 'secret/key': '',
      'sub/.gitignore': '!important.log\nlocal.txt\n',
      'sub/important.log': '', 'sub/other.log': '', 'sub/local.txt': '', 'local.txt': '',
      'tmp/scratch': '',
    });
    const { tar, ignored } = await pack(dir, { exclude: ['tmp/'] });
    const names = (await entriesOf(tar)).map((e) => e.name).filter((n) => !n.endsWith('/'));
    assert.deepEqual(names, ['.gitignore', 'keep.txt', 'local.txt', 'sub/.gitignore', 'sub/important.log']);
    assert.equal(ignored, 3); // a.log, sub/other.log, sub/local.txt
  });

  it('keeps symlinks that stay inside, skips the others', async () => {
    const dir = tree({ 'a/b/file': 'x' });
    symlinkSync('../b/file', join(dir, 'a', 'b', 'up1'));
    symlinkSync('../../../etc/passwd', join(dir, 'a', 'b', 'escape'));
    symlinkSync('/etc/passwd', join(dir, 'abs'));
    symlinkSync('b/../../..', join(dir, 'a', 'tricky'));
    const { tar, skipped } = await pack(dir);
    const links = (await entriesOf(tar)).filter((e) => e.type === 'symlink').map((e) => e.name);
    assert.deepEqual(links, ['a/b/up1']);
    assert.deepEqual(skipped.map((s) => s.path).sort(), ['a/b/escape', 'a/tricky', 'abs']);
  });

  it('refuses a workspace over its limits before writing anything', async () => {
    const dir = tree({ 'a.txt': '12345', 'b.txt': '123456' });
    await assert.rejects(pack(dir, { limits: { maxFileBytes: 5 } }),
      (e: unknown) => e instanceof PackError && e.path === 'b.txt' && e.reason === 'too_large');
    await assert.rejects(pack(dir, { limits: { maxBytes: 10 } }), (e: unknown) => e instanceof PackError && e.path === 'b.txt');
    await assert.rejects(pack(dir, { limits: { maxFiles: 1 } }),
      (e: unknown) => e instanceof PackError && e.reason === 'too_many_files');
  });

  it('refuses what is not a directory', async () => {
    const dir = tree({ 'f.txt': '' });
    await assert.rejects(pack(join(dir, 'f.txt')), /not a directory/);
    await assert.rejects(pack(join(dir, 'missing')), /ENOENT/);
  });

  it('packs to a file the same bytes as in memory', async () => {
    const dir = tree({ 'x.bin': 'y'.repeat(700_000), 'z.txt': 'z' });
    const mem = await pack(dir);
    const out = join(temp('gl-packfile-'), 'snap.tar');
    const st = await packToFile(dir, out);
    assert.deepEqual(st.digest, mem.digest);
    assert.deepEqual(readFileSync(out), mem.tar);
  });
});

describe('symlinkReason (the server rule, pkg/workspace/paths.go)', () => {
  const cases: [string, string, boolean][] = [
    ['a', 'b', true],
    ['a/b', '../c', true],
    ['a/b/c', '../../d/e', true],
    ['a', '../b', false],
    ['a/b', '../../c', false],
    ['a', '/etc/passwd', false],
    ['a/b', 'c/../../x', false],
    ['a', '', false],
    ['a', './b/./c', true],
  ];
  for (const [link, target, ok] of cases) {
    it(`${link} -> ${target || '(empty)'}: ${ok ? 'kept' : 'refused'}`, () => {
      assert.equal(symlinkReason(link, target) === '', ok, symlinkReason(link, target));
    });
  }
});
