import type { Run, RunEvent } from './types';

/**
 * RunStream is a run followed to its end: iterate it for the events
 * (`for await (const event of stream)`), then `await stream.run()` for the
 * finished run with its result. `run()` alone drains the events it is not
 * shown. Nothing is sent to the server until the first of the two.
 *
 * Leaving the loop early (break, throw) cancels the call, and with it a
 * Verify or Fix run (the server cancels a run whose stream goes away);
 * `watch` streams only stop watching.
 */
export class RunStream implements AsyncIterable<RunEvent> {
  private final?: Run;

  constructor(private readonly events: AsyncGenerator<RunEvent, Run, undefined>) {}

  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    return {
      next: async () => {
        const r = await this.events.next();
        if (!r.done) return r;
        this.final = r.value;
        return { done: true, value: undefined };
      },
      return: async () => {
        await this.events.return(undefined as unknown as Run);
        return { done: true, value: undefined };
      },
    };
  }

  /** run waits for the run to finish (consuming the remaining events) and returns it. */
  async run(): Promise<Run> {
    if (!this.final) {
      const it = this[Symbol.asyncIterator]();
      while (!(await it.next()).done) {
        // events not iterated by the caller are dropped
      }
    }
    if (!this.final) throw new Error('the event stream was closed before the run finished');
    return this.final;
  }

  /** cancel stops following (and, for Verify and Fix, cancels the run). */
  async cancel(): Promise<void> {
    await this.events.return(undefined as unknown as Run);
  }
}
