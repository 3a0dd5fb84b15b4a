import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { COMPACTION_STATE_SCHEMA, type CompactionState } from '../compaction/compaction-state.js';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import { StoreConflictError } from '../store/errors/store-conflict-error.js';
import { StoreError } from '../store/errors/store-error.js';
import type { SessionRecord, SessionStore } from '../store/session-store.js';
import { contractMessages } from './contract-messages.js';

/** What stored data {@link SessionStoreContractOptions.corrupt} must damage. */
export type CorruptionKind =
  /** A history entry that is not JSON at all. */
  | 'history-not-json'
  /** A history entry that is valid JSON but no message (e.g. a text part whose text is a number). */
  | 'history-not-message'
  /** A record that is not JSON. */
  | 'record-not-json';

/** How the suite reaches a store; see {@link sessionStoreContract}. */
export type SessionStoreContractOptions = {
  /**
   * Makes a store over the shared backend. Called several times per case
   * (each instance plays one process), so a new connection each time is best.
   * Every case uses fresh random session ids, so the backend may hold other data.
   */
  createStore: () => SessionStore | Promise<SessionStore>;
  /**
   * Releases a store made by `createStore` (close its connection).
   * @default undefined (nothing to release)
   */
  closeStore?: (store: SessionStore) => void | Promise<void>;
  /**
   * Damages what the backend holds for `sessionId` (which holds two messages
   * and a record) behind the store's back, and returns the file or key the
   * store must name in its error. Without it, the corruption cases are skipped.
   * @default undefined
   */
  corrupt?: (sessionId: string, kind: CorruptionKind) => Promise<string>;
  /**
   * Starts a process that appends `batches` to `sessionId` one append each, and
   * kills it (SIGKILL) at an arbitrary moment while it writes; resolves once it
   * is dead. Without it, the crash case is skipped.
   * @default undefined
   */
  crashDuringAppend?: (sessionId: string, batches: Message[][]) => Promise<void>;
  /**
   * How many store instances write at once in the concurrency cases.
   * @default 4
   */
  writers?: number;
};

/** One case of the contract: a name for the test runner and the check, which throws on failure. */
export type SessionStoreContractCase = {
  /** What the case checks. */
  name: string;
  /** Runs the check; rejects with an assertion error naming what broke. */
  run: () => Promise<void>;
};

const text = (id: string, body = `text of ${id}`): Message => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text: body }],
});

function state(version: number): CompactionState {
  return {
    schema: COMPACTION_STATE_SCHEMA,
    version,
    summary: `summary ${version}`,
    // The summary as structured fields (schema 2): a part with the facts it carries, a model's part, the last request.
    summaryParts: [
      {
        kind: 'history',
        strategy: 'structured',
        text: `## Goal\nsummary ${version} — "quoted" \u2028 ✓`,
        fileListing: 'grouped',
        facts: {
          goal: 'summary',
          requests: ['fix it', 'then ship 🚀'],
          unlistedRequests: 2,
          toolCounts: [['Bash', 3]],
          errors: [{ tool: 'Bash', subject: 'npm test', resolved: false, text: 'Exit code 1' }],
          commands: [
            {
              tool: 'Bash',
              command: 'npm test',
              runs: 2,
              ok: false,
              isCheck: true,
              failing: ['a'],
              failures: 2,
              at: 0,
            },
          ],
          carried: ['(Key Decisions) Assistant: use zod'],
          summarizedMessages: version + 1,
          root: '/repo/',
        },
      },
      { kind: 'turn-prefix', strategy: 'llm', text: '## Turn Request\nfind the bug' },
    ],
    lastRequest: 'then ship 🚀',
    firstKeptMessageId: `m${version}`,
    summarizedRange: { fromIndex: 0, toIndex: version, messageCount: version + 1 },
    prunedToolCallIds: [],
    fileOps: { read: ['a.ts'], modified: [] },
    tokensBefore: 1000,
    tokensAfter: 200,
    strategy: 'structured',
    createdAt: new Date(0).toISOString(),
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail('expected the call to be refused, but it resolved'),
    (error: unknown) => error,
  );
}

function withoutRevision(record: SessionRecord | undefined): SessionRecord | undefined {
  if (record === undefined) return undefined;
  const { revision: _revision, ...fields } = record;
  return fields;
}

/**
 * The {@link SessionStore} contract as test cases any store can run, with any
 * test runner: round trips of every part type (with `Uint8Array` and `Date`),
 * loading from an index, refusal of unstorable data before anything is
 * written, compare-and-set conflicts and races, concurrent appenders, readers
 * that never see half an append, `clear`, and (when the options say how)
 * corrupt data and a process killed mid-append.
 *
 * @example
 * import { it } from 'vitest';
 * import { sessionStoreContract } from '@compaction/core/testing';
 * for (const test of sessionStoreContract({ createStore: () => myStore(url) })) it(test.name, test.run, 60_000);
 */
export function sessionStoreContract(options: SessionStoreContractOptions): SessionStoreContractCase[] {
  const writers = options.writers ?? 4;
  const session = (label: string) => `contract/${label}/${randomUUID()}`;

  async function withStores(count: number, task: (stores: SessionStore[]) => Promise<void>): Promise<void> {
    const stores: SessionStore[] = [];
    try {
      for (let index = 0; index < count; index++) stores.push(await options.createStore());
      await task(stores);
    } finally {
      for (const store of stores) await options.closeStore?.(store);
    }
  }
  const withStore = (task: (store: SessionStore) => Promise<void>) =>
    withStores(1, ([store]) => task(store as SessionStore));

  const cases: SessionStoreContractCase[] = [
    {
      name: 'an unknown session has an empty history and no record',
      run: () =>
        withStore(async (store) => {
          const id = session('empty');
          assert.deepEqual(await store.loadHistory(id), []);
          assert.deepEqual(await store.loadHistory(id, { from: 3 }), []);
          assert.equal(await store.loadRecord(id), undefined);
        }),
    },
    {
      name: 'every part type round-trips unchanged, Uint8Array and Date included, across store instances',
      run: () =>
        withStores(2, async ([writer, reader]) => {
          const id = session('round-trip');
          const first = contractMessages('a');
          const second = contractMessages('b');
          assert.equal(await writer?.appendHistory(id, first), first.length);
          assert.equal(await writer?.appendHistory(id, []), first.length);
          assert.equal(await writer?.appendHistory(id, second), first.length + second.length);
          const loaded = await reader?.loadHistory(id);
          assert.deepStrictEqual(loaded, [...first, ...second]);
          const file = loaded?.[1]?.parts[1];
          assert.ok(file?.type === 'file' && file.data instanceof Uint8Array, 'file data comes back as a Uint8Array');
          assert.ok(loaded?.[1]?.metadata?.sentAt instanceof Date, 'a Date comes back as a Date');
        }),
    },
    {
      name: 'loadHistory from an index returns only the messages from there',
      run: () =>
        withStore(async (store) => {
          const id = session('from');
          const messages = Array.from({ length: 7 }, (_, index) => text(`m${index}`));
          await store.appendHistory(id, messages.slice(0, 3));
          await store.appendHistory(id, messages.slice(3));
          for (const from of [0, 1, 3, 6, 7, 50]) {
            assert.deepStrictEqual(await store.loadHistory(id, { from }), messages.slice(from), `from ${from}`);
          }
        }),
    },
    {
      name: 'an append with a value that cannot be stored is refused whole, naming the message and the path',
      run: () =>
        withStore(async (store) => {
          const id = session('unstorable');
          await store.appendHistory(id, [text('kept')]);
          const cycle: Record<string, unknown> = { ok: true };
          cycle.self = cycle;
          const bad: [string, unknown][] = [
            ['BigInt', { size: 10n }],
            ['cycle', cycle],
            ['Map', new Map([['a', 1]])],
            ['NaN', { ratio: Number.NaN }],
            ['Infinity', [Number.POSITIVE_INFINITY]],
            ['function', { run: () => 1 }],
            ['undefined in an array', [1, undefined]],
            ['invalid Date', new Date('nope')],
            ['class instance', new (class Point {})()],
          ];
          for (const [label, output] of bad) {
            const batch: Message[] = [
              text(`ok-${label}`),
              {
                id: `bad-${label}`,
                role: 'tool',
                parts: [{ type: 'tool-result', toolCallId: 'k', toolName: 'run', output: { deep: [output] } }],
              },
            ];
            const error = await rejection(store.appendHistory(id, batch));
            assert.ok(StoreError.isInstance(error), `${label}: expected a StoreError, got ${String(error)}`);
            assert.match(error.message, new RegExp(`bad-${label}`), `${label}: the message id is named`);
            assert.match(error.message, /output\.deep\[0\]/, `${label}: the path is named`);
            assert.equal(error.operation, 'appendHistory');
          }
          const notMessage = await rejection(
            store.appendHistory(id, [text('fine'), { id: '', role: 'user', parts: [] }]),
          );
          assert.ok(StoreError.isInstance(notMessage), 'a message without id is refused with a StoreError');
          assert.deepEqual(
            (await store.loadHistory(id)).map((message) => message.id),
            ['kept'],
          );
        }),
    },
    {
      name: 'options that are not a non-negative integer are refused with StoreError at once',
      run: () =>
        withStore(async (store) => {
          const id = session('options');
          for (const from of [-1, 1.5, Number.NaN, '2']) {
            const error = await rejection(store.loadHistory(id, { from: from as number }));
            assert.ok(
              StoreError.isInstance(error),
              `from ${String(from)}: expected a StoreError, got ${String(error)}`,
            );
            assert.match(error.message, /options\.from must be a non-negative integer/);
          }
          for (const expectedRevision of [-1, 0.5, Number.POSITIVE_INFINITY, '3']) {
            const error = await rejection(store.saveRecord(id, {}, { expectedRevision: expectedRevision as number }));
            assert.ok(
              StoreError.isInstance(error),
              `expectedRevision ${String(expectedRevision)}: expected a StoreError`,
            );
            assert.match(error.message, /options\.expectedRevision must be a non-negative integer/);
          }
          assert.equal(await store.loadRecord(id), undefined, 'nothing was saved');
        }),
    },
    {
      name: 'saveRecord assigns increasing revisions that loadRecord reports',
      run: () =>
        withStore(async (store) => {
          const id = session('revisions');
          const first = await store.saveRecord(id, { state: state(1) });
          assert.equal(typeof first, 'number', 'saveRecord resolves to the new revision');
          const loaded = await store.loadRecord(id);
          assert.equal(loaded?.revision, first);
          assert.deepStrictEqual(withoutRevision(loaded), { state: state(1) });
          const second = await store.saveRecord(id, { ...loaded, state: state(2), revision: 999_999 });
          assert.ok((second as number) > (first as number), 'revisions increase');
          assert.equal((await store.loadRecord(id))?.revision, second, 'the revision a caller passes is ignored');
        }),
    },
    {
      name: 'compare-and-set: a save from a stale revision is refused with StoreConflictError and writes nothing',
      run: () =>
        withStores(2, async ([a, b]) => {
          const id = session('cas');
          const none = await rejection(
            (a as SessionStore).saveRecord(id, { state: state(1) }, { expectedRevision: 5 }),
          );
          assert.ok(StoreConflictError.isInstance(none), 'a record expected where there is none conflicts');
          assert.equal(none.actualRevision, 0);
          const r1 = (await a?.saveRecord(id, { state: state(1) }, { expectedRevision: 0 })) as number;
          const seen = (await b?.loadRecord(id))?.revision;
          assert.equal(seen, r1);
          const r2 = (await b?.saveRecord(id, { state: state(2) }, { expectedRevision: r1 })) as number;
          const conflict = await rejection(
            (a as SessionStore).saveRecord(id, { state: state(3) }, { expectedRevision: r1 }),
          );
          assert.ok(StoreConflictError.isInstance(conflict), `expected a StoreConflictError, got ${String(conflict)}`);
          assert.equal(conflict.expectedRevision, r1);
          assert.equal(conflict.actualRevision, r2);
          assert.equal(conflict.sessionId, id);
          const zero = await rejection(
            (a as SessionStore).saveRecord(id, { state: state(3) }, { expectedRevision: 0 }),
          );
          assert.ok(StoreConflictError.isInstance(zero), 'expecting no record when there is one conflicts');
          const stored = await a?.loadRecord(id);
          assert.equal(stored?.state?.version, 2, 'the refused saves wrote nothing');
          assert.equal(stored?.revision, r2);
          await a?.saveRecord(id, { state: state(4) });
          assert.equal(
            (await b?.loadRecord(id))?.state?.version,
            4,
            'a save without expectedRevision is unconditional',
          );
        }),
    },
    {
      name: 'compare-and-set race: of saves from the same revision at once, exactly one wins',
      run: () =>
        withStores(writers, async (stores) => {
          const id = session('cas-race');
          const base = (await stores[0]?.saveRecord(id, { state: state(1) })) as number;
          for (let round = 0; round < 5; round++) {
            const expected = (await stores[0]?.loadRecord(id))?.revision ?? base;
            const results = await Promise.allSettled(
              stores.map((store, index) =>
                store.saveRecord(id, { state: state(10 * round + index + 2) }, { expectedRevision: expected }),
              ),
            );
            const won = results.filter((result) => result.status === 'fulfilled');
            assert.equal(won.length, 1, `round ${round}: exactly one save wins`);
            for (const result of results) {
              if (result.status === 'rejected') {
                assert.ok(
                  StoreConflictError.isInstance(result.reason),
                  `the losers get StoreConflictError: ${String(result.reason)}`,
                );
              }
            }
            const winner = results.findIndex((result) => result.status === 'fulfilled');
            assert.equal((await stores[0]?.loadRecord(id))?.state?.version, 10 * round + winner + 2);
          }
        }),
    },
    {
      name: 'a record that is not valid is refused with StoreError and the stored one is kept',
      run: () =>
        withStore(async (store) => {
          const id = session('bad-record');
          await store.saveRecord(id, { state: state(1) });
          const records: unknown[] = [
            {
              usage: {
                inputTokens: Number.POSITIVE_INFINITY,
                contextMessageCount: 1,
                historyLength: 1,
                stateVersion: 0,
              },
            },
            { usage: { inputTokens: '5000', contextMessageCount: 1, historyLength: 1, stateVersion: 0 } },
            { state: { ...state(2), summary: 12345 } },
            { calibration: { model: 10n } },
          ];
          for (const record of records) {
            const error = await rejection(store.saveRecord(id, record as SessionRecord));
            assert.ok(StoreError.isInstance(error), `expected a StoreError, got ${String(error)}`);
            assert.equal(error.operation, 'saveRecord');
          }
          assert.equal((await store.loadRecord(id))?.state?.version, 1);
        }),
    },
    {
      name: 'concurrent appenders: every message stored once, each append contiguous, each writer in order',
      run: () =>
        withStores(writers, async (stores) => {
          const id = session('appenders');
          const rounds = 15;
          const batch = 3;
          const lengths = await Promise.all(
            stores.map(async (store, writer) => {
              const seen: number[] = [];
              for (let round = 0; round < rounds; round++) {
                const messages = Array.from({ length: batch }, (_, index) => text(`w${writer}-r${round}-${index}`));
                seen.push((await store.appendHistory(id, messages)) as number);
              }
              return seen;
            }),
          );
          const history = await stores[0]?.loadHistory(id);
          const ids = history?.map((message) => message.id) ?? [];
          assert.equal(ids.length, writers * rounds * batch);
          assert.equal(new Set(ids).size, ids.length, 'no message twice');
          for (let start = 0; start < ids.length; start += batch) {
            const prefix = ids[start]?.replace(/-\d+$/, '');
            for (let index = 0; index < batch; index++)
              assert.equal(ids[start + index], `${prefix}-${index}`, 'appends are contiguous');
          }
          for (let writer = 0; writer < writers; writer++) {
            const own = ids.filter((value) => value.startsWith(`w${writer}-`));
            assert.deepEqual(
              own,
              Array.from({ length: rounds * batch }, (_, n) => `w${writer}-r${Math.floor(n / batch)}-${n % batch}`),
            );
            const reported = lengths[writer] ?? [];
            for (const [round, length] of reported.entries()) {
              assert.equal(
                ids[length - 1],
                `w${writer}-r${round}-${batch - 1}`,
                'appendHistory resolves to the length after its own append',
              );
            }
          }
        }),
    },
    {
      name: 'a reader never sees half an append',
      run: () =>
        withStores(2, async ([writer, reader]) => {
          const id = session('half');
          const batch = 25;
          const big = 'x'.repeat(20_000);
          let done = false;
          const observed: number[] = [];
          const reading = (async () => {
            while (!done) observed.push(((await reader?.loadHistory(id)) ?? []).length);
          })();
          for (let round = 0; round < 12; round++) {
            await writer?.appendHistory(
              id,
              Array.from({ length: batch }, (_, index) => text(`r${round}-${index}`, index % 5 === 0 ? big : 'small')),
            );
          }
          done = true;
          await reading;
          observed.push(((await reader?.loadHistory(id)) ?? []).length);
          for (const length of observed)
            assert.equal(length % batch, 0, `a reader saw ${length} messages: half an append`);
          assert.equal(observed.at(-1), 12 * batch);
        }),
    },
    {
      name: 'clear forgets history and record of that session only, and a record from before it cannot be saved',
      run: () =>
        withStores(2, async ([a, b]) => {
          const id = session('clear');
          const other = session('clear-other');
          await a?.appendHistory(id, [text('m1'), text('m2')]);
          await a?.appendHistory(other, [text('o1')]);
          await a?.saveRecord(other, { state: state(7) });
          const before = (await a?.saveRecord(id, { state: state(1) })) as number;
          await b?.clear(id);
          assert.deepEqual(await a?.loadHistory(id), []);
          assert.equal(await a?.loadRecord(id), undefined);
          assert.deepEqual(
            (await a?.loadHistory(other))?.map((message) => message.id),
            ['o1'],
          );
          assert.equal((await a?.loadRecord(other))?.state?.version, 7);
          const stale = await rejection(
            (a as SessionStore).saveRecord(id, { state: state(2) }, { expectedRevision: before }),
          );
          assert.ok(StoreConflictError.isInstance(stale), 'a record computed before the clear conflicts');
          const after = (await b?.saveRecord(id, { state: state(3) }, { expectedRevision: 0 })) as number;
          assert.notEqual(after, before, 'revisions are not reused across clear');
          assert.equal(await a?.appendHistory(id, [text('m3')]), 1, 'the history starts again from 0');
          assert.deepEqual(
            (await b?.loadHistory(id))?.map((message) => message.id),
            ['m3'],
          );
          await a?.clear(session('never-written'));
        }),
    },
    {
      name: 'session ids with /, :, quotes, unicode, case differences and 300 characters are distinct',
      run: () =>
        withStore(async (store) => {
          const base = session('ids');
          const ids = [
            'a/b',
            'a:b',
            'a%2Fb',
            '../escape',
            'it\'s "q"',
            'é',
            'e\u0301',
            '会话',
            'Chat',
            'chat',
            'x'.repeat(300),
          ].map((suffix) => `${base}/${suffix}`);
          for (const [index, id] of ids.entries()) await store.appendHistory(id, [text(`m${index}`)]);
          for (const [index, id] of ids.entries()) {
            assert.deepEqual(
              (await store.loadHistory(id)).map((message) => message.id),
              [`m${index}`],
              id,
            );
          }
        }),
    },
  ];

  const { corrupt, crashDuringAppend } = options;
  if (corrupt) {
    const kinds: CorruptionKind[] = ['history-not-json', 'history-not-message', 'record-not-json'];
    for (const kind of kinds) {
      cases.push({
        name: `corrupt data (${kind}) gives InvalidStateError naming the file or key`,
        run: () =>
          withStore(async (store) => {
            const id = session(`corrupt-${kind}`);
            await store.appendHistory(id, [text('m1'), text('m2')]);
            await store.saveRecord(id, { state: state(1) });
            const source = await corrupt(id, kind);
            const load = kind === 'record-not-json' ? store.loadRecord(id) : store.loadHistory(id);
            const error = await rejection(load);
            assert.ok(InvalidStateError.isInstance(error), `expected an InvalidStateError, got ${String(error)}`);
            assert.ok(error.message.includes(source), `the error names ${source}: ${error.message}`);
            if (kind === 'record-not-json') {
              const revision = await store.saveRecord(id, { state: state(2) }, { expectedRevision: 0 });
              assert.equal(typeof revision, 'number', 'a corrupt record can be replaced by one computed from nothing');
              assert.equal((await store.loadRecord(id))?.state?.version, 2);
            }
          }),
      });
    }
  }
  if (crashDuringAppend) {
    cases.push({
      name: 'a process killed while appending leaves whole appends only, and the store keeps working',
      run: () =>
        withStore(async (store) => {
          for (let attempt = 0; attempt < 3; attempt++) {
            const id = session(`crash-${attempt}`);
            const batch = 40;
            const batches = Array.from({ length: 30 }, (_, round) =>
              Array.from({ length: batch }, (_, index) =>
                text(`c${round}-${index}`, 'y'.repeat(index % 7 === 0 ? 50_000 : 40)),
              ),
            );
            await crashDuringAppend(id, batches);
            const ids = (await store.loadHistory(id)).map((message) => message.id);
            assert.equal(ids.length % batch, 0, `after the crash ${ids.length} messages: half an append survived`);
            assert.deepEqual(
              ids,
              batches
                .flat()
                .slice(0, ids.length)
                .map((message) => message.id),
            );
            assert.equal(await store.appendHistory(id, [text('after')]), ids.length + 1);
            assert.equal((await store.loadHistory(id)).at(-1)?.id, 'after');
          }
        }),
    });
  }
  return cases;
}
