import { heuristicCounter, SUMMARIZATION_SYSTEM_PROMPT, SummaryRejectedError } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import type { MastraModelConfig } from '@mastra/core/llm';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { SCRIPTED_SUMMARY } from './__fixtures__/scripted-model.js';
import { type MastraSummarizerOptions, mastraGenerateText, mastraSummarizer } from './mastra-summarizer.js';

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

function mockModel(text: string, finish: 'stop' | 'length' = 'stop') {
  const model = new MockLanguageModelV4({
    provider: 'mock',
    modelId: 'summary-model',
    doGenerate: async () => ({
      content: [{ type: 'text', text }],
      finishReason: { unified: finish, raw: finish },
      usage,
      warnings: [],
    }),
  });
  return { model, config: model as unknown as MastraModelConfig };
}

describe('mastraGenerateText', () => {
  it('sends the system prompt as instructions, the prompt as the user message, and the output limit', async () => {
    const { model, config } = mockModel('the text');
    const result = await mastraGenerateText(config)('Summarize only.', 'Transcript here.', { maxOutputTokens: 321 });
    expect(result).toEqual({
      text: 'the text',
      finishReason: 'stop',
      modelId: 'summary-model',
      usage: { inputTokens: 100, outputTokens: 10 },
    });
    const [call] = model.doGenerateCalls;
    expect(call!.maxOutputTokens).toBe(321);
    expect(call!.prompt.map((message) => message.role)).toEqual(['system', 'user']);
    expect(call!.prompt[0]!.content).toBe('Summarize only.');
    expect(JSON.stringify(call!.prompt[1]!.content)).toContain('Transcript here.');
  });

  it('reports a cut-off answer as finish reason length', async () => {
    const { config } = mockModel('half a summ', 'length');
    expect(await mastraGenerateText(config)('s', 'p', { maxOutputTokens: 5 })).toEqual({
      text: 'half a summ',
      finishReason: 'length',
      modelId: 'summary-model',
      usage: { inputTokens: 100, outputTokens: 10 },
    });
  });
});

describe('mastraSummarizer', () => {
  const request = {
    kind: 'history' as const,
    messages: [
      {
        id: 'u1',
        role: 'user' as const,
        parts: [{ type: 'text' as const, text: 'Read the project files. '.repeat(200) }],
      },
    ],
    fileOps: { read: [], modified: [] },
    replacedTokens: 5000,
    counter: heuristicCounter(),
  };

  it("is core's llm summarizer on the Mastra model", async () => {
    const { model, config } = mockModel(SCRIPTED_SUMMARY);
    const summarizer = mastraSummarizer(config);
    expect(summarizer.name).toBe('llm');
    expect(await summarizer.summarize(request)).toContain('SCRIPTED-SUMMARY');
    expect(model.doGenerateCalls[0]!.prompt[0]!.content).toBe(SUMMARIZATION_SYSTEM_PROMPT);
  });

  it('rejects an answer that is not a summary, so the engine falls back', async () => {
    const { config } = mockModel('Sure! Let me continue with the task.');
    await expect(mastraSummarizer(config).summarize(request)).rejects.toSatisfy(SummaryRejectedError.isInstance);
  });
});

describe('mastraSummarizer checks its model and options when made', () => {
  const made = (model: unknown, options?: unknown) => () =>
    mastraSummarizer(model as MastraModelConfig, options as MastraSummarizerOptions);

  it.each([
    [42, 'model'],
    [undefined, 'model'],
    [{ name: 'gpt-5' }, 'model'],
    ['gpt-5-mini', 'model'],
    ['openai/', 'model'],
  ])('model %o → InvalidSettingsError naming %s', (model, setting) => {
    expect(invalidSettingOf(made(model))).toBe(setting);
  });

  it('refuses an unknown option, telling maxTokens is maxOutputTokens', () => {
    const { config } = mockModel(SCRIPTED_SUMMARY);
    expect(invalidSettingOf(made(config, { maxTokens: 500 }))).toBe('maxTokens');
    expect(made(config, { maxTokens: 500 })).toThrow(/use maxOutputTokens/);
    expect(invalidSettingOf(made(config, 'x'))).toBe('options');
  });

  it('accepts a model, a provider/model id, an OpenAI-compatible config and the known options', () => {
    const { config } = mockModel(SCRIPTED_SUMMARY);
    expect(made(config, { maxOutputTokens: 500, contextWindow: 32_000 })).not.toThrow();
    expect(made('openai/gpt-5-mini')).not.toThrow();
    expect(made({ id: 'openai/gpt-5-mini', url: 'http://localhost:1234/v1' })).not.toThrow();
    expect(made({ providerId: 'openai', modelId: 'gpt-5-mini' })).not.toThrow();
  });
});
