import type { StatementSync } from 'node:sqlite';
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
 * @throws InvalidStateError naming `source` and the row's `entry <seq>`: a
 *   message that is no JSON, or JSON that is no message.
 */
export function decodeHistoryRows(rows: readonly (HistoryRowArray | HistoryRowObject)[], source: string): Message[] {
  const messages: Message[] = new Array(rows.length);
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as HistoryRowArray | HistoryRowObject;
    const text = Array.isArray(row) ? row[0] : row.message;
    const seq = Array.isArray(row) ? row[1] : row.seq;
    messages[index] = decodeMessageAt(text, source, 'entry', seq);
  }
  return messages;
}
