import { COMPACTION_STATE_SCHEMA, type CompactionState } from './compaction-state.js';

/** Everything a new state holds except what `nextState` fills in (schema, tokens after). */
export type NextStateFields = Omit<CompactionState, 'schema' | 'tokensAfter'>;

/**
 * The state a compaction ends in, built once: `measure` gets the complete state
 * (its `tokensAfter` provisionally equal to `tokensBefore`, a figure the context
 * builder never reads) and returns the context tokens it leaves, which become
 * `tokensAfter` of a new object. Nothing is mutated.
 */
export function nextState(fields: NextStateFields, measure: (state: CompactionState) => number): CompactionState {
  const provisional: CompactionState = { schema: COMPACTION_STATE_SCHEMA, ...fields, tokensAfter: fields.tokensBefore };
  return { ...provisional, tokensAfter: measure(provisional) };
}
