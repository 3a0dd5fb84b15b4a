import { type CompactionState, countMessageTokens, heuristicCounter, type UsageRecord } from '@compaction/core';
import { contextTokens } from '@compaction/core/internal';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { answer, isSummaryMessage, prose, readFile, sentTokens, toolStep } from './__fixtures__/agent-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { toCoreMessages } from './to-core-messages.js';

// Review of the lagging count in LangChain's `mode: 'replace'` (issue 16, session 9): the
// middleware rewrites the state to the context it sent and moves the record's `historyLength` to
// that context's length. A record whose count lags its call holds `countedLength` in the numbering
// of the history before the rewrite. At every checkpoint, whatever count the record holds must be
// our count of the context over that many of the checkpoint's own messages.

/** The record's exact pair (as core's `countedPair`): our count over `length` first messages. */
function pairOf(usage: UsageRecord): { length: number; tokens: number } | undefined {
  const tokens = usage.countedLength !== undefined ? usage.countedPrefixTokens : usage.countedTokens;
  const length = usage.countedLength ?? usage.historyLength;
  if (tokens === undefined || length > usage.historyLength) return undefined;
  return { length, tokens };
}

function withUsage(response: AIMessage | Error, messages: BaseMessage[]): AIMessage | Error {
  if (!AIMessage.isInstance(response)) return response;
  const input = sentTokens(messages) + 120;
  response.usage_metadata = { input_tokens: input, output_tokens: 10, total_tokens: input + 10 };
  return response;
}

describe("mode 'replace' with a count that lags its call (review)", () => {
  it.each([8_000, 16_000, 24_000])(
    'at every checkpoint the record’s count is a count of the checkpoint’s own messages (window %i)',
    async (contextWindow) => {
      const steps = 90;
      const model = fakeModel();
      for (let step = 0; step < steps; step += 1) {
        const call = { name: 'read_file', args: { path: `src/r${step}.ts` }, id: `lag_${step}` };
        model.respond((messages) => withUsage(toolStep([call], prose(step, 8))(messages), messages));
      }
      model.respond((messages) => withUsage(answer('Done.')(messages), messages));
      const counter = heuristicCounter();
      const agent = createAgent({
        model,
        tools: [readFile],
        middleware: [
          compactionMiddleware({
            settings: { contextWindow, keepRecentTokens: 1500, reserveTokens: 1000 },
            summarizer: 'structured',
            mode: 'replace',
            counter,
          }),
        ],
        checkpointer: new MemorySaver(),
      });
      const config = { configurable: { thread_id: `lag-${contextWindow}` }, recursionLimit: 600 };
      await agent.invoke({ messages: [new HumanMessage('Read them all.')] }, config);
      let checked = 0;
      let lagging = 0;
      for await (const snapshot of agent.graph.getStateHistory(config)) {
        const { messages, _compaction } = snapshot.values as {
          messages: BaseMessage[];
          _compaction?: { usage?: UsageRecord; state?: CompactionState };
        };
        const usage = _compaction?.usage;
        if (!usage || usage.stateVersion !== (_compaction?.state?.version ?? 0)) continue;
        if (usage.countedLength !== undefined && messages[0] && isSummaryMessage(messages[0])) lagging += 1;
        const pair = pairOf(usage);
        if (!pair || pair.length > messages.length) continue;
        const history = toCoreMessages(messages.slice(0, pair.length));
        const state = _compaction?.state;
        const applies = state && history.some((message) => message.id === state.firstKeptMessageId);
        const recount = contextTokens(
          history,
          applies ? state : undefined,
          (message) => countMessageTokens(message, counter),
          counter,
        );
        expect(pair.tokens, `checkpoint ${snapshot.config.configurable?.checkpoint_id}`).toBe(recount);
        checked += 1;
      }
      expect(checked).toBeGreaterThan(10);
      if (contextWindow > 8_000) expect(lagging).toBeGreaterThan(0);
    },
    120_000,
  );
});
