import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Message } from '../messages/types.js';
import { decodeMessageAt } from './codec/decode-message.js';

/** A row of `sqliteStore`'s history query (`SELECT message, seq …`), as an array of its columns. */
export type HistoryRowArray = [message: string, seq: number];
/** The same row as an object, where `StatementSync.setReturnArrays` is missing (Node before 22.16 and 24.0). */
export type HistoryRowObject = { message: string; seq: number };

/**
 * `statement`, set to return each row as an array of its columns where Node
 * can (`setReturnArrays`, Node 22.16+ and 24+): no object with named keys is
 * built per row, which a history of 10,000 messages notices. Older Nodes keep
 * returning objects; {@link decodeHistoryRows} reads both.
 */
export function returnArrays(statement: StatementSync): StatementSync {
  const settable = statement as StatementSync & { setReturnArrays?: (enabled: boolean) => void };
  if (typeof settable.setReturnArrays === 'function') settable.setReturnArrays(true);
  return statement;
}

/**
 * Decodes the rows of the history query into messages, in order.
 *
 * @param rows - `[message, seq]` arrays, or `{ message, seq }` objects.
 * @param source - The table and session, named in errors.
 * @param into - The messages decoded so far, which the rows' messages follow. @default []
 * @returns `into`, with the rows' messages appended.
 * @throws InvalidStateError naming `source` and the row's `entry <seq>`: a
 *   message that is no JSON, or JSON that is no message.
 */
export function decodeHistoryRows(
  rows: readonly (HistoryRowArray | HistoryRowObject)[],
  source: string,
  into: Message[] = [],
): Message[] {
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as HistoryRowArray | HistoryRowObject;
    const text = Array.isArray(row) ? row[0] : row.message;
    const seq = Array.isArray(row) ? row[1] : row.seq;
    into.push(decodeMessageAt(text, source, 'entry', seq));
  }
  return into;
}

/**
 * The most history rows {@link readHistoryRows} fetches at once. A history is
 * read in pages so that each page's row strings die young: fetched all at once
 * (`all()` of 10,000 rows), they are all alive while the parse runs, so a new
 * process's young generation copies and promotes ~15 MB of strings about to die
 * (measured at 10,002 messages in a new process: 87 → 67 ms of main-thread CPU,
 * the collector's share 75 → 36 ms; the same in a warm process). 256.
 */
export const HISTORY_PAGE_ROWS = 256;

/**
 * Reads and decodes a session's history from `seq` `from` on, {@link HISTORY_PAGE_ROWS}
 * rows at a time, in one read transaction: every page comes from the same
 * snapshot of the database, so a `clear` or an append another connection commits
 * meanwhile is either all seen or not at all (SQLite's WAL keeps the snapshot).
 * Nothing else runs on `db` meanwhile: the read is synchronous.
 *
 * @param db - The connection `statement` belongs to, with no transaction open.
 * @param statement - `SELECT message, seq … WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?`.
 * @param sessionId - The session.
 * @param from - The first `seq` to read.
 * @param source - The table and session, named in errors.
 * @param pageRows - Rows a page. @default HISTORY_PAGE_ROWS
 * @throws InvalidStateError as {@link decodeHistoryRows}; what `node:sqlite` throws.
 */
export function readHistoryRows(
  db: DatabaseSync,
  statement: StatementSync,
  sessionId: string,
  from: number,
  source: string,
  pageRows = HISTORY_PAGE_ROWS,
): Message[] {
  db.exec('BEGIN');
  try {
    const messages: Message[] = [];
    for (let next = from; ; ) {
      const rows = statement.all(sessionId, next, pageRows) as unknown as (HistoryRowArray | HistoryRowObject)[];
      decodeHistoryRows(rows, source, messages);
      if (rows.length < pageRows) break;
      const last = rows[rows.length - 1] as HistoryRowArray | HistoryRowObject;
      next = (Array.isArray(last) ? last[1] : last.seq) + 1;
    }
    db.exec('COMMIT');
    return messages;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // The transaction is gone already.
    }
    throw error;
  }
}
