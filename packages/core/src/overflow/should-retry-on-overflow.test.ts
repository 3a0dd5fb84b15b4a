import { describe, expect, it } from 'vitest';
import { shouldRetryOnOverflow } from './should-retry-on-overflow.js';

const overflow = new Error('prompt is too long: 250000 tokens > 200000 maximum');

describe('shouldRetryOnOverflow', () => {
  it('asks for a retry only when the error is an overflow and the compaction made room', async () => {
    expect(await shouldRetryOnOverflow(overflow, async () => true)).toBe(true);
    expect(await shouldRetryOnOverflow(overflow, async () => false)).toBe(false);
  });

  it('never compacts for any other error or value', async () => {
    let recovered = 0;
    const recover = async () => ++recovered > 0;
    for (const error of [
      new Error('upstream 500'),
      null,
      undefined,
      'text',
      42,
      { statusCode: 429, message: 'rate limit' },
    ]) {
      expect(await shouldRetryOnOverflow(error, recover)).toBe(false);
    }
    expect(recovered).toBe(0);
  });

  it('hands the compaction the caller’s error unchanged and lets its own error surface', async () => {
    let seen: unknown;
    await shouldRetryOnOverflow(overflow, async (error) => {
      seen = error;
      return true;
    });
    expect(seen).toBe(overflow);
    const aborted = new Error('aborted');
    await expect(shouldRetryOnOverflow(overflow, () => Promise.reject(aborted))).rejects.toBe(aborted);
  });
});
