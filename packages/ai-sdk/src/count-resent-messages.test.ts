import { contentFingerprint } from '@compaction/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMON_SHAPES, commonShapesPromptArbitrary } from './__fixtures__/common-shapes.js';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { deepCopy, resent } from './__fixtures__/prompt-copies.js';
import type { PromptMessage, ProviderPrompt } from './ai-sdk-types.js';
import {
  COMMON_CODES,
  countResentMessages,
  keepSent,
  lastUserIndex,
  rememberSent,
  sentMessages,
} from './count-resent-messages.js';
import { keepOriginalsFrom, sentMessageAt } from './sent-messages.js';

const count = (incoming: readonly object[], known: readonly object[]) =>
  countResentMessages(incoming, 0, incoming.length, sentMessages(known));

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
    expect(countResentMessages([user('a'), assistant('b'), user('c'), assistant('d')], 1, 3, sentMessages(known))).toBe(
      2,
    );
    expect(countResentMessages([user('a'), assistant('b'), user('x')], 1, 3, sentMessages(known))).toBe(1);
    const users = sentMessages([user('b'), user('c')]);
    expect(countResentMessages([user('a'), user('b'), user('c'), user('d')], 1, 3, users)).toBe(2);
    expect(countResentMessages([user('a'), user('b'), user('c')], 1, 2, users)).toBe(1);
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

  it('counts re-sent messages as new objects up to the first edit, the last turn compared in full', () => {
    const known = [user('a'), user('b'), user('c'), user('d')];
    expect(count(deepCopy(known), known)).toBe(4);
    expect(count([...deepCopy(known.slice(0, 2)), user('edited'), known[3]!], known)).toBe(2);
    expect(count(deepCopy(known.slice(0, 3)), known)).toBe(3);
    expect(count([...deepCopy(known), user('e')], known)).toBe(4);
  });

  it('in the last turn, ignores key order and keys whose value is undefined, like content ids', () => {
    const known = [{ role: 'user', content: [{ type: 'text', text: 'a', providerOptions: { x: { y: 1 } } }] }];
    const reordered = [{ content: [{ providerOptions: { x: { y: 1 } }, text: 'a', type: 'text' }], role: 'user' }];
    const withUndefined = [{ ...reordered[0]!, providerOptions: undefined }];
    const withOptions = (options: object) => [
      { role: 'user', content: [{ type: 'text', text: 'a', providerOptions: options }] },
    ];
    expect(count(reordered, known)).toBe(1);
    expect(count(withUndefined, known)).toBe(1);
    expect(count(known, withUndefined)).toBe(1);
    expect(count(withOptions({ x: { y: 2 } }), known)).toBe(0);
    expect(count(withOptions({ x: { y: 1 }, z: {} }), known)).toBe(0);
  });

  it('compares URLs by address and bytes by value, other class instances only by identity', () => {
    const file = (data: unknown) => ({ role: 'user', content: [{ type: 'file', mediaType: 'image/png', data }] });
    expect(count([file(new URL('https://a.example/x'))], [file(new URL('https://a.example/x'))])).toBe(1);
    expect(count([file(new URL('https://a.example/y'))], [file(new URL('https://a.example/x'))])).toBe(0);
    expect(count([file(new Uint8Array([1, 2]))], [file(new Uint8Array([1, 2]))])).toBe(1);
    expect(count([file(new Uint8Array([1, 3]))], [file(new Uint8Array([1, 2]))])).toBe(0);
    expect(count([file(Buffer.from([1, 2]))], [file(new Uint8Array([1, 2]))])).toBe(0);
    expect(count([file(new Date(0))], [file(new Date(0))])).toBe(0);
    // The same in an old message (before the last user message), compared value by value.
    const later = user('later');
    expect(count([file(new Uint8Array([1, 2])), later], [file(new Uint8Array([1, 2])), later])).toBe(2);
    expect(count([file(new Uint8Array([1, 3])), later], [file(new Uint8Array([1, 2])), later])).toBe(0);
    expect(count([file(new Date(0)), later], [file(new Date(0)), later])).toBe(0);
  });

  it('survives cycles (they count as different)', () => {
    const cyclic = (): PromptMessage => {
      const input: Record<string, unknown> = { a: 1 };
      input.self = input;
      return { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input }] };
    };
    expect(count([cyclic()], [cyclic()])).toBe(0);
    expect(count([cyclic(), user('next')], [cyclic(), user('next')])).toBe(0);
  });

  it('with something enumerable on Object.prototype, reads old messages field by field and the last turn by identity', () => {
    const known = [user('a'), assistant('b'), user('c')];
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      expect(count(deepCopy(known), known)).toBe(2);
      expect(count([...resent(known.slice(0, 2)), known[2]!], known)).toBe(3);
      expect(count([user('x'), ...resent(known.slice(1))], known)).toBe(0);
    } finally {
      delete prototype.polluted;
    }
    expect(count(deepCopy(known), known)).toBe(3);
  });

  it('keeps a copied value in place of the one it equals, and still sees a later edit of it', () => {
    const call: PromptMessage = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts', deep: { n: [1] } } }],
    };
    const known = [user('read'), call, assistant('ok'), user('next')];
    const sent = sentMessages(known);
    const copy = deepCopy(known);
    expect(countResentMessages(copy, 0, 4, sent)).toBe(4);
    expect(sent.refs).toContain((copy[1]!.content as { input: unknown }[])[0]!.input);
    const edited = resent(copy);
    (edited[1]!.content as { input: unknown }[])[0]!.input = { path: 'a.ts', deep: { n: [2] } };
    expect(countResentMessages(edited, 0, 4, sent)).toBe(1);
    expect(countResentMessages(resent(copy), 0, 4, sent)).toBe(4);
  });

  it('keeps what its packed code cannot say value by value: many tool names, odd values, many parts', () => {
    const call = (index: number, name: unknown, executed?: unknown): PromptMessage =>
      ({
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: `c${index}`,
            toolName: name,
            input: { index },
            ...(executed === undefined ? {} : { providerExecuted: executed }),
          },
        ],
      }) as unknown as PromptMessage;
    const parts = (count: number): PromptMessage => ({
      role: 'user',
      content: Array.from({ length: count }, (_, index) => ({ type: 'text' as const, text: `part ${index}` })),
    });
    // 300 distinct tool names (a byte holds 255), a name that is not a string, a providerExecuted that is
    // not a boolean, six parts (a code holds four), string content on a user message.
    const known = [
      ...Array.from({ length: 300 }, (_, index) => call(index, `tool-${index}`)),
      call(300, 42),
      call(301, 'read', 'yes'),
      parts(6),
      { role: 'user', content: 'plain' } as unknown as PromptMessage,
      user('last'),
    ];
    expect(count(resent(known), known)).toBe(known.length);
    expect(count(deepCopy(known), known)).toBe(known.length);
    for (const at of [5, 280, 300, 301, 302, 303]) {
      const edited = resent(known);
      const message = deepCopy(known[at]!) as { content: unknown };
      if (Array.isArray(message.content))
        (message.content[0] as { toolName?: unknown; text?: string }).toolName = 'other';
      else message.content = 'other';
      if (at === 302) (message.content as { text: string }[])[5]!.text = 'edited';
      edited[at] = message as PromptMessage;
      expect(count(edited, known)).toBe(at);
    }
  });

  it('counts a malformed message or part as different, without throwing', () => {
    const known = [user('a'), assistant('b'), user('c')];
    const nullPart = { role: 'assistant', content: [null] } as unknown as PromptMessage;
    expect(count([user('a'), nullPart, user('c')], known)).toBe(1);
    expect(count([user('a'), nullPart, user('c')], [user('a'), nullPart, user('c')])).toBe(3);
    expect(count([user('a'), null as unknown as PromptMessage, user('c')], known)).toBe(1);
    expect(count(resent(known), [user('a'), null as unknown as PromptMessage, user('c')])).toBe(1);
  });

  it('is cut with keepSent and extended with rememberSent', () => {
    const known = [user('a'), assistant('b'), user('c'), assistant('d'), user('e')];
    const sent = sentMessages(known);
    keepSent(sent, 2);
    expect(Array.from({ length: sent.count }, (_, index) => sentMessageAt(sent, index))).toEqual(known.slice(0, 2));
    expect(countResentMessages(resent(known), 0, 5, sent)).toBe(2);
    rememberSent(sent, assistant('other'));
    expect(countResentMessages(resent(known), 0, 5, sent)).toBe(2);
    expect(countResentMessages(resent([...known.slice(0, 2), assistant('other'), user('z')]), 0, 4, sent)).toBe(3);
    keepSent(sent, 0);
    expect(sent.refs).toEqual([]);
    expect(sent.count).toBe(0);
    expect(countResentMessages(resent(known), 0, 5, sent)).toBe(0);
  });

  it('property: an edit anywhere in an old message — deep in a tool input or output, a provider option — is seen', () => {
    /** Every path into a value (objects and arrays walked; bytes and URLs are leaves). */
    const paths = (value: unknown, path: (string | number)[] = []): (string | number)[][] => {
      const here = path.length > 0 ? [path] : [];
      if (value instanceof URL || value instanceof Uint8Array || typeof value !== 'object' || value === null)
        return here;
      const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
      return [...here, ...entries.flatMap(([key, item]) => paths(item, [...path, key]))];
    };
    const setAt = (root: unknown, path: readonly (string | number)[], value: unknown) => {
      let node = root as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
      node[path.at(-1)!] = value;
    };
    const replacement = fc.oneof(
      fc.string({ maxLength: 6 }).map((text) => `edited ${text}`),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.jsonValue({ maxDepth: 2 }).map((value) => ({ edited: value })),
    );
    const scenario = fc
      .tuple(promptArbitrary, fc.nat(), fc.nat(), replacement, fc.boolean(), fc.boolean())
      .map(([known, at, pick, value, copy, settled]) => {
        const incoming = copy ? deepCopy(known) : resent(known);
        if (known.length > 0) {
          const index = at % known.length;
          const message = deepCopy(known[index]!);
          const all = paths(message);
          if (all.length > 0) setAt(message, all[pick % all.length]!, value);
          incoming[index] = message;
        }
        return { known, incoming, settled };
      });
    fc.assert(
      fc.property(scenario, ({ known, incoming, settled }) => {
        const sent = sentMessages(known);
        // A call with equal copies first: their values take the kept ones' places.
        if (settled) expect(countResentMessages(deepCopy(known), 0, known.length, sent)).toBe(known.length);
        const firstDifferent = incoming.findIndex(
          (message, index) => contentFingerprint(message) !== contentFingerprint(known[index]),
        );
        expect(countResentMessages(incoming, 0, incoming.length, sent)).toBe(
          firstDifferent < 0 ? incoming.length : firstDifferent,
        );
      }),
      { numRuns: 500 },
    );
  }, 120_000);

  it('property: an edit of one field of an old message or part, every other value the very same object, is seen', () => {
    // Also with more parts a message than the packed code describes (kept value by value).
    const widened = (prompt: ProviderPrompt): ProviderPrompt =>
      prompt.map((message) =>
        typeof message.content === 'string'
          ? message
          : ({ ...message, content: [...message.content, ...message.content, ...message.content] } as PromptMessage),
      );
    fc.assert(
      fc.property(promptArbitrary, fc.boolean(), (generated, wide) => {
        expectEveryFieldEditSeen(wide ? widened(generated) : generated);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('property: the same over the shapes checked whole (one text, one tool call or result, a text and a call)', () => {
    for (const [name, code] of Object.entries(COMMON_CODES)) {
      const message = COMMON_SHAPES[name as keyof typeof COMMON_CODES];
      expect(sentMessages([message]).table[0], name).toBe(code);
    }
    fc.assert(
      fc.property(commonShapesPromptArbitrary, (known) => {
        expectEveryFieldEditSeen(known);
        expect(countResentMessages(resent(known), 0, known.length, sentMessages(known))).toBe(known.length);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('property: with the originals before the last user message let go (a released conversion), counts as with them', () => {
    const scenario = fc
      .tuple(promptArbitrary, promptArbitrary, fc.nat(), fc.boolean(), fc.nat())
      .map(([known, other, at, copy, cut]) => {
        let incoming = copy ? deepCopy(known) : resent(known);
        if (known.length > 0 && other.length > 0) incoming[at % known.length] = other[at % other.length]!;
        // Sometimes cut back, so that the last user message moves before where the originals start.
        if (cut % 3 === 0) incoming = incoming.slice(0, cut % (incoming.length + 1));
        return { known, incoming };
      });
    fc.assert(
      fc.property(scenario, ({ known, incoming }) => {
        const released = sentMessages(known);
        keepOriginalsFrom(released, lastUserIndex(known, 0, known.length));
        const expected = countResentMessages(incoming, 0, incoming.length, sentMessages(known));
        expect(countResentMessages(incoming, 0, incoming.length, released)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  }, 120_000);
});

/**
 * Each field of each message and part of `known` (the spec's keys, and `providerOptions` /
 * `providerExecuted` added) replaced in turn, in a re-sent prompt that shares every other
 * value: the count stops where the content ids first differ. A re-sent prompt shares every
 * value, so the identity checks alone decide: each field they read (a tool name,
 * providerExecuted, options added or taken away, a part's type, the role) must be read. Only
 * the spec's keys are edited or added (others are not read in old messages, by design).
 */
function expectEveryFieldEditSeen(known: ProviderPrompt): void {
  const replacements: unknown[] = [
    ...['read', 'bash', 'search', 'edited', 'text', 'reasoning', 'tool-call', 'tool-result', 'file'],
    ...['user', 'assistant', 'tool', 'system', true, false, undefined, 0, null, { acme: { cache: true } }],
  ];
  const sent = sentMessages(known);
  for (let index = 0; index < known.length; index += 1) {
    const original = known[index] as unknown as Record<string, unknown>;
    const parts = Array.isArray(original.content) ? (original.content as Record<string, unknown>[]) : [];
    for (let target = -1; target < parts.length; target += 1) {
      const fields = target < 0 ? ['role', 'providerOptions'] : Object.keys(parts[target]!);
      if (target >= 0)
        fields.push('providerOptions', ...(parts[target]!.type === 'tool-call' ? ['providerExecuted'] : []));
      for (const field of fields) {
        for (const value of replacements) {
          const incoming = resent(known);
          const message = incoming[index] as unknown as Record<string, unknown>;
          const edited = target < 0 ? message : (message.content as Record<string, unknown>[])[target]!;
          edited[field] = value;
          const firstDifferent = incoming.findIndex(
            (each, at) => contentFingerprint(each) !== contentFingerprint(known[at]),
          );
          expect(countResentMessages(incoming, 0, incoming.length, sent)).toBe(
            firstDifferent < 0 ? incoming.length : firstDifferent,
          );
        }
      }
    }
  }
}
