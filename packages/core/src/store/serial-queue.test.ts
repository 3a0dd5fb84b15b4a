import { describe, expect, it } from 'vitest';
import { serialQueue } from './serial-queue.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serialQueue', () => {
  it('runs tasks of one key one at a time in call order, even after a failure', async () => {
    const serial = serialQueue();
    const events: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        events.push(`start ${name}`);
        await delay(ms);
        events.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      serial('k', task('a', 20)),
      serial('k', task('b', 1, true)),
      serial('k', task('c', 5)),
    ]);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('lets different keys run at the same time', async () => {
    const serial = serialQueue();
    const events: string[] = [];
    await Promise.all([
      serial('a', async () => {
        events.push('start a');
        await delay(20);
        events.push('end a');
      }),
      serial('b', async () => {
        events.push('start b');
        await delay(1);
        events.push('end b');
      }),
    ]);
    expect(events).toEqual(['start a', 'start b', 'end b', 'end a']);
  });
});
