import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COMPACTION_STATE_SCHEMA,
  type CompactionState,
  InvalidSettingsError,
  InvalidStateError,
  StoreConflictError,
  StoreError,
} from '@compaction/core';
import { sessionStoreContract } from '@compaction/core/testing';
import { InMemoryStore, type MastraCompositeStore } from '@mastra/core/storage';
import { LibSQLStore } from '@mastra/libsql';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { threadMetadataStore } from './thread-metadata-store.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-thread-store-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
/** A LibSQL storage over a new file in the temp directory, tables created. */
async function libsqlStorage(): Promise<LibSQLStore> {
  files += 1;
  const storage = new LibSQLStore({ id: `thread-store-${files}`, url: `file:${join(directory, `s${files}.db`)}` });
  await storage.init();
  return storage;
}

function state(version: number, firstKeptMessageId = `m${version}`): CompactionState {
  return {
    schema: COMPACTION_STATE_SCHEMA,
    version,
    summary: `summary ${version}`,
    firstKeptMessageId,
    summarizedRange: { fromIndex: 0, toIndex: version, messageCount: version + 1 },
    prunedToolCallIds: [],
    fileOps: { read: [], modified: [] },
    tokensBefore: 1000,
    tokensAfter: 200,
    strategy: 'structured',
    createdAt: new Date(0).toISOString(),
  };
}

async function memoryDomain(storage: MastraCompositeStore) {
  const domain = await storage.getStore('memory');
  if (!domain) throw new Error('no memory domain');
  return domain;
}

async function createThread(storage: MastraCompositeStore, id: string, metadata: Record<string, unknown>) {
  const now = new Date();
  await (await memoryDomain(storage)).saveThread({
    thread: { id, resourceId: 'u1', title: 'a thread', metadata, createdAt: now, updatedAt: now },
  });
}

async function metadataOf(storage: MastraCompositeStore, id: string) {
  return (await (await memoryDomain(storage)).getThreadById({ threadId: id }))?.metadata ?? {};
}

/** The contract cases that apply to a store that keeps records and no history. */
const RECORD_CASES = [
  'an unknown session has an empty history and no record',
  'options that are not a non-negative integer are refused with StoreError at once',
  'saveRecord assigns increasing revisions that loadRecord reports',
  'compare-and-set: a save from a stale revision is refused with StoreConflictError and writes nothing',
  'compare-and-set race: of saves from the same revision at once, exactly one wins',
  'a record that is not valid is refused with StoreError and the stored one is kept',
];

describe.each([
  ['InMemoryStore', async () => new InMemoryStore({ id: 'thread-store' }) as MastraCompositeStore],
  ['LibSQLStore (a file)', async () => (await libsqlStorage()) as MastraCompositeStore],
])('threadMetadataStore over %s', (_name, makeStorage) => {
  describe('the record cases of the SessionStore contract', () => {
    // One storage for every store of a case: the stores play the sessions of one process.
    let storage: Promise<MastraCompositeStore> | undefined;
    const sharedStorage = () => {
      storage ??= makeStorage();
      return storage;
    };
    const cases = sessionStoreContract({
      createStore: async () => threadMetadataStore(await sharedStorage(), { resourceId: 'contract' }),
    });
    it('offers every record case', () => {
      expect(cases.map((test) => test.name)).toEqual(expect.arrayContaining(RECORD_CASES));
    });
    for (const test of cases.filter((test) => RECORD_CASES.includes(test.name))) it(test.name, test.run, 60_000);
  });

  it("keeps the record under its key and leaves the thread's other metadata as it was", async () => {
    const storage = await makeStorage();
    await createThread(storage, 't1', { project: 'apollo', nested: { a: [1, 2] } });
    const store = threadMetadataStore(storage);
    const first = (await store.saveRecord('t1', { state: state(1) }, { expectedRevision: 0 })) as number;
    // The user changes their key between two saves.
    await (await memoryDomain(storage)).updateThread({
      id: 't1',
      metadata: { ...(await metadataOf(storage, 't1')), project: 'hermes' },
    });
    const second = (await store.saveRecord('t1', { state: state(2) }, { expectedRevision: first })) as number;
    expect(second).toBeGreaterThan(first);
    const metadata = await metadataOf(storage, 't1');
    expect(metadata.project).toBe('hermes');
    expect(metadata.nested).toEqual({ a: [1, 2] });
    expect(metadata.compaction).toMatchObject({ revision: second, record: { state: { version: 2 } } });
    expect((await store.loadRecord('t1'))?.state?.summary).toBe('summary 2');
    expect((await (await memoryDomain(storage)).getThreadById({ threadId: 't1' }))?.title).toBe('a thread');
  });

  it('clear drops the record, keeps the other keys, and a record from before it conflicts', async () => {
    const storage = await makeStorage();
    await createThread(storage, 't2', { project: 'apollo' });
    const store = threadMetadataStore(storage, { key: 'ctx' });
    const before = (await store.saveRecord('t2', { state: state(1) })) as number;
    await store.clear('t2');
    expect(await store.loadRecord('t2')).toBeUndefined();
    expect((await metadataOf(storage, 't2')).project).toBe('apollo');
    await expect(store.saveRecord('t2', { state: state(2) }, { expectedRevision: before })).rejects.toSatisfy(
      StoreConflictError.isInstance,
    );
    const after = (await store.saveRecord('t2', { state: state(3) }, { expectedRevision: 0 })) as number;
    expect(after).toBeGreaterThan(before);
    expect((await metadataOf(storage, 't2')).compaction).toBeUndefined();
    await store.clear('no-such-thread');
  });

  it('refuses to store messages (Mastra memory keeps them) and a save to a thread that does not exist', async () => {
    const storage = await makeStorage();
    const store = threadMetadataStore(storage);
    expect(await store.appendHistory('t3', [])).toBe(0);
    const append = await store
      .appendHistory('t3', [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }])
      .catch((error: unknown) => error);
    expect(StoreError.isInstance(append) && append.operation).toBe('appendHistory');
    expect((append as Error).message).toMatch(/persistHistory: false/);
    const missing = await store.saveRecord('t3', { state: state(1) }).catch((error: unknown) => error);
    expect(StoreError.isInstance(missing) && missing.operation).toBe('saveRecord');
    expect((missing as Error).message).toContain('Mastra thread "t3"');
    expect(await store.loadRecord('t3')).toBeUndefined();
  });

  it('gives a StoreError naming the thread for any corrupt entry under the key, and a save from 0 replaces it', async () => {
    const storage = await makeStorage();
    const store = threadMetadataStore(storage);
    const domain = await memoryDomain(storage);
    const validRecord = { state: state(1) };
    const corrupt = fc.oneof(
      fc.jsonValue().filter((value) => value !== null),
      fc.record({
        revision: fc.oneof(
          fc.double().filter((revision) => !Number.isSafeInteger(revision) || revision < 0),
          fc.string(),
          fc.integer({ max: -1 }),
        ),
        record: fc.constant({}),
      }),
      fc.record({ revision: fc.nat(), record: fc.oneof(fc.string(), fc.array(fc.nat()), fc.integer()) }),
      fc.record({
        revision: fc.nat(),
        record: fc.record({ state: fc.record({ version: fc.string(), summary: fc.nat() }) }),
      }),
      fc.record({ revision: fc.nat(), record: fc.constant({ usage: { inputTokens: 'many' } }) }),
    );
    let thread = 0;
    await fc.assert(
      fc.asyncProperty(corrupt, async (value) => {
        const { record, revision } = (value ?? {}) as { record?: unknown; revision?: unknown };
        // Values that happen to be a valid entry (an object with a count revision and no record) are not corrupt.
        if (
          typeof value === 'object' &&
          !Array.isArray(value) &&
          Number.isSafeInteger(revision) &&
          record === undefined
        )
          return;
        thread += 1;
        const id = `corrupt-${thread}`;
        await createThread(storage, id, { compaction: value, project: 'apollo' });
        const error = await store.loadRecord(id).catch((caught: unknown) => caught);
        expect(StoreError.isInstance(error), `${JSON.stringify(value)}: ${String(error)}`).toBe(true);
        const storeError = error as StoreError;
        expect(storeError.operation).toBe('loadRecord');
        expect(storeError.message).toContain(`Mastra thread "${id}" metadata key "compaction"`);
        expect(InvalidStateError.isInstance(storeError.cause)).toBe(true);
        const saved = await store.saveRecord(id, validRecord, { expectedRevision: 0 });
        expect((await store.loadRecord(id))?.revision).toBe(saved);
        expect((await domain.getThreadById({ threadId: id }))?.metadata?.project).toBe('apollo');
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a key that is not a non-empty string at once', async () => {
    const storage = await makeStorage();
    for (const key of ['', 7, {}]) {
      let error: unknown;
      try {
        threadMetadataStore(storage, { key: key as string });
      } catch (caught) {
        error = caught;
      }
      expect(InvalidSettingsError.isInstance(error), String(key)).toBe(true);
      expect((error as Error).message).toMatch(/non-empty string/);
    }
  });
});
