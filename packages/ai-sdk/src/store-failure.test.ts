import { type CompactionEvent, memoryStore, type SessionStore } from '@compaction/core';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { textResult } from './__fixtures__/model-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';

/** A store over `inner` whose writes fail like a full disk while `full` is set. */
function diskStore(inner: SessionStore) {
  const state = { full: true };
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const store: SessionStore = {
    loadHistory: (id, options) => inner.loadHistory(id, options),
    loadRecord: (id) => inner.loadRecord(id),
    clear: (id) => inner.clear(id),
    async appendHistory(id, messages) {
      if (state.full) throw enospc();
      return inner.appendHistory(id, messages);
    },
    async saveRecord(id, record, options) {
      if (state.full) throw enospc();
      return inner.saveRecord(id, record, options);
    },
  };
  return { store, state };
}

describe('compactionMiddleware when the store fails after the model answered (r10)', () => {
  it('returns the answer, reports the failure as an event, and saves on a later call', async () => {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        calls += 1;
        return textResult('Paris.', 12);
      },
    });
    const inner = memoryStore();
    const { store, state } = diskStore(inner);
    const events: CompactionEvent[] = [];
    const wrapped = wrapLanguageModel({
      model,
      middleware: compactionMiddleware({ store, summarizer: 'structured', onEvent: (event) => events.push(event) }),
    });
    const providerOptions = { compaction: { sessionId: 'full-disk' } };

    const first = await generateText({ model: wrapped, prompt: 'Capital of France?', providerOptions });
    expect(first.text).toBe('Paris.');
    expect(calls).toBe(1);
    expect(events.filter((event) => event.type === 'store:error')).toHaveLength(1);
    expect(events.find((event) => event.type === 'store:error')).toMatchObject({ operation: 'saveRecord' });
    expect(await inner.loadRecord('full-disk')).toBeUndefined();

    state.full = false; // space freed
    const second = await generateText({
      model: wrapped,
      messages: [
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: 'Paris.' },
        { role: 'user', content: 'And of Italy?' },
      ],
      providerOptions,
    });
    expect(second.text).toBe('Paris.');
    expect(events.filter((event) => event.type === 'store:error')).toHaveLength(1);
    expect((await inner.loadRecord('full-disk'))?.usage?.inputTokens).toBe(12);
  });
});
