import {
  type CompactionSession,
  createCompactionSession,
  createTokenCache,
  heuristicCounter,
  memoryStore,
  type PreparedContext,
  type SessionRecord,
  type SessionStore,
} from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { apply, change } from './__fixtures__/mastra-changes.js';
import { type CoreMessageCache, coreMessageCache } from './core-message-cache.js';

type Thread = { cache: CoreMessageCache; session: CompactionSession };

function thread(store: SessionStore, ids: 'message' | 'content', window: number): Thread {
  return {
    cache: coreMessageCache(ids),
    session: createCompactionSession({
      sessionId: 't1',
      store,
      persistHistory: false,
      tokenCache: createTokenCache(heuristicCounter(), { keyByContent: true }),
      settings: { contextWindow: window, keepRecentTokens: Math.floor(window / 4), minMessages: 2 },
    }),
  };
}

/** A record without what differs between two runs of the same decisions (the time a state was made, revisions). */
function comparable(record: SessionRecord | undefined): unknown {
  if (!record) return undefined;
  const { revision: _revision, state, ...rest } = record;
  if (!state) return rest;
  const { createdAt: _createdAt, ...kept } = state;
  return { ...rest, state: kept };
}

const step = fc.oneof(
  { weight: 6, arbitrary: change.map((next) => ({ kind: 'change' as const, next })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'evict' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'skip-usage' as const }) },
);

/**
 * A Mastra thread served two ways, the changes Mastra makes between calls in between
 * (new messages, steps and tool results merged in place, edited and removed messages) and
 * evictions (cache and session made again over the store): the processor's way (a
 * `view` of the conversion cache, `prepare({ history })`, the cache let go when the
 * session holds the history counted) and the full way (`convert`, `prepare({ messages })`).
 * Call by call they decide the same and store the same record. A change in place that keeps
 * a message's core id (always with `message` ids; with `content` ids when only what core
 * keeps in metadata changed) is not seen by the full way (it keeps the content it had) and
 * is taken by the counted way once it loads: from then on only what ids decide is compared.
 */
describe('a Mastra thread through prepare({ history }) (property)', () => {
  for (const ids of ['content', 'message'] as const) {
    it(`decides as prepare({ messages }) over the whole conversion (${ids} ids)`, async () => {
      let asIs = 0;
      let calls = 0;
      await fc.assert(
        fc.asyncProperty(
          conversation,
          fc.nat({ max: 6 }),
          fc.array(step, { minLength: 3, maxLength: 25 }),
          fc.constantFrom(1_500, 200_000),
          async (messages, start, steps, window) => {
            const list = messages.slice(0, start);
            const pool = messages.slice(start);
            const fullStore = memoryStore();
            const sourceStore = memoryStore();
            let full = thread(fullStore, ids, window);
            let viaSource = thread(sourceStore, ids, window);
            let skipUsage = false;
            let contentChanged = false;
            for (const next of steps) {
              if (next.kind === 'evict') {
                full = thread(fullStore, ids, window);
                viaSource = thread(sourceStore, ids, window);
                continue;
              }
              if (next.kind === 'skip-usage') {
                skipUsage = true;
                continue;
              }
              apply(list, pool, next.next);
              // A change in place can keep the core id (always with message ids; with content ids when
              // it changes only what core carries in metadata): content the full way does not see.
              // A recall without an edit is the same content in new objects.
              if (next.next.kind !== 'add' && !(next.next.kind === 'recall' && next.next.edit === undefined))
                contentChanged = true;
              const fullPrepared = await full.session.prepare({ messages: full.cache.convert(list) });
              const sourcePrepared = await viaSource.session.prepare({ history: viaSource.cache.view(list) });
              if (sourcePrepared.asIs) viaSource.cache.release();
              calls += 1;
              if (sourcePrepared.asIs) asIs += 1;
              compare(fullPrepared, sourcePrepared, contentChanged);
              if (!skipUsage) {
                const inputTokens = 100 + 7 * fullPrepared.messages.length;
                await full.session.recordUsage({ inputTokens });
                await viaSource.session.recordUsage({ inputTokens });
              }
              skipUsage = false;
              const [fullRecord, sourceRecord] = await Promise.all([
                fullStore.loadRecord('t1'),
                sourceStore.loadRecord('t1'),
              ]);
              if (contentChanged) {
                expect(sourceRecord?.usage?.lastMessageId).toBe(fullRecord?.usage?.lastMessageId);
                expect(sourceRecord?.usage?.historyLength).toBe(fullRecord?.usage?.historyLength);
              } else expect(comparable(sourceRecord)).toEqual(comparable(fullRecord));
            }
            const [fullHistory, sourceHistory] = await Promise.all([
              full.session.history(),
              viaSource.session.history(),
            ]);
            expect(sourceHistory.map((m) => m.id)).toEqual(fullHistory.map((m) => m.id));
          },
        ),
        { numRuns: 200 },
      );
      expect(asIs).toBeGreaterThan(calls / 10);
    }, 300_000);
  }
});

function compare(full: PreparedContext, viaSource: PreparedContext, contentChanged: boolean): void {
  if (contentChanged) return;
  expect(Boolean(viaSource.compaction)).toBe(Boolean(full.compaction));
  expect(viaSource.messages).toStrictEqual(full.messages);
  expect(viaSource.tokens).toBe(full.tokens);
}
