import { MessageList } from '@mastra/core/agent';
import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { coreMessageCache } from './core-message-cache.js';
import { hasToolOutput } from './part-to-core.js';
import { toCoreMessages } from './to-core-messages.js';

type ToolPart = Extract<MastraMessagePart, { type: 'tool-invocation' }>;

/** What Mastra and other processors do to a run's message list between two model calls. */
const change = fc.oneof(
  fc.record({ kind: fc.constant('add' as const) }),
  // MessageMerger.merge: the latest message gets new parts, or a tool's result.
  fc.record({ kind: fc.constant('step' as const), text: fc.string() }),
  fc.record({ kind: fc.constant('answer-latest' as const), result: fc.string() }),
  // updateToolInvocation on any message waiting for a result: the part and the metadata are replaced.
  fc.record({ kind: fc.constant('answer-any' as const), result: fc.string(), at: fc.nat() }),
  // A processor that returns an edited or shorter list.
  fc.record({ kind: fc.constant('replace' as const), text: fc.string(), at: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
);

type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

function apply(list: MastraDBMessage[], pool: MastraDBMessage[], next: Change): void {
  const latest = list.at(-1);
  switch (next.kind) {
    case 'add':
      if (pool.length > 0) list.push(pool.shift()!);
      return;
    case 'step':
      latest?.content.parts.push({ type: 'step-start' }, { type: 'text', text: next.text });
      return;
    case 'answer-latest': {
      const part = latest?.content.parts.find(
        (candidate): candidate is ToolPart => candidate.type === 'tool-invocation',
      );
      if (part) part.toolInvocation = { ...part.toolInvocation, state: 'result', result: next.result };
      return;
    }
    case 'answer-any': {
      const message = list[next.at % Math.max(1, list.length)];
      const index =
        message?.content.parts.findIndex((part) => part.type === 'tool-invocation' && !hasToolOutput(part)) ?? -1;
      if (!message || index < 0) return;
      const part = message.content.parts[index] as ToolPart;
      message.content.parts[index] = {
        ...part,
        toolInvocation: { ...part.toolInvocation, state: 'result', result: next.result },
      };
      message.content.metadata = { ...message.content.metadata };
      return;
    }
    case 'replace': {
      const at = next.at % Math.max(1, list.length);
      const message = list[at];
      if (!message) return;
      list[at] = {
        ...message,
        content: { ...message.content, parts: [...message.content.parts, { type: 'text', text: next.text }] },
      };
      return;
    }
    case 'remove':
      list.splice(next.at % Math.max(1, list.length), 1);
      return;
  }
}

describe('coreMessageCache', () => {
  it('converts exactly as toCoreMessages after any changes Mastra makes, in both id modes', () => {
    fc.assert(
      fc.property(
        conversation,
        fc.nat({ max: 8 }),
        fc.array(change, { maxLength: 12 }),
        fc.constantFrom('message' as const, 'content' as const),
        (messages, start, changes, ids) => {
          const list = messages.slice(0, start);
          const pool = messages.slice(start);
          const cache = coreMessageCache(ids);
          let returned = cache.convert(list);
          expect(returned).toStrictEqual(toCoreMessages(list, { ids }));
          for (const next of changes) {
            const previous = returned;
            const before = previous.slice();
            apply(list, pool, next);
            returned = cache.convert(list);
            expect(returned).toStrictEqual(toCoreMessages(list, { ids }));
            // An array returned before is only ever appended to.
            expect(previous.length).toBeGreaterThanOrEqual(before.length);
            for (const [index, message] of before.entries()) expect(previous[index]).toBe(message);
          }
        },
      ),
    );
  });

  it('grows the array it returned when messages are only added, and returns a new one for any other change', () => {
    fc.assert(
      fc.property(conversation, fc.nat({ max: 8 }), (messages, start) => {
        const cache = coreMessageCache('content');
        const first = cache.convert(messages.slice(0, start));
        const kept = first.slice();
        expect(cache.convert(messages.slice(0, start))).toBe(first);

        const grown = cache.convert(messages);
        expect(grown).toBe(first);
        expect(grown.slice(0, kept.length)).toEqual(kept);
        for (const [index, message] of kept.entries()) expect(grown[index]).toBe(message);

        const length = grown.length;
        const shorter = cache.convert(messages.slice(1));
        if (messages.length > 0) expect(shorter).not.toBe(grown);
        expect(grown).toHaveLength(length);
        expect(shorter).toStrictEqual(toCoreMessages(messages.slice(1), { ids: 'content' }));
      }),
    );
  });

  it('sees an in-place change of a message once the messages after it are removed, though it was older than the last user message', () => {
    const text = (id: string, role: 'user' | 'assistant', value: string): MastraDBMessage => ({
      id,
      role,
      createdAt: new Date(0),
      content: { format: 2, parts: [{ type: 'text', text: value }] },
    });
    const list = [
      text('u1', 'user', 'a'),
      text('a1', 'assistant', 'b'),
      text('u2', 'user', 'c'),
      text('a2', 'assistant', 'd'),
    ];
    const cache = coreMessageCache('message');
    cache.convert(list);
    // `a1` is older than the last user message: compared by identity only while `u2` follows it.
    list.splice(2);
    list[1]!.content.parts.push({ type: 'step-start' }, { type: 'text', text: 'more' });
    expect(cache.convert(list)).toStrictEqual(toCoreMessages(list));
    list[1]!.content.parts.push({ type: 'text', text: 'and more' });
    expect(cache.convert(list)).toStrictEqual(toCoreMessages(list));
  });

  it("follows a tool result Mastra's MessageList merges into the run's assistant message", () => {
    const list = new MessageList({ threadId: 't1', resourceId: 'u1' });
    list.add({ role: 'user', content: 'Read a.ts' }, 'input');
    const toolInvocation = { toolCallId: 'c1', toolName: 'readFile', args: { path: 'a.ts' } };
    list.add(
      {
        id: 'a1',
        role: 'assistant',
        createdAt: new Date(),
        content: {
          format: 2,
          parts: [{ type: 'tool-invocation', toolInvocation: { ...toolInvocation, state: 'call' } }],
        },
      },
      'response',
    );
    const cache = coreMessageCache('message');
    const before = cache.convert(list.get.all.db()).slice();
    expect(before.map((message) => message.role)).toEqual(['user', 'assistant']);

    list.add(
      {
        id: 'a1',
        role: 'assistant',
        createdAt: new Date(),
        content: {
          format: 2,
          parts: [
            { type: 'tool-invocation', toolInvocation: { ...toolInvocation, state: 'result', result: 'export {}' } },
          ],
        },
      },
      'response',
    );
    const after = cache.convert(list.get.all.db());
    expect(after).toStrictEqual(toCoreMessages(list.get.all.db()));
    expect(after.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(after[0]).toBe(before[0]);
  });
});
