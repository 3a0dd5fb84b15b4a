import { describe, expect, it } from 'vitest';
import { invalidSettingOf } from '../../testing/index.js';
import { checkSummarizerOptions } from './check-llm-summarizer-options.js';

describe('checkSummarizerOptions', () => {
  it.each([
    ['x', 'options'],
    [42, 'options'],
    [[], 'options'],
    [null, 'options'],
    [{ maxTokens: 500 }, 'maxTokens'],
    [{ promts: {} }, 'promts'],
    [{ generate: async () => ({ text: '' }) }, 'generate'],
    [{ model: 'gpt-5-mini' }, 'model'],
    [{ maxOutputTokens: 'x' }, 'maxOutputTokens'],
    [{ maxOutputTokens: { histroy: 500 } }, 'maxOutputTokens.histroy'],
    [{ prompts: 'Summarize.' }, 'prompts'],
    [{ prompts: { sistem: 'x' } }, 'prompts.sistem'],
    [{ prompts: { system: 3 } }, 'prompts.system'],
    [{ prompts: { update: '  ' } }, 'prompts.update'],
    [{ serialize: 'x' }, 'serialize'],
    [{ serialize: { maxToolOutputChars: -5 } }, 'serialize.maxToolOutputChars'],
    [{ serialize: { includeReasoning: 'yes' } }, 'serialize.includeReasoning'],
    [{ serialize: { maxChars: 100 } }, 'serialize.maxChars'],
  ])('%o → InvalidSettingsError naming %s', (options, setting) => {
    expect(invalidSettingOf(() => checkSummarizerOptions(options, 'mastraSummarizer'))).toBe(setting);
  });

  it('says what to use, in the caller’s name', () => {
    expect(() => checkSummarizerOptions({ maxTokens: 500 }, 'langchainSummarizer')).toThrow(
      /unknown langchainSummarizer option key; use maxOutputTokens/,
    );
    expect(() => checkSummarizerOptions({ promts: {} }, 'mastraSummarizer')).toThrow(/did you mean "prompts"\?/);
  });

  it('accepts nothing, {}, every known key, and a spread that carries an unset key', () => {
    for (const options of [
      undefined,
      {},
      { prompts: {}, maxOutputTokens: 800, serialize: { maxToolOutputChars: 100 }, contextWindow: 32_000 },
      { maxOutputTokens: { history: 900 }, maxTokens: undefined },
      { prompts: { system: 'Summarize only.', update: undefined }, serialize: { includeReasoning: true } },
    ]) {
      expect(() => checkSummarizerOptions(options, 'mastraSummarizer')).not.toThrow();
    }
  });
});
