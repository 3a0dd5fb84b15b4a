import { contentFingerprint } from '@compaction/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import type { PromptMessage, ProviderPrompt } from './ai-sdk-types.js';
import { countResentMessages } from './count-resent-messages.js';

/** The prompt `wrapLanguageModel` hands a middleware: new message and part objects, the values inside shared. */
function resent(prompt: ProviderPrompt): ProviderPrompt {
  return prompt.map((message) =>
    typeof message.content === 'string'
      ? { ...message }
      : ({ ...message, content: message.content.map((part) => ({ ...part })) } as PromptMessage),
  );
}

/** A deep copy with new objects everywhere (bytes and URLs too), as a prompt rebuilt from storage has. */
function deepCopy<T>(value: T): T {
  if (value instanceof URL) return new URL(value.href) as T;
  if (value instanceof Uint8Array) return new Uint8Array(value) as T;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deepCopy(item)])) as T;
  }
  return value;
}

const count = (incoming: readonly object[], known: readonly object[]) =>
  countResentMessages(incoming, 0, incoming.length, known);

const user = (text: string): PromptMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): PromptMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('countResentMessages', () => {
  it('counts a re-sent history, shared values or copied ones, up to the first edit — old messages too', () => {
    const known = [user('a'), assistant('b'), user('c'), assistant('d'), user('e')];
    expect(count(resent(known), known)).toBe(5);
    expect(count(deepCopy(known), known)).toBe(5);
    const edited = resent(known);
    edited[1] = assistant('b, edited');
    expect(count(edited, known)).toBe(1);
    const retyped = resent(known);
    (retyped[0]!.content as { type: 'text'; text: string }[])[0]!.text = 'a'.repeat(1); // equal text, other string
    expect(count(retyped, known)).toBe(5);
    expect(count([...resent(known), user('f')], known)).toBe(5);
    expect(count(resent(known).slice(0, 3), known)).toBe(3);
  });

  it('sees an edited tool input, output or provider option in an old message', () => {
    const call: PromptMessage = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } }],
    };
    const result: PromptMessage = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'x' } }],
    };
    const known = [user('read a.ts'), call, result, assistant('done'), user('next')];
    const input = resent(known);
    (input[1]!.content as { input: unknown }[])[0]!.input = { path: 'b.ts' };
    expect(count(input, known)).toBe(1);
    const output = resent(known);
    (output[2]!.content as { output: unknown }[])[0]!.output = { type: 'text', value: 'y' };
    expect(count(output, known)).toBe(2);
    const option = resent(known);
    option[3] = { ...option[3]!, providerOptions: { acme: { cache: true } } } as PromptMessage;
    expect(count(option, known)).toBe(3);
  });

  it('reads only incoming[from..to)', () => {
    const known = [assistant('b'), user('c')];
    expect(countResentMessages([user('a'), assistant('b'), user('c'), assistant('d')], 1, 3, known)).toBe(2);
    expect(countResentMessages([user('a'), assistant('b'), user('x')], 1, 3, known)).toBe(1);
  });

  it('property: counts exactly the messages whose content ids are unchanged, after any edit of a generated prompt', () => {
    const pair = fc.tuple(promptArbitrary, promptArbitrary, fc.nat(), fc.boolean()).map(([known, other, at, copy]) => {
      const incoming = copy ? deepCopy(known) : resent(known);
      if (known.length > 0 && other.length > 0) {
        const index = at % known.length;
        incoming[index] = other[at % other.length]!;
      }
      return [known, incoming] as const;
    });
    fc.assert(
      fc.property(pair, ([known, incoming]) => {
        const firstDifferent = incoming.findIndex(
          (message, index) => contentFingerprint(message) !== contentFingerprint(known[index]),
        );
        expect(count(incoming, known)).toBe(firstDifferent < 0 ? incoming.length : firstDifferent);
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});
