import type { PatchReply, PatchRequest, RunEvent, Usage } from './types';

/** PatchAnswer is a provider's full answer. */
export interface PatchAnswer {
  /** A unified diff (also accepted: <patch>…</patch>, a Markdown fence, the *** Begin Patch envelope). */
  patch?: string;
  /** No patch to offer: the server stops the loop. */
  giveUp?: boolean;
  /** Model tokens and cost spent on this patch, counted against the cost budget. */
  usage?: Usage;
}

/** PatchContext comes with each request. */
export interface PatchContext {
  runId: string;
  /** Aborted when the caller cancels the fix. */
  signal?: AbortSignal;
}

/**
 * PatchProvider answers one patch request of a fix run: with a unified diff
 * (a string), a PatchAnswer, or null/undefined/'' to give up. `request.prompt`
 * is a Markdown rendering of the request, ready for a model; the structured
 * fields (failures, code windows, log tail, feedback on the previous
 * attempt) are there too. A provider that throws ends the fix run.
 */
export type PatchProvider = (
  request: PatchRequest,
  context: PatchContext,
) => Promise<string | PatchAnswer | null | undefined> | string | PatchAnswer | null | undefined;

/** patchReply asks provider about the request in ev and builds the reply, echoing its attempt. */
export async function patchReply(provider: PatchProvider, ev: RunEvent, signal?: AbortSignal): Promise<PatchReply> {
  const request = ev.patchRequested!.request!;
  let answer: Awaited<ReturnType<PatchProvider>>;
  try {
    answer = await provider(request, { runId: ev.runId, signal });
  } catch (err) {
    throw new Error(`patch provider failed on attempt ${request.attempt}: ${(err as Error)?.message ?? err}`, { cause: err });
  }
  const a: PatchAnswer = typeof answer === 'string' ? { patch: answer } : answer ?? {};
  const giveUp = a.giveUp === true || !a.patch || a.patch.trim() === '';
  return { attempt: request.attempt, patch: giveUp ? '' : a.patch, giveUp, usage: a.usage };
}
