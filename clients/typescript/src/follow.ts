import type { RunFinished__Output } from './generated/greenlight/v1/RunFinished';
import type { Run, RunEvent } from './types';

// Following a run's event stream to its end, for verify, watch and fix.

/** A server-streaming or bidirectional call whose messages carry a RunEvent. */
export interface EventCall {
  [Symbol.asyncIterator](): AsyncIterator<{ event: RunEvent | null }>;
  cancel(): void;
}

/** What follow does besides passing events on. */
export interface FollowHooks {
  runId?: string;
  afterSeq?: number;
  /** Answer a patch request; the fix stream's client provider. */
  onPatch?: (ev: RunEvent) => Promise<void>;
  /** Called when RunFinished arrives, before the rest of the stream is read. */
  onFinished?: () => void;
}

/** Server is what follow asks of the client. */
export interface Server {
  watch(runId: string, afterSeq: number): EventCall;
  getRun(runId: string): Promise<Run>;
}

/**
 * follow yields a run's events from call until RunFinished and returns
 * the finished run. A ResumeFrom (the gateway dropped a slow watcher, or
 * lost its upstream) re-attaches with WatchRun after the given seq;
 * events at or below the last seq seen are dropped, so none is repeated.
 * The streams are read through their iterators without ever breaking out
 * of a for-await, which would destroy a Fix stream that must stay
 * writable for patch replies.
 */
export async function* follow(first: EventCall, hooks: FollowHooks, server: Server, signal?: AbortSignal): AsyncGenerator<RunEvent, Run, undefined> {
  const calls = new Map<EventCall, AsyncIterator<{ event: RunEvent | null }>>();
  const attach = (c: EventCall) => {
    const it = c[Symbol.asyncIterator]();
    calls.set(c, it);
    return it;
  };
  const abort = () => calls.forEach((_, c) => c.cancel());
  signal?.addEventListener('abort', abort, { once: true });
  let call = first;
  let it = attach(first);
  let runId = hooks.runId ?? '';
  let last = hooks.afterSeq ?? 0;
  let finished: RunFinished__Output | undefined;
  try {
    signal?.throwIfAborted();
    for (;;) {
      let resumeAt: number | undefined;
      for (;;) {
        const r = await it.next().catch((err) => {
          signal?.throwIfAborted();
          throw err;
        });
        if (r.done) break;
        const ev = r.value.event;
        if (!ev || finished) continue;
        runId ||= ev.runId;
        if (ev.resumeFrom) {
          resumeAt = ev.resumeFrom.afterSeq;
          break;
        }
        if (ev.seq !== 0 && ev.seq <= last) continue; // replayed after a resume
        last = ev.seq;
        yield* deliver(ev, hooks);
        if (ev.runFinished) {
          finished = ev.runFinished;
          hooks.onFinished?.();
        }
      }
      if (finished) return await finalRun(server, runId, finished);
      signal?.throwIfAborted();
      if (resumeAt === undefined) throw new Error(`run ${runId || '?'}: the event stream ended before the run finished`);
      if (call !== first || !hooks.onPatch) {
        call.cancel(); // a Fix stream stays open: patch replies go there
        calls.delete(call);
        void it.return?.();
      }
      call = server.watch(runId, resumeAt);
      it = attach(call);
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    if (!finished) abort();
    calls.forEach((i) => void i.return?.()?.catch(() => undefined));
  }
}

/** deliver yields one event; a patch request is answered while the caller sees it. */
async function* deliver(ev: RunEvent, hooks: FollowHooks): AsyncGenerator<RunEvent, void, undefined> {
  if (!ev.patchRequested || !hooks.onPatch) {
    yield ev;
    return;
  }
  const answered = hooks.onPatch(ev);
  answered.catch(() => undefined); // awaited below, once the event has been shown
  yield ev;
  await answered;
}

/**
 * finalRun fetches the finished run, or, when GetRun fails, builds what it
 * can from RunFinished: status, result and metrics (messages it cannot know
 * are null, lists empty).
 */
async function finalRun(server: Server, runId: string, fin: RunFinished__Output): Promise<Run> {
  try {
    const run = await server.getRun(runId);
    if (run.result) return run;
  } catch {
    // fall through: the event has the verdict
  }
  return {
    id: runId, status: fin.status, result: fin.result, metrics: fin.metrics, patches: [], error: '', lastSeq: 0,
  } as unknown as Run;
}
