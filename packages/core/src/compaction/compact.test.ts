import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation, recordingSummarizer, words } from '../../test/builders.js';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { COMPACT_FUNCTION_OPTION_KEYS } from './check-compact-function-options.js';
import { compact } from './compact.js';
import { compactWith } from './compact-with.js';

const counter = heuristicCounter();
const settings = { contextWindow: 8_000, reserveTokens: 1_000, keepRecentTokens: 1_000, trigger: 0.5, minMessages: 4 };

function session(turns: number, outputTokens = 300): Message[] {
  const c = conversation();
  return Array.from({ length: turns }, (_, turn) => [
    c.user(`request ${turn}: ${words(40)}`),
    ...c.toolStep([{ name: 'read', input: { path: `src/${turn}.ts` }, output: words(outputTokens) }]),
    c.assistant(`done ${turn}`),
  ]).flat();
}

/** The rejection of `compact(messages, options)`, with the summarizer calls it made. */
async function refusal(options: unknown) {
  const summarizer = recordingSummarizer();
  const given = typeof options === 'object' && options !== null ? { summarizer, ...options } : options;
  const error = await compact(session(12), given as never).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { error, calls: summarizer.requests.length };
}

describe('compact', () => {
  it('returns undefined when there is nothing to compact', async () => {
    expect(await compact(session(1), { settings, counter })).toBeUndefined();
  });

  it('prune-only when clearing old tool outputs is enough: no summarizer call, strategy prune', async () => {
    const summarizer = recordingSummarizer();
    const wide = { contextWindow: 20_000, reserveTokens: 1_000, keepRecentTokens: 1_000, trigger: 0.5 };
    const c = conversation();
    const messages = Array.from({ length: 16 }, (_, turn) => [
      c.user(`request ${turn}`),
      ...c.toolStep([{ name: 'read', input: { path: `src/${turn}.ts` }, output: words(600) }]),
      c.assistant(`done ${turn}`),
    ]).flat();
    const result = await compact(messages, { settings: wide, counter, summarizer });
    expect(result?.strategy).toBe('prune');
    expect(result?.messagesSummarized).toBe(0);
    expect(summarizer.requests).toHaveLength(0);
  });

  it('property: is compactWith over the resolved settings and a cache over the counter, trigger manual', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 24 }),
        fc.integer({ min: 10, max: 900 }),
        fc.option(fc.constantFrom('focus on the parser bug', ''), { nil: undefined }),
        async (turns, output, instructions) => {
          const messages = session(turns, output);
          const given = { settings, counter, ...(instructions !== undefined ? { instructions } : {}) };
          const mine = await compact(messages, { ...given, summarizer: recordingSummarizer() });
          const internal = await compactWith(messages, {
            settings: resolveSettings(settings, 8_000),
            counting: { counter },
            summarizer: recordingSummarizer(),
            ...(instructions !== undefined ? { instructions } : {}),
          });
          const stable = (result: typeof mine) => result && { ...result, state: { ...result.state, createdAt: 'now' } };
          expect(stable(mine)).toEqual(stable(internal));
          if (mine) expect(mine.trigger).toBe('manual');
        },
      ),
      { numRuns: 25 },
    );
  });

  it('takes the context window from the model when the settings do not set one', async () => {
    const messages = session(12);
    const { contextWindow: _omitted, ...windowless } = settings;
    const byModel = await compact(messages, { settings: windowless, model: 'gpt-4', counter });
    const explicit = await compact(messages, { settings: { ...windowless, contextWindow: 8_192 }, counter });
    expect(byModel?.state.firstKeptMessageId).toBe(explicit?.state.firstKeptMessageId);
  });

  it.each([
    ['force', true, /session\.compact\(\)/],
    ['countTokens', () => 1, /counter/],
    ['toContextTokens', (n: number) => n, /calibration/],
    ['keepRecentTokens', 500, /settings\.keepRecentTokens/],
    ['trigger', 'auto', /trigger is 'manual'/],
    ['tokensBefore', 10, /measures it/],
    ['plan', {}, /compactWith/],
    ['now', () => new Date(), /compactWith/],
  ])(
    'the session knob %s is a typed error saying where it went, before any summarizer call',
    async (key, value, where) => {
      const { error, calls } = await refusal({ settings, counter, [key]: value });
      expect(InvalidSettingsError.isInstance(error)).toBe(true);
      expect((error as InvalidSettingsError).setting).toBe(key);
      expect((error as Error).message).toMatch(where);
      expect(calls).toBe(0);
    },
  );

  it('property: any other unknown key is a typed error naming it; unset keys are ignored', async () => {
    const known = new Set<string>([...COMPACT_FUNCTION_OPTION_KEYS, '__proto__', 'constructor']);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !known.has(key)),
        fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)),
        async (key, value) => {
          const { error, calls } = await refusal({ settings, counter, [key]: value });
          expect(InvalidSettingsError.isInstance(error)).toBe(true);
          expect((error as InvalidSettingsError).setting).toBe(key);
          expect(calls).toBe(0);
          expect(await compact(session(1), { settings, counter, [key]: undefined } as never)).toBeUndefined();
        },
      ),
      { numRuns: 50 },
    );
  });

  it.each([
    ['options', 'not options', /takes \{ previous, summarizer/],
    ['summarizer', 'gpt-5', /must be a Summarizer/],
    ['counter', { name: 'x' }, /must be a TokenCounter/],
    ['model', { id: 'gpt-5' }, /model id string/],
    ['instructions', 42, /must be a string/],
    ['signal', { aborted: false }, /AbortSignal/],
  ])('a wrong %s is a typed error at once', async (setting, value, problem) => {
    const { error, calls } = await refusal(setting === 'options' ? value : { settings, counter, [setting]: value });
    expect(InvalidSettingsError.isInstance(error)).toBe(true);
    expect((error as InvalidSettingsError).setting).toBe(setting);
    expect((error as Error).message).toMatch(problem);
    expect(calls).toBe(0);
  });

  it('bad settings are the settings check’s typed error', async () => {
    const { error } = await refusal({ settings: { ...settings, keepRecentTokens: -1 }, counter });
    expect(InvalidSettingsError.isInstance(error)).toBe(true);
    expect((error as InvalidSettingsError).setting).toBe('keepRecentTokens');
  });
});
