import ignore, { type Ignore } from 'ignore';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// The same exclusions as the Go packer's walk (pkg/workspace/exclude.go), so
// a directory packs to the same file list whichever client packs it.

/** Directory names never packed: VCS metadata, dependency trees, caches, virtualenvs. */
const ALWAYS_EXCLUDED: Record<string, string> = {
  '.git': 'git metadata',
  node_modules: 'npm dependencies',
  '.venv': 'Python virtualenv',
  venv: 'Python virtualenv',
  __pycache__: 'Python bytecode cache',
  '.pytest_cache': 'pytest cache',
  '.mypy_cache': 'mypy cache',
  '.tox': 'tox environments',
  '.next': 'Next.js build output',
  '.gradle': 'Gradle cache',
};

/**
 * Build output directory names, excluded only next to a manifest of a tool
 * that writes them there: "build" and "dist" are also ordinary source
 * directory names, which must not vanish silently.
 */
const BUILD_OUTPUTS: Record<string, string[]> = {
  target: ['Cargo.toml', 'pom.xml', 'build.sbt'],
  dist: ['package.json', 'pyproject.toml', 'setup.py', 'setup.cfg'],
  build: ['package.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'build.gradle',
    'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'CMakeLists.txt'],
};

/** Files that mark a directory as generated whatever its name. */
const MARKER_FILES: Record<string, string> = {
  'pyvenv.cfg': 'Python virtualenv',
  'CACHEDIR.TAG': 'cache directory (CACHEDIR.TAG)',
  'CMakeCache.txt': 'CMake build directory',
};

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** excludeReason says why the directory abs (named name, in parent) is left out, or '' to keep it. */
export async function excludeReason(parent: string, name: string, abs: string): Promise<string> {
  if (Object.hasOwn(ALWAYS_EXCLUDED, name)) return ALWAYS_EXCLUDED[name];
  for (const [marker, reason] of Object.entries(MARKER_FILES)) {
    if (await exists(join(abs, marker))) return reason;
  }
  for (const manifest of Object.hasOwn(BUILD_OUTPUTS, name) ? BUILD_OUTPUTS[name] : []) {
    if (await exists(join(parent, manifest))) return `build output (next to ${manifest})`;
  }
  return '';
}

/** One directory's .gitignore rules, matched against paths relative to that directory. */
interface Scope {
  prefix: string; // '' for the root, else 'dir/sub/'
  rules: Ignore;
}

/**
 * IgnoreRules applies .gitignore files with git's precedence: a file's rules
 * apply below its own directory, a deeper file's rules win over a
 * shallower one's, and within a file the last matching rule wins (so `!x`
 * re-includes). Matching is done by the `ignore` package, which implements
 * gitignore's pattern syntax; it is case-sensitive here, as git is on Linux.
 */
export class IgnoreRules {
  private constructor(private readonly scopes: Scope[]) {}

  /** IgnoreRules.root starts with the given extra root-level patterns (may be empty). */
  static root(patterns: readonly string[]): IgnoreRules {
    const scopes: Scope[] = [];
    if (patterns.length) scopes.push({ prefix: '', rules: ignore({ ignorecase: false }).add(patterns) });
    return new IgnoreRules(scopes);
  }

  /** withFile returns the rules in force below dirRel, adding its .gitignore if it has one. */
  async withFile(dir: string, dirRel: string): Promise<IgnoreRules> {
    let text: string;
    try {
      const st = await lstat(join(dir, '.gitignore'));
      if (!st.isFile()) return this; // a symlinked or odd .gitignore is not honoured (as in Go)
      text = await readFile(join(dir, '.gitignore'), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return this;
      throw err;
    }
    const prefix = dirRel === '' ? '' : `${dirRel}/`;
    return new IgnoreRules([...this.scopes, { prefix, rules: ignore({ ignorecase: false }).add(text) }]);
  }

  /** ignores reports whether rel (slash-separated, from the packed root) is ignored. */
  ignores(rel: string, isDir: boolean): boolean {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const { prefix, rules } = this.scopes[i];
      if (!rel.startsWith(prefix)) continue;
      const sub = rel.slice(prefix.length) + (isDir ? '/' : '');
      const r = rules.test(sub);
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
    return false;
  }
}
