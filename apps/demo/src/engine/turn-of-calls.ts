import { isTurnStart, type Message } from '@compaction/core';

/** The turn (1-based, counted by user requests) of every assistant message, by id. */
export function turnOfCalls(messages: readonly Message[]): Map<string, number> {
  const turns = new Map<string, number>();
  let turn = 0;
  for (const message of messages) {
    if (isTurnStart(message)) turn += 1;
    else if (message.role === 'assistant') turns.set(message.id, Math.max(turn, 1));
  }
  return turns;
}
