import { InvalidMessageError } from '@compaction/core';
import { AIMessage, FunctionMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { releaseConversion } from './held-conversion.js';
import { messageClassCode, UNKNOWN_CLASS_CODE } from './message-class-code.js';
import { sameMessageIds } from './same-message-ids.js';
import { extendToCore } from './to-core-messages.js';

const thread = () => [
  new HumanMessage({ id: 'q', content: 'What is in the file?' }),
  new AIMessage({ id: 'a', content: '', tool_calls: [{ id: 'c', name: 'read', args: {}, type: 'tool_call' }] }),
  new ToolMessage({ id: 't', tool_call_id: 'c', content: 'the file' }),
];

function kept() {
  const messages = thread();
  const conversion = extendToCore(undefined, messages);
  releaseConversion(conversion);
  return { ids: conversion.ids!, classes: conversion.classes!, conversion };
}

describe('sameMessageIds', () => {
  it('takes other objects with the same ids and classes in the same places, and more after them', () => {
    const { ids, classes } = kept();
    expect(sameMessageIds(ids, classes, thread())).toBe(true);
    expect(sameMessageIds(ids, classes, [...thread(), new HumanMessage({ id: 'n', content: 'next' })])).toBe(true);
  });

  it('refuses another id, a missing id, a message of another class under its id, and a shorter thread', () => {
    const { ids, classes } = kept();
    const [q, a, t] = thread();
    expect(sameMessageIds(ids, classes, [q!, new AIMessage({ id: 'other', content: '' }), t!])).toBe(false);
    expect(sameMessageIds(ids, classes, [new HumanMessage('no id'), a!, t!])).toBe(false);
    expect(sameMessageIds(ids, classes, [new AIMessage({ id: 'q', content: 'What is in the file?' }), a!, t!])).toBe(
      false,
    );
    expect(sameMessageIds(ids, classes, [q!, a!])).toBe(false);
  });

  it('has the conversion convert at once a message it cannot take, put under an old id: it fails as before', () => {
    const { conversion } = kept();
    const [q, a] = thread();
    const legacy = new FunctionMessage({ id: 't', name: 'read', content: 'the file' });
    expect(() => extendToCore(conversion, [q!, a!, legacy])).toThrow(InvalidMessageError);
  });

  it('takes restored ids only when each is the very id it replaces, whatever the ids are (generated)', () => {
    // Ids of any UTF-16 content and length, as a checkpointer gives them back: new strings of the same characters.
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.oneof(
          id.map((other) => ({ kind: 'other' as const, other })),
          fc.constant({ kind: 'dropped' as const }),
          fc.constant({ kind: 'empty' as const }),
          fc.constant({ kind: 'none' as const }),
        ),
        (ids, at, change) => {
          const messages = ids.map((value) => new HumanMessage({ id: value, content: 'x' }));
          const conversion = extendToCore(undefined, messages);
          releaseConversion(conversion);
          const { ids: keptIds, classes } = conversion;
          const restored = () =>
            ids.map((value) => new HumanMessage({ id: JSON.parse(JSON.stringify(value)), content: 'x' }));
          expect(sameMessageIds(keptIds!, classes!, restored())).toBe(true);
          const index = at % ids.length;
          const changed = restored();
          if (change.kind === 'other') {
            fc.pre(change.other !== ids[index]);
            changed[index] = new HumanMessage({ id: change.other, content: 'x' });
          } else if (change.kind === 'dropped') changed.splice(index, 1);
          else changed[index] = new HumanMessage({ ...(change.kind === 'empty' ? { id: '' } : {}), content: 'x' });
          expect(sameMessageIds(keptIds!, classes!, changed)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);

  it('never takes over a kept message that had no id of its own (none, or empty), even restored alike (generated)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.constantFrom(undefined, ''),
        (ids, at, missing) => {
          const index = at % ids.length;
          const thread = () =>
            ids.map((value, position) =>
              position === index && missing === undefined
                ? new HumanMessage({ content: 'x' })
                : new HumanMessage({ id: position === index ? '' : value, content: 'x' }),
            );
          const conversion = extendToCore(undefined, thread());
          releaseConversion(conversion);
          expect(sameMessageIds(conversion.ids!, conversion.classes!, thread())).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);

  it('codes a class by one byte, the same class always alike', () => {
    expect(messageClassCode(HumanMessage)).toBe(messageClassCode(HumanMessage));
    expect(messageClassCode(HumanMessage)).not.toBe(messageClassCode(AIMessage));
    expect(messageClassCode(AIMessage)).toBeLessThan(UNKNOWN_CLASS_CODE);
  });
});
