import { describe, expect, it } from 'vitest';
import type { SummarizeRequest, Summarizer } from '../summarize/types.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createSessionQueue } from './session-queue.js';

/** A promise and the function that resolves it. */
function gate() {
  let open: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { closed, open };
}

/** A summarizer that writes its summary once `release` is called. */
function heldSummarizer() {
  const held = gate();
  const summarizer: Summarizer = {
    name: 'held',
    summarize: async () => {
      await held.closed;
      return 'summary';
    },
  };
  return { summarizer, release: held.open };
}

const request: SummarizeRequest = {
  kind: 'history',
  messages: [],
  fileOps: { read: [], modified: [] },
  replacedTokens: 0,
  counter: heuristicCounter(),
};

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createSessionQueue', () => {
  it('runs tasks one at a time in call order, whatever each one waits for', async () => {
    const queue = createSessionQueue();
    const order: string[] = [];
    const slow = gate();
    const first = queue.run(async () => {
      order.push('first:start');
      await slow.closed;
      order.push('first:end');
    });
    const second = queue.run(async () => {
      order.push('second');
    });
    const third = queue.run(async () => {
      order.push('third');
    }, true); // passes only a running summarizer
    await tick();
    expect(order).toEqual(['first:start']);
    slow.open();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first:start', 'first:end', 'second', 'third']);
  });

  it('goes on after a task that failed, which rejects with its own error', async () => {
    const queue = createSessionQueue();
    const failed = queue.run(async () => {
      throw new RangeError('no');
    });
    const next = queue.run(async () => 'next');
    await expect(failed).rejects.toThrow(RangeError);
    await expect(next).resolves.toBe('next');
  });

  it('lets the tasks that pass run while a summarizer runs, in call order, and what comes after wait for them', async () => {
    const queue = createSessionQueue();
    const { summarizer, release } = heldSummarizer();
    const watched = queue.watch(summarizer);
    const order: string[] = [];
    const compaction = queue.run(async () => {
      order.push('compaction:start');
      await watched.summarize(request);
      order.push('compaction:end');
    });
    const slowAppend = gate();
    const append = queue.run(async () => {
      order.push('append:start');
      await slowAppend.closed;
      order.push('append:end');
    }, true);
    const read = queue.run(async () => {
      order.push('read');
    }, true);
    const call = queue.run(async () => {
      order.push('call');
    });
    const later = queue.run(async () => {
      order.push('later read');
    }, true);
    await tick();
    // The append passed the summarizer; the read waits for it (call order among those that pass).
    expect(order).toEqual(['compaction:start', 'append:start']);
    release();
    await compaction;
    await tick();
    // The call was made after the append: it waits for it even though the compaction is done.
    expect(order).toEqual(['compaction:start', 'append:start', 'compaction:end']);
    slowAppend.open();
    await Promise.all([append, read, call, later]);
    expect(order).toEqual([
      'compaction:start',
      'append:start',
      'compaction:end',
      'append:end',
      'read',
      'call',
      'later read',
    ]);
  });

  it('lets nothing pass a task that is not waiting for a summarizer', async () => {
    const queue = createSessionQueue();
    const store = gate();
    const order: string[] = [];
    const call = queue.run(async () => {
      await store.closed;
      order.push('call');
    });
    const append = queue.run(async () => {
      order.push('append');
    }, true);
    await tick();
    expect(order).toEqual([]);
    store.open();
    await Promise.all([call, append]);
    expect(order).toEqual(['call', 'append']);
  });

  it('keeps the summarizer`s name and draft', async () => {
    const queue = createSessionQueue();
    const summarizer: Summarizer = {
      name: 'custom',
      summarize: async () => 'text',
      draft: async () => ({ parts: [] }) as never,
    };
    const watched = queue.watch(summarizer);
    expect(watched.name).toBe('custom');
    expect(typeof watched.draft).toBe('function');
    expect(queue.watch({ name: 'plain', summarize: async () => 'x' }).draft).toBeUndefined();
  });
});
