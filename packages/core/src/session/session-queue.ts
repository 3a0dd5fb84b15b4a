import type { SummarizeRequest, Summarizer, SummaryDraft } from '../summarize/types.js';

/** How a session orders its public operations (see {@link createSessionQueue}). */
export type SessionQueue = {
  /**
   * Runs `task` after every operation called before it, and before every one called after
   * it. With `passes`, a task also starts as soon as the one operation running before it
   * waits for a summarizer (and every task between them passes too): the session's
   * appends, clears and reads do not wait for a model to write a summary.
   */
  run<T>(task: () => Promise<T>, passes?: boolean): Promise<T>;
  /** `summarizer`, with each of its calls marked as a summarizer running (see `run`). */
  watch(summarizer: Summarizer): Summarizer;
};

/** A task waiting its turn: `start(true)` runs it holding the queue, `start(false)` beside the one running. */
type Entry = { start: (holds: boolean) => Promise<unknown>; passes: boolean };

const settled = (): undefined => undefined;

/**
 * One queue per session, in call order: whatever the caller awaits or not, the session
 * runs its operations one after another as they were called, so overlapping calls give the
 * history, context and record the same calls give run in turn. The one exception is
 * documented on the session: while a compaction waits for its summarizer (seconds, with a
 * model), the appends, clears and reads called after it run then — the compaction keeps the
 * messages appended meanwhile and recomputes on a conversation cleared meanwhile. Those
 * that pass run one after another in call order, and what was called after them waits for them.
 */
export function createSessionQueue(): SessionQueue {
  return new OperationQueue();
}

/**
 * The queue's state and steps as one object with its methods on the prototype: a process
 * holds thousands of sessions, and closures made per session cost each session their bytes.
 */
class OperationQueue implements SessionQueue {
  readonly #waiting: Entry[] = [];
  /** Whether a task that did not pass is running. */
  #running = false;
  /** Tasks that passed and have not settled. */
  #passed = 0;
  /** Settles when the last task that passed has. */
  #passing: Promise<unknown> = Promise.resolve();
  /** Summarizer calls running. */
  #summarizing = 0;

  run<T>(task: () => Promise<T>, passes = false): Promise<T> {
    // Nothing before it: started at once, as a call that waits for nobody.
    if (!this.#running && this.#passed === 0 && this.#waiting.length === 0) return this.#launch(task);
    return new Promise((resolve, reject) => {
      this.#waiting.push({
        passes,
        start: (holds) => {
          const run = holds ? this.#launch(task) : task();
          run.then(resolve, reject);
          return run.then(settled, settled);
        },
      });
      this.#next();
    });
  }

  watch(summarizer: Summarizer): Summarizer {
    return summarizer.draft ? new WatchedDraftingSummarizer(this, summarizer) : new WatchedSummarizer(this, summarizer);
  }

  /** Runs `work` (a summarizer's call) marked as a summarizer running: what may pass it starts now. */
  async during<T>(work: Promise<T>): Promise<T> {
    this.#summarizing += 1;
    this.#next();
    try {
      return await work;
    } finally {
      this.#summarizing -= 1;
    }
  }

  /** Runs a task that did not pass; the next one starts when it settles. */
  #launch<T>(task: () => Promise<T>): Promise<T> {
    this.#running = true;
    const run = task();
    run.then(this.#finish, this.#finish);
    return run;
  }

  readonly #finish = (): void => {
    this.#running = false;
    this.#next();
  };

  /** Starts what may start now: tasks that pass while a summarizer runs; the next task once nothing runs. */
  #next(): void {
    const waiting = this.#waiting;
    while (this.#summarizing > 0 && this.#running && waiting[0]?.passes) this.#pass(waiting.shift()!);
    if (this.#running || this.#passed > 0 || waiting.length === 0) return;
    waiting.shift()!.start(true);
  }

  #pass(entry: Entry): void {
    this.#passed += 1;
    this.#passing = this.#passing
      .then(() => entry.start(false))
      .finally(() => {
        this.#passed -= 1;
        this.#next();
      });
  }
}

/** A summarizer whose calls its session's queue knows of (see {@link SessionQueue.watch}). */
class WatchedSummarizer implements Summarizer {
  readonly name: string;
  // Plain fields, not parameter properties: worker processes run this source with Node's type stripping.
  protected readonly queue: OperationQueue;
  protected readonly inner: Summarizer;
  constructor(queue: OperationQueue, inner: Summarizer) {
    this.queue = queue;
    this.inner = inner;
    this.name = inner.name;
  }
  summarize(request: SummarizeRequest): Promise<string> {
    return this.queue.during(this.inner.summarize(request));
  }
}

/** {@link WatchedSummarizer} of a summarizer that drafts its summary as a state part. */
class WatchedDraftingSummarizer extends WatchedSummarizer {
  draft(request: SummarizeRequest): Promise<SummaryDraft> {
    return this.queue.during((this.inner.draft as NonNullable<Summarizer['draft']>).call(this.inner, request));
  }
}
