import type { HistorySource, Message } from '@compaction/core';
import { MessageList } from '@mastra/core/agent';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { apply, change } from './__fixtures__/mastra-changes.js';
import { coreMessageCache } from './core-message-cache.js';
import { hasToolOutput } from './part-to-core.js';
import { toCoreMessages } from './to-core-messages.js';

/** Each core message's role and id: what a history source must keep reading the same. */
const idsOf = (messages: readonly Message[]) => messages.map((message) => `${message.role} ${message.id}`);

/** The first message Mastra may still change in place: the last user message, or an earlier one waiting for a tool's result. */
function mutableFrom(list: readonly MastraDBMessage[]): number {
  let lastUser = 0;
  for (let index = list.length - 1; index > 0; index -= 1) {
    if (list[index]!.role === 'user') {
      lastUser = index;
      break;
    }
  }
  const waiting = list.findIndex((message) =>
    message.content.parts.some((part) => part.type === 'tool-invocation' && !hasToolOutput(part)),
  );
  return waiting >= 0 ? Math.min(waiting, lastUser) : lastUser;
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

  it('hands out sources that read as toCoreMessages and say truly what they kept, whatever was let go, in both id modes', () => {
    fc.assert(
      fc.property(
        conversation,
        fc.nat({ max: 8 }),
        fc.array(fc.tuple(change, fc.boolean()), { maxLength: 12 }),
        fc.constantFrom('message' as const, 'content' as const),
        (messages, start, changes, ids) => {
          const list = messages.slice(0, start);
          const pool = messages.slice(start);
          const cache = coreMessageCache(ids);
          let source = cache.view(list);
          let expected = toCoreMessages(list, { ids });
          expect(source.messages(0)).toStrictEqual(expected);
          for (const [next, release] of changes) {
            if (release) cache.release();
            apply(list, pool, next);
            const previous = source;
            const before = expected;
            source = cache.view(list);
            expected = toCoreMessages(list, { ids });
            expect(source.length).toBe(expected.length);
            if (source === previous) {
              expect(expected).toStrictEqual(before); // the same source only when nothing changed
              continue;
            }
            expect(source.since?.source).toBe(previous);
            const unchanged = source.since?.unchanged ?? 0;
            // What it says it kept is what the previous source had, converted the same.
            expect(expected.slice(0, unchanged)).toStrictEqual(before.slice(0, unchanged));
            const from = Math.min(unchanged, expected.length);
            expect(source.messages(from)).toStrictEqual(expected.slice(from));
            expect(source.messages(0)).toStrictEqual(expected);
          }
        },
      ),
    );
  });

  it('keeps every source it handed out reading as it did, taken by a session or not (a failed call), whatever was let go after, in both id modes', () => {
    const step = fc.record({ next: change, taken: fc.boolean(), release: fc.boolean() });
    fc.assert(
      fc.property(
        conversation,
        fc.nat({ max: 8 }),
        fc.array(step, { maxLength: 14 }),
        fc.constantFrom('message' as const, 'content' as const),
        (messages, start, steps, ids) => {
          const list = messages.slice(0, start);
          const pool = messages.slice(start);
          const cache = coreMessageCache(ids);
          const made: { source: HistorySource; expected: string[] }[] = [];
          /** Messages a release may have let go of: Mastra changes none of them in place (see `coreMessageCache`). */
          const letGo = new Set<MastraDBMessage>();
          let source = cache.view(list);
          made.push({ source, expected: idsOf(toCoreMessages(list, { ids })) });
          for (const { next, taken, release } of steps) {
            // A call that failed does not take its source (the session may still hold the one before).
            if (taken) cache.taken(source);
            if (taken && release) {
              cache.release();
              for (const message of list.slice(0, mutableFrom(list))) letGo.add(message);
            }
            const target = next.kind === 'answer-any' ? list[next.at % Math.max(1, list.length)] : list.at(-1);
            const inPlace = next.kind === 'step' || next.kind === 'answer-latest' || next.kind === 'answer-any';
            // Outside Mastra's way (an older message changed in place once the ones after it were removed): not this property.
            if (inPlace && target && letGo.has(target)) return;
            apply(list, pool, next);
            source = cache.view(list);
            made.push({ source, expected: idsOf(toCoreMessages(list, { ids })) });
            for (const { source: each, expected } of made) {
              expect(each.length).toBe(expected.length);
              expect(idsOf(each.messages(0))).toEqual(expected);
              expect(idsOf(each.messages(Math.floor(expected.length / 2)))).toEqual(
                expected.slice(Math.floor(expected.length / 2)),
              );
            }
          }
        },
      ),
      { numRuns: 300 },
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
