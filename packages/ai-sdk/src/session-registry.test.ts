import {
  HELD_MESSAGE_BYTES,
  heldMessagesBytes,
  heuristicCounter,
  PROCESS_CONVERSATION_BYTES,
  processConversationMemory,
  processCountedConversationMemory,
  SESSION_MESSAGE_BYTES,
  sharedTokenCache,
  type TokenCounter,
} from '@compaction/core';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { conversation, textResult } from './__fixtures__/model-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { SENT_MESSAGE_BYTES } from './count-resent-messages.js';
import { sessionRegistry } from './session-registry.js';

/** A heuristic counter that records how many texts it counted, under a name of its own. */
function countingCounter(name: string): TokenCounter & { counted: number } {
  const heuristic = heuristicCounter();
  const counter = {
    name,
    counted: 0,
    countText(text: string) {
      counter.counted += 1;
      return heuristic.countText(text);
    },
  };
  return counter;
}

function wrapped(counter: TokenCounter) {
  return wrapLanguageModel({
    model: new MockLanguageModelV4({ doGenerate: async () => textResult('Done.') }),
    middleware: compactionMiddleware({ counter, summarizer: 'structured' }),
  });
}

describe('sharedTokenCache', () => {
  it('is one cache per counter name for the whole process', () => {
    const options = { keyByContent: true };
    const counter = countingCounter('shared-token-cache-names');
    expect(sharedTokenCache(counter, options)).toBe(
      sharedTokenCache(countingCounter('shared-token-cache-names'), options),
    );
    expect(sharedTokenCache(counter, options).counter).toBe(counter);
    expect(sharedTokenCache(counter, options)).not.toBe(
      sharedTokenCache(countingCounter('shared-token-cache-other'), options),
    );
    expect(sharedTokenCache(undefined, options).counter.name).toBe('gpt-tokenizer-o200k_base');
  });

  it('spares a second middleware counting a conversation the first one counted', async () => {
    const counter = countingCounter('shared-token-cache-middlewares');
    const messages: ModelMessage[] = [...conversation(5), { role: 'user', content: 'Next?' }];
    await generateText({ model: wrapped(counter), instructions: 'Be brief.', messages });
    const counted = counter.counted;
    expect(counted).toBeGreaterThan(0);

    await generateText({ model: wrapped(counter), instructions: 'Be brief.', messages });
    expect(counter.counted).toBe(counted);
    await generateText({
      model: wrapped(counter),
      instructions: 'Be brief.',
      messages: [...messages, { role: 'assistant', content: 'Sure.' }, { role: 'user', content: 'More?' }],
    });
    expect(counter.counted).toBeGreaterThan(counted);
  });
});

describe('the process budget of conversations', () => {
  it('holds every middleware’s conversations together, a conversation’s session and conversion as one entry', async () => {
    const memory = processConversationMemory();
    const before = memory.size;
    const bytesBefore = memory.bytes;
    const counter = countingCounter('process-budget-middlewares');
    const messages: ModelMessage[] = [...conversation(3), { role: 'user', content: 'And now?' }];
    await generateText({ model: wrapped(counter), instructions: 'Be brief.', messages });
    await generateText({ model: wrapped(counter), instructions: 'Be brief.', messages });
    // Two middlewares, one conversation each: one entry apiece (its session and its conversion,
    // which were two entries before), in the one budget, sized for both.
    expect(memory.size - before).toBe(2);
    const prompt = messages.length + 1; // and the system message from `instructions`
    expect(memory.bytes - bytesBefore).toBe(
      2 * heldMessagesBytes(prompt, SESSION_MESSAGE_BYTES + HELD_MESSAGE_BYTES + SENT_MESSAGE_BYTES),
    );
    expect(memory.bytes).toBeLessThanOrEqual(memory.maxBytes);
  });
});

describe('sessionRegistry.place', () => {
  it('leaves an entry made again after the one a call held was evicted in its own budget', () => {
    const registry = sessionRegistry({ summarizer: 'structured' });
    const loaded = processConversationMemory();
    const counted = processCountedConversationMemory();
    const held = registry.entry('evicted-mid-call', 'gpt-5', 10); // the entry a call in flight holds
    // A conversation bigger than the whole budget pushes every other one out, the held entry too.
    registry.entry('too-big-for-the-budget', 'gpt-5', 10 * PROCESS_CONVERSATION_BYTES);
    const again = registry.entry('evicted-mid-call', 'gpt-5', 10); // the next call's: a new entry, loaded
    expect(again).not.toBe(held);
    const [loadedSize, countedSize] = [loaded.size, counted.size];
    // The first call ends with its session holding the history counted.
    held.counted = true;
    registry.place('evicted-mid-call', 'gpt-5', held);
    expect(again.counted).toBe(false);
    expect([loaded.size, counted.size]).toEqual([loadedSize, countedSize]);
    expect(registry.entry('evicted-mid-call', 'gpt-5')).toBe(again);
    expect([loaded.size, counted.size]).toEqual([loadedSize, countedSize]);
  });
});
