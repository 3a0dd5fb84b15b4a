import { type CompactionEvent, isContextOverflowError, type SummarizeRequest, type Summarizer } from '@compaction/core';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware, fakeModel, MiddlewareError } from 'langchain';
import { describe, expect, it } from 'vitest';
import {
  isSummaryMessage,
  overflowError,
  pairingError,
  pastConversation,
  sentTokens,
  validSummary,
  withoutSystem,
} from './__fixtures__/agent-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { requestCompaction } from './request-compaction.js';

const settings = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };

function recorder() {
  const events: CompactionEvent[] = [];
  const ends = (trigger: string) =>
    events.filter((event) => event.type === 'compaction:end' && event.trigger === trigger).length;
  return { events, ends, onEvent: (event: CompactionEvent) => events.push(event) };
}

describe('compactionMiddleware overflow recovery', () => {
  it('compacts once and retries once after a context-overflow error', async () => {
    const history = pastConversation(8);
    const model = fakeModel().respond(overflowError()).respond(new AIMessage('Recovered.'));
    const { ends, onEvent } = recorder();
    const agent = createAgent({
      model,
      tools: [],
      middleware: [compactionMiddleware({ settings, summarizer: 'structured', onEvent })],
    });
    const result = await agent.invoke({ messages: [...history, new HumanMessage('And now?')] });

    expect(result.messages.at(-1)!.text).toBe('Recovered.');
    expect(model.callCount).toBe(2);
    expect(ends('overflow')).toBe(1);
    const [failed, retried] = model.calls.map((call) => call.messages);
    expect(withoutSystem(failed!)).toHaveLength(history.length + 1);
    expect(retried![0]).toSatisfy(isSummaryMessage);
    expect(sentTokens(retried!)).toBeLessThan(sentTokens(failed!) / 2);
    expect(pairingError(retried!)).toBeNull();
    expect(result.messages).toHaveLength(history.length + 2);
  });

  it('lets a second overflow surface', async () => {
    const model = fakeModel().respond(overflowError()).respond(overflowError()).respond(new AIMessage('never'));
    const { ends, onEvent } = recorder();
    const agent = createAgent({
      model,
      tools: [],
      middleware: [compactionMiddleware({ settings, summarizer: 'structured', onEvent })],
    });
    const failure = await agent.invoke({ messages: [...pastConversation(8), new HumanMessage('And now?')] }).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(isContextOverflowError(failure)).toBe(true);
    expect(model.callCount).toBe(2);
    expect(ends('overflow')).toBe(1);
  });

  it('recovers when an inner middleware wraps the error in a MiddlewareError', async () => {
    const model = fakeModel().respond(overflowError()).respond(new AIMessage('Recovered.'));
    const seen: unknown[] = [];
    const inner = createMiddleware({
      name: 'Inner',
      wrapModelCall: async (request, handler) => handler(request),
    });
    const observer = createMiddleware({
      name: 'Observer',
      wrapModelCall: async (request, handler) => {
        try {
          return await handler(request);
        } catch (error) {
          seen.push(error);
          throw error;
        }
      },
    });
    const agent = createAgent({
      model,
      tools: [],
      middleware: [compactionMiddleware({ settings, summarizer: 'structured' }), observer, inner],
    });
    const result = await agent.invoke({ messages: [...pastConversation(8), new HumanMessage('And now?')] });

    expect(MiddlewareError.isInstance(seen[0])).toBe(true);
    expect(result.messages.at(-1)!.text).toBe('Recovered.');
    expect(model.callCount).toBe(2);
  });

  it('does not compact for other errors', async () => {
    const model = fakeModel().respond(
      Object.assign(new Error('Rate limit reached: 30000 tokens per minute'), { status: 429 }),
    );
    const { events, onEvent } = recorder();
    const agent = createAgent({
      model,
      tools: [],
      middleware: [compactionMiddleware({ settings, summarizer: 'structured', onEvent })],
    });
    await expect(agent.invoke({ messages: [...pastConversation(8), new HumanMessage('And now?')] })).rejects.toThrow(
      /Rate limit/,
    );
    expect(model.callCount).toBe(1);
    expect(events).toEqual([]);
  });
});

describe('requestCompaction', () => {
  /**
   * The history summaries a spy was asked for: one per compaction (a cut inside a turn
   * adds a turn-prefix request to the same compaction).
   */
  const compactions = (spy: { requests: SummarizeRequest[] }) =>
    spy.requests.filter((request) => request.kind === 'history');

  function spySummarizer(): Summarizer & { requests: SummarizeRequest[] } {
    const requests: SummarizeRequest[] = [];
    return {
      name: 'spy',
      requests,
      async summarize(request) {
        requests.push(request);
        return validSummary(`manual summary (${request.instructions ?? 'no focus'})`);
      },
    };
  }

  it('compacts before the next model call, under the trigger too, with the given focus', async () => {
    const summarizer = spySummarizer();
    const model = fakeModel().respond(new AIMessage('Compacted answer.')).respond(new AIMessage('Second.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [compactionMiddleware({ settings: { ...settings, keepRecentTokens: 600 }, summarizer })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'manual' } };
    const history = pastConversation(4);
    expect(sentTokens(history)).toBeLessThan(6400);

    await agent.invoke(
      { messages: [...history, new HumanMessage('Summarize so far.')], ...requestCompaction('keep the module names') },
      config,
    );
    expect(compactions(summarizer).map((request) => request.instructions)).toEqual(['keep the module names']);
    expect(withoutSystem(model.calls[0]!.messages)[0]!.text).toContain('manual summary (keep the module names)');
    const state = (await agent.graph.getState(config)).values;
    expect(state.compactionRequest).toBeNull();
    expect(state._compaction.state.version).toBe(1);

    // The request is consumed: the next turn does not compact again.
    await agent.invoke({ messages: [new HumanMessage('Next.')] }, config);
    expect(compactions(summarizer)).toHaveLength(1);
  });

  it('can be set on the thread with graph.updateState and is picked up by the next invoke', async () => {
    const summarizer = spySummarizer();
    const model = fakeModel().respond(new AIMessage('First.')).respond(new AIMessage('After compaction.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [compactionMiddleware({ settings: { ...settings, keepRecentTokens: 600 }, summarizer })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'manual-update' } };
    await agent.invoke({ messages: [...pastConversation(4), new HumanMessage('Go on.')] }, config);
    expect(summarizer.requests).toHaveLength(0);

    await agent.graph.updateState(config, requestCompaction());
    await agent.invoke({ messages: [new HumanMessage('Continue.')] }, config);
    expect(compactions(summarizer)).toHaveLength(1);
    expect(compactions(summarizer)[0]!.instructions).toBeUndefined();
    expect(model.calls[1]!.messages.some(isSummaryMessage)).toBe(true);
  });
});

describe('messages core cannot take', () => {
  it('are sent as they came, with a compaction:error event, instead of failing the run', async () => {
    const model = fakeModel().respond(new AIMessage('Still answered.'));
    const events: CompactionEvent[] = [];
    const duplicating = createMiddleware({
      name: 'Duplicating',
      wrapModelCall: async (request, handler) =>
        handler({ ...request, messages: [...request.messages, request.messages[0]!] }),
    });
    const agent = createAgent({
      model,
      tools: [],
      middleware: [duplicating, compactionMiddleware({ settings, onEvent: (event) => events.push(event) })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('hi')] });

    expect(result.messages.at(-1)!.text).toBe('Still answered.');
    expect(model.calls[0]!.messages).toHaveLength(2);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'compaction:error',
        message: expect.stringMatching(/^messages not compacted: message 1: .*duplicate/),
      }),
    ]);
  });
});
