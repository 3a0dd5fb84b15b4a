import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { llmSummarizer } from '../summarize/llm/llm-summarizer.js';
import { structuredSummarizer } from '../summarize/structured/structured-summarizer.js';
import type { GenerateText, Summarizer } from '../summarize/types.js';
import { invalidSettingOf } from '../testing/invalid-setting-of.js';
import { resolveSummarizerOption, type SummarizerOptionResolver } from './resolve-summarizer-option.js';

/** A framework whose models are `{ modelId, generate }` objects and whose ids resolve. */
type ToyModel = { modelId: string; generate: GenerateText };
const toyModel = (modelId: string): ToyModel => ({
  modelId,
  generate: async () => ({ text: `summary by ${modelId}` }),
});

function resolver(options: { ids: boolean }) {
  const made: string[] = [];
  const writeWith = (model: ToyModel) => {
    made.push(model.modelId);
    return llmSummarizer({ generate: model.generate });
  };
  const table: SummarizerOptionResolver<ToyModel> = {
    option: 'summarizer',
    accepts: "'structured', a toy model or a Summarizer",
    isModel: (value): value is ToyModel =>
      typeof (value as { modelId?: unknown } | null)?.modelId === 'string' &&
      typeof (value as { generate?: unknown }).generate === 'function',
    fromModel: writeWith,
    ...(options.ids ? { fromModelId: (id: string) => writeWith(toyModel(id)) } : {}),
  };
  return { table, made };
}

describe('resolveSummarizerOption', () => {
  it('takes a core Summarizer as it is and makes the structured one for "structured"', () => {
    const { table } = resolver({ ids: false });
    const own: Summarizer = structuredSummarizer();
    expect(resolveSummarizerOption(own, table)).toBe(own);
    expect(resolveSummarizerOption('structured', table).name).toBe(structuredSummarizer().name);
  });

  it('wraps a framework model once per model and resolver', () => {
    const { table, made } = resolver({ ids: false });
    const model = toyModel('m');
    const first = resolveSummarizerOption(model, table);
    expect(resolveSummarizerOption(model, table)).toBe(first);
    expect(first.name).toBe('llm');
    expect(made).toEqual(['m']);
    expect(resolveSummarizerOption(model, resolver({ ids: false }).table)).not.toBe(first);
  });

  it('resolves a model id once per id and resolver when the framework takes ids', () => {
    const { table, made } = resolver({ ids: true });
    const first = resolveSummarizerOption('openai:gpt-5-mini', table);
    expect(resolveSummarizerOption('openai:gpt-5-mini', table)).toBe(first);
    expect(resolveSummarizerOption('anthropic:claude', table)).not.toBe(first);
    expect(made).toEqual(['openai:gpt-5-mini', 'anthropic:claude']);
  });

  it("falls back to the default model for 'llm' and nothing, else structured for nothing", () => {
    const { table } = resolver({ ids: false });
    const model = toyModel('agent');
    expect(resolveSummarizerOption(undefined, table, model)).toBe(resolveSummarizerOption('llm', table, model));
    expect(resolveSummarizerOption(undefined, table).name).toBe(structuredSummarizer().name);
  });

  it("names the option for 'llm' without a model, an id the framework cannot resolve, and any other value", () => {
    const { table } = resolver({ ids: false });
    expect(() => resolveSummarizerOption('llm', table)).toThrow(/'llm' needs a model to write with/);
    for (const value of ['gpt-5-mini', '', '   ', 42, null, { generate() {} }, [toyModel('m')], Number.NaN]) {
      expect(invalidSettingOf(() => resolveSummarizerOption(value, table))).toBe('summarizer');
    }
    expect(() => resolveSummarizerOption({ generate() {} }, table)).toThrow(InvalidSettingsError);
    expect(() => resolveSummarizerOption(42, table)).toThrow(
      /must be 'structured', a toy model or a Summarizer; got 42/,
    );
    // With ids, a blank string is still no id.
    expect(invalidSettingOf(() => resolveSummarizerOption('  ', resolver({ ids: true }).table))).toBe('summarizer');
  });
});
