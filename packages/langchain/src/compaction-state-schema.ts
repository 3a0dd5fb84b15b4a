import type { SessionRecord } from '@compaction/core';
import { z } from 'zod/v3';
import { COMPACTION_REQUEST_KEY, COMPACTION_STATE_KEY, type CompactionRequest } from './request-compaction.js';

const shape = {
  [COMPACTION_STATE_KEY]: z.custom<SessionRecord>().optional(),
  [COMPACTION_REQUEST_KEY]: z.custom<CompactionRequest>().nullable().optional(),
};
const schema = z.object(shape);
type StateSchema = typeof schema;

/**
 * The compaction middleware's state keys, a zod v3 object (`zod/v3`, in every zod the peer
 * range allows: zod 4 compiles a parser for every new object schema on its first parse, v3
 * does not). LangChain parses each middleware's state with `toPartialZodObject(stateSchema)`
 * on every model call, and zod v3's `partial()` builds a new object and a new optional per key
 * each time (~0.08 ms of each call at 10,000 messages, cold). Every key here is already
 * optional, so the partial copy is this very schema: `partial()` returns it, and parses the
 * same values to the same results.
 */
export const compactionStateSchema: StateSchema = schema;
Object.defineProperty(compactionStateSchema, 'partial', {
  value: (): StateSchema => compactionStateSchema,
  enumerable: false,
});
