import * as grpc from '@grpc/grpc-js';
import { resolve as resolvePath } from 'node:path';

import { type ConnectionOptions, resolve } from './connection';
import type { BlobServiceClient } from './generated/greenlight/v1/BlobService';
import type { FixRequest } from './generated/greenlight/v1/FixRequest';
import type { RunServiceClient } from './generated/greenlight/v1/RunService';
import { type EventCall, follow, type Server } from './follow';
import { loadPackage } from './loader';
import { pack, type PackOptions } from './pack';
import { type PatchProvider, patchReply } from './provider';
import { RunStream } from './stream';
import type {
  Capabilities, Digest, DigestInput, FixOptions, ListRunsRequest, ListRunsResponse, Run, RunEvent, VerifyOptions,
} from './types';
import { DEFAULT_CHUNK_SIZE, upload, type UploadResult } from './upload';

/** ClientOptions configure a GreenlightClient. */
export interface ClientOptions extends ConnectionOptions {
  /** Payload of one upload message; default 256 KiB. */
  chunkSize?: number;
  /** How directories are packed before verify and fix. */
  pack?: PackOptions;
}

/** A workspace: a directory to pack and upload, or the digest of a snapshot already uploaded. */
export type Workspace = string | DigestInput;

/** CallOptions apply to one call. */
export interface CallOptions {
  /** Aborting cancels the call (and a Verify or Fix run with it). */
  signal?: AbortSignal;
}

/**
 * GreenlightClient talks to a greenlight gateway (`greenlight serve`, or
 * the compose stack): RunService and BlobService over one channel.
 */
export class GreenlightClient {
  /** The gateway address in use. */
  readonly address: string;
  private readonly channel: grpc.Channel;
  private readonly runs: RunServiceClient;
  private readonly blobs: BlobServiceClient;
  private readonly chunkSize: number;
  private readonly packOptions: PackOptions;

  constructor(options: ClientOptions = {}) {
    const r = resolve(options);
    const pkg = loadPackage();
    this.address = r.address;
    this.channel = r.channel;
    // Both clients use r.channel (channelOverride); the credentials argument is not used.
    const unused = grpc.credentials.createInsecure();
    this.runs = new pkg.RunService(r.address, unused, r.clientOptions);
    this.blobs = new pkg.BlobService(r.address, unused, r.clientOptions);
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    this.packOptions = options.pack ?? {};
  }

  /** close closes the channel; calls in flight fail. */
  close(): void {
    this.runs.close();
    this.blobs.close();
    this.channel.close();
  }

  /** upload stores bytes, or the file at a path, in the blob store and returns its digest. */
  async upload(source: Uint8Array | string): Promise<Digest> {
    return (await this.uploadWithResult(source)).digest;
  }

  /** uploadWithResult is upload that also says whether the store had the blob already. */
  uploadWithResult(source: Uint8Array | string): Promise<UploadResult> {
    return upload(this.blobs, source, this.chunkSize);
  }

  /** snapshot packs and uploads a directory, or passes a digest through. */
  private async snapshot(ws: Workspace): Promise<{ digest: DigestInput; sourceDir: string }> {
    if (typeof ws !== 'string') return { digest: ws, sourceDir: '' };
    const packed = await pack(ws, this.packOptions);
    return { digest: await this.upload(packed.tar), sourceDir: resolvePath(ws) };
  }

  /**
   * verify verifies a workspace: packs and uploads a directory (or takes a
   * digest), starts a run and streams its events; `await v.run()` gives the
   * finished run, whose `result.status` is VERDICT_PASS, VERDICT_FAIL or
   * VERDICT_ERROR.
   */
  verify(workspace: Workspace, options: VerifyOptions = {}, call: CallOptions = {}): RunStream {
    return new RunStream(this.verifyEvents(workspace, options, call.signal));
  }

  /**
   * watch follows a run's events after afterSeq (0: from the start):
   * stored ones first, then live, until RunFinished.
   */
  watch(runId: string, afterSeq = 0, call: CallOptions = {}): RunStream {
    return new RunStream(this.watchEvents(runId, afterSeq, call.signal));
  }

  /**
   * fix runs the repair loop with this client as the patch provider
   * (PROVIDER_KIND_CLIENT): the server sends a PatchRequest whenever it wants
   * a patch, and provider answers it with a unified diff (or null to give
   * up). The events include each PatchRequested; `await f.run()` gives the
   * finished run with its patches and FixMetrics (metrics.green).
   */
  fix(workspace: Workspace, provider: PatchProvider, options: FixOptions = {}, call: CallOptions = {}): RunStream {
    return new RunStream(this.fixEvents(workspace, provider, options, call.signal));
  }

  // The *Events generators start their call on the first next(), so a
  // RunStream sends nothing until it is iterated.

  private async *verifyEvents(ws: Workspace, options: VerifyOptions, signal?: AbortSignal): AsyncGenerator<RunEvent, Run, undefined> {
    const { digest, sourceDir } = await this.snapshot(ws);
    return yield* follow(this.runs.Verify({ snapshot: digest, options, sourceDir }), {}, this.server, signal);
  }

  private async *watchEvents(runId: string, afterSeq: number, signal?: AbortSignal): AsyncGenerator<RunEvent, Run, undefined> {
    return yield* follow(this.server.watch(runId, afterSeq), { runId, afterSeq }, this.server, signal);
  }

  private async *fixEvents(ws: Workspace, provider: PatchProvider, options: FixOptions, signal?: AbortSignal): AsyncGenerator<RunEvent, Run, undefined> {
    const { digest, sourceDir } = await this.snapshot(ws);
    const stream = this.runs.Fix();
    const send = (msg: FixRequest) => void stream.write(msg);
    const provided = { ...options.provider, kind: 'PROVIDER_KIND_CLIENT' as const };
    send({ start: { snapshot: digest, sourceDir, options: { ...options, provider: provided } } });
    return yield* follow(stream, {
      onPatch: async (ev) => send({ patch: await patchReply(provider, ev, signal) }),
      onFinished: () => stream.end(), // half-close: no more replies
    }, this.server, signal);
  }

  /** getRun returns a run with its result. */
  async getRun(runId: string, call: CallOptions = {}): Promise<Run> {
    const r = await this.unary<{ run: Run | null }>((cb) => this.runs.GetRun({ runId }, cb), call);
    if (!r.run) throw new Error(`GetRun ${runId}: the answer has no run`);
    return r.run;
  }

  /**
   * startVerify packs and uploads a workspace and starts its verification
   * detached (StartRun): it returns the created run at once and the run goes
   * on whatever this process does; follow it with watch, stop it with
   * cancelRun.
   */
  async startVerify(workspace: Workspace, options: VerifyOptions = {}, call: CallOptions = {}): Promise<Run> {
    const { digest, sourceDir } = await this.snapshot(workspace);
    const r = await this.unary<{ run: Run | null }>(
      (cb) => this.runs.StartRun({ verify: { snapshot: digest, options, sourceDir } }, cb), call);
    if (!r.run) throw new Error('StartRun: the answer has no run');
    return r.run;
  }

  /**
   * cancelRun stops a pending or running run (it finishes
   * RUN_STATUS_CANCELED) and returns it; a finished run comes back unchanged.
   */
  async cancelRun(runId: string, call: CallOptions = {}): Promise<Run> {
    const r = await this.unary<{ run: Run | null }>((cb) => this.runs.CancelRun({ runId }, cb), call);
    if (!r.run) throw new Error(`CancelRun ${runId}: the answer has no run`);
    return r.run;
  }

  /** listRuns lists runs, newest first (results left out). */
  listRuns(request: ListRunsRequest = {}, call: CallOptions = {}): Promise<ListRunsResponse> {
    return this.unary<ListRunsResponse>((cb) => this.runs.ListRuns(request, cb), call);
  }

  /** discover returns what greenlight finds in a workspace (capabilities.json). */
  async discover(workspace: Workspace, call: CallOptions = {}): Promise<Capabilities> {
    const { digest } = await this.snapshot(workspace);
    const r = await this.unary<{ capabilities: Capabilities | null }>(
      (cb) => this.runs.DiscoverWorkspace({ snapshot: digest }, cb), call);
    if (!r.capabilities) throw new Error('DiscoverWorkspace: the answer has no capabilities');
    return r.capabilities;
  }

  private unary<T>(start: (cb: (err: grpc.ServiceError | null, r?: T) => void) => grpc.ClientUnaryCall, call: CallOptions): Promise<T> {
    return new Promise<T>((res, rej) => {
      const c = start((err, r) => (err ? rej(err) : res(r as T)));
      call.signal?.addEventListener('abort', () => c.cancel(), { once: true });
    });
  }

  /** What follow needs: re-attaching to a run and fetching it when finished. */
  private readonly server: Server = {
    watch: (runId, afterSeq): EventCall => this.runs.WatchRun({ runId, afterSeq }),
    getRun: (runId) => this.getRun(runId),
  };
}
