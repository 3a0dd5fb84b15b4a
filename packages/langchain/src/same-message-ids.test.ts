import { InvalidMessageError } from '@compaction/core';
import { AIMessage, FunctionMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
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

  it('codes a class by one byte, the same class always alike', () => {
    expect(messageClassCode(HumanMessage)).toBe(messageClassCode(HumanMessage));
    expect(messageClassCode(HumanMessage)).not.toBe(messageClassCode(AIMessage));
    expect(messageClassCode(AIMessage)).toBeLessThan(UNKNOWN_CLASS_CODE);
  });
});
