import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileStore, memoryStore, type SessionStore, sqliteStore } from '@compaction/core';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
  type StoredMessage,
} from '@langchain/core/messages';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { prose } from './__fixtures__/agent-fixtures.js';
import { type ChatHistoryLike, CompactingChatMessageHistory } from './compacting-chat-message-history.js';

// Review of the kept session across the store's revision stamp (issue 16, session 8), session 9:
// instance A keeps its session between calls while instance B — another request, another process —
// adds turns, compacts, clears and starts over, or the wrapped history is rewritten under both.
// Whatever happened, A's next `getMessages()` must be what a new instance's is: never a context
// kept from before another writer's change.

const settings = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };

/** A chat history over stored JSON (as Redis or Postgres): other objects on every read. */
function serializingHistory(): ChatHistoryLike {
  let stored: StoredMessage[] = [];
  return {
    async getMessages() {
      return mapStoredMessagesToChatMessages(stored);
    },
    async addMessages(messages: BaseMessage[]) {
      stored = [...stored, ...mapChatMessagesToStoredMessages(messages)];
    },
    async clear() {
      stored = [];
    },
  };
}

/** A store that does not number its records (a custom store): records come back without a revision. */
function unnumbered(store: SessionStore): SessionStore {
  return {
    loadHistory: (id, options) => store.loadHistory(id, options),
    appendHistory: (id, messages) => store.appendHistory(id, messages),
    async loadRecord(id) {
      const record = await store.loadRecord(id);
      if (record === undefined) return undefined;
      const { revision: _revision, ...content } = record;
      return content;
    },
    async saveRecord(id, record, options) {
      const { revision: _revision, ...content } = record;
      await store.saveRecord(id, content, options?.expectedRevision === undefined ? undefined : {});
      return 0;
    },
    clear: (id) => store.clear(id),
  };
}

type Step =
  | { kind: 'turn'; by: 'A' | 'B'; size: number; report: boolean }
  | { kind: 'read' }
  | { kind: 'compact'; by: 'A' | 'B' }
  | { kind: 'clear' }
  | { kind: 'rewrite'; at: number }
  | { kind: 'restartA' };

const who = fc.constantFrom('A' as const, 'B' as const);
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('turn' as const),
      by: who,
      size: fc.integer({ min: 1, max: 14 }),
      report: fc.boolean(),
    }),
  },
  { weight: 5, arbitrary: fc.constant({ kind: 'read' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), by: who }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewrite' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restartA' as const }) },
);

/** What a chain sends of a context: each message's class, id and content. */
const view = (messages: readonly BaseMessage[]) =>
  messages.map((message) => ({ type: message.getType(), id: message.id, content: message.content }));

describe('CompactingChatMessageHistory keeps its session only while nothing else changed (review)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-chat-history-review-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let runs = 0;

  it('property: a kept session’s context is a new instance’s, whatever another instance or the wrapped history did', async () => {
    const counts = { reads: 0, compacted: 0, reused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 5, maxLength: 40 }),
        fc.constantFrom('memory', 'file', 'sqlite', 'unnumbered'),
        fc.boolean(),
        async (steps, storeKind, serializing) => {
          runs += 1;
          const closers: (() => void)[] = [];
          let inner: SessionStore;
          if (storeKind === 'memory') inner = memoryStore();
          else if (storeKind === 'unnumbered') inner = unnumbered(memoryStore());
          else if (storeKind === 'file') inner = fileStore(join(dir, `file-${runs}`));
          else {
            const sqlite = sqliteStore(join(dir, `sqlite-${runs}.db`));
            closers.push(() => sqlite.close());
            inner = sqlite;
          }
          // Counts record loads: a call that reuses its kept session loads the record once (the check), a new session twice.
          let loads = 0;
          const store: SessionStore = {
            loadHistory: (id, options) => inner.loadHistory(id, options),
            appendHistory: (id, messages) => inner.appendHistory(id, messages),
            loadRecord: (id) => {
              loads += 1;
              return inner.loadRecord(id);
            },
            saveRecord: (id, record, options) => inner.saveRecord(id, record, options),
            clear: (id) => inner.clear(id),
          };
          try {
            const raw: ChatHistoryLike = serializing ? serializingHistory() : new InMemoryChatMessageHistory();
            const make = () => new CompactingChatMessageHistory({ sessionId: 's', history: raw, store, settings });
            let A = make();
            const B = make();
            let turn = 0;
            /** Whether the wrapped history was rewritten or cleared, or A made anew, since A's last call. */
            let disturbed = true;
            for (const step of steps) {
              if (step.kind === 'clear' || step.kind === 'rewrite' || step.kind === 'restartA') disturbed = true;
              if (step.kind === 'turn') {
                const by = step.by === 'A' ? A : B;
                const context = await by.getMessages();
                if (by === A) disturbed = false;
                turn += 1;
                const question = new HumanMessage(`Question ${turn}: ${prose(turn, step.size)}`);
                const answer = new AIMessage({ content: `Answer ${turn}: ${prose(turn + 50, step.size)}` });
                if (step.report) {
                  const sent = JSON.stringify(view(context)).length + question.text.length;
                  answer.usage_metadata = {
                    input_tokens: Math.ceil(sent / 4) + 40,
                    output_tokens: 10,
                    total_tokens: Math.ceil(sent / 4) + 50,
                  };
                }
                await by.addMessages([question, answer]);
              } else if (step.kind === 'compact') {
                if (step.by === 'A') disturbed = true; // compact() makes a new session
                if ((await raw.getMessages()).length > 0 && (await (step.by === 'A' ? A : B).compact())) {
                  counts.compacted += 1;
                }
              } else if (step.kind === 'clear') {
                await B.clear();
                await B.addMessages([new HumanMessage(`A new start ${turn}`), new AIMessage(`Fresh ${turn}`)]);
              } else if (step.kind === 'rewrite') {
                // Another writer rewrites the wrapped history: one message edited under its id, the store untouched.
                const messages = await raw.getMessages();
                if (messages.length === 0) continue;
                const at = step.at % messages.length;
                const copies = mapStoredMessagesToChatMessages(mapChatMessagesToStoredMessages(messages));
                const edited = copies[at]!;
                copies[at] =
                  edited.getType() === 'human'
                    ? new HumanMessage({ id: edited.id!, content: `${edited.text} (edited)` })
                    : new AIMessage({ id: edited.id!, content: `${edited.text} (edited)` });
                await raw.clear();
                await raw.addMessages(copies);
              } else if (step.kind === 'restartA') {
                A = make();
              } else {
                counts.reads += 1;
                const before = loads;
                const kept = view(await A.getMessages());
                // Undisturbed (the history only grew since A's last call), A checks the record: one load is a reuse.
                if (!disturbed && loads - before === 1) counts.reused += 1;
                disturbed = false;
                expect(kept).toEqual(view(await make().getMessages()));
              }
            }
            counts.reads += 1;
            expect(view(await A.getMessages())).toEqual(view(await make().getMessages()));
          } finally {
            for (const close of closers) close();
          }
        },
      ),
      { numRuns: 120 },
    );
    expect(counts.reads).toBeGreaterThan(300);
    expect(counts.compacted).toBeGreaterThan(10);
    // The kept session was reused often (after B's usage reports too): the comparisons are of reuse.
    expect(counts.reused).toBeGreaterThan(100);
  }, 300_000);
});
