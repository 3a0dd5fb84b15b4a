import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { interopParse, interopZodObjectPartial } from '@langchain/core/utils/types';
import { MemorySaver } from '@langchain/langgraph';
import fc from 'fast-check';
import { createAgent, createMiddleware, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v3';
import { compactionStateSchema } from './compaction-state-schema.js';
import { COMPACTION_REQUEST_KEY, COMPACTION_STATE_KEY } from './request-compaction.js';

// The schema as it was declared before partial() returned itself: the reference.
const reference = z.object({
  [COMPACTION_STATE_KEY]: z.custom().optional(),
  [COMPACTION_REQUEST_KEY]: z.custom().nullable().optional(),
});

describe('compactionStateSchema', () => {
  it('is its own partial copy, with or without a mask', () => {
    expect(interopZodObjectPartial(compactionStateSchema)).toBe(compactionStateSchema);
    expect(compactionStateSchema.partial({ [COMPACTION_STATE_KEY]: true })).toBe(compactionStateSchema);
  });

  it('parses any state to what the real partial copy of the same schema parses it to', () => {
    const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.jsonValue());
    fc.assert(
      fc.property(
        fc.record(
          { [COMPACTION_STATE_KEY]: value, [COMPACTION_REQUEST_KEY]: value, messages: fc.array(fc.string()) },
          { requiredKeys: [] },
        ),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (state, extra) => {
          const input = { ...extra, ...state };
          const ours = () => interopParse(interopZodObjectPartial(compactionStateSchema), input);
          const theirs = () => interopParse(interopZodObjectPartial(reference), input);
          let expected: unknown;
          try {
            expected = theirs();
          } catch (error) {
            expect(ours).toThrow((error as Error).message);
            return;
          }
          expect(ours()).toEqual(expected);
        },
      ),
    );
  });

  it('keeps its keys through a MemorySaver checkpoint and gives them back on the resumed thread', async () => {
    const seen: unknown[] = [];
    const record = { version: 1, note: 'kept' };
    const middleware = createMiddleware({
      name: 'Keeper',
      stateSchema: compactionStateSchema,
      wrapModelCall: async (request, handler) => {
        seen.push(request.state[COMPACTION_STATE_KEY]);
        return handler(request);
      },
      afterModel: (state) => (state[COMPACTION_STATE_KEY] ? undefined : { [COMPACTION_STATE_KEY]: record as never }),
    });
    const model = fakeModel().respond(new AIMessage('one')).respond(new AIMessage('two'));
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: 't' } };
    const agent = createAgent({ model, tools: [], middleware: [middleware], checkpointer });
    await agent.invoke({ messages: [new HumanMessage('hi')] }, config);
    const resumed = createAgent({ model, tools: [], middleware: [middleware], checkpointer });
    await resumed.invoke({ messages: [new HumanMessage('again')] }, config);
    expect(seen).toEqual([undefined, record]);
    const saved = await checkpointer.getTuple(config);
    expect(saved?.checkpoint.channel_values[COMPACTION_STATE_KEY]).toEqual(record);
  });
});
