import type { Message } from '../messages/types.js';

/**
 * For each index `i` of `messages`, whether a cut before message `i` would
 * separate a tool call from its result (a call before `i` whose result is at
 * or after `i`, or the reverse). O(n) over parts.
 */
export function straddledCuts(messages: readonly Message[]): Uint8Array {
  const firstSeen = new Map<string, number>();
  const lastSeen = new Map<string, number>();
  for (let index = 0; index < messages.length; index += 1) {
    for (const part of messages[index]!.parts) {
      if (part.type !== 'tool-call' && part.type !== 'tool-result') continue;
      if (!firstSeen.has(part.toolCallId)) firstSeen.set(part.toolCallId, index);
      lastSeen.set(part.toolCallId, index);
    }
  }
  // Difference array: a pair spanning [first, last] blocks cuts at first+1 … last.
  const delta = new Int32Array(messages.length + 1);
  for (const [id, first] of firstSeen) {
    const last = lastSeen.get(id)!;
    if (last <= first) continue;
    delta[first + 1]! += 1;
    delta[last + 1]! -= 1;
  }
  const blocked = new Uint8Array(messages.length + 1);
  let open = 0;
  for (let index = 0; index <= messages.length; index += 1) {
    open += delta[index]!;
    blocked[index] = open > 0 ? 1 : 0;
  }
  return blocked;
}
