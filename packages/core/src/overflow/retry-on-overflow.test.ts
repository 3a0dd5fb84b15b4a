import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { retryOnOverflow } from './retry-on-overflow.js';

const overflow = () =>
  Object.assign(new Error('prompt is too long: 250000 tokens > 200000 maximum'), { statusCode: 400 });

/** How one model call ends. */
type Outcome = 'ok' | 'overflow' | 'other';
const outcome = fc.constantFrom<Outcome>('ok', 'overflow', 'other');

/** Runs `retryOnOverflow` over scripted outcomes and records what it called. */
async function scripted(first: Outcome, recovers: boolean | 'throws', second: Outcome) {
  const calls: string[] = [];
  const errors = { overflow: overflow(), other: new Error('upstream 500'), second: new Error('retry failed') };
  const end = (which: Outcome, label: string, error: Error) => {
    if (which === 'ok') return label;
    throw which === 'overflow' && label === 'second' ? Object.assign(overflow(), { label }) : error;
  };
  const promise = retryOnOverflow({
    call: async () => {
      calls.push('call');
      return end(first, 'first', first === 'overflow' ? errors.overflow : errors.other);
    },
    recover: async (error) => {
      calls.push('recover');
      expect(error).toBe(errors.overflow); // the caller's own error, unwrapped
      if (recovers === 'throws') throw new Error('aborted');
      return recovers;
    },
    retry: async () => {
      calls.push('retry');
      return end(second, 'second', errors.second);
    },
  });
  const settled = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return { calls, settled, errors };
}

describe('retryOnOverflow', () => {
  it('returns the first answer without compacting', async () => {
    const { calls, settled } = await scripted('ok', true, 'ok');
    expect(calls).toEqual(['call']);
    expect(settled).toEqual({ value: 'first' });
  });

  it('compacts once and calls once more after an overflow', async () => {
    const { calls, settled } = await scripted('overflow', true, 'ok');
    expect(calls).toEqual(['call', 'recover', 'retry']);
    expect(settled).toEqual({ value: 'second' });
  });

  it('lets a second overflow surface: no loop', async () => {
    const { calls, settled } = await scripted('overflow', true, 'overflow');
    expect(calls).toEqual(['call', 'recover', 'retry']);
    expect(settled).toMatchObject({ error: { label: 'second' } });
  });

  it('surfaces the overflow as it came when the compaction could not make room', async () => {
    const { calls, settled, errors } = await scripted('overflow', false, 'ok');
    expect(calls).toEqual(['call', 'recover']);
    expect(settled).toEqual({ error: errors.overflow });
  });

  it('passes any other error through without compacting', async () => {
    const { calls, settled, errors } = await scripted('other', true, 'ok');
    expect(calls).toEqual(['call']);
    expect(settled).toEqual({ error: errors.other });
  });

  it('holds for every timing of outcomes: at most one compaction and one retry, errors unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        outcome,
        fc.constantFrom<boolean | 'throws'>(true, false, 'throws'),
        outcome,
        async (first, recovers, second) => {
          const { calls, settled, errors } = await scripted(first, recovers, second);
          expect(calls.filter((name) => name === 'call')).toHaveLength(1);
          expect(calls.filter((name) => name === 'recover').length).toBeLessThanOrEqual(1);
          expect(calls.filter((name) => name === 'retry').length).toBeLessThanOrEqual(1);
          const retried = first === 'overflow' && recovers === true;
          expect(calls.includes('retry')).toBe(retried);
          expect(calls.includes('recover')).toBe(first === 'overflow');
          if (first === 'ok') expect(settled).toEqual({ value: 'first' });
          else if (first === 'other') expect(settled).toEqual({ error: errors.other });
          else if (recovers === false) expect(settled).toEqual({ error: errors.overflow });
          else if (recovers === 'throws') expect(settled).toMatchObject({ error: { message: 'aborted' } });
          else if (second === 'ok') expect(settled).toEqual({ value: 'second' });
          else expect('error' in settled).toBe(true);
        },
      ),
    );
  });

  it('recognizes the overflow wherever the provider puts it: message, response body, cause chain, status 413', async () => {
    const shapes: unknown[] = [
      new Error(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130552 tokens.",
      ),
      Object.assign(new Error('Bad Request'), {
        responseBody: '{"error":{"message":"prompt is too long: 208310 tokens > 200000 maximum"}}',
      }),
      new Error('model call failed', { cause: new Error('Input is too long for requested model.') }),
      Object.assign(new Error('Payload Too Large'), { statusCode: 413 }),
    ];
    for (const shape of shapes) {
      let recovered = 0;
      const value = await retryOnOverflow({
        call: () => Promise.reject(shape),
        recover: async () => ++recovered > 0,
        retry: async () => 'again',
      });
      expect({ value, recovered }).toEqual({ value: 'again', recovered: 1 });
    }
    // A rate limit is not an overflow: no compaction, the error as it came.
    const rateLimit = Object.assign(new Error('Rate limit reached: tokens per minute'), { statusCode: 429 });
    await expect(
      retryOnOverflow({ call: () => Promise.reject(rateLimit), recover: async () => true, retry: async () => 'again' }),
    ).rejects.toBe(rateLimit);
  });

  it('with a real session: one emergency compaction shrinks the context, a second overflow on it surfaces', async () => {
    const c = conversation();
    const session = createCompactionSession({
      sessionId: 's',
      settings: { contextWindow: 4_000, reserveTokens: 500, keepRecentTokens: 600, trigger: 1, minMessages: 4 },
      counter: heuristicCounter(),
    });
    await session.append(
      Array.from({ length: 6 }, (_, turn) => [
        c.user(`request ${turn}: ${words(120)}`),
        c.assistant(`done ${turn}: ${words(120)}`),
      ]).flat(),
    );
    const before = (await session.context()).length;
    const seen: number[] = [];
    const model = async (messages: number) => {
      seen.push(messages);
      throw overflow();
    };
    const recover = (error: unknown) => session.recoverFromOverflow(error);
    const retried = retryOnOverflow({
      call: () => model(before),
      recover,
      retry: async () => model((await session.context()).length),
    });
    await expect(retried).rejects.toThrow(/prompt is too long/);
    expect(seen[0]).toBe(before);
    expect(seen[1]).toBeLessThan(before);
    expect((await session.state())?.version).toBe(1);
    // The same context overflowing again: the session's loop guard says no, the error surfaces, no third call.
    await expect(retryOnOverflow({ call: () => model(seen[1] ?? 0), recover, retry: () => model(0) })).rejects.toThrow(
      /prompt is too long/,
    );
    expect(seen).toHaveLength(3);
  });
});
