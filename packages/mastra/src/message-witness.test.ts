import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { editRecalled } from './__fixtures__/mastra-changes.js';
import { coreMessageCache } from './core-message-cache.js';
import { NO_WITNESS, WITNESS_WORDS, writeMessageWitness } from './message-witness.js';
import { sameRecalledMessage } from './same-recalled-message.js';
import { toCoreMessages } from './to-core-messages.js';

const witnessOf = (message: MastraDBMessage): [number, number] => {
  const words = new Int32Array(WITNESS_WORDS);
  writeMessageWitness(message, words, 0);
  return [words[0]!, words[1]!];
};

/** What decides a message's place in core: the role and id of each core message it makes. */
const layoutOf = (message: MastraDBMessage) => toCoreMessages([message]).map((core) => `${core.role} ${core.id}`);

const message = (parts: MastraMessagePart[], role: MastraDBMessage['role'] = 'assistant'): MastraDBMessage => ({
  id: 'm1',
  role,
  createdAt: new Date(0),
  content: { format: 2, parts },
});

/** Changes of a message's structure: a step opened or closed, a tool answered or not, a part added or removed, the role. */
const structuralEdit = fc.oneof(
  fc.record({ kind: fc.constant('step-start' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('tool-state' as const), at: fc.nat(), state: fc.constantFrom('call', 'result') }),
  fc.record({ kind: fc.constant('role' as const), role: fc.constantFrom('user', 'assistant', 'system', 'signal') }),
);

function applyStructural(
  target: MastraDBMessage,
  edit: typeof structuralEdit extends fc.Arbitrary<infer T> ? T : never,
) {
  const { parts } = target.content;
  switch (edit.kind) {
    case 'step-start':
      parts.splice(edit.at % (parts.length + 1), 0, { type: 'step-start' });
      return;
    case 'remove':
      if (parts.length > 0) parts.splice(edit.at % parts.length, 1);
      return;
    case 'tool-state': {
      const tools = parts.filter((part) => part.type === 'tool-invocation');
      const part = tools[edit.at % Math.max(1, tools.length)];
      if (part) part.toolInvocation = { ...part.toolInvocation, state: edit.state as 'call', result: 'r' };
      return;
    }
    case 'role':
      target.role = edit.role as MastraDBMessage['role'];
      return;
  }
}

describe('writeMessageWitness', () => {
  it('holds exactly what decides the core messages: another layout never has the same head word', () => {
    fc.assert(
      fc.property(conversation, fc.array(structuralEdit, { minLength: 1, maxLength: 4 }), (messages, edits) => {
        for (const original of messages) {
          const edited = structuredClone(original);
          for (const edit of edits) applyStructural(edited, edit);
          const [head] = witnessOf(original);
          const [editedHead] = witnessOf(edited);
          expect(head).not.toBe(NO_WITNESS);
          if (JSON.stringify(layoutOf(edited)) !== JSON.stringify(layoutOf(original))) {
            expect(editedHead).not.toBe(head);
            expect(sameRecalledMessage(original, edited)).toBe(false);
          }
          // A copy has the same witness.
          expect(witnessOf(structuredClone(original))).toEqual(witnessOf(original));
        }
      }),
    );
  });

  it('tells types and states it has no code for by name, and a role other than the four', () => {
    const data = (type: string) => message([{ type: 'text', text: 'a' }, { type, data: 1 } as never]);
    expect(sameRecalledMessage(data('data-a'), data('data-b'))).toBe(false);
    expect(sameRecalledMessage(data('data-a'), data('data-a'))).toBe(true);
    const tool = (state: string) =>
      message([
        { type: 'tool-invocation', toolInvocation: { state, toolCallId: 'c', toolName: 't', args: {} } as never },
      ]);
    expect(sameRecalledMessage(tool('streaming'), tool('pending'))).toBe(false);
    expect(sameRecalledMessage(tool('streaming'), tool('streaming'))).toBe(true);
    const text = [{ type: 'text' as const, text: 'a' }];
    expect(sameRecalledMessage(message(text, 'tool' as never), message(text, 'other' as never))).toBe(false);
    expect(sameRecalledMessage(message(text, 'tool' as never), message(text, 'tool' as never))).toBe(true);
  });

  it('has no witness where it cannot be exact, and such a message is compared object to object, as before', () => {
    const manySteps = message(
      Array.from({ length: 25 }, (_, index): MastraMessagePart[] => [
        { type: 'step-start' },
        { type: 'text', text: `step ${index}` },
      ]).flat(),
    );
    const manyParts = message(
      Array.from({ length: 1100 }, (_, index) => ({ type: 'text' as const, text: `${index}` })),
    );
    const binaryFile = message([{ type: 'file', mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) } as never]);
    for (const original of [manySteps, manyParts, binaryFile]) {
      expect(witnessOf(original)[0]).toBe(NO_WITNESS);
      const copy = structuredClone(original);
      // A file whose data is an object is compared by identity, so its copy never matches (as before).
      expect(sameRecalledMessage(original, copy)).toBe(original !== binaryFile);
      editRecalled(copy, 'resized');
      expect(sameRecalledMessage(original, copy)).toBe(false);
    }
  });
});

describe('coreMessageCache with witnesses', () => {
  it('compares a recalled copy without reading the message it converted, only its id', () => {
    const reads: string[] = [];
    const observed = (source: MastraDBMessage): MastraDBMessage => {
      const target = structuredClone(source);
      return new Proxy(target, {
        get(object, key, receiver) {
          if (watching) reads.push(String(key));
          return Reflect.get(object, key, receiver);
        },
      });
    };
    let watching = false;
    fc.assert(
      fc.property(conversation, (messages) => {
        const list = messages.map(observed);
        const cache = coreMessageCache('message');
        cache.view(list);
        cache.release();
        reads.length = 0;
        watching = true;
        const recalled = structuredClone(messages);
        const source = cache.view(recalled);
        watching = false;
        // Only ids are read of the messages converted before (the tail Mastra may change in place is compared by identity).
        expect(reads.filter((key) => key !== 'id')).toEqual([]);
        expect(source.messages(0)).toEqual(toCoreMessages(recalled));
      }),
    );
  });

  it('compares a recalled copy with the message as it was converted, not as it was changed in place since', () => {
    const list: MastraDBMessage[] = [
      message([{ type: 'text', text: 'question' }], 'user'),
      { ...message([{ type: 'text', text: 'answer' }]), id: 'm2' },
      { ...message([{ type: 'text', text: 'next' }], 'user'), id: 'm3' },
    ];
    const cache = coreMessageCache('message');
    const first = cache.view(list);
    cache.release();
    // Changed in place after it was converted (no way Mastra changes an older message): the cache never saw it.
    (list[1]!.content.parts[0] as { text: string }).text = 'a longer answer';
    const recalled = structuredClone(list);
    const source = cache.view(recalled);
    // The copy is not what was converted: converted again from there, core told only the first message is kept.
    expect(source.since).toEqual({ source: first, unchanged: 1 });
    expect(source.messages(0)).toEqual(toCoreMessages(recalled));
  });
});
