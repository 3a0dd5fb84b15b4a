import type { Message } from '@compaction/core';

/**
 * Whether `next` is `previous` with messages appended: the very same message
 * objects first, then more or none. Only then can a session that holds
 * `previous` take `next` as a new session would; a message replaced under the
 * same id (LangGraph's update by id) is a new object and fails the check.
 */
export function extendsHistory(previous: readonly Message[], next: readonly Message[]): boolean {
  if (previous === next) return true; // a conversion extended in place
  if (next.length < previous.length) return false;
  for (let index = 0; index < previous.length; index += 1) if (previous[index] !== next[index]) return false;
  return true;
}
