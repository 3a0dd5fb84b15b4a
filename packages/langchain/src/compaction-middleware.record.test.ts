import { type CompactionEvent, validateSessionRecord } from '@compaction/core';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import fc from 'fast-check';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';

const conversation = () =>
  Array.from({ length: 30 }, (_, index) =>
    index % 2
      ? new AIMessage({ id: `a${index}`, content: 'w '.repeat(300) })
      : new HumanMessage({ id: `u${index}`, content: `q${index} ${'w '.repeat(300)}` }),
  );

const validState = {
  schema: 1,
  version: 1,
  summary: '## Goal\n- earlier work',
  firstKeptMessageId: 'u20',
  summarizedRange: { fromIndex: 0, toIndex: 19, messageCount: 20 },
  prunedToolCallIds: [],
  fileOps: { read: [], modified: [] },
  tokensBefore: 1,
  tokensAfter: 1,
  strategy: 'structured',
  createdAt: '2026-11-24T00:00:00.000Z',
};

async function runWithRecord(record: unknown) {
  const events: CompactionEvent[] = [];
  const model = fakeModel()
    .respond(new AIMessage('First.'))
    .respond(new AIMessage('Second.'))
    .respond(new AIMessage('Third.'));
  const agent = createAgent({
    model,
    tools: [],
    checkpointer: new MemorySaver(),
    middleware: [
      compactionMiddleware({
        settings: { contextWindow: 32000 },
        summarizer: 'structured',
        onEvent: (event) => events.push(event),
      }),
    ],
  });
  const config = { configurable: { thread_id: 't' } };
  await agent.invoke({ messages: conversation() }, config);
  await agent.graph.updateState(config, { _compaction: record });
  const before = events.length;
  await agent.invoke({ messages: [new HumanMessage({ id: 'next', content: 'next?' })] }, config);
  await agent.invoke({ messages: [new HumanMessage({ id: 'after', content: 'and after?' })] }, config);
  const state = (await agent.graph.getState(config)).values as { _compaction?: unknown };
  return { events: events.slice(before), model, stored: state._compaction };
}

describe('the _compaction record read back from a checkpointer is validated (r25)', () => {
  it('a corrupt record is reported once, set aside, and the calls go on from the history', async () => {
    const { events, model, stored } = await runWithRecord({
      state: { ...validState, schema: 99, summary: 12345, prunedToolCallIds: 'abc', createdAt: 'not a date' },
      usage: { inputTokens: '999999', contextMessageCount: 30, historyLength: 31, stateVersion: 1 },
    });
    const reports = events.filter((event) => event.type === 'store:error');
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ operation: 'loadRecord' });
    expect(String((reports[0] as { error?: Error }).error?.message)).toMatch(/_compaction/);
    // Nothing of the bad record reaches the model: no summary "12345", no estimate built on "999999".
    for (const call of model.calls.slice(1)) {
      expect(JSON.stringify(call.messages)).not.toContain('12345');
    }
    expect(events.some((event) => 'tokensBefore' in event && event.tokensBefore > 100_000)).toBe(false);
    expect(JSON.stringify(stored)).not.toContain('12345');
  });

  // 40 agents, each invoked three times: 2.6–4.6 s measured on 2 cores at a load of 9, too near the 5 s default.
  it('property: whatever field is corrupted, and however, the call succeeds and the report comes once', async () => {
    const junk = fc.oneof(
      fc.constant(null),
      fc.constant('12345'),
      fc.constant(-1),
      fc.constant(Number.NaN),
      fc.constant([]),
      fc.constant({}),
      fc.constant(true),
    );
    const field = fc.constantFrom(
      'schema',
      'version',
      'summary',
      'firstKeptMessageId',
      'summarizedRange',
      'prunedToolCallIds',
      'fileOps',
      'tokensBefore',
      'strategy',
      'createdAt',
      'usage.inputTokens',
      'record',
    );
    await fc.assert(
      fc.asyncProperty(field, junk, async (name, value) => {
        const record =
          name === 'record'
            ? value
            : name.startsWith('usage.')
              ? {
                  state: validState,
                  usage: { inputTokens: value, contextMessageCount: 30, historyLength: 31, stateVersion: 1 },
                }
              : { state: { ...validState, [name]: value } };
        const { events } = await runWithRecord(record);
        const reports = events.filter((event) => event.type === 'store:error');
        // Whatever core's validator refuses is reported once (a null record is no record), as
        // the checkpointer stores it: JSON, where NaN is null.
        const checkpointed = JSON.parse(JSON.stringify(record) ?? 'null');
        let valid = true;
        try {
          if (checkpointed !== null) validateSessionRecord(checkpointed);
        } catch {
          valid = false;
        }
        expect(reports).toHaveLength(valid ? 0 : 1);
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
