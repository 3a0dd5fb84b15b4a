import { heuristicCounter } from '@compaction/core';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';

describe('workspace wiring', () => {
  it('resolves core from source and drives the AI SDK test model', async () => {
    expect(heuristicCounter().countText('abcd')).toBe(1);
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'hello' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      }),
    });
    const result = await generateText({ model, prompt: 'hi' });
    expect(result.text).toBe('hello');
  });
});
