import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { COMPACT_FUNCTION_OPTION_KEYS, checkCompactFunctionOptions } from './check-compact-function-options.js';

function thrown(options: unknown): InvalidSettingsError | undefined {
  try {
    checkCompactFunctionOptions(options);
    return undefined;
  } catch (error) {
    if (!InvalidSettingsError.isInstance(error)) throw error;
    return error;
  }
}

describe('checkCompactFunctionOptions', () => {
  it('accepts no options, an empty object, and every known option with a value of its type', () => {
    expect(thrown(undefined)).toBeUndefined();
    expect(thrown({})).toBeUndefined();
    expect(
      thrown({
        previous: undefined,
        summarizer: { name: 's', summarize: async () => 'S' },
        settings: { contextWindow: 8_000 },
        model: 'gpt-5',
        counter: heuristicCounter(),
        instructions: 'focus on the parser bug',
        signal: new AbortController().signal,
        fileToolMap: { read: ['open'] },
      }),
    ).toBeUndefined();
  });

  it('property: any value that is not an object is refused as a whole', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer())),
        (value) => {
          expect(thrown(value)?.setting).toBe('options');
        },
      ),
    );
  });

  it('property: an unknown key is named, and a key set to undefined is ignored', () => {
    const known = new Set<string>(COMPACT_FUNCTION_OPTION_KEYS);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 16 }).filter((key) => !known.has(key) && key !== '__proto__'),
        (key) => {
          expect(thrown({ [key]: 1 })?.setting).toBe(key);
          expect(thrown({ [key]: undefined })).toBeUndefined();
        },
      ),
    );
  });

  it('a misspelt option is told the closest known one', () => {
    expect(thrown({ sumarizer: {} })?.message).toMatch(/did you mean "summarizer"/);
  });
});
