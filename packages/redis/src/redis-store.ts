import { createHash } from 'node:crypto';
import {
  checkExpectedRevision,
  checkFrom,
  decodeMessage,
  decodeRecord,
  encodeMessages,
  encodeRecord,
  type Message,
  type SessionRecord,
  type SessionStore,
  StoreConflictError,
  StoreError,
  type StoreOperation,
} from '@compaction/core';
import { checkRedisOptions } from './check-redis-options.js';
import type { RedisCommander } from './redis-commander.js';
import { APPEND_SCRIPT, SAVE_SCRIPT } from './scripts.js';

/** Options of {@link redisStore}. */
export type RedisStoreOptions = {
  /** A connected node-redis client (`await createClient({ url }).connect()`); the store never closes it. */
  client: RedisCommander;
  /**
   * Prepended to every key: `<prefix>{<sessionId>}:history` (a list, one
   * message an element) and `<prefix>{<sessionId>}:record` (a hash: record
   * and revision). The braces keep a session's keys in one Redis Cluster slot.
   * @default 'compaction:'
   */
  keyPrefix?: string;
  /**
   * Seconds an untouched session is kept: every write sets this TTL on both
   * keys, so abandoned conversations expire. 0 keeps them forever.
   * @default 0
   */
  ttlSeconds?: number;
};

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/**
 * A {@link SessionStore} on Redis (or Valkey) through node-redis, for many
 * servers or serverless functions sharing conversations. The history is a
 * list appended by one Lua script per append (atomic and ordered: a reader
 * sees all of an append or none); the record sits in a hash with its
 * revision, replaced by a compare-and-set Lua script that throws
 * `StoreConflictError` when another process saved first. `clear` deletes
 * history and record but keeps the revision counter (`…:revision`), so
 * revisions never repeat. An optional TTL lets abandoned sessions expire.
 *
 * The options are checked when the store is made: not an object (a Redis URL)
 * or an unknown key throws `InvalidSettingsError`; a `client` without
 * `sendCommand`, a `keyPrefix` that is not a string or a `ttlSeconds` that is
 * not whole seconds throws `StoreError`.
 *
 * @example
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = redisStore({ client, ttlSeconds: 30 * 24 * 3600 });
 */
export function redisStore(options: RedisStoreOptions): SessionStore {
  checkRedisOptions(options);
  const prefix = options.keyPrefix ?? 'compaction:';
  const ttl = options.ttlSeconds ?? 0;
  const fail = (problem: string) => {
    throw new StoreError({ operation: 'loadHistory', source: 'redisStore', problem });
  };
  if (typeof options.client?.sendCommand !== 'function') {
    fail('options.client must be a connected node-redis client (with sendCommand)');
  }
  if (typeof prefix !== 'string') fail(`keyPrefix must be a string, got ${typeof prefix}`);
  if (!Number.isInteger(ttl) || ttl < 0) fail(`ttlSeconds must be a non-negative integer, got ${String(ttl)}`);
  const { client } = options;
  const keys = (sessionId: string) => {
    const base = `${prefix}{${sessionId}}`;
    return { history: `${base}:history`, record: `${base}:record`, revision: `${base}:revision` };
  };

  /** EVALSHA, falling back to EVAL when the server does not know the script yet. */
  async function evaluate(script: string, keyNames: string[], args: string[]): Promise<unknown> {
    const tail = [String(keyNames.length), ...keyNames, ...args];
    try {
      return await client.sendCommand(['EVALSHA', sha1(script), ...tail]);
    } catch (error) {
      if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      return client.sendCommand(['EVAL', script, ...tail]);
    }
  }

  /** Runs `task`, wrapping Redis failures in a {@link StoreError} naming the key. */
  async function run<T>(operation: StoreOperation, source: string, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      throw StoreError.wrap(error, operation, source);
    }
  }

  /** Whether a stored record text cannot be read (it is set aside: a record computed from nothing may replace it). */
  function isUnreadable(text: string, source: string): boolean {
    try {
      decodeRecord(text, source, 0, 'key');
      return false;
    } catch {
      return true;
    }
  }

  return {
    async loadHistory(sessionId, loadOptions = {}) {
      const { history } = keys(sessionId);
      const from = checkFrom(loadOptions, history);
      return run('loadHistory', history, async () => {
        const items = (await client.sendCommand(['LRANGE', history, String(from), '-1'])) as string[];
        return items.map((item, index): Message => decodeMessage(String(item), history, `entry ${from + index}`));
      });
    },

    async appendHistory(sessionId, messages) {
      const { history, record } = keys(sessionId);
      const texts = encodeMessages(messages, history);
      return run('appendHistory', history, async () =>
        Number(await evaluate(APPEND_SCRIPT, [history, record], [String(ttl), ...texts])),
      );
    },

    loadRecord(sessionId) {
      const { record } = keys(sessionId);
      return run('loadRecord', record, async (): Promise<SessionRecord | undefined> => {
        const [revision, text] = (await client.sendCommand(['HMGET', record, 'revision', 'record'])) as (
          | string
          | null
        )[];
        if (text === null || text === undefined) return undefined;
        return decodeRecord(String(text), record, Number(revision ?? 0), 'key');
      });
    },

    async saveRecord(sessionId, value, saveOptions = {}) {
      const { history, record, revision: counter } = keys(sessionId);
      const text = encodeRecord(value, record);
      const expectedRevision = checkExpectedRevision(saveOptions, record);
      return run('saveRecord', record, async () => {
        const save = async (expected: string) =>
          (await evaluate(SAVE_SCRIPT, [record, history, counter], [expected, text, String(ttl)])) as [
            number,
            number,
            string?,
          ];
        let [saved, revision, stored] = await save(expectedRevision === undefined ? '' : String(expectedRevision));
        if (!saved && expectedRevision === 0 && stored && isUnreadable(stored, record)) {
          // Replace exactly the unreadable version, unless someone saved meanwhile.
          [saved, revision] = await save(String(revision));
        }
        if (!saved) {
          throw new StoreConflictError({
            sessionId,
            source: record,
            expectedRevision: expectedRevision ?? 0,
            actualRevision: Number(revision),
          });
        }
        return Number(revision);
      });
    },

    clear(sessionId) {
      const { history, record } = keys(sessionId);
      return run('clear', history, async () => {
        await client.sendCommand(['DEL', history, record]);
      });
    },
  };
}
