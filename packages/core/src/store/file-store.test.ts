import { appendFile, mkdtemp, open as openFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPACTION_STATE_SCHEMA, type CompactionState } from '../compaction/compaction-state.js';
import { InvalidStateError } from '../errors/index.js';
import type { Message } from '../messages/types.js';
import { StoreError } from './errors/store-error.js';
import { fileStore } from './file-store.js';
import { appendHistoryFile, type FileStoreWarning, HISTORY_FORMAT_LINE } from './history-file.js';
import type { SessionRecord } from './session-store.js';

const message = (id: string, text = `text of ${id}`): Message => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

const state = (version: number): CompactionState => ({
  schema: COMPACTION_STATE_SCHEMA,
  version,
  summary: `summary ${version}`,
  firstKeptMessageId: `m${version}`,
  summarizedRange: { fromIndex: 0, toIndex: version, messageCount: version + 1 },
  prunedToolCallIds: [],
  fileOps: { read: ['a.ts'], modified: [] },
  tokensBefore: 1000,
  tokensAfter: 200,
  strategy: 'structured',
  createdAt: new Date(0).toISOString(),
});

async function rejection(promise: Promise<unknown>): Promise<InvalidStateError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!InvalidStateError.isInstance(error)) throw new Error(`expected an InvalidStateError, got ${String(error)}`);
  return error;
}

let dir: string;
let warnings: FileStoreWarning[];
const open = () => fileStore(dir, { onWarning: (warning) => warnings.push(warning) });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-file-store-'));
  warnings = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fileStore', () => {
  it('treats missing files (and a missing folder) as an empty session', async () => {
    const store = fileStore(join(dir, 'not', 'yet'));
    expect(await store.loadHistory('s')).toEqual([]);
    expect(await store.loadRecord('s')).toBeUndefined();
  });

  it('round-trips history and record through two files, creating the folder', async () => {
    const store = fileStore(join(dir, 'nested', 'sessions'));
    const record: SessionRecord = {
      state: state(3),
      usage: { inputTokens: 900, contextMessageCount: 4, historyLength: 9, stateVersion: 3 },
      calibration: { 'gpt-4o': 1.05 },
    };
    await store.appendHistory('s', [message('m1'), message('m2', 'line\nbreak "quoted" ✓')]);
    await store.appendHistory('s', []);
    await store.appendHistory('s', [message('m3')]);
    await store.saveRecord('s', record);

    const reopened = fileStore(join(dir, 'nested', 'sessions'));
    expect(await reopened.loadHistory('s')).toEqual([
      message('m1'),
      message('m2', 'line\nbreak "quoted" ✓'),
      message('m3'),
    ]);
    expect(await reopened.loadRecord('s')).toEqual({ ...record, revision: expect.any(Number) });
    expect((await readdir(join(dir, 'nested', 'sessions'))).sort()).toEqual(['s.history.jsonl', 's.state.json']);
    // One JSON message a line; each append ends with a commit line (an empty append writes nothing).
    const lines = (await readFile(join(dir, 'nested', 'sessions', 's.history.jsonl'), 'utf8')).split('\n');
    expect(lines[0]).toBe(HISTORY_FORMAT_LINE);
    expect(
      lines.slice(1).map((line) => (line.startsWith('{"$commit"') ? line : JSON.parse(line || 'null')?.id)),
    ).toEqual(['m1', 'm2', '{"$commit":2}', 'm3', '{"$commit":1}', undefined]);
  });

  it('creates the folder again when it was removed after the store wrote to it, for an append and for a save', async () => {
    const folder = join(dir, 'removed');
    const store = fileStore(folder);
    await store.appendHistory('s', [message('m1')]);
    await rm(folder, { recursive: true });
    expect(await store.appendHistory('s', [message('m2')])).toBe(1);
    await rm(folder, { recursive: true });
    await store.saveRecord('s', { state: state(2) });
    expect(await store.loadHistory('s')).toEqual([]);
    expect((await store.loadRecord('s'))?.state?.version).toBe(2);
    await store.appendHistory('s', [message('m3')]);
    expect(await fileStore(folder).loadHistory('s')).toEqual([message('m3')]);
    expect((await readdir(folder)).sort()).toEqual(['s.history.jsonl', 's.state.json']);
  });

  it('replaces the record whole and leaves no temp files', async () => {
    const store = open();
    await store.saveRecord('s', { state: state(1) });
    await store.saveRecord('s', { state: state(2) });
    expect((await store.loadRecord('s'))?.state?.version).toBe(2);
    expect(await readdir(dir)).toEqual(['s.state.json']);
  });

  it('syncs the temp file and then the folder on every save, a usage report included (that folder sync is what makes a new history file and a branch switch durable)', async () => {
    const store = open();
    const folder = await openFile(tmpdir(), 'r');
    const handlePrototype = Object.getPrototypeOf(folder) as { sync: () => Promise<void> };
    await folder.close();
    const syncs = vi.spyOn(handlePrototype, 'sync');
    try {
      const usage = (historyLength: number) => ({
        inputTokens: 10,
        contextMessageCount: 1,
        historyLength,
        stateVersion: 1,
      });
      const saves: [SessionRecord, number][] = [
        [{ usage: usage(1) }, 2], // the first record, no state: the temp file, then the folder
        [{ state: state(1) }, 2],
        [{ state: state(1), usage: usage(1) }, 2], // the same state, a usage report
        [{ state: state(1), usage: usage(2), calibration: { m: 1.2 } }, 2],
        [{ state: state(2), usage: usage(3) }, 2],
        [{ usage: usage(4) }, 2], // the state goes
        [{ usage: usage(5) }, 2],
      ];
      for (const [record, expected] of saves) {
        syncs.mockClear();
        await store.saveRecord('s', record);
        expect(syncs).toHaveBeenCalledTimes(expected);
        const { revision: _revision, ...loaded } = (await open().loadRecord('s')) ?? {};
        expect(loaded).toEqual(record);
      }
      expect(await readdir(dir)).toEqual(['s.state.json']);
    } finally {
      syncs.mockRestore();
    }
  });

  it('a session restarted over its files decides from the stored usage, counting nothing, and saves the next usage durably', async () => {
    const { createCompactionSession } = await import('../session/create-compaction-session.js');
    let counted = 0;
    const counter = {
      name: 'chars/4',
      countText: (text: string) => {
        counted += 1;
        return Math.ceil(text.length / 4);
      },
    };
    const settings = { contextWindow: 50_000_000 };
    const messages = Array.from({ length: 60 }, (_, index) =>
      message(`m${index}`, `${index} ${'output é '.repeat(300)}`),
    );
    const before = createCompactionSession({ sessionId: 's', store: open(), settings, counter });
    await before.append(messages);
    await before.recordUsage({ inputTokens: (await before.prepare()).tokens });

    const folder = await openFile(tmpdir(), 'r');
    const syncs = vi.spyOn(Object.getPrototypeOf(folder) as { sync: () => Promise<void> }, 'sync');
    await folder.close();
    try {
      const session = createCompactionSession({ sessionId: 's', store: open(), settings, counter });
      counted = 0;
      syncs.mockClear();
      const prepared = await session.prepare();
      expect(prepared.messages).toEqual(messages);
      expect(prepared.compaction).toBeUndefined();
      await session.recordUsage({ inputTokens: prepared.tokens });
      expect(counted).toBe(0);
      expect(syncs).toHaveBeenCalledTimes(2); // the temp file, then the folder
      expect((await open().loadRecord('s'))?.usage?.historyLength).toBe(60);
    } finally {
      syncs.mockRestore();
    }
  });

  it('keeps call order for concurrent appends and saves', async () => {
    const store = open();
    const big = 'x'.repeat(200_000);
    await Promise.all(
      Array.from({ length: 40 }, (_, index) => [
        store.appendHistory('s', [message(`m${index}`, index % 3 === 0 ? big : 'small')]),
        store.saveRecord('s', { state: state(index + 1) }),
      ]).flat(),
    );
    const ids = (await store.loadHistory('s')).map((m) => m.id);
    expect(ids).toEqual(Array.from({ length: 40 }, (_, index) => `m${index}`));
    expect((await store.loadRecord('s'))?.state?.version).toBe(40);
    expect(await readdir(dir)).toHaveLength(2);
  });

  it('refuses a record that is not JSON, naming the file and what to do', async () => {
    await writeFile(join(dir, 's.state.json'), '{"state": {"schema": 1,');
    const error = await rejection(open().loadRecord('s'));
    expect(error.source).toBe(join(dir, 's.state.json'));
    expect(error.message).toContain(`${join(dir, 's.state.json')}: is not valid JSON`);
    expect(error.message).toMatch(/restore the file from a backup, or delete it/);
  });

  it('refuses a record whose state fails validation, naming file and field', async () => {
    await writeFile(join(dir, 's.state.json'), JSON.stringify({ state: { ...state(1), firstKeptMessageId: 7 } }));
    const error = await rejection(open().loadRecord('s'));
    expect(error.message).toContain(join(dir, 's.state.json'));
    expect(error.message).toMatch(/state\.firstKeptMessageId must be a string/);
  });

  it('refuses a state from a newer schema', async () => {
    const store = open();
    // Written as a newer release would (saveRecord itself refuses a state it could not read back).
    await writeFile(
      join(dir, 's.state.json'),
      JSON.stringify({ revision: 1, state: { ...state(1), schema: (COMPACTION_STATE_SCHEMA + 1) as 1 } }),
    );
    const error = await rejection(store.loadRecord('s'));
    expect(error.message).toMatch(/state\.schema is 3, but this version of @compaction\/core reads schema 2 at most/);
  });

  it('refuses a history a newer release wrote, to read and to append, saying to upgrade and leaving the file as it was', async () => {
    const file = join(dir, 's.history.jsonl');
    // What a newer format might hold: lines that are no messages of this one, and a torn tail this one would cut off.
    const text = `{"$history":3}\n{"id":"m1","role":"user","parts":[{"type":"text","text":0}],"$x":[0,0,5]}\nhello\n{"$commit":1}\n{"id":"m2"`;
    await writeFile(file, text);
    const store = open();
    for (const attempt of [
      () => store.loadHistory('s'),
      () => store.loadHistory('s', { from: 1 }),
      () => store.appendHistory('s', [message('m9')]),
      // Below the store (which reads the history's length first): the append itself refuses before writing.
      () => appendHistoryFile(file, [JSON.stringify(message('m9'))], (warning) => warnings.push(warning)),
    ]) {
      const error = await rejection(attempt());
      expect(error.source).toBe(file);
      expect(error.message).toContain('in format 3, written by a newer release of @compaction/core');
      expect(error.message).toContain('Upgrade @compaction/core');
      expect(error.message).not.toMatch(/Repair or delete/);
    }
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(warnings).toEqual([]);
  });

  it('refuses a corrupt line in the middle of the history with its line number', async () => {
    const file = join(dir, 's.history.jsonl');
    await writeFile(file, `${JSON.stringify(message('m1'))}\n{"id": "m2", "ro\n${JSON.stringify(message('m3'))}\n`);
    const error = await rejection(open().loadHistory('s'));
    expect(error.source).toBe(file);
    expect(error.message).toMatch(/: line 2 is not valid JSON/);
    expect(error.message).toMatch(/Repair or delete that line/);

    await writeFile(file, `${JSON.stringify(message('m1'))}\n${JSON.stringify({ id: 'm2' })}\n`);
    expect((await rejection(open().loadHistory('s'))).message).toMatch(/line 2 is not a message/);
  });

  it('ignores a torn last line with a warning, and the next append drops it', async () => {
    const store = open();
    const file = join(dir, 's.history.jsonl');
    await store.appendHistory('s', [message('m1'), message('m2')]);
    const torn = JSON.stringify(message('m3', 'y'.repeat(100_000))).slice(0, 70_000);
    await appendFile(file, torn);

    expect((await store.loadHistory('s')).map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.file).toBe(file);
    expect(warnings[0]?.message).toMatch(/incomplete last line \(line 5, 70000 bytes/);

    await store.appendHistory('s', [message('m4')]);
    expect(warnings[1]?.message).toMatch(/dropped 70000 bytes after the last commit/);
    expect((await store.loadHistory('s')).map((m) => m.id)).toEqual(['m1', 'm2', 'm4']);
    expect(warnings).toHaveLength(2);
  });

  it('keeps a message whose keys look like the markers of the file (a line opening with {"$) as a message', async () => {
    const store = open();
    const marked = { $commit: 1, $history: 2, ...message('m1'), metadata: { $c: 'date', v: 'x' } } as Message;
    await store.appendHistory('s', [marked, message('m2')]);
    const lines = (await readFile(join(dir, 's.history.jsonl'), 'utf8')).split('\n');
    expect(lines[1]).toMatch(/^\{"\$\$commit":1,/);
    expect(await open().loadHistory('s')).toEqual([marked, message('m2')]);
    expect(warnings).toEqual([]);
  });

  it('drops a torn tail that is the whole file', async () => {
    const store = open();
    await writeFile(join(dir, 's.history.jsonl'), '{"id":"m0","ro');
    expect(await store.loadHistory('s')).toEqual([]);
    await store.appendHistory('s', [message('m1')]);
    expect((await store.loadHistory('s')).map((m) => m.id)).toEqual(['m1']);
  });

  it('stores ids with /, :, unicode and case differences in distinct files inside the folder', async () => {
    const store = open();
    const ids = ['a/b', 'a:b', 'a%2Fb', '../escape', 'é', 'e\u0301', '会话', 'Chat', 'chat', ''];
    for (const id of ids) {
      await store.appendHistory(id, [message(`first of ${id}`)]);
      await store.saveRecord(id, { state: { ...state(1), summary: `summary of ${id}` } });
    }
    const files = await readdir(dir);
    expect(files).toHaveLength(ids.length * 2);
    expect(new Set(files.map((name) => name.toLowerCase())).size).toBe(files.length);
    for (const id of ids) {
      expect((await store.loadHistory(id)).map((m) => m.id)).toEqual([`first of ${id}`]);
      expect((await store.loadRecord(id))?.state?.summary).toBe(`summary of ${id}`);
    }
  });

  it('clear removes both files and stray temp files of that session only', async () => {
    const store = open();
    await store.appendHistory('a', [message('m1')]);
    await store.saveRecord('a', { state: state(1) });
    await store.appendHistory('a.state.json.1', [message('other')]);
    await writeFile(join(dir, 'a.state.json.123.0badf00d.tmp'), '{"half');
    await writeFile(join(dir, 'a.state.json.1.state.json.9.deadbeef.tmp'), '{}');

    await store.clear('a');
    expect(await store.loadHistory('a')).toEqual([]);
    expect(await store.loadRecord('a')).toBeUndefined();
    expect((await readdir(dir)).sort()).toEqual([
      'a.state.json.1.history.jsonl',
      'a.state.json.1.state.json.9.deadbeef.tmp',
    ]);
    await store.clear('never-written');
    await fileStore(join(dir, 'missing')).clear('a');
  });
});

describe('fileStore under the reliability repros', () => {
  it('r03: Uint8Array file data and Date values come back unchanged through a session', async () => {
    const { createCompactionSession } = await import('../session/create-compaction-session.js');
    const sent = new Date('2026-11-24T10:00:00.000Z');
    await createCompactionSession({ sessionId: 's', store: open() }).append({
      id: 'f',
      role: 'user',
      parts: [{ type: 'file', mediaType: 'application/pdf', data: new Uint8Array([37, 80, 68, 70]) }],
      metadata: { sent },
    });
    const [loaded] = await createCompactionSession({ sessionId: 's', store: open() }).history();
    const part = loaded?.parts[0];
    expect(part?.type === 'file' && part.data).toEqual(new Uint8Array([37, 80, 68, 70]));
    expect((part as { data: unknown }).data).toBeInstanceOf(Uint8Array);
    expect(loaded?.metadata?.sent).toEqual(sent);
    expect(loaded?.metadata?.sent).toBeInstanceOf(Date);
  });

  it('r21: a history line that is valid JSON but no message is an InvalidStateError naming file and line', async () => {
    const file = join(dir, 's.history.jsonl');
    await writeFile(
      file,
      `${JSON.stringify(message('m1'))}\n${JSON.stringify({ id: 'm2', role: 'assistant', parts: [{ type: 'text', text: 42 }] })}\n`,
    );
    const { createCompactionSession } = await import('../session/create-compaction-session.js');
    const error = await rejection(createCompactionSession({ sessionId: 's', store: open() }).prepare());
    expect(error.source).toBe(file);
    expect(error.message).toContain(`${file}: line 2 is not a message`);
    expect(error.message).toMatch(/"text" must be a string/);
  });

  it('r02: an append with a circular tool output throws a StoreError naming the file and writes nothing', async () => {
    const store = open();
    const output: Record<string, unknown> = { ok: true };
    output.self = output;
    const error = await store
      .appendHistory('s', [
        message('u1'),
        { id: 'r1', role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'k', toolName: 'run', output }] },
      ])
      .catch((reason: unknown) => reason);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).source).toBe(join(dir, 's.history.jsonl'));
    expect((error as StoreError).message).toMatch(/message 1 \("r1"\): parts\[0\]\.output\.self refers back to itself/);
    expect(await store.loadHistory('s')).toEqual([]);
  });

  it('two store instances (two processes) on one session serialize through the lock file, and a stale lock is broken', async () => {
    const file = join(dir, 's.lock');
    // A lock left by a process that is gone (pid 2^22 + 1 is beyond Linux's pid range).
    await writeFile(file, `4194305 ${(await import('node:os')).hostname()}\n`);
    const [a, b] = [open(), open()];
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 ? a : b).appendHistory('s', [message(`m${index}`)])),
    );
    expect((await a.loadHistory('s')).map((m) => m.id).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i}`).sort(),
    );
    expect((await readdir(dir)).sort()).toEqual(['s.history.jsonl']);
  });

  it('waits for a lock held by a live process, then says which process holds it', async () => {
    await writeFile(join(dir, 's.lock'), `${process.ppid} ${(await import('node:os')).hostname()}\n`);
    const error = await fileStore(dir, { lockTimeoutMs: 50 })
      .appendHistory('s', [message('m1')])
      .catch((reason: unknown) => reason);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).message).toMatch(new RegExp(`held by ${process.ppid} .* for more than 50 ms`));
  });
});
