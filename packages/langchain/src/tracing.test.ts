import { HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { recordSpans } from '../../core/test/record-spans.js';
import { answer, pastConversation } from './__fixtures__/agent-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';

const exporter = recordSpans();

describe('compaction spans in a LangChain agent', () => {
  it('records the compaction before the model call as a compaction span with its children', async () => {
    const agent = createAgent({
      model: fakeModel().respond(answer('Done.')),
      tools: [],
      middleware: [
        compactionMiddleware({
          settings: { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 },
          summarizer: 'structured',
        }),
      ],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(
      { messages: [...pastConversation(30), new HumanMessage('Go on.')] },
      { configurable: { thread_id: 'traced-thread' } },
    );
    const spans = exporter.getFinishedSpans();
    const compaction = spans.find((span) => span.name === 'compaction')!;
    expect(compaction.attributes).toMatchObject({
      'compaction.session.id': 'traced-thread',
      'compaction.trigger': 'auto',
      'compaction.strategy': 'structured',
    });
    expect(compaction.attributes['compaction.tokens.after']).toBeLessThan(
      compaction.attributes['compaction.tokens.before'] as number,
    );
    const children = spans.filter((span) => span.parentSpanContext?.spanId === compaction.spanContext().spanId);
    expect(children.map((span) => span.name)).toContain('compaction.summarize');
    expect(children.map((span) => span.name)).toContain('compaction.save');
  });
});
