import type { Message } from '../messages/types.js';

/**
 * Whether the first `length` messages of `history` end with a tool call whose result is not
 * among them (an approval waiting, a call prepared before its tool ran): the context built from
 * them then holds a synthetic "no result" result for it (`repairToolPairs`), which the real
 * result replaces once it comes. So a count of that prefix is not one to go on from message by
 * message: the synthetic result would stay counted beside the real one. Reads only the trailing
 * result messages and the message of the calls before them.
 */
export function waitsForResult(history: readonly Message[], length: number): boolean {
  /** The ids answered after the calls (made only when a result is met: most histories end in a text). */
  let answered: Set<string> | undefined;
  for (let index = Math.min(length, history.length) - 1; index >= 0; index -= 1) {
    const message = history[index]!;
    for (const part of message.parts) {
      if (part.type !== 'tool-result') continue;
      answered ??= new Set();
      answered.add(part.toolCallId);
    }
    // Results after their calls, as `repairToolPairs` groups them: a tool message, or a user message carrying one.
    const carrier = message.role === 'tool' || (message.role === 'user' && message.parts.some(isResult));
    if (carrier) continue;
    // The message before them: its calls (a provider-executed result sits beside its call) all answered?
    return message.parts.some((part) => part.type === 'tool-call' && !answered?.has(part.toolCallId));
  }
  return false;
}

const isResult = (part: Message['parts'][number]) => part.type === 'tool-result';
