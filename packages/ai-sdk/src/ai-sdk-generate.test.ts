import { heuristicCounter } from '@compaction/core';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { SUMMARY_TEXT, textResult } from './__fixtures__/model-fixtures.js';
import { aiSdkGenerate } from './ai-sdk-generate.js';
import { aiSdkSummarizer } from './ai-sdk-summarizer.js';

describe('aiSdkGenerate', () => {
  it('calls the model once with the system prompt and one user message, and reads its text', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        ...textResult('ignored'),
        content: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'text', text: 'Hello ' },
          { type: 'text', text: 'world' },
        ],
        finishReason: { unified: 'length', raw: 'max_tokens' },
      }),
    });
    const signal = new AbortController().signal;
    const result = await aiSdkGenerate(model)('Be brief.', 'Say hello.', { maxOutputTokens: 77, signal });

    expect(result).toEqual({
      text: 'Hello world',
      finishReason: 'length',
      modelId: 'mock-model-id',
      usage: { inputTokens: 100, outputTokens: 10 },
    });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(model.doGenerateCalls[0]).toMatchObject({
      prompt: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Say hello.' }] },
      ],
      maxOutputTokens: 77,
      abortSignal: signal,
    });
  });

  it('lets a provider error through (the summarizer decides what to do)', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('rate limited');
      },
    });
    await expect(aiSdkGenerate(model)('s', 'p', { maxOutputTokens: 10 })).rejects.toThrow('rate limited');
  });
});

describe('aiSdkSummarizer', () => {
  it("is core's LLM summarizer writing with the model, with its options", async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => textResult(SUMMARY_TEXT) });
    const summarizer = aiSdkSummarizer(model, { maxOutputTokens: 1234 });
    const summary = await summarizer.summarize({
      kind: 'history',
      messages: [
        { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Please review every file of the project.' }] },
        { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Reviewed them all. '.repeat(200) }] },
      ],
      fileOps: { read: [], modified: [] },
      replacedTokens: 2000,
      counter: heuristicCounter(),
    });

    expect(summarizer.name).toBe('llm');
    expect(summary).toContain('## Goal');
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(model.doGenerateCalls[0]!.maxOutputTokens).toBe(1234);
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt[1])).toContain('Please review every file');
  });
});
