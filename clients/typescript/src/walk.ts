import ignore, { type Ignore } from 'ignore';
import type { Stats } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';

import { excludeReason, IgnoreRules } from './exclude';

// The directory walk of pack(): which paths go into a snapshot.

/** Skipped is one path left out for a reason worth telling. */
export interface Skipped {
  path: string;
  reason: string;
}

/** Entry is one path planned for a pack. */
export interface Entry {
  /** Slash-separated, relative to the packed directory. */
  rel: string;
  kind: 'dir' | 'file' | 'symlink';
  size: number;
  /** Any execute bit set (packed as 0755). */
  exec: boolean;
  /** A symlink's target. */
  target: string;
  /** A file's lstat, to notice it being swapped before it is read. */
  info?: Stats;
}

/** PackError names the entry where packing stopped and why. */
export class PackError extends Error {
  constructor(
    readonly path: string,
    readonly reason: 'too_large' | 'too_many_files' | 'unsafe' | 'changed',
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'PackError';
  }
}

/** Lister walks a directory, collecting entries and what it leaves out. */
export class Lister {
  entries: Entry[] = [];
  skipped: Skipped[] = [];
  ignored = 0;
  private readonly exclude: Ignore;

  constructor(patterns: readonly string[]) {
    this.exclude = ignore({ ignorecase: false }).add([...patterns]);
  }

  async walk(abs: string, rel: string, rules: IgnoreRules): Promise<void> {
    rules = await rules.withFile(abs, rel);
    const names = (await readdir(abs)).sort();
    for (const name of names) {
      const childAbs = join(abs, name);
      const childRel = rel === '' ? name : `${rel}/${name}`;
      const info = await lstat(childAbs);
      if (info.isDirectory()) {
        if (await this.keepDir(abs, name, childAbs, childRel, rules)) {
          this.entries.push({ rel: childRel, kind: 'dir', size: 0, exec: false, target: '' });
          await this.walk(childAbs, childRel, rules);
        }
        continue;
      }
      if (name === '.git') {
        this.skipped.push({ path: childRel, reason: 'git metadata' });
      } else if (this.exclude.ignores(childRel) || rules.ignores(childRel, false)) {
        this.ignored++;
      } else {
        await this.addNonDir(childAbs, childRel, info);
      }
    }
  }

  private async keepDir(parent: string, name: string, abs: string, rel: string, rules: IgnoreRules): Promise<boolean> {
    const reason = await excludeReason(parent, name, abs);
    const why = reason ? `excluded: ${reason}`
      : this.exclude.ignores(`${rel}/`) ? 'excluded by pattern'
        : rules.ignores(rel, true) ? 'ignored by .gitignore' : '';
    if (why) this.skipped.push({ path: rel, reason: why });
    return why === '';
  }

  private async addNonDir(abs: string, rel: string, info: Stats): Promise<void> {
    if (info.isFile()) {
      this.entries.push({ rel, kind: 'file', size: info.size, exec: (info.mode & 0o111) !== 0, target: '', info });
    } else if (info.isSymbolicLink()) {
      const target = await readlink(abs);
      const reason = symlinkReason(rel, target);
      if (reason) this.skipped.push({ path: rel, reason });
      else this.entries.push({ rel, kind: 'symlink', size: 0, exec: false, target });
    } else {
      this.skipped.push({ path: rel, reason: 'special file (socket, device or fifo) cannot be packed' });
    }
  }
}

/**
 * symlinkReason says why a symlink at link (relative, clean) pointing at
 * target could resolve outside the root, or '' when it cannot. The server's
 * rule (pkg/workspace/paths.go): no absolute target, ".." only as a prefix
 * (never after a name, which another link could turn into an escape), and
 * no more ".." than the link has parent directories.
 */
export function symlinkReason(link: string, target: string): string {
  if (target === '') return 'empty symlink target';
  if (target.includes('\0')) return 'symlink target contains a NUL byte';
  if (target.startsWith('/')) return `absolute symlink target "${target}"`;
  let ups = 0;
  let named = false;
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (named) return `symlink target "${target}" has '..' after a name and could leave the root through another link`;
      ups++;
    } else {
      named = true;
    }
  }
  if (ups > link.split('/').length - 1) return `symlink target "${target}" resolves outside the root`;
  return '';
}
