// test.mjs — `npm test`: writes the README's snippets as modules, compiles
// the tests (and snippets) with tsc into build/test, and runs them with
// node's own test runner. Needs `npm run build` first (the tests import
// the built package by its name, as a user would).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const node = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

try {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  node([join(root, 'scripts', 'snippets.mjs')]);
  rmSync(join(root, 'build'), { recursive: true, force: true });
  node([require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.test.json')]);
  const dir = join(root, 'build', 'test');
  const files = readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort().map((f) => join(dir, f));
  node(['--test', '--test-reporter=spec', ...process.argv.slice(2), ...files]);
} catch (err) {
  if (err.status === undefined) console.error(`test: ${err.message}`);
  process.exit(err.status ?? 1);
}
