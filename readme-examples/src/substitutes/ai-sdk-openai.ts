/**
 * Stands in for `@ai-sdk/openai` when the README examples run (the vitest project
 * `readme` aliases the module here; type-checking uses the real package). Every
 * model is the AI SDK's own `MockLanguageModelV4`, answering {@link TEST_MODEL_TEXT}.
 */
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { reportedInputTokens, TEST_MODEL_TEXT } from './test-model-text.js';

type GenerateResult = Awaited<ReturnType<LanguageModelV4['doGenerate']>>;

function answer(prompt: unknown): GenerateResult {
  const inputTokens = reportedInputTokens(prompt);
  return {
    content: [{ type: 'text', text: TEST_MODEL_TEXT }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 50, text: 50, reasoning: undefined },
    },
    warnings: [],
  };
}

/** A test model with the given id: `openai('gpt-5')`. */
function model(modelId: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'openai.responses',
    modelId,
    doGenerate: async ({ prompt }) => answer(prompt),
    doStream: async ({ prompt }) => {
      const result = answer(prompt);
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't0' },
        { type: 'text-delta', id: 't0', delta: TEST_MODEL_TEXT },
        { type: 'text-end', id: 't0' },
        { type: 'finish', finishReason: result.finishReason, usage: result.usage },
      ];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

/** The provider: callable, with the methods examples use. */
function createOpenAI(_settings: Record<string, unknown> = {}) {
  return Object.assign((modelId: string) => model(modelId), {
    languageModel: model,
    chat: model,
    responses: model,
  });
}

export const openai = createOpenAI();
export { createOpenAI };
