import { InvalidMessageError } from '../../errors/invalid-message-error.js';
import { InvalidStateError } from '../../errors/invalid-state-error.js';
import { messageProblem } from '../../messages/parse-messages.js';
import type { Message } from '../../messages/types.js';
import { decodeJson } from './decode-json.js';

/**
 * Parses one stored message (JSON from `encodeMessages`) and checks that it is
 * a message.
 *
 * @param text - The stored JSON.
 * @param source - The file or key, named in the error.
 * @param position - Where in it, a unit and a number: `line 12`, `entry 11`.
 * @throws InvalidStateError naming source and position: invalid JSON, or
 *   valid JSON that is not a message.
 */
export function decodeMessage(text: string, source: string, position: string): Message {
  return decode(text, source, position, '', 0);
}

/**
 * {@link decodeMessage} with its position as a unit and a number (`'line', 12`),
 * joined only for an error: a load of 10,000 messages builds no 10,000
 * position strings.
 *
 * @param unit - `line`, `entry`: what the number counts.
 * @param number - Which one.
 * @throws InvalidStateError naming source and position, as {@link decodeMessage}.
 */
export function decodeMessageAt(text: string, source: string, unit: string, number: number | string): Message {
  return decode(text, source, undefined, unit, number);
}

/** The position is `position` when given, else `<unit> <number>`. */
function decode(
  text: string,
  source: string,
  position: string | undefined,
  unit: string,
  number: number | string,
): Message {
  let value: unknown;
  try {
    value = decodeJson(text);
  } catch (error) {
    const where = position ?? `${unit} ${number}`;
    throw corrupt(source, where, `is not valid JSON (${(error as Error).message})`, error);
  }
  // The check `parseMessages([value])` makes, without the array, set and iterator it builds
  // around one message (≈2 ms over a 10,000-message history); the same error.
  const problem = messageProblem(value);
  if (problem !== undefined) {
    const error = new InvalidMessageError({ index: 0, problem });
    throw corrupt(source, position ?? `${unit} ${number}`, `is not a message (${error.message})`, error);
  }
  return value as Message;
}

function corrupt(source: string, position: string, problem: string, cause: unknown): InvalidStateError {
  const unit = position.split(' ')[0];
  return new InvalidStateError({
    source,
    problem:
      `${position} ${problem}. Every ${unit} must be one JSON message; the ${unit}s before it are intact. ` +
      `Repair or delete that ${unit}, or restore it from a backup`,
    cause,
  });
}
