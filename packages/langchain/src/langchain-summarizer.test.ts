import { heuristicCounter, SUMMARIZATION_SYSTEM_PROMPT, SummaryRejectedError } from '@compaction/core';
import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { validSummary } from './__fixtures__/agent-fixtures.js';
import { langchainGenerate } from './langchain-generate.js';
import { langchainSummarizer } from './langchain-summarizer.js';

describe('langchainGenerate', () => {
  it('sends the system prompt and the prompt, and returns the text', async () => {
    const model = fakeModel().respond(new AIMessage({ content: [{ type: 'text', text: 'the summary' }] }));
    const result = await langchainGenerate(model)('system text', 'prompt text', { maxOutputTokens: 100 });
    expect(result).toEqual({ text: 'the summary' });
    expect(model.calls[0]!.messages.map((message) => [message.type, message.text])).toEqual([
      ['system', 'system text'],
      ['human', 'prompt text'],
    ]);
  });

  it.each([
    [{ finish_reason: 'length' }, 'length'],
    [{ stop_reason: 'max_tokens' }, 'length'],
    [{ finishReason: 'MAX_TOKENS' }, 'length'],
    [{ finish_reason: 'content_filter' }, 'content-filter'],
    [{ stop_reason: 'end_turn' }, 'stop'],
  ])('reads the finish reason from %o as %s', async (response_metadata, finishReason) => {
    const model = fakeModel().respond(new AIMessage({ content: 'x', response_metadata }));
    expect(await langchainGenerate(model)('s', 'p', { maxOutputTokens: 10 })).toEqual({ text: 'x', finishReason });
  });
});

describe('langchainSummarizer', () => {
  const request = {
    kind: 'history' as const,
    messages: [
      { id: 'u1', role: 'user' as const, parts: [{ type: 'text' as const, text: 'Fix the parser. '.repeat(200) }] },
    ],
    fileOps: { read: [], modified: [] },
    replacedTokens: 2000,
    counter: heuristicCounter(),
  };

  it("summarizes with the model through core's prompts and quality gate", async () => {
    const model = fakeModel().respond(new AIMessage(validSummary('fix the parser')));
    const summary = await langchainSummarizer(model).summarize(request);
    expect(summary).toContain('## Goal\n- fix the parser');
    expect(model.calls[0]!.messages[0]!.text).toBe(SUMMARIZATION_SYSTEM_PROMPT);
  });

  it('throws SummaryRejectedError when the model keeps answering like a chat (so core falls back)', async () => {
    const model = fakeModel()
      .respond(new AIMessage('Sure! What would you like me to do next?'))
      .respond(new AIMessage('Sure! Let me know.'));
    await expect(langchainSummarizer(model).summarize(request)).rejects.toSatisfy(SummaryRejectedError.isInstance);
    expect(model.callCount).toBe(2);
  });
});
