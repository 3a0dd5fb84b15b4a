import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { deadlineSettings, expectSummaryDeadlineFallback, neverAnswering } from '../../core/test/summary-deadline.js';
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
