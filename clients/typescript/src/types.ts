// The message types this client exposes, under short names. They are
// generated from the public protos by proto-loader-gen-types (see
// scripts/build.mjs): a received message is the generated `X__Output`
// type (every field present, defaults filled in), a message you send is
// the permissive `X` type (every field optional).

export type { Duration } from './generated/google/protobuf/Duration';
export type { Timestamp__Output as Timestamp } from './generated/google/protobuf/Timestamp';

// Sent by the client.
export type { Digest as DigestInput } from './generated/greenlight/v1/Digest';
export type { VerifyOptions } from './generated/greenlight/v1/VerifyOptions';
export type { FixOptions } from './generated/greenlight/v1/FixOptions';
export type { FixTargets } from './generated/greenlight/v1/FixTargets';
export type { Guardrails } from './generated/greenlight/v1/Guardrails';
export type { ProviderConfig } from './generated/greenlight/v1/ProviderConfig';
export type { Limits } from './generated/greenlight/v1/Limits';
export type { PatchReply } from './generated/greenlight/v1/PatchReply';
export type { Usage } from './generated/greenlight/v1/Usage';
export type { ListRunsRequest } from './generated/greenlight/v1/ListRunsRequest';

// Received from the server.
export type { Digest__Output as Digest } from './generated/greenlight/v1/Digest';
export type { Run__Output as Run } from './generated/greenlight/v1/Run';
export type { RunEvent__Output as RunEvent } from './generated/greenlight/v1/RunEvent';
export type { Result__Output as Result } from './generated/greenlight/v1/Result';
export type { StepResult__Output as StepResult } from './generated/greenlight/v1/StepResult';
export type { TestCounts__Output as TestCounts } from './generated/greenlight/v1/TestCounts';
export type { TestCase__Output as TestCase } from './generated/greenlight/v1/TestCase';
export type { Failure__Output as Failure } from './generated/greenlight/v1/Failure';
export type { Score__Output as Score } from './generated/greenlight/v1/Score';
export type { Step__Output as Step } from './generated/greenlight/v1/Step';
export type { Pipeline__Output as Pipeline } from './generated/greenlight/v1/Pipeline';
export type { Capabilities__Output as Capabilities } from './generated/greenlight/v1/Capabilities';
export type { PatchRequest__Output as PatchRequest } from './generated/greenlight/v1/PatchRequest';
export type { PatchOutcome__Output as PatchOutcome } from './generated/greenlight/v1/PatchOutcome';
export type { FixMetrics__Output as FixMetrics } from './generated/greenlight/v1/FixMetrics';
export type { Transitions__Output as Transitions } from './generated/greenlight/v1/Transitions';
export type { ListRunsResponse__Output as ListRunsResponse } from './generated/greenlight/v1/ListRunsResponse';

// Enums: each is a const object of names and the union of those names.
export { RunStatus } from './generated/greenlight/v1/RunStatus';
export { RunKind } from './generated/greenlight/v1/RunKind';
export { Verdict } from './generated/greenlight/v1/Verdict';
export { StepStatus } from './generated/greenlight/v1/StepStatus';
export { Phase } from './generated/greenlight/v1/Phase';
export { Level } from './generated/greenlight/v1/Level';
export { Tier } from './generated/greenlight/v1/Tier';
export { FailureKind } from './generated/greenlight/v1/FailureKind';
export { ProviderKind } from './generated/greenlight/v1/ProviderKind';
export { TestStatus } from './generated/greenlight/v1/TestStatus';
export { Resolution } from './generated/greenlight/v1/Resolution';
