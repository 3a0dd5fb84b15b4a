import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import { NO_WITNESS, WITNESS_WORDS, writeMessageWitness } from './message-witness.js';

/**
 * Whether `now`, a message Mastra's storage recalled as a new object, can stand for `before`,
 * the one converted earlier, without being converted again: the same id (a non-empty string),
 * the same role, as many parts, and part by part the same type, a text's (or reasoning's, or
 * file's data) string of the same length (the length is in the string's header: no character
 * is read), a tool invocation in the same state. Those are what decide how many core messages
 * the message makes and their ids (`messageToCore`: a step per `step-start`, a results message
 * per finished step), so the core messages made before keep their ids and places.
 *
 * It does not prove the content is the same, and need not (the decision LangChain took for
 * `sameMessageIds`): only messages whose core messages were let go are matched this way (the
 * session held the history counted, not loaded), so while the session answers `asIs` the
 * model is sent Mastra's own messages and sees any edit, and the provider's usage counts it;
 * core reads old messages only when it loads them (a compaction, a recovery, the context
 * tools, `history()`), and then they are converted from the recalled objects as a fresh
 * conversion would. An edit under another id, of another size or shape fails the match: the
 * message is converted again at once.
 *
 * The comparison is of the two messages' witnesses ({@link writeMessageWitness}): what decides
 * the core messages exactly, the sizes and types hashed. The conversion cache keeps each
 * converted message's witness, so it reads only the recalled side ({@link matchesWitness}).
 *
 * @example
 * ```ts
 * sameRecalledMessage(converted, recalled); // true for a copy
 * ```
 */
export function sameRecalledMessage(before: MastraDBMessage, now: MastraDBMessage): boolean {
  writeMessageWitness(before, kept, 0);
  return matchesWitness(kept, 0, before, now);
}

/** Scratch words: the witness of `before` in {@link sameRecalledMessage}. */
const kept = new Int32Array(WITNESS_WORDS);
/** Scratch words: the witness of the recalled message in {@link matchesWitness}. */
const recalled = new Int32Array(WITNESS_WORDS);

/**
 * {@link sameRecalledMessage} with the witness of `before` already written (at `witnesses[at]`,
 * when `before` was converted): reads `before`'s id only, and `now` once. A message with no
 * witness ({@link NO_WITNESS}) is compared object to object, as the rule says.
 *
 * @example
 * ```ts
 * matchesWitness(witnesses, index * WITNESS_WORDS, sources[index], recalledMessage);
 * ```
 */
export function matchesWitness(
  witnesses: Int32Array,
  at: number,
  before: MastraDBMessage,
  now: MastraDBMessage,
): boolean {
  const id = now.id;
  if (typeof id !== 'string' || id.length === 0 || id !== before.id) return false;
  const head = witnesses[at]!;
  if (head === NO_WITNESS) return sameParts(before, now);
  writeMessageWitness(now, recalled, 0);
  return recalled[0] === head && recalled[1] === witnesses[at + 1];
}

/** The rule read from both objects: for a message a witness cannot describe (see {@link writeMessageWitness}). */
function sameParts(before: MastraDBMessage, now: MastraDBMessage): boolean {
  if (now.role !== before.role) return false;
  const parts = now.content?.parts;
  const was = before.content.parts;
  if (!Array.isArray(parts) || parts.length !== was.length) return false;
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    const old = was[index]!;
    if (part === old) continue;
    if (part === null || typeof part !== 'object' || part.type !== old.type) return false;
    if (sizeOf(part) !== sizeOf(old)) return false;
  }
  return true;
}

/**
 * What of a part the match compares: its text's length (text, reasoning, a file's data as a
 * string), a tool invocation's state (whether a results message follows), else nothing.
 */
function sizeOf(part: MastraMessagePart): unknown {
  switch (part.type) {
    case 'text':
      return part.text?.length;
    case 'reasoning':
      return part.reasoning?.length;
    case 'file':
      return typeof part.data === 'string' ? part.data.length : part.data;
    case 'tool-invocation':
      return part.toolInvocation?.state;
    default:
      return undefined;
  }
}
