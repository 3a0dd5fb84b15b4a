import { InvalidMessageError, memoryStore } from '@compaction/core';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { textResult } from './__fixtures__/model-fixtures.js';
import type { ProviderPrompt } from './ai-sdk-types.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { partToCore } from './part-to-core.js';

/** The prompt through the middleware: 'sent', 'refused' (our InvalidMessageError at `index`), or the error. */
async function send(prompt: unknown): Promise<string> {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doGenerate: async () => textResult('ok') }),
    middleware: compactionMiddleware({ store: memoryStore(), summarizer: 'structured' }),
  });
  return model
    .doGenerate({ prompt: prompt as ProviderPrompt, providerOptions: { compaction: { sessionId: 'c' } } })
    .then(
      () => 'sent',
      (error: unknown) => (InvalidMessageError.isInstance(error) ? `refused ${error.index}` : String(error)),
    );
}

const user = { role: 'user', content: [{ type: 'text', text: 'hi' }] };

describe('malformed content is refused at conversion with InvalidMessageError, naming the message', () => {
  it.each([
    ['a part that is null', [null]],
    ['a part that is a string', ['hi']],
    ['a tool result without output', [{ type: 'tool-result', toolCallId: 't', toolName: 'read' }]],
    [
      'a tool result whose output is a bare string',
      [{ type: 'tool-result', toolCallId: 't', toolName: 'read', output: 'x' }],
    ],
    ['a tool result whose output is null', [{ type: 'tool-result', toolCallId: 't', toolName: 'read', output: null }]],
  ])('%s', async (_, content) => {
    expect(await send([user, { role: 'tool', content }, user])).toBe('refused 1');
  });

  it('content that is neither a string nor an array of parts', async () => {
    expect(await send([user, { role: 'assistant', content: 42 }, user])).toBe('refused 1');
    expect(await send([user, { role: 'assistant', content: { type: 'text', text: 'hi' } }, user])).toBe('refused 1');
  });

  it('the valid neighbours are sent: every tagged tool output, string content, parts core does not model', async () => {
    const outputs = [
      { type: 'text', value: 'x' },
      { type: 'json', value: { a: 1 } },
      { type: 'error-text', value: 'failed' },
      { type: 'execution-denied', reason: 'no' },
      { type: 'content', value: [{ type: 'text', text: 'x' }] },
    ];
    for (const output of outputs) {
      const call = { type: 'tool-call', toolCallId: 't', toolName: 'read', input: {} };
      const result = { type: 'tool-result', toolCallId: 't', toolName: 'read', output };
      expect(
        await send([user, { role: 'assistant', content: [call] }, { role: 'tool', content: [result] }, user]),
      ).toBe('sent');
    }
    expect(await send([{ role: 'system', content: 'Be brief.' }, user])).toBe('sent');
    expect(await send([user, { role: 'assistant', content: [{ type: 'custom', kind: 'x' }] }, user])).toBe('sent');
  });

  it('partToCore names the index it is given', () => {
    const error = (() => {
      try {
        partToCore(null as never, 7);
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidMessageError.isInstance(error) && error.index).toBe(7);
  });
});
