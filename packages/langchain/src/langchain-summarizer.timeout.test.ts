import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { deadlineSettings, expectSummaryDeadlineFallback } from '../../core/test/summary-deadline.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { langchainSummarizer } from './langchain-summarizer.js';

const settings = deadlineSettings(100);

/** LangChain's fake chat model that takes far longer than the deadline, and records the signal of each call. */
class SlowModel extends FakeListChatModel {
  signals: (AbortSignal | undefined)[] = [];
  override async _generate(...args: Parameters<FakeListChatModel['_generate']>) {
    this.signals.push(args[1]?.signal);
    return super._generate(...args);
  }
}

describe('langchainSummarizer under a deadline (r09)', () => {
  it('a chat model that does not answer in time: its call is aborted and compaction falls back', async () => {
    const model = new SlowModel({ responses: ['## Goal\n- never used'], sleep: 5_000 });
    await expectSummaryDeadlineFallback(langchainSummarizer(model), () => model.signals, 100);
  });
});

describe('compactionMiddleware with a summary model that does not answer in time (r09)', () => {
  it('the agent’s call goes on with the structured summary', async () => {
    const summaryModel = new SlowModel({ responses: ['## Goal\n- never used'], sleep: 5_000 });
    const ends: string[] = [];
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage('Answer.')),
      tools: [],
      middleware: [
        compactionMiddleware({
          settings,
          summarizer: summaryModel,
          onEvent: (event) => {
            if (event.type === 'compaction:end')
              ends.push(`${event.strategy} after ${event.fallbacks.map((f) => f.strategy)}`);
          },
        }),
      ],
    });
    const messages = Array.from({ length: 30 }, (_, index) =>
      index % 2
        ? new AIMessage({ id: `a${index}`, content: 'w '.repeat(300) })
        : new HumanMessage({ id: `u${index}`, content: `q${index} ${'w '.repeat(300)}` }),
    );
    const result = await agent.invoke({ messages });
    expect(result.messages.at(-1)?.text).toBe('Answer.');
    expect(ends).toEqual(['structured after llm']);
    expect(summaryModel.signals.every((signal) => signal?.aborted)).toBe(true);
  });
});
