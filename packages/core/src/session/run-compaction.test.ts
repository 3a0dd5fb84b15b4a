import { describe, expect, it } from 'vitest';
import { recordingSummarizer, words } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { memoryStore } from '../store/memory-store.js';
import type { Summarizer } from '../summarize/types.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { FAILURE_BREAKER_THRESHOLD, initialPolicyState } from './auto-compaction-policy.js';
import { createContextCache } from './context-cache.js';
import { createConversationState } from './conversation-state.js';
import { createCompactionRunner } from './run-compaction.js';
import { createSessionEvents } from './session-events.js';
import { createSessionPersistence } from './session-persistence.js';
import { createTokenEstimate } from './token-estimate.js';
import type { CompactionEvent } from './types.js';

const counter = heuristicCounter();
const settings = resolveSettings(
  { contextWindow: 8_000, reserveTokens: 1_000, keepRecentTokens: 1_500, minMessages: 3 },
  200_000,
);

function chat(count: number, size = 250): Message[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    parts: [{ type: 'text' as const, text: words(size) }],
  }));
}

async function setup(options: { summarizer?: Summarizer; failSaves?: () => boolean } = {}) {
  const inner = memoryStore();
  const store = faultyStore(inner, (operation) => operation === 'saveRecord' && (options.failSaves?.() ?? false));
  const conversation = createConversationState();
  const persistence = createSessionPersistence({ store, sessionId: 's', persistHistory: true, conversation });
  await persistence.load(() => undefined);
  const cache = createTokenCache(counter);
  const estimate = createTokenEstimate({ conversation, settings, cache, counter, modelKey: 'm' });
  const context = createContextCache(conversation);
  const seen: CompactionEvent[] = [];
  const events = createSessionEvents((event) => seen.push(event));
  const runner = createCompactionRunner({
    sessionId: 's',
    settings,
    summarizer: options.summarizer ?? recordingSummarizer(),
    counter,
    cache,
    conversation,
    estimate,
    context,
    persistence,
    events,
  });
  return { inner, conversation, persistence, runner, seen };
}

const types = (events: CompactionEvent[]) => events.map((event) => event.type);

describe('createCompactionRunner', () => {
  it('a successful attempt: start then end, the state saved and then in memory', async () => {
    const { inner, conversation, persistence, runner, seen } = await setup();
    await persistence.append(chat(40));
    const result = await runner.attempt({ trigger: 'manual', force: true });
    expect(types(seen)).toEqual(['compaction:start', 'compaction:end']);
    expect(conversation.record.state).toEqual(result!.state);
    expect((await inner.loadRecord('s'))?.state).toEqual(result!.state);
  });

  it('a state the store refuses: start then error, nothing applied', async () => {
    const { inner, conversation, persistence, runner, seen } = await setup({ failSaves: () => true });
    await persistence.append(chat(40));
    expect(await runner.attempt({ trigger: 'manual', force: true })).toBeUndefined();
    expect(types(seen)).toEqual(['compaction:start', 'compaction:error']);
    expect(conversation.record.state).toBeUndefined();
    expect(await inner.loadRecord('s')).toBeUndefined();
  });

  it('an abort: start, error, then the abort reaches the caller', async () => {
    const controller = new AbortController();
    const summarizer: Summarizer = {
      name: 'aborting',
      summarize: async () => {
        controller.abort();
        throw new Error('aborted');
      },
    };
    const { persistence, runner, seen } = await setup({ summarizer });
    await persistence.append(chat(40));
    await expect(runner.attempt({ trigger: 'manual', force: true, signal: controller.signal })).rejects.toThrow(
      /aborted/,
    );
    expect(types(seen)).toEqual(['compaction:start', 'compaction:error']);
  });

  it('the conversation replaced during the summary: the result is dropped and the new one compacted instead', async () => {
    let replaced = false;
    const box: { persistence?: Awaited<ReturnType<typeof setup>>['persistence'] } = {};
    const summarizer: Summarizer = {
      name: 'switching',
      async summarize(request) {
        if (!replaced) {
          replaced = true;
          await box.persistence!.clear();
          await box.persistence!.append(chat(40).map((m) => ({ ...m, id: `n${m.id}` })));
        }
        return `summary of ${request.messages.length}`;
      },
    };
    const { conversation, persistence, runner, seen } = await setup({ summarizer });
    box.persistence = persistence;
    await persistence.append(chat(40));
    const result = await runner.attempt({ trigger: 'manual', force: true });
    expect(result?.state.firstKeptMessageId.startsWith('n')).toBe(true);
    expect(conversation.history.some((m) => m.id === conversation.record.state?.firstKeptMessageId)).toBe(true);
    expect(types(seen)).toEqual(['compaction:start', 'compaction:end']);
  });

  it('autoCompact: failures that leave the context over the trigger count up and open the breaker', async () => {
    const { persistence, runner, seen } = await setup();
    // One pinned message alone over the trigger: nothing a compaction can remove.
    await persistence.append([{ ...chat(1, 7_000)[0]!, metadata: { pinned: true } }, ...chat(4, 5).slice(1)]);
    let policy = initialPolicyState();
    for (let run = 1; run <= FAILURE_BREAKER_THRESHOLD; run += 1) {
      policy = (await runner.autoCompact(policy, undefined)).policy;
      expect(policy.failures).toBe(run);
    }
    expect(policy.pausedAtTokens).toBeDefined();
    const last = seen.filter((e) => e.type === 'compaction:error').at(-1);
    expect(last?.type === 'compaction:error' && last.message).toMatch(/paused/);
  });
});
