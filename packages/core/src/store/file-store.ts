import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CompactionError } from '../errors/compaction-error.js';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { describeValue } from '../settings/check-option-keys.js';
import { checkFolderPath } from './check-folder-path.js';
import { checkExpectedRevision, checkFrom } from './check-options.js';
import { checkStoreOptions } from './check-store-options.js';
import { decodeRecord } from './codec/decode-record.js';
import { encodeMessages } from './codec/encode-messages.js';
import { encodeRecord } from './codec/encode-record.js';
import { StoreConflictError } from './errors/store-conflict-error.js';
import { StoreError, type StoreOperation } from './errors/store-error.js';
import { withFileLock } from './file-lock.js';
import { appendHistoryFile, type FileStoreWarning, type FileVersion, readHistoryFile } from './history-file.js';
import { nextRevision } from './next-revision.js';
import { readWholeFile } from './read-whole-file.js';
import { serialQueue } from './serial-queue.js';
import { sessionFileName } from './session-file-name.js';
import type { SessionRecord, SessionStore } from './session-store.js';

/** One queue per session lock file, shared by every `fileStore` of the process. */
const sessionQueue = serialQueue();

import { isTempFileOf, writeFileAtomic } from './write-file-atomic.js';

export type { FileStoreWarning } from './history-file.js';

/** Options of {@link fileStore}. */
export type FileStoreOptions = {
  /**
   * Called when the store recovers from something on its own, such as the
   * incomplete last history line a crash during an append leaves.
   * @default undefined (warnings are dropped)
   */
  onWarning?: (warning: FileStoreWarning) => void;
  /**
   * How long an operation waits for another process that holds the session's
   * lock file before it throws {@link StoreError}.
   * @default 10000
   */
  lockTimeoutMs?: number;
};

/** Every option of {@link fileStore}; typed against the options type, so a new one is not refused as unknown. */
const FILE_STORE_OPTION_KEYS = Object.keys({ onWarning: true, lockTimeoutMs: true } satisfies Record<
  keyof FileStoreOptions,
  true
>);

type KnownLength = FileVersion & { length: number };

/** Sessions whose history length and last revision a store remembers; the oldest are forgotten first. */
const REMEMBERED_SESSIONS = 10_000;

/** `map.set(key, value)`, forgetting the oldest entry past {@link REMEMBERED_SESSIONS}. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED_SESSIONS) map.delete(map.keys().next().value as string);
}

/**
 * A {@link SessionStore} in plain files under `dir` (created when first
 * written), for one machine. Each session has two files, named from its id
 * (see `sessionFileName`):
 *
 * - `<id>.history.jsonl`: the display history, one JSON message a line, only
 *   ever appended to; each append ends with a commit line. What a crash
 *   mid-append leaves after the last commit (whole lines of half a batch, or a
 *   torn line) is skipped by loading (with a warning) and dropped by the next append.
 *   `loadHistory(id, { from })` decodes only the messages from `from` on (the
 *   lines before are counted), as a database reads only the rows asked for.
 * - `<id>.state.json`: the {@link SessionRecord} and its revision, replaced
 *   whole through a synced temp file and a rename, so a crash leaves the old
 *   or the new record.
 *
 * Every operation holds `<id>.lock` (created exclusively, naming the process)
 * while it runs, so several processes on one machine can share a session
 * safely: appends never interleave, a reader never sees half an append, and
 * compare-and-set holds. A lock left by a process that exited is broken. The
 * lock does not work across machines on a network file system: servers that
 * share sessions should use `sqliteStore` on one machine, or
 * `@compaction/postgres` / `@compaction/redis`.
 *
 * Corrupt or too-new data throws `InvalidStateError` naming the file (and
 * line); a failed write throws {@link StoreError} and changes nothing.
 *
 * `dir` is checked when the store is made: a non-empty path string of a folder,
 * or of nothing yet (created, parents included, at the first write). `''`, a
 * path that is a file or runs through one, an unknown option key or an
 * `onWarning` that is not a function throw `InvalidSettingsError` at once.
 *
 * @example
 * const store = fileStore('.sessions', { onWarning: ({ file, message }) => console.warn(file, message) });
 */
export function fileStore(dir: string, options?: FileStoreOptions): SessionStore {
  const folder = checkFolderPath(dir);
  const given = checkStoreOptions(options, FILE_STORE_OPTION_KEYS, 'fileStore');
  if (given.onWarning !== undefined && typeof given.onWarning !== 'function') {
    throw new InvalidSettingsError({
      setting: 'onWarning',
      problem: `must be a function (warning) => void, got ${describeValue(given.onWarning)}`,
    });
  }
  const warn = given.onWarning ?? (() => {});
  const lockTimeoutMs = given.lockTimeoutMs ?? 10_000;
  if (!Number.isFinite(lockTimeoutMs) || lockTimeoutMs < 0) {
    throw new StoreError({
      operation: 'loadHistory',
      source: folder,
      problem: `lockTimeoutMs must be a non-negative number of milliseconds, got ${String(lockTimeoutMs)}`,
    });
  }
  /** History lengths this store saw last, to answer appends without rereading the file. */
  const lengths = new Map<string, KnownLength>();
  /** The last revision this store gave each session: kept across `clear`, so none repeats here. */
  const issued = new Map<string, number>();
  const paths = (sessionId: string) => {
    const base = sessionFileName(sessionId);
    return {
      base,
      history: join(folder, `${base}.history.jsonl`),
      record: join(folder, `${base}.state.json`),
      lock: join(folder, `${base}.lock`),
    };
  };

  /**
   * Runs `task` in call order among every `fileStore` of this process on the same folder
   * (one queue per lock file, so a store that reads in a loop cannot starve another that
   * waits to append), and under the session's lock file across processes.
   */
  function locked<T>(
    sessionId: string,
    operation: StoreOperation,
    source: string,
    task: () => Promise<T>,
    whenMissing: () => T,
  ): Promise<T> {
    const { lock } = paths(sessionId);
    const writes = operation === 'appendHistory' || operation === 'saveRecord';
    return sessionQueue(lock, async () => {
      try {
        return await withFileLock(lock, task, {
          ...(writes ? { createFolder: () => mkdir(folder, { recursive: true }) } : {}),
          timeoutMs: lockTimeoutMs,
          onTimeout: (holder) =>
            new StoreError({
              operation,
              source,
              problem:
                `the session's lock file ${lock} is held by ${holder} for more than ${lockTimeoutMs} ms. ` +
                'If that process is gone (on another machine the store cannot tell), delete the lock file',
            }),
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !writes) {
          return whenMissing();
        }
        throw StoreError.wrap(error, operation, source);
      }
    });
  }

  async function historyLength(sessionId: string, file: string): Promise<number> {
    const known = lengths.get(sessionId);
    const now = await identify(file);
    if (now === undefined) return 0;
    if (known && known.ino === now.ino && known.size === now.size && known.mtime === now.mtime) return known.length;
    const { length, version } = await readHistoryFile(file, warn);
    remember(lengths, sessionId, { ...(version ?? now), length });
    return length;
  }

  /** What tells one version of a history file from another: inode, size and modification time (ns). */
  async function identify(file: string): Promise<FileVersion | undefined> {
    const now = await stat(file, { bigint: true }).catch(() => undefined);
    return now && { ino: now.ino, size: now.size, mtime: now.mtimeNs };
  }

  async function readRecord(file: string): Promise<SessionRecord | undefined> {
    let read: Awaited<ReturnType<typeof readWholeFile>>;
    try {
      read = await readWholeFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return decodeRecord(read.data.toString('utf8'), file, undefined, 'file');
    } finally {
      await read.closed;
    }
  }

  /** The revision on disk for compare-and-set: 0 when there is no record or it is unreadable (set aside). */
  async function storedRevision(file: string): Promise<number> {
    try {
      return (await readRecord(file))?.revision ?? 0;
    } catch (error) {
      if (CompactionError.isInstance(error)) return 0;
      throw error;
    }
  }

  return {
    async loadHistory(sessionId, loadOptions = {}) {
      const { history } = paths(sessionId);
      const from = checkFrom(loadOptions, history);
      return locked(
        sessionId,
        'loadHistory',
        history,
        async () => {
          // The version comes from the read's own `fstat`: no second `stat` of the file.
          const { messages, length, version } = await readHistoryFile(history, warn, from);
          if (version) remember(lengths, sessionId, { ...version, length });
          return messages;
        },
        () => [],
      );
    },

    async appendHistory(sessionId, messages) {
      const { history } = paths(sessionId);
      const lines = encodeMessages(messages, history);
      return locked(
        sessionId,
        'appendHistory',
        history,
        async () => {
          const before = await historyLength(sessionId, history);
          if (lines.length === 0) return before;
          await appendHistoryFile(history, lines, warn);
          const now = await identify(history);
          if (now) remember(lengths, sessionId, { ...now, length: before + lines.length });
          return before + lines.length;
        },
        () => 0,
      );
    },

    loadRecord(sessionId) {
      const { record } = paths(sessionId);
      return locked(
        sessionId,
        'loadRecord',
        record,
        () => readRecord(record),
        () => undefined,
      );
    },

    async saveRecord(sessionId, value, saveOptions = {}) {
      const { record } = paths(sessionId);
      const fields = encodeRecord(value, record);
      const expectedRevision = checkExpectedRevision(saveOptions, record);
      return locked(
        sessionId,
        'saveRecord',
        record,
        async () => {
          const actual = await storedRevision(record);
          if (expectedRevision !== undefined && expectedRevision !== actual) {
            throw new StoreConflictError({ sessionId, source: record, expectedRevision, actualRevision: actual });
          }
          const revision = nextRevision(actual, issued.get(sessionId));
          remember(issued, sessionId, revision);
          const body = fields === '{}' ? '' : `,${fields.slice(1, -1)}`;
          await writeFileAtomic(record, `{"revision":${revision}${body}}\n`);
          return revision;
        },
        () => 0,
      );
    },

    clear(sessionId) {
      const { base, history, record } = paths(sessionId);
      return locked(
        sessionId,
        'clear',
        history,
        async () => {
          const leftovers = await readdir(folder).catch(() => [] as string[]);
          const temps = leftovers.filter((name) => isTempFileOf(`${base}.state.json`, name));
          await Promise.all(
            [history, record, ...temps.map((name) => join(folder, name))].map((file) => rm(file, { force: true })),
          );
          lengths.delete(sessionId);
        },
        () => undefined,
      );
    },
  };
}
