import {
  type Message,
  memoryStore,
  processConversationMemory,
  processCountedConversationMemory,
} from '@compaction/core';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { textResult } from './__fixtures__/model-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { conversationKey } from './conversation-key.js';
import { promptToMessages } from './convert-prompt.js';
import { messageConverter } from './message-converter.js';

/** Entries in the process's two budgets (a conversation held counted, not loaded, is in the second). */
const kept = () => processConversationMemory().size + processCountedConversationMemory().size;

const view = (messages: readonly Message[]) => messages.map(({ id, role, parts }) => ({ id, role, parts }));

function setup() {
  const mock = new MockLanguageModelV4({ doGenerate: async () => textResult('ok') });
  const middleware = compactionMiddleware({
    store: memoryStore(),
    summarizer: 'structured',
    settings: { contextWindow: 128_000 },
  });
  const model = wrapLanguageModel({ model: mock, middleware });
  return { mock, middleware, call: (messages: ModelMessage[]) => generateText({ model, messages }) };
}

describe('the conversation entry of a call without a session id', () => {
  it('is found before converting, and an opening edit the sampled ids miss is its own conversation, call after call', async () => {
    const { mock, middleware, call } = setup();
    const long = 'a'.repeat(10_000);
    // Same length, one character changed where the content id's sample does not look.
    const edited = `${long.slice(0, 5_001)}b${long.slice(5_002)}`;
    const opening = (text: string): ModelMessage[] => [
      { role: 'user', content: text },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'next' },
    ];
    const size = kept();
    await call(opening(long));
    await call(opening(edited));
    await call(opening(edited));
    await call(opening(long));
    const [first, second, third, fourth] = mock.doGenerateCalls.map((generated) => generated.prompt);
    const opened = (prompt: typeof first) => (prompt![0]!.content as { text: string }[])[0]!.text;
    expect([opened(first), opened(second), opened(third), opened(fourth)]).toEqual([long, edited, edited, long]);
    expect(second).toStrictEqual(third);
    expect(first).toStrictEqual(fourth);
    expect(kept() - size).toBe(2); // one entry each conversation
    // The converted ids tell the edit apart (promptToMessages' sampled ids alone do not).
    const converter = messageConverter();
    converter.toCore(first!);
    const editedMessages = converter.toCore(second!);
    const original = promptToMessages(first!);
    expect(conversationKey(promptToMessages(second!))).toBe(conversationKey(original));
    expect(conversationKey(editedMessages)).not.toBe(conversationKey(original));
    // Each conversation's session holds its own messages.
    const modelId = mock.modelId;
    expect(view(await middleware.session(conversationKey(original)!, modelId).history())).toEqual(view(original));
    expect(view(await middleware.session(conversationKey(editedMessages)!, modelId).history())).toEqual(
      view(editedMessages),
    );
  });

  it('is not made for a prompt of system messages only: the call goes through untouched', async () => {
    const { mock, call } = setup();
    const size = kept();
    await generateText({
      model: wrapLanguageModel({ model: mock, middleware: compactionMiddleware({ summarizer: 'structured' }) }),
      system: 'Be brief.',
      prompt: [],
    }).catch(() => undefined);
    await call([{ role: 'system', content: 'only this' }]).catch(() => undefined);
    expect(kept()).toBe(size);
  });
});
