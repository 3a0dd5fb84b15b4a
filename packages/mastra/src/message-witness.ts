import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';

/** How many 32-bit words {@link writeMessageWitness} writes a message. */
export const WITNESS_WORDS = 2;

/** The head word of a message that has no witness: its match compares the objects (see `sameRecalledMessage`). */
export const NO_WITNESS = 0;

/** The most parts a witness's head word holds exactly. */
const MAX_PARTS = 0x3ff;

/** The most steps of an assistant message a witness's head word holds exactly (a bit each, under a leading 1). */
const MAX_STEPS = 19;

/**
 * Writes at `out[at]` and `out[at + 1]` a message's witness: what {@link sameRecalledMessage}
 * compares of it, in two words, so that a message converted earlier need not be read again to
 * be compared with a recalled copy.
 *
 * - The head word holds exactly what decides the message's core messages and their ids
 *   (`messageToCore`): its role (user, assistant, system, another), its number of parts, and
 *   for an assistant message its steps (a `step-start` after the first part opens one) and,
 *   step by step, whether a results message follows (a tool invocation with its output). So
 *   two messages whose head words are equal make core messages of the same ids, in the same
 *   places. Never {@link NO_WITNESS} for a message that has one.
 * - The second word is a 32-bit hash of the rest the match compares: part by part the type, a
 *   text's / reasoning's / string file data's length (read from the string's header: no
 *   character is read), a tool invocation's state, and a role other than the four by name.
 *   Two different sequences hash the same with a chance of about 2⁻³²; such a miss takes an
 *   edit of another size for one of the same size, which the match accepts by design (the
 *   model is sent Mastra's own message; core converts the recalled object when it next reads).
 *
 * A message the head word cannot hold exactly (more than 1,023 parts, more than 19 steps), or
 * whose parts are not what a witness can describe (a part that is not an object, a file whose
 * data is not a string, a tool invocation whose state is not a string), gets a head word of
 * {@link NO_WITNESS}: its match compares the objects themselves.
 *
 * @example
 * ```ts
 * const words = new Int32Array(WITNESS_WORDS);
 * writeMessageWitness(message, words, 0);
 * ```
 */
export function writeMessageWitness(message: MastraDBMessage, out: Int32Array, at: number): void {
  const parts = message.content?.parts;
  const role = roleCode(message.role);
  if (!Array.isArray(parts) || parts.length > MAX_PARTS) {
    out[at] = NO_WITNESS;
    out[at + 1] = 0;
    return;
  }
  let hash = role === ROLE_OTHER ? mixString(HASH_SEED, message.role) : HASH_SEED;
  hash = mix(hash, parts.length);
  const assistant = role === ROLE_ASSISTANT && parts.length > 0;
  /** Under a leading 1, a bit a finished step: whether a results message follows it. */
  let steps = 1;
  let stepCount = 1;
  let results = 0;
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] as MastraMessagePart | null;
    if (part === null || typeof part !== 'object') {
      out[at] = NO_WITNESS;
      out[at + 1] = 0;
      return;
    }
    const type = part.type;
    let code: number;
    let size: number;
    if (type === 'text') {
      code = 1;
      size = lengthOf(part.text);
    } else if (type === 'tool-invocation') {
      code = 2;
      const state = part.toolInvocation?.state;
      if (state !== undefined && typeof state !== 'string') {
        out[at] = NO_WITNESS;
        out[at + 1] = 0;
        return;
      }
      size = state === undefined ? -1 : stateCode(state);
      if (size === STATE_OTHER) hash = mixString(hash, state!);
      // As `hasToolOutput`: a result, an error or a denial stands for one.
      if (size === STATE_RESULT || size === STATE_ERROR || size === STATE_DENIED) results = 1;
    } else if (type === 'step-start') {
      code = 3;
      size = 0;
      if (assistant && index > 0) {
        steps = (steps << 1) | results;
        stepCount += 1;
        results = 0;
      }
    } else if (type === 'reasoning') {
      code = 4;
      size = lengthOf(part.reasoning);
    } else if (type === 'file') {
      code = 5;
      const data: unknown = part.data;
      if (typeof data !== 'string') {
        out[at] = NO_WITNESS;
        out[at + 1] = 0;
        return;
      }
      size = data.length;
    } else {
      code = 6;
      size = 0;
      hash = typeof type === 'string' ? mixString(hash, type) : mix(hash, -1);
    }
    hash = mix(mix(hash, code), size);
  }
  if (stepCount > MAX_STEPS) {
    out[at] = NO_WITNESS;
    out[at + 1] = 0;
    return;
  }
  // Only an assistant message with parts is split into steps; any other makes one core message and no results.
  const layout = assistant ? (steps << 1) | results : 1;
  out[at] = role | (parts.length << 2) | (layout << 12);
  out[at + 1] = hash;
}

const ROLE_ASSISTANT = 1;
const ROLE_OTHER = 3;

function roleCode(role: unknown): number {
  if (role === 'user') return 0;
  if (role === 'assistant') return ROLE_ASSISTANT;
  if (role === 'system') return 2;
  return ROLE_OTHER;
}

const STATE_RESULT = 3;
const STATE_ERROR = 4;
const STATE_DENIED = 5;
const STATE_OTHER = 0;

/** A tool invocation's state as a small number; {@link STATE_OTHER} for a state not listed (hashed by name). */
function stateCode(state: string): number {
  switch (state) {
    case 'call':
      return 1;
    case 'partial-call':
      return 2;
    case 'result':
      return STATE_RESULT;
    case 'output-error':
      return STATE_ERROR;
    case 'output-denied':
      return STATE_DENIED;
    case 'approval-requested':
      return 6;
    case 'approval-responded':
      return 7;
    default:
      return STATE_OTHER;
  }
}

/** A string's length (its header only), or -1 for anything else (core takes no message whose text is not a string). */
function lengthOf(value: unknown): number {
  return typeof value === 'string' ? value.length : -1;
}

const HASH_SEED = 0x2c1b3c6d;

/** One 32-bit value into the hash: multiply and shift (murmur's mixing step), so no change is cancelled by another. */
function mix(hash: number, value: number): number {
  const mixed = Math.imul(hash ^ value, 0x5bd1e995);
  return mixed ^ (mixed >>> 15);
}

/** A string's length and characters into the hash (names a witness has no code for: rare). */
function mixString(hash: number, text: unknown): number {
  if (typeof text !== 'string') return mix(hash, -2);
  let mixed = mix(hash, text.length);
  for (let index = 0; index < text.length; index += 1) mixed = mix(mixed, text.charCodeAt(index));
  return mixed;
}
