import { describe, expect, it } from 'vitest';
import { longConversation } from '../../test/builders.js';
import { recordSpans } from '../../test/record-spans.js';
import type { Summarizer } from '../summarize/types.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';

const exporter = recordSpans();

const settings = { contextWindow: 4_000, reserveTokens: 500, keepRecentTokens: 600, trigger: 0.5, minMessages: 4 };

const failing: Summarizer = {
  name: 'llm',
  async summarize() {
    throw new Error('model unavailable');
  },
};

const spans = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);

describe('compaction tracing', () => {
  it('records a compaction span with its figures, a summarize child per summarizer call, and a save child', async () => {
    const session = createCompactionSession({
      sessionId: 'traced',
      settings,
      counter: heuristicCounter(),
      summarizer: failing,
    });
    await session.append(longConversation(12));
    const { compaction } = await session.prepare();
    expect(compaction).toBeDefined();

    const [span] = spans('compaction');
    expect(span!.status.code).toBe(1);
    const history = await session.history();
    expect(span!.attributes).toMatchObject({
      'compaction.session.id': 'traced',
      'compaction.trigger': 'auto',
      'compaction.strategy': 'structured',
      'compaction.fallbacks': ['llm'],
      'compaction.messages.summarized': compaction!.messagesSummarized,
      'compaction.first_kept_index': history.findIndex((m) => m.id === compaction!.state.firstKeptMessageId),
      'compaction.tokens.before': compaction!.tokensBefore,
      'compaction.tokens.after': compaction!.tokensAfter,
      'compaction.state.version': 1,
      'compaction.split_turn': compaction!.isSplitTurn,
    });
    expect(span!.attributes['compaction.summary.tokens']).toBe(heuristicCounter().countText(compaction!.state.summary));
    expect(span!.attributes['compaction.duration_ms']).toBeTypeOf('number');

    const children = exporter
      .getFinishedSpans()
      .filter((s) => s.parentSpanContext?.spanId === span!.spanContext().spanId);
    const summarizeSpans = children.filter((s) => s.name === 'compaction.summarize');
    expect(summarizeSpans.map((s) => s.attributes['compaction.summarizer'])).toEqual(
      compaction!.isSplitTurn ? expect.arrayContaining(['llm', 'structured']) : ['llm', 'structured'],
    );
    const failed = summarizeSpans.find((s) => s.attributes['compaction.summarizer'] === 'llm')!;
    expect(failed.status).toEqual({ code: 2, message: 'model unavailable' });
    expect(children.filter((s) => s.name === 'compaction.save')).toHaveLength(1);
  });

  it('marks the span failed when a compaction could not help, and records nothing for usage saves', async () => {
    const session = createCompactionSession({ sessionId: 'small', settings, counter: heuristicCounter() });
    await session.append(longConversation(2));
    expect(await session.compact()).toBeUndefined();
    const [span] = spans('compaction');
    expect(span!.attributes['compaction.trigger']).toBe('manual');
    expect(span!.status.code).toBe(2);
    expect(span!.status.message).toMatch(/did not shrink|nothing to compact/);
    await session.prepare();
    await session.recordUsage({ inputTokens: 900 });
    expect(spans('compaction.save')).toHaveLength(0);
  });
});
