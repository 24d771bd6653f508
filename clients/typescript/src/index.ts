// @greenlight-dev/client: a TypeScript client for greenlight's public gRPC
// API (RunService, BlobService). See README.md for a quick start.

export { status, type ServiceError } from '@grpc/grpc-js';

export { GreenlightClient, type CallOptions, type ClientOptions, type Workspace } from './client';
export { isLoopback, tlsFromEnv, TokenInClearError, useTls, type ConnectionOptions, type TlsOptions } from './connection';
export { loadPackage, loaderOptions, PROTO_DIR, PUBLIC_PROTOS } from './loader';
export {
  pack, packTo, packToFile, PackError, symlinkReason,
  type PackLimits, type PackOptions, type PackResult, type PackStats, type Skipped,
} from './pack';
export type { PatchAnswer, PatchContext, PatchProvider } from './provider';
export { RunStream } from './stream';
export { DEFAULT_CHUNK_SIZE, digestOf, digestOfFile, type UploadResult } from './upload';
export * from './types';
