import type { Summarizer } from '../summarize/types.js';

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
  const waiting: Entry[] = [];
  /** Whether a task that did not pass is running. */
  let running = false;
  /** Tasks that passed and have not settled. */
  let passed = 0;
  /** Settles when the last task that passed has. */
  let passing: Promise<unknown> = Promise.resolve();
  /** Summarizer calls running. */
  let summarizing = 0;

  const finish = () => {
    running = false;
    next();
  };

  /** Runs a task that did not pass; the next one starts when it settles. */
  function launch<T>(task: () => Promise<T>): Promise<T> {
    running = true;
    const run = task();
    run.then(finish, finish);
    return run;
  }

  /** Starts what may start now: tasks that pass while a summarizer runs; the next task once nothing runs. */
  function next(): void {
    while (summarizing > 0 && running && waiting[0]?.passes) pass(waiting.shift()!);
    if (running || passed > 0 || waiting.length === 0) return;
    waiting.shift()!.start(true);
  }

  function pass(entry: Entry): void {
    passed += 1;
    const done = passing
      .then(() => entry.start(false))
      .finally(() => {
        passed -= 1;
        next();
      });
    passing = done;
  }

  async function during<T>(work: () => Promise<T>): Promise<T> {
    summarizing += 1;
    next();
    try {
      return await work();
    } finally {
      summarizing -= 1;
    }
  }

  return {
    run(task, passes = false) {
      // Nothing before it: started at once, as a call that waits for nobody.
      if (!running && passed === 0 && waiting.length === 0) return launch(task);
      return new Promise((resolve, reject) => {
        waiting.push({
          passes,
          start: (holds) => {
            const run = holds ? launch(task) : task();
            run.then(resolve, reject);
            return run.then(settled, settled);
          },
        });
        next();
      });
    },
    watch(summarizer) {
      const { draft } = summarizer;
      return {
        ...summarizer,
        name: summarizer.name,
        summarize: (request) => during(() => summarizer.summarize(request)),
        ...(draft ? { draft: (request) => during(() => draft.call(summarizer, request)) } : {}),
      };
    },
  };
}
