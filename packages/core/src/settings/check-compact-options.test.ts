import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { createCompactionSession } from '../session/create-compaction-session.js';

const messages = Array.from({ length: 12 }, (_, index) => ({
  id: `m${index}`,
  role: index % 2 ? ('assistant' as const) : ('user' as const),
  parts: [{ type: 'text' as const, text: `msg ${index} ${'w '.repeat(2000)}` }],
}));

describe('session.compact options (r20)', () => {
  it.each([Number.NaN, -100, 'lots', 1.5, Number.POSITIVE_INFINITY])(
    'compact({ keepRecentTokens: %s }) is a typed error and compacts nothing',
    async (keepRecentTokens) => {
      const session = createCompactionSession({ sessionId: 't' });
      await session.append(messages);
      const error = await session.compact({ keepRecentTokens: keepRecentTokens as number }).catch((caught) => caught);
      expect(InvalidSettingsError.isInstance(error)).toBe(true);
      expect((error as InvalidSettingsError).setting).toBe('keepRecentTokens');
      expect(await session.state()).toBeUndefined();
    },
  );

  it.each([Number.NaN, -100, 'lots'])(
    'compact({ trigger: %s }) says the trigger is a session setting',
    async (trigger) => {
      const session = createCompactionSession({ sessionId: 't' });
      const error = await session.compact({ trigger } as never).catch((caught) => caught);
      expect((error as InvalidSettingsError).setting).toBe('trigger');
      expect((error as Error).message).toContain('session setting');
    },
  );

  it('any keepRecentTokens that is not a whole number ≥ 0 is rejected before anything runs', async () => {
    const session = createCompactionSession({ sessionId: 't' });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.double().filter((value) => !(Number.isInteger(value) && value >= 0)),
          fc.string(),
          fc.boolean(),
          fc.object(),
        ),
        async (keepRecentTokens) => {
          const error = await session
            .compact({ keepRecentTokens: keepRecentTokens as number })
            .catch((caught) => caught);
          expect((error as InvalidSettingsError).setting).toBe('keepRecentTokens');
        },
      ),
      { numRuns: 50 },
    );
  });
});
