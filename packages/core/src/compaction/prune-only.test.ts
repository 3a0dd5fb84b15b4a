import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import { resolveSettings, triggerTokens } from '../settings/compaction-settings.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { contextTokens } from './compact.js';
import { prepareCompaction } from './prepare-compaction.js';
import { pruneOnly, pruneTargetTokens } from './prune-only.js';

const counter = heuristicCounter();

function toolHeavy(turns: number, output: number, request = 1) {
  const c = conversation();
  return Array.from({ length: turns }, (_, turn) => [
    c.user(`request ${turn} ${words(request)}`),
    ...c.toolStep([{ name: 'read', input: { path: `src/${turn}.ts` }, output: words(output) }]),
    c.assistant(`done ${turn}`),
  ]).flat();
}

function run(settingsInput: Parameters<typeof resolveSettings>[0], turns: number, output: number, request = 1) {
  const settings = resolveSettings(settingsInput, 200_000);
  // A cache per run: the builder's ids repeat across conversations.
  const { count } = createTokenCache(counter);
  const messages = toolHeavy(turns, output, request);
  const plan = prepareCompaction(messages, undefined, settings, { countTokens: count })!;
  const tokensBefore = contextTokens(messages, undefined, count, counter);
  const result = pruneOnly({
    messages,
    plan,
    previous: undefined,
    settings,
    version: 1,
    createdAt: '2026-11-25T00:00:00.000Z',
    tokensBefore,
    measure: (state) => contextTokens(messages, state, count, counter),
  });
  return { settings, plan, tokensBefore, result };
}

describe('pruneTargetTokens', () => {
  it('is twice the kept budget, or a quarter of the trigger when that is more', () => {
    const settings = resolveSettings({ contextWindow: 100_000, keepRecentTokens: 4_000 }, 200_000);
    expect(pruneTargetTokens(settings)).toBe(Math.max(8_000, Math.floor(triggerTokens(settings) / 4)));
  });
});

describe('pruneOnly', () => {
  it('clears the plan’s old tool outputs and is enough when the context falls under the target', () => {
    const { settings, plan, tokensBefore, result } = run(
      { contextWindow: 20_000, reserveTokens: 1_000, keepRecentTokens: 1_000, trigger: 0.5 },
      16,
      600,
    );
    expect(result?.strategy).toBe('prune');
    expect(result?.state.prunedToolCallIds).toEqual(plan.prunableToolCallIds);
    expect(result?.state.summary).toBe('');
    expect(result!.tokensAfter).toBeLessThanOrEqual(pruneTargetTokens(settings));
    expect(result!.tokensAfter).toBeLessThan(tokensBefore);
  });

  it('returns undefined when clearing outputs would not bring the context down far enough', () => {
    const { result } = run(
      { contextWindow: 8_000, reserveTokens: 1_000, keepRecentTokens: 1_500, trigger: 0.5 },
      12,
      1,
      400,
    );
    expect(result).toBeUndefined();
  });
});
