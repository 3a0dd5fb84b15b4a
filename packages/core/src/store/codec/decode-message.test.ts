import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidMessageError } from '../../errors/invalid-message-error.js';
import { InvalidStateError } from '../../errors/invalid-state-error.js';
import { parseMessages } from '../../messages/parse-messages.js';
import { decodeJson, mayHoldDollarKey } from './decode-json.js';
import { decodeMessage, decodeMessageAt } from './decode-message.js';
import { encodeValue } from './encode-value.js';

/** The previous release's `decodeMessage`, verbatim but for its name: the reference the faster one must match. */
function previousDecodeMessage(text: string, source: string, position: string): unknown {
  let value: unknown;
  try {
    value = decodeJson(text);
  } catch (error) {
    throw previousCorrupt(source, position, `is not valid JSON (${(error as Error).message})`, error);
  }
  try {
    parseMessages([value]);
  } catch (error) {
    if (!InvalidMessageError.isInstance(error)) throw error;
    throw previousCorrupt(source, position, `is not a message (${error.message})`, error);
  }
  return value;
}

function previousCorrupt(source: string, position: string, problem: string, cause: unknown): InvalidStateError {
  const unit = position.split(' ')[0];
  return new InvalidStateError({
    source,
    problem:
      `${position} ${problem}. Every ${unit} must be one JSON message; the ${unit}s before it are intact. ` +
      `Repair or delete that ${unit}, or restore it from a backup`,
    cause,
  });
}

function outcome(decode: () => unknown) {
  try {
    return { value: decode() };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause as Error | undefined;
    return {
      error: `${(error as Error).name}: ${(error as Error).message}`,
      isState: InvalidStateError.isInstance(error),
      cause: cause && `${cause.name}: ${cause.message}`,
    };
  }
}

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('$', '"$', 'echo "$HOME"', '$c', '\\"$x', ''),
);
const key = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.constantFrom('$', '$c', '$$c', 'v', 'id', 'role', 'parts', 'type'),
);
const anything = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3, noNullPrototype: true }),
  ),
})).value;

/** A part: valid ones of every type, and ones with a missing or wrong field. */
const part = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('reasoning'), text: fc.oneof(text, fc.integer()) }),
  fc.record({
    type: fc.constant('tool-call'),
    toolCallId: text,
    toolName: fc.oneof(text, fc.constant(null)),
    input: anything,
  }),
  fc.record({
    type: fc.constant('tool-result'),
    toolCallId: fc.oneof(text, fc.integer()),
    toolName: text,
    output: anything,
  }),
  fc.record({ type: fc.constant('file'), mediaType: text, data: fc.oneof(text, fc.uint8Array({ maxLength: 4 })) }),
  fc.record({ type: fc.constantFrom('image', 'nope', 'text') }),
  anything,
);

const validPart = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'reasoning'), text }),
  fc.record({ type: fc.constant('tool-call'), toolCallId: text, toolName: text, input: anything }),
  fc.record({ type: fc.constant('tool-result'), toolCallId: text, toolName: text, output: anything }),
  fc.record({ type: fc.constant('file'), mediaType: text, data: fc.uint8Array({ maxLength: 4 }) }),
);

/** Messages, near-messages and other JSON: what a store, a hand edit or corruption may leave. */
const stored = fc.oneof(
  fc.record(
    {
      id: fc.string({ minLength: 1, maxLength: 6 }),
      role: fc.constantFrom('user', 'assistant', 'tool', 'system'),
      parts: fc.array(validPart, { maxLength: 3 }),
      metadata: fc.dictionary(key, anything, { maxKeys: 2, noNullPrototype: true }),
      $note: text,
    },
    { requiredKeys: ['id', 'role', 'parts'] },
  ),
  fc.record(
    {
      id: fc.oneof(text, fc.integer(), fc.constant('')),
      role: fc.oneof(fc.constantFrom('user', 'assistant', 'tool', 'system'), text),
      parts: fc.oneof(fc.array(part, { maxLength: 3 }), anything),
      metadata: fc.oneof(fc.dictionary(key, anything, { maxKeys: 2 }), anything),
      $note: text,
      when: fc.date({ noInvalidDate: true }),
    },
    { requiredKeys: [] },
  ),
  anything,
);

describe('decodeMessage', () => {
  it('gives the previous release’s messages and errors on generated stored JSON (valid, near-valid, corrupt)', () => {
    const seen = { messages: 0, notMessages: 0, notJson: 0 };
    fc.assert(
      fc.property(
        fc.oneof(
          stored.map((value) => JSON.stringify(encodeValue(value))),
          stored.map((value) => JSON.stringify(encodeValue(value)).slice(0, -1)),
          fc.string({ maxLength: 20 }),
        ),
        (json) => {
          const now = outcome(() => decodeMessage(json, '/s.jsonl', 'line 3'));
          const before = outcome(() => previousDecodeMessage(json, '/s.jsonl', 'line 3'));
          expect(now).toStrictEqual(before);
          // The position as a unit and a number (what the stores pass) says the same.
          expect(outcome(() => decodeMessageAt(json, '/s.jsonl', 'line', 3))).toStrictEqual(before);
          expect(outcome(() => decodeMessageAt(json, '/t', 'entry', 12))).toStrictEqual(
            outcome(() => previousDecodeMessage(json, '/t', 'entry 12')),
          );
          if (!('error' in now)) seen.messages += 1;
          else if (now.error?.includes('is not a message')) seen.notMessages += 1;
          else seen.notJson += 1;
        },
      ),
      { numRuns: 2_000 },
    );
    // Every outcome was generated, not only errors.
    expect(seen.messages).toBeGreaterThan(20);
    expect(seen.notMessages).toBeGreaterThan(20);
    expect(seen.notJson).toBeGreaterThan(20);
  });

  it('names the line and the problem of JSON that is no message, with the InvalidMessageError as its cause', () => {
    const error = outcome(() => decodeMessage('{"id":"a","role":"robot","parts":[]}', '/s.jsonl', 'line 7'));
    expect(error.error).toContain('line 7 is not a message');
    expect(error.error).toContain('unknown role "robot"');
    expect(error.isState).toBe(true);
    expect(error.cause).toMatch(/^InvalidMessageError: /);
  });
});

describe('mayHoldDollarKey', () => {
  it('says the same as a search for `"$` on any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('"', '$', 'a', '\\', 'é', '→', '\n'), maxLength: 12 }),
        fc.string({ unit: 'binary', maxLength: 30 }),
        (short, long) => {
          for (const value of [short, long, `${long}${short}`]) {
            expect(mayHoldDollarKey(value)).toBe(value.includes('"$'));
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
