import { invalidSettingOf } from '@compaction/core/testing';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { deadlineSettings, expectSummaryDeadlineFallback, neverAnswering } from '../../core/test/summary-deadline.js';
import { SUMMARY_TEXT, textResult } from './__fixtures__/model-fixtures.js';
import { aiSdkGenerate } from './ai-sdk-generate.js';
import { aiSdkSummarizer } from './ai-sdk-summarizer.js';
import { compactionMiddleware } from './compaction-middleware.js';

const settings = deadlineSettings(100);

describe('aiSdkSummarizer under a deadline (r09)', () => {
  it.each([
    ['listens to its abort signal', true],
    ['ignores its abort signal', false],
  ])('a model that never answers and %s: the call is aborted and compaction falls back', async (_label, listens) => {
    const never = neverAnswering(listens);
    const model = new MockLanguageModelV4({ doGenerate: never.call });
    await expectSummaryDeadlineFallback(aiSdkSummarizer(model), () => never.signals, 100);
  });
});

describe('compactionMiddleware with a summary model that never answers (r09)', () => {
  it('generateText returns: the summary call is abandoned at summaryTimeoutMs and the structured summary is used', async () => {
    const hanging = new MockLanguageModelV4({ doGenerate: () => new Promise(() => {}) });
    const agentModel = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'Done.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      }),
    });
    const model = wrapLanguageModel({
      model: agentModel,
      middleware: compactionMiddleware({ summaryModel: hanging, settings }),
    });
    const messages = Array.from({ length: 40 }, (_, index) => ({
      role: index % 2 ? ('assistant' as const) : ('user' as const),
      content: `m${index} ${'w '.repeat(250)}`,
    }));
    const result = await generateText({ model, messages });
    expect(result.text).toBe('Done.');
    expect(result.providerMetadata?.compaction).toMatchObject({
      strategy: 'structured',
      fallbacks: [{ strategy: 'llm', error: expect.stringMatching(/timeout/) }],
    });
  });
});

describe('aiSdkSummarizer checks its model and options when it is made', () => {
  const model = () => new MockLanguageModelV4({ provider: 'openai', modelId: 'gpt-5-mini' });

  it.each([
    ['gpt-5-mini', 'model', /aiSdkSummarizer\(openai\("gpt-5-mini"\)\)/],
    ['openai/gpt-5-mini', 'model', /a string id cannot be/],
    [undefined, 'model', /AI SDK model object/],
    [{ modelId: 'gpt-5-mini' }, 'model', /AI SDK model object/],
  ])('model %o → InvalidSettingsError naming %s', (given, setting, message) => {
    expect(invalidSettingOf(() => aiSdkSummarizer(given as never))).toBe(setting);
    expect(() => aiSdkSummarizer(given as never)).toThrow(message);
    expect(invalidSettingOf(() => aiSdkGenerate(given as never))).toBe(setting);
  });

  it.each([
    [{ maxTokens: 10 }, 'maxTokens', /use maxOutputTokens/],
    [{ maxOutputToken: 10 }, 'maxOutputToken', /did you mean "maxOutputTokens"/],
    [{ model: 'gpt-5-mini' }, 'model', /first argument/],
    [{ prompt: 'Summarize.' }, 'prompt', /prompts/],
    [{ maxOutputTokens: 0 }, 'maxOutputTokens', /positive integer/],
    [{ contextWindow: -1 }, 'contextWindow', /positive whole number/],
    [{ maxOutputTokens: '2048' }, 'maxOutputTokens', /maxOutputTokens/],
    [{ prompts: { sistem: 'Summarize.' } }, 'prompts.sistem', /did you mean "system"/],
    [{ serialize: { maxChars: 100 } }, 'serialize.maxChars', /serialize/],
    ['fast', 'options', /options object/],
    [null, 'options', /options object/],
  ])('options %o → InvalidSettingsError naming %s', (options, setting, message) => {
    expect(invalidSettingOf(() => aiSdkSummarizer(model(), options as never))).toBe(setting);
    expect(() => aiSdkSummarizer(model(), options as never)).toThrow(message);
  });

  it('accepts a model of any specification version the AI SDK takes, with every option of core’s llmSummarizer', async () => {
    const writer = new MockLanguageModelV4({ doGenerate: async () => textResult(SUMMARY_TEXT) });
    const options = {
      maxOutputTokens: { history: 1024, turnPrefix: 512 },
      prompts: {},
      serialize: { maxToolOutputChars: 500 },
      contextWindow: 64_000,
    };
    const summarizer = aiSdkSummarizer(writer, options);
    expect(summarizer.name).toBe('llm');
    expect(() => aiSdkSummarizer(writer)).not.toThrow();
    expect(() => aiSdkSummarizer(writer, { maxOutputTokens: undefined })).not.toThrow();
    expect(() => aiSdkGenerate(writer)).not.toThrow();
  });
});
