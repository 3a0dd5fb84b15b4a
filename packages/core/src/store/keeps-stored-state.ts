import { encodeValue } from './codec/encode-value.js';
import type { SessionRecord } from './session-store.js';

/** The compaction state as the stores write it (empty when there is none). */
function stateText(record: SessionRecord | undefined): string {
  return record?.state === undefined ? '' : JSON.stringify(encodeValue(record.state));
}

/**
 * Whether saving `next` over `stored` (the record on disk, `undefined` when
 * there is none or it is unreadable) leaves the compaction state as it is: the
 * two states serialize to the same text, or neither record has one. Such a
 * save changes only what a session may lose and redo (the usage of the last
 * call, the calibration, the loop guard's mark), so a store may let a power cut
 * undo it, as long as it never leaves the record half-written. A state that
 * merely serializes in another key order counts as changed: the answer errs
 * towards the durable write.
 */
export function keepsStoredState(stored: SessionRecord | undefined, next: SessionRecord): boolean {
  return stateText(stored) === stateText(next);
}
