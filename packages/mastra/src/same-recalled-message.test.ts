import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { editRecalled } from './__fixtures__/mastra-changes.js';
import { sameRecalledMessage } from './same-recalled-message.js';
import { toCoreMessages } from './to-core-messages.js';

const message = (
  parts: MastraMessagePart[],
  id = 'm1',
  role: MastraDBMessage['role'] = 'assistant',
): MastraDBMessage => ({
  id,
  role,
  createdAt: new Date(0),
  content: { format: 2, parts },
});

const ids = (messages: readonly MastraDBMessage[]) => toCoreMessages(messages).map((m) => `${m.role} ${m.id}`);

describe('sameRecalledMessage', () => {
  it('matches a copy, and one edited under its id to the same size, by id and shape alone', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        for (const original of messages) {
          const copy = structuredClone(original);
          expect(sameRecalledMessage(original, copy)).toBe(true);
          editRecalled(copy, 'same-size');
          expect(sameRecalledMessage(original, copy)).toBe(true);
          // What makes it stand in: the same core messages, ids and places.
          expect(ids([copy])).toEqual(ids([original]));
        }
      }),
    );
  });

  it('tells a message edited to another size or stored under another id', () => {
    fc.assert(
      fc.property(conversation, fc.constantFrom('resized' as const, 'new-id' as const), (messages, how) => {
        for (const original of messages) {
          const copy = structuredClone(original);
          editRecalled(copy, how);
          expect(sameRecalledMessage(original, copy)).toBe(false);
        }
      }),
    );
  });

  it('tells every change that would make other core messages: role, a part added, its type, a tool result', () => {
    const call = { toolCallId: 'c1', toolName: 'read', args: {} };
    const base = message([
      { type: 'text', text: 'abc' },
      { type: 'tool-invocation', toolInvocation: { ...call, state: 'call' } },
    ]);
    const variants: MastraDBMessage[] = [
      { ...structuredClone(base), role: 'user' },
      message([...structuredClone(base.content.parts), { type: 'step-start' }]),
      message([{ type: 'step-start' }, structuredClone(base.content.parts[1]!)]),
      message([{ type: 'reasoning', reasoning: 'abc', details: [] }, structuredClone(base.content.parts[1]!)]),
      message([
        { type: 'text', text: 'abc' },
        { type: 'tool-invocation', toolInvocation: { ...call, state: 'result', result: 'x' } },
      ]),
      message(structuredClone(base.content.parts), ''),
      message(structuredClone(base.content.parts), 'm2'),
    ];
    for (const variant of variants) expect(sameRecalledMessage(base, variant)).toBe(false);
    expect(sameRecalledMessage(base, structuredClone(base))).toBe(true);
  });
});
