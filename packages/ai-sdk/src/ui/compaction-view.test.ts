import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactionBoundary, CompactionContextData } from './compaction-data.js';
import { compactionView, contextUsage, HIGH_CONTEXT_SHARE } from './compaction-view.js';
import { latestCompactionData } from './latest-compaction-data.js';

function boundary(firstKeptMessageId: string | undefined): CompactionBoundary {
  return {
    sessionId: 'chat',
    version: 1,
    strategy: 'structured',
    firstKeptMessageId,
    messagesSummarized: 4,
    tokensBefore: 162_000,
    tokensAfter: 31_000,
    summary: '## Goal\n- ship it',
    createdAt: '2026-11-25T12:00:00.000Z',
  };
}

function context(contextTokens: number, triggerTokens = 8000, contextWindow = 10_000): CompactionContextData {
  return {
    sessionId: 'chat',
    contextTokens,
    contextWindow,
    triggerTokens,
    percentUsed: 0,
    compactions: 0,
    historyMessages: 0,
    contextMessages: 0,
  };
}

const uniqueIds = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 40 });

describe('compactionView', () => {
  it('dims exactly the messages before the first kept one, for any history and any cut', () => {
    fc.assert(
      fc.property(
        uniqueIds.chain((ids) => fc.tuple(fc.constant(ids), fc.nat({ max: ids.length - 1 }))),
        ([ids, kept]) => {
          const messages = ids.map((id) => ({ id }));
          const view = compactionView(messages, { compaction: boundary(ids[kept]) });
          expect(view.boundaryIndex).toBe(kept);
          expect(view.summarizedCount).toBe(kept);
          expect([...view.summarizedIds]).toEqual(ids.slice(0, kept));
          expect(view.boundary?.firstKeptMessageId).toBe(ids[kept]);
        },
      ),
    );
  });

  it('dims nothing after a prune (old tool outputs cleared, every message kept)', () => {
    const messages = ['a', 'b', 'c'].map((id) => ({ id }));
    const view = compactionView(messages, { compaction: { ...boundary('b'), strategy: 'prune', summary: '' } });
    expect(view).toMatchObject({ boundaryIndex: 1, summarizedCount: 0 });
    expect(view.summarizedIds.size).toBe(0);
    expect(view.boundary?.strategy).toBe('prune');
  });

  it('shows no boundary rather than a wrong one when the kept message is not in the history', () => {
    fc.assert(
      fc.property(uniqueIds, fc.string(), (ids, stranger) => {
        fc.pre(!ids.includes(stranger));
        const view = compactionView(
          ids.map((id) => ({ id })),
          { compaction: boundary(stranger) },
        );
        expect(view).toMatchObject({ boundaryIndex: -1, summarizedCount: 0, boundary: undefined });
        expect(view.summarizedIds.size).toBe(0);
      }),
    );
    expect(compactionView([{ id: 'a' }], { compaction: boundary(undefined) }).boundaryIndex).toBe(-1);
    expect(compactionView([]).usage).toBeUndefined();
  });

  it('refuses what is not a list of UI messages, saying what to pass', () => {
    expect(() => compactionView('hi' as never)).toThrow(TypeError);
    expect(() => compactionView([{ id: 'a' }, {} as never])).toThrow(/messages\[1\] has no string id/);
  });
});

describe('contextUsage', () => {
  it('gives the bar, the trigger mark and a level that only rises as the context fills', () => {
    fc.assert(
      fc.property(fc.nat({ max: 20_000 }), fc.nat({ max: 20_000 }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const rank = { low: 0, high: 1, over: 2 } as const;
        const first = contextUsage(context(low));
        const second = contextUsage(context(high));
        expect(rank[first.level]).toBeLessThanOrEqual(rank[second.level]);
        expect(second.percent).toBeLessThanOrEqual(100);
        expect(first.triggerPercent).toBe(80);
      }),
    );
    expect(contextUsage(context(8000 * HIGH_CONTEXT_SHARE - 1)).level).toBe('low');
    expect(contextUsage(context(8000 * HIGH_CONTEXT_SHARE)).level).toBe('high');
    expect(contextUsage(context(8000))).toMatchObject({ level: 'over', percent: 80, tokens: 8000, window: 10_000 });
  });

  it('refuses figures that are not numbers or a zero window', () => {
    expect(() => contextUsage(context(Number.NaN))).toThrow(/contextTokens must be a finite number/);
    expect(() => contextUsage(context(1, 1, 0))).toThrow(/contextWindow must be positive/);
  });
});

describe('latestCompactionData', () => {
  it('finds the last compaction and context parts, each on its own', () => {
    const first = { ...boundary('m1'), version: 1 };
    const second = { ...boundary('m3'), version: 2 };
    const messages = [
      { parts: [{ type: 'text' }, { type: 'data-compaction', data: first }] },
      { parts: [{ type: 'data-compaction-context', data: context(10) }] },
      { parts: [{ type: 'data-compaction', data: second }] },
      { parts: [{ type: 'text' }] },
    ];
    expect(latestCompactionData(messages)).toEqual({ compaction: second, context: context(10) });
    expect(latestCompactionData([])).toEqual({ compaction: undefined, context: undefined });
  });
});
