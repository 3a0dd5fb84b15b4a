import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InvalidStateError } from '../errors/index.js';
import { appendHistoryFile, type FileStoreWarning, readHistoryFile } from './history-file.js';
import { serialQueue } from './serial-queue.js';
import { sessionFileName } from './session-file-name.js';
import type { SessionRecord, SessionStore } from './session-store.js';
import { validateSessionRecord } from './validate-record.js';
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
};

/**
 * A {@link SessionStore} in plain files under `dir` (created when first
 * written). Each session has two files, named from its id (see
 * `sessionFileName`):
 *
 * - `<id>.history.jsonl`: the display history, one JSON message a line, only
 *   ever appended to. A crash mid-append leaves at most an unterminated last
 *   line, which loading skips (with a warning) and the next append drops.
 * - `<id>.state.json`: the {@link SessionRecord}, replaced whole through a
 *   synced temp file and a rename, so a crash leaves the old or the new record.
 *
 * Writes to one session run one at a time in call order. Corrupt or too-new
 * data throws {@link InvalidStateError} naming the file. One process should
 * write a given session at a time.
 *
 * @example
 * const store = fileStore('.sessions', { onWarning: ({ file, message }) => console.warn(file, message) });
 */
export function fileStore(dir: string, options: FileStoreOptions = {}): SessionStore {
  const folder = resolve(dir);
  const warn = options.onWarning ?? (() => {});
  const serial = serialQueue();
  const paths = (sessionId: string) => {
    const base = sessionFileName(sessionId);
    return { base, history: join(folder, `${base}.history.jsonl`), record: join(folder, `${base}.state.json`) };
  };

  return {
    loadHistory(sessionId) {
      const { base, history } = paths(sessionId);
      return serial(base, () => readHistoryFile(history, warn));
    },

    appendHistory(sessionId, messages) {
      const { base, history } = paths(sessionId);
      return serial(base, async () => {
        if (messages.length === 0) return;
        await mkdir(folder, { recursive: true });
        await appendHistoryFile(history, messages, warn);
      });
    },

    loadRecord(sessionId) {
      const { base, record } = paths(sessionId);
      return serial(base, () => readRecordFile(record));
    },

    saveRecord(sessionId, value) {
      const { base, record } = paths(sessionId);
      const text = `${JSON.stringify(value, null, 2)}\n`;
      return serial(base, async () => {
        await mkdir(folder, { recursive: true });
        await writeFileAtomic(record, text);
      });
    },

    clear(sessionId) {
      const { base, history, record } = paths(sessionId);
      return serial(base, async () => {
        const leftovers = await readdir(folder).catch(() => [] as string[]);
        const temps = leftovers.filter((name) => isTempFileOf(`${base}.state.json`, name));
        await Promise.all(
          [history, record, ...temps.map((name) => join(folder, name))].map((file) => rm(file, { force: true })),
        );
      });
    },
  };
}

async function readRecordFile(file: string): Promise<SessionRecord | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidStateError({
      source: file,
      problem:
        `is not valid JSON (${(error as Error).message}). Records are replaced atomically, so this is not an interrupted ` +
        'write: restore the file from a backup, or delete it to drop the compaction state (the history file is kept)',
      cause: error,
    });
  }
  return validateSessionRecord(value, file);
}
