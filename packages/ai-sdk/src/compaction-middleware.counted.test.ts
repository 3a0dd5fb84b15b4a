import { memoryStore, processConversationMemory, processCountedConversationMemory } from '@compaction/core';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { conversation, promptTokens, textResult, unpairedToolParts } from './__fixtures__/model-fixtures.js';
import type { ProviderPrompt } from './ai-sdk-types.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { promptToMessages } from './convert-prompt.js';
import { COUNTED_CONVERSATION_BYTES, COUNTED_MESSAGE_BYTES } from './session-registry.js';

const view = (messages: readonly { id: string; role: string; parts: unknown }[]) =>
  JSON.stringify(messages.map(({ id, role, parts }) => ({ id, role, parts })));

/** A middleware over a mock that reports the prompt's size as its usage (so the session holds the history counted). */
function setup(contextWindow: number) {
  const mock = new MockLanguageModelV4({
    provider: 'openai',
    modelId: 'gpt-5',
    doGenerate: async ({ prompt }) => textResult('Noted.', promptTokens(prompt)),
  });
  const middleware = compactionMiddleware({
    store: memoryStore(),
    summarizer: 'structured',
    settings: { contextWindow },
  });
  const model = wrapLanguageModel({ model: mock, middleware });
  const call = (sessionId: string, messages: ModelMessage[]) =>
    generateText({ model, messages, providerOptions: { compaction: { sessionId } } });
  return { mock, middleware, call };
}

const sentPrompt = (mock: MockLanguageModelV4) => mock.doGenerateCalls.at(-1)!.prompt as ProviderPrompt;

describe('compactionMiddleware with the history held counted, not loaded', () => {
  it('keeps the conversation in the counted budget at its estimated size, and the session still holds every message', async () => {
    const { mock, middleware, call } = setup(1_000_000);
    const loaded = processConversationMemory();
    const counted = processCountedConversationMemory();
    const [loadedSize, countedSize, countedBytes] = [loaded.size, counted.size, counted.bytes];
    let messages = conversation(20);
    await call('counted-budget', messages); // no usage record yet: loaded
    expect(counted.size).toBe(countedSize);
    for (let turn = 20; turn < 23; turn += 1) {
      messages = [...messages, ...conversation(1, turn)];
      await call('counted-budget', messages);
      // One entry, in the counted budget, at what it was measured to cost.
      expect(counted.size - countedSize).toBe(1);
      expect(loaded.size).toBe(loadedSize);
      expect(counted.bytes - countedBytes).toBe(COUNTED_CONVERSATION_BYTES + messages.length * COUNTED_MESSAGE_BYTES);
      // What the model got is the prompt as the AI SDK built it, and the session reads it back whole.
      const sent = sentPrompt(mock);
      expect(sent).toHaveLength(messages.length);
      expect(view(await middleware.session('counted-budget', 'gpt-5').history())).toBe(view(promptToMessages(sent)));
    }
  });

  it('compacts a conversation whose core messages were let go: the session asks for them and they are made again', async () => {
    const { mock, middleware, call } = setup(6_000);
    let messages = conversation(4);
    let countedCalls = 0;
    let compacted = false;
    for (let turn = 4; turn < 60 && !compacted; turn += 1) {
      messages = [...messages, ...conversation(1, turn)];
      const countedBefore = processCountedConversationMemory().size;
      const result = await call('counted-compaction', messages);
      if (processCountedConversationMemory().size > countedBefore) countedCalls += 1;
      compacted = result.providerMetadata?.compaction !== undefined;
    }
    expect(countedCalls).toBeGreaterThan(0); // held counted before the compaction
    expect(compacted).toBe(true);
    const last = sentPrompt(mock);
    const reference = await referencePrompt(messages);
    // A summary, then the newest messages exactly as the AI SDK built them, tool pairs whole.
    let kept = 0;
    while (kept < last.length && JSON.stringify(last.at(-1 - kept)) === JSON.stringify(reference.at(-1 - kept)))
      kept += 1;
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(last.length - kept).toBeLessThanOrEqual(2);
    expect(last.length).toBeLessThan(reference.length);
    expect(unpairedToolParts(last)).toEqual([]);
    // The session holds the whole history, made again with the ids a first conversion gives.
    const session = middleware.session('counted-compaction', 'gpt-5');
    expect(view(await session.history())).toBe(view(promptToMessages(reference)));
  });

  it('serves concurrent calls of a conversation held counted: each model call gets its own prompt, the session holds the last', async () => {
    const { mock, middleware, call } = setup(1_000_000);
    let messages = conversation(10);
    await call('counted-concurrent', messages);
    messages = [...messages, ...conversation(1, 10)];
    await call('counted-concurrent', messages); // held counted from here on
    const first = [...messages, ...conversation(1, 11)];
    const second = [...first, ...conversation(2, 12)];
    const edited = structuredClone(second);
    edited[3] = { role: 'assistant', content: 'An edited early answer.' }; // a text: no tool pair broken
    for (const batch of [
      [first, second],
      [second, edited],
      [first, second, edited],
    ]) {
      const before = mock.doGenerateCalls.length;
      await Promise.all(batch.map((prompt) => call('counted-concurrent', prompt)));
      const sent = mock.doGenerateCalls.slice(before).map((generated) => JSON.stringify(generated.prompt));
      const expected = await Promise.all(batch.map(async (prompt) => JSON.stringify(await referencePrompt(prompt))));
      expect(sent.sort()).toEqual(expected.sort());
      const last = await referencePrompt(batch.at(-1)!);
      expect(view(await middleware.session('counted-concurrent', 'gpt-5').history())).toBe(
        view(promptToMessages(last)),
      );
    }
  });
});

/** The prompt the AI SDK itself builds from `messages` (an unwrapped mock model's). */
async function referencePrompt(messages: ModelMessage[]): Promise<ProviderPrompt> {
  const reference = new MockLanguageModelV4({ doGenerate: async () => textResult('ok') });
  await generateText({ model: reference, messages });
  return reference.doGenerateCalls[0]!.prompt;
}
