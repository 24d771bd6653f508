import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { join } from 'node:path';

import type { ProtoGrpcType as BlobProto } from './generated/blob';
import type { ProtoGrpcType as RunProto } from './generated/run';

/** The public protos this client loads; executor.proto and discovery.proto are internal. */
export const PUBLIC_PROTOS = ['run', 'blob', 'types', 'events'].map((n) => `greenlight/v1/${n}.proto`);

/** Where the package keeps its copy of the protos (scripts/build.mjs puts them there). */
export const PROTO_DIR = join(__dirname, '..', 'proto');

/**
 * How messages are turned into objects. scripts/build.mjs passes the same
 * choices to proto-loader-gen-types, so the generated types describe
 * exactly these objects: camelCase fields (as in greenlight's JSON output),
 * 64-bit integers as numbers (digest sizes and event seqs stay far below
 * 2^53), enums as their names, absent fields filled with defaults, and a
 * oneof's name field (RunEvent.kind) naming the member that is set.
 */
export const loaderOptions: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

/** The loaded greenlight.v1 package: service constructors and message types. */
export type GreenlightPackage = RunProto['greenlight']['v1'] & BlobProto['greenlight']['v1'];

let cached: GreenlightPackage | undefined;

/** loadPackage loads the public protos once per process. */
export function loadPackage(): GreenlightPackage {
  if (!cached) {
    const def = protoLoader.loadSync(PUBLIC_PROTOS, loaderOptions);
    const obj = grpc.loadPackageDefinition(def) as unknown as RunProto & BlobProto;
    cached = obj.greenlight.v1 as GreenlightPackage;
  }
  return cached;
}
