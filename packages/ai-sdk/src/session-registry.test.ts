import { heuristicCounter, processConversationMemory, sharedTokenCache, type TokenCounter } from '@compaction/core';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { conversation, textResult } from './__fixtures__/model-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';

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
  it('holds every middleware’s sessions and conversions together, a conversation’s two side by side', async () => {
    const memory = processConversationMemory();
    const before = memory.size;
    const counter = countingCounter('process-budget-middlewares');
    const messages: ModelMessage[] = [...conversation(3), { role: 'user', content: 'And now?' }];
    await generateText({ model: wrapped(counter), instructions: 'Be brief.', messages });
    await generateText({ model: wrapped(counter), instructions: 'Be brief.', messages });
    // Two middlewares, one conversation each: a session and a conversion apiece, in the one budget.
    expect(memory.size - before).toBe(4);
    expect(memory.bytes).toBeLessThanOrEqual(memory.maxBytes);
  });
});
