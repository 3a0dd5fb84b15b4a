import type { SessionRecord } from '../../store/session-store.js';

/** A record without what differs between two runs of the same decisions (the time a state was made, revisions). */
export function comparable(record: SessionRecord | undefined): unknown {
  if (!record) return undefined;
  const { revision: _revision, state, ...rest } = record;
  if (!state) return rest;
  const { createdAt: _createdAt, ...kept } = state;
  return { ...rest, state: kept };
}
