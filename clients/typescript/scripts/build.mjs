// build.mjs — makes the package self-contained and compiles it:
//  1. copies the PUBLIC protos (run, blob, types, events) from the
//     repository's proto/ into ./proto (the published package loads them at
//     run time; executor.proto and discovery.proto are internal and never
//     copied, so nothing can come to depend on them);
//  2. generates TypeScript types for them with proto-loader-gen-types (part
//     of @grpc/proto-loader, so the types match the loader's options exactly);
//  3. compiles src/ to dist/ with tsc.
// Outside the repository (an unpacked package) ./proto is used as it is.
//
// It is also the `prepare` script, which npm runs in this folder when
// another project installs it (`npm install /path/to/clients/typescript`)
// before it has installed anything here: then the build tools
// (@grpc/proto-loader, typescript) are missing, and it installs this
// folder's locked dependencies first (`npm ci --ignore-scripts`), as npm
// itself does for a git dependency.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PUBLIC_PROTOS = ['run', 'blob', 'types', 'events'].map((n) => `greenlight/v1/${n}.proto`);

// These flags must match loaderOptions in src/loader.ts.
const GEN_FLAGS = ['--longs=Number', '--enums=String', '--defaults', '--oneofs', '--includeComments', '--grpcLib=@grpc/grpc-js'];

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

/** Build tools that must resolve from this folder. */
const BUILD_TOOLS = ['@grpc/proto-loader/package.json', 'typescript/bin/tsc'];

function resolvable(id) {
  try {
    require.resolve(id);
    return true;
  } catch {
    return false;
  }
}

// The npm settings of a consumer's install that must not reach the nested
// `npm ci`: they would install globally, elsewhere, or without the dev
// dependencies (typescript) the build needs.
const CONSUMER_ONLY = /^npm_config_(global|prefix|local_prefix|omit|include|only|production|install_links|dry_run|workspaces?|save.*)$/i;

function installBuildTools() {
  if (BUILD_TOOLS.every(resolvable)) return;
  console.error('build: installing the build tools here first (npm ci --ignore-scripts)');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !CONSUMER_ONLY.test(k)));
  const args = ['ci', '--ignore-scripts', '--include=dev', '--no-audit', '--no-fund'];
  // npm_execpath is the npm running this script; prefer it to whatever npm is on PATH.
  const npmCli = process.env.npm_execpath;
  if (npmCli && /\.[cm]?js$/.test(npmCli)) {
    execFileSync(process.execPath, [npmCli, ...args], { cwd: root, stdio: ['ignore', 2, 2], env });
  } else {
    execFileSync('npm', args, { cwd: root, stdio: ['ignore', 2, 2], env });
  }
  const missing = BUILD_TOOLS.filter((id) => !resolvable(id));
  if (missing.length) throw new Error(`npm ci did not install ${missing.join(', ')}`);
}

function copyProtos() {
  const repoProtos = join(root, '..', '..', 'proto');
  const dest = join(root, 'proto');
  if (!existsSync(join(repoProtos, 'greenlight', 'v1', 'run.proto'))) {
    if (PUBLIC_PROTOS.every((p) => existsSync(join(dest, p)))) return; // a packed copy
    throw new Error(`no protos: neither ${repoProtos} nor ${dest} has ${PUBLIC_PROTOS.join(', ')}`);
  }
  rmSync(dest, { recursive: true, force: true });
  for (const p of PUBLIC_PROTOS) {
    mkdirSync(dirname(join(dest, p)), { recursive: true });
    cpSync(join(repoProtos, p), join(dest, p));
  }
}

function run(script, args) {
  execFileSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' });
}

function generateTypes() {
  const out = join(root, 'src', 'generated');
  rmSync(out, { recursive: true, force: true });
  const gen = join(dirname(require.resolve('@grpc/proto-loader/package.json')), 'build', 'bin', 'proto-loader-gen-types.js');
  // run.proto and blob.proto import the other two, so every message gets its
  // type; naming only them leaves out two unused per-file index modules.
  run(gen, [...GEN_FLAGS, '-I', join(root, 'proto'), '-O', out, 'greenlight/v1/run.proto', 'greenlight/v1/blob.proto']);
  if (!readdirSync(out).length) throw new Error('proto-loader-gen-types wrote nothing');
}

try {
  installBuildTools();
  copyProtos();
  generateTypes();
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  run(require.resolve('typescript/bin/tsc'), ['-p', join(root, 'tsconfig.json')]);
} catch (err) {
  // A failed tool has printed its own errors already.
  console.error(`build: ${err.status === undefined ? err.message : `${err.cmd ?? 'a step'} failed`}`);
  process.exit(1);
}
