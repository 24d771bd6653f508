// The package loads only the public protos, its copy matches the
// repository's, and the generated types describe the loaded messages.
import * as protoLoader from '@grpc/proto-loader';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { loaderOptions, loadPackage, PROTO_DIR, PUBLIC_PROTOS } from '@greenlight-dev/client';

import { PACKAGE_ROOT } from './helpers/serve';

const REPO_PROTOS = join(PACKAGE_ROOT, '..', '..', 'proto');

describe('protos', () => {
  it('ships exactly the public protos', () => {
    assert.deepEqual(readdirSync(join(PROTO_DIR, 'greenlight', 'v1')).sort(), ['blob.proto', 'events.proto', 'run.proto', 'types.proto']);
    assert.deepEqual(PUBLIC_PROTOS.map((p) => p.split('/').pop()).sort(), ['blob.proto', 'events.proto', 'run.proto', 'types.proto']);
  });

  it('ships the repository\'s current protos', { skip: !existsSync(REPO_PROTOS) && 'not inside the repository' }, () => {
    for (const p of PUBLIC_PROTOS) {
      assert.equal(readFileSync(join(PROTO_DIR, p), 'utf8'), readFileSync(join(REPO_PROTOS, p), 'utf8'), `${p} is stale: npm run build`);
    }
  });

  it('loads the public services and none of the internal ones', () => {
    const pkg = loadPackage() as unknown as Record<string, unknown>;
    assert.ok(pkg.RunService && pkg.BlobService);
    assert.equal(pkg.ExecutorService, undefined);
    assert.equal(pkg.DiscoveryService, undefined);
  });

  it('generated the types with the loader\'s options', () => {
    const build = readFileSync(join(PACKAGE_ROOT, 'scripts', 'build.mjs'), 'utf8');
    assert.equal(loaderOptions.keepCase, false);
    assert.equal(loaderOptions.longs, Number);
    assert.equal(loaderOptions.enums, String);
    assert.ok(loaderOptions.defaults && loaderOptions.oneofs);
    for (const flag of ['--longs=Number', '--enums=String', '--defaults', '--oneofs']) assert.ok(build.includes(`'${flag}'`), flag);
    assert.ok(!build.includes("'--keepCase'"));
  });

  it('has a generated type with every field of every message', () => {
    const def = protoLoader.loadSync(PUBLIC_PROTOS, loaderOptions);
    const gen = join(PACKAGE_ROOT, 'dist', 'generated', 'greenlight', 'v1');
    let checked = 0;
    for (const [name, d] of Object.entries(def)) {
      if (!name.startsWith('greenlight.v1.') || !('type' in d) || d.format !== 'Protocol Buffer 3 DescriptorProto') continue;
      const file = join(gen, `${name.slice('greenlight.v1.'.length)}.d.ts`);
      const text = readFileSync(file, 'utf8');
      // Field names as the loader makes them (protobufjs's camelCase:
      // cost_per_1k_tokens is costPer_1kTokens, not protojson's costPer1kTokens).
      for (const f of (d.type as { field: { name: string }[] }).field) {
        assert.ok(text.includes(`'${f.name}'`), `${name}: no field '${f.name}' in ${file}`);
      }
      checked++;
    }
    assert.ok(checked > 60, `checked ${checked} messages`);
  });
});
