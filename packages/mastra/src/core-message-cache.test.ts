import type { HistorySource, Message } from '@compaction/core';
import { MessageList } from '@mastra/core/agent';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { apply, change, editRecalled } from './__fixtures__/mastra-changes.js';
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
            /** What a release let go of (core messages no longer held): a recalled copy of it is vouched for. */
            const letGo = release && ids === 'message' ? toCoreMessages(list.slice(0, mutableFrom(list))).length : 0;
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
            if (next.kind === 'recall' && next.edit?.how === 'same-size') {
              // A recalled message edited under its id to the same size may be vouched for by its ids
              // and shape (`sameRecalledMessage`): the ids kept are the previous source's, and what
              // core reads is a fresh conversion of the recalled objects (below).
              expect(idsOf(expected.slice(0, unchanged))).toEqual(idsOf(before.slice(0, unchanged)));
            } else if (next.kind === 'recall') {
              // The same, converted from copies (toEqual: a copy's null-prototype metadata comes back as a plain object).
              expect(expected.slice(0, unchanged)).toEqual(before.slice(0, unchanged));
            } else {
              // What it says it kept is what the previous source had, converted the same.
              expect(expected.slice(0, unchanged)).toStrictEqual(before.slice(0, unchanged));
            }
            // A thread recalled as copies goes on from what was let go of: not converted, ids not compared.
            if (next.kind === 'recall' && next.edit === undefined) expect(unchanged).toBeGreaterThanOrEqual(letGo);
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
            const wasLetGo = list.map((message) => letGo.has(message));
            apply(list, pool, next);
            // A recalled copy stands for the message let go of (the cache compares it by identity from then on).
            if (next.kind === 'recall')
              for (const [index, message] of list.entries()) if (wasLetGo[index]) letGo.add(message);
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

  it('goes on from a thread recalled as new objects where it let go of the conversions: an edit of the same size is read when loaded, any other at once', () => {
    /** Every tool call answered, then a user message: a release lets go of all but that one. */
    const answered = (messages: MastraDBMessage[]): MastraDBMessage[] => [
      ...messages.map((message) => ({
        ...message,
        content: {
          ...message.content,
          parts: message.content.parts.map((part) =>
            part.type === 'tool-invocation' && !hasToolOutput(part)
              ? { ...part, toolInvocation: { ...part.toolInvocation, state: 'result' as const, result: 'ok' } }
              : part,
          ),
        },
      })),
      {
        id: 'next',
        role: 'user',
        createdAt: new Date(0),
        content: { format: 2, parts: [{ type: 'text', text: 'go' }] },
      },
    ];
    const edit = fc.option(
      fc.record({ at: fc.nat(), how: fc.constantFrom('same-size' as const, 'resized' as const, 'new-id' as const) }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(conversation, fc.boolean(), edit, fc.boolean(), (messages, release, edited, grow) => {
        const list = answered(messages);
        const cache = coreMessageCache('message');
        const first = cache.view(list);
        const before = first.messages(0);
        cache.taken(first);
        if (release) cache.release();

        const recalled = structuredClone(list);
        if (grow) recalled.push({ ...structuredClone(list.at(-1)!), id: 'after' });
        // The last user message is never let go of: the edit is in what a release lets go of.
        const at = edited && list.length > 1 ? edited.at % (list.length - 1) : -1;
        if (edited && at >= 0) editRecalled(recalled[at]!, edited.how);
        const source = cache.view(recalled);
        const expected = toCoreMessages(recalled);
        const unchanged = source.since?.unchanged ?? 0;
        /** Core messages before the edited message, and before the last user message (what a release let go of). */
        const beforeEdit = at < 0 ? Number.POSITIVE_INFINITY : toCoreMessages(recalled.slice(0, at)).length;
        const letGo = toCoreMessages(list.slice(0, -1)).length;

        // What core reads is a fresh conversion of the recalled objects, whatever it was told it kept.
        expect(source.length).toBe(expected.length);
        expect(source.messages(0)).toStrictEqual(expected);
        expect(idsOf(expected.slice(0, unchanged))).toEqual(idsOf(before.slice(0, unchanged)));
        if (!release || (at >= 0 && edited?.how !== 'same-size')) {
          // Held loaded (its core messages read by core), or edited in a way the shape shows: seen at once.
          expect(unchanged).toBeLessThanOrEqual(Math.min(beforeEdit, release ? letGo : 0));
          // (toEqual: a copy's null-prototype metadata comes back as a plain object.)
          expect(expected.slice(0, unchanged)).toEqual(before.slice(0, unchanged));
        } else {
          // Let go of, and copies (perhaps one edited to the same size): vouched for, not converted.
          expect(unchanged).toBe(letGo);
        }

        // The next step of the run sends the same recalled objects: compared by identity, nothing converted.
        cache.taken(source);
        if (release) cache.release();
        recalled.push({ ...structuredClone(list.at(-1)!), id: 'later' });
        const next = cache.view(recalled);
        expect(next.since?.unchanged).toBeGreaterThanOrEqual(release ? source.length - 1 : source.length);
        expect(next.messages(0)).toStrictEqual(toCoreMessages(recalled));
      }),
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
