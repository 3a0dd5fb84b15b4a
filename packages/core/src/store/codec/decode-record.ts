import { InvalidStateError } from '../../errors/invalid-state-error.js';
import type { SessionRecord } from '../session-store.js';
import { validateSessionRecord } from '../validate-record.js';
import { decodeJson } from './decode-json.js';

/**
 * Parses a stored record (JSON from `encodeRecord`), checks it, and gives it
 * the store's `revision` (when undefined: the `revision` field stored in the
 * JSON itself, else 0). `noun` names what holds it in the error (`file`, `row`, `key`).
 *
 * @throws InvalidStateError naming `source`: invalid JSON or an invalid field.
 */
export function decodeRecord(text: string, source: string, revision?: number, noun = 'record'): SessionRecord {
  let value: unknown;
  try {
    value = decodeJson(text);
  } catch (error) {
    throw new InvalidStateError({
      source,
      problem:
        `is not valid JSON (${(error as Error).message}). Records are replaced atomically, so this is not an interrupted ` +
        `write: restore the ${noun} from a backup, or delete it to drop the compaction state (the history is kept)`,
      cause: error,
    });
  }
  const record = validateSessionRecord(value, source);
  return { ...record, revision: revision ?? record.revision ?? 0 };
}
