import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import { buildContext } from './build-context.js';
import { COMPACTION_STATE_SCHEMA } from './compaction-state.js';
import { findCutPoint } from './find-cut-point.js';
import { hasValidToolPairs, MISSING_RESULT_OUTPUT, repairToolPairs, straddledCuts } from './tool-pairs.js';

const user = (id: string, text = id): Message => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const call = (id: string, ...callIds: string[]): Message => ({
  id,
  role: 'assistant',
  parts: callIds.map((toolCallId) => ({ type: 'tool-call', toolCallId, toolName: 'run', input: {} })),
});
const result = (id: string, toolCallId: string, output: unknown = id): Message => ({
  id,
  role: 'tool',
  parts: [{ type: 'tool-result', toolCallId, toolName: 'run', output }],
});

/**
 * What providers accept, checked independently of the code under test: after a message
 * with tool calls, the result messages right after it answer each of its calls exactly
 * once, and no result stands anywhere else.
 */
function providerProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    const calls = message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
    if (message.role !== 'assistant' && calls.length > 0) problems.push(`call in a ${message.role} message`);
    const previous = messages[index - 1];
    const afterCalls =
      previous !== undefined &&
      (previous.role === 'tool' ||
        (previous.role === 'assistant' && previous.parts.some((part) => part.type === 'tool-call')));
    if (message.role === 'tool' && !afterCalls) {
      problems.push(`result message ${message.id} does not follow a call`);
    }
    if (calls.length === 0) continue;
    const answered: string[] = [];
    let next = index + 1;
    while (next < messages.length && messages[next]!.role === 'tool') {
      for (const part of messages[next]!.parts) if (part.type === 'tool-result') answered.push(part.toolCallId);
      next += 1;
    }
    if ([...answered].sort().join() !== [...calls].sort().join()) {
      problems.push(`calls [${calls}] of ${message.id} answered by [${answered}]`);
    }
  }
  return problems;
}

const shape = (messages: readonly Message[]) =>
  messages.map((message) =>
    message.parts
      .map((part) =>
        part.type === 'tool-call'
          ? `call(${part.toolCallId})`
          : part.type === 'tool-result'
            ? `result(${part.toolCallId}: ${part.output})`
            : part.type === 'text'
              ? part.text
              : part.type,
      )
      .join(' '),
  );

describe('repairToolPairs (r16, r17)', () => {
  it('moves a result stored before its call to right after it (r16)', () => {
    const context = buildContext([user('go'), result('r', 'k', 'real output'), call('c', 'k')], undefined);
    expect(shape(context)).toEqual(['go', 'call(k)', 'result(k: real output)']);
    expect(providerProblems(context)).toEqual([]);
  });

  it('keeps one result when a call got two (r16)', () => {
    const context = buildContext(
      [user('go'), call('c', 'k'), result('r1', 'k', 'first'), result('r2', 'k', 'retry'), user('next')],
      undefined,
    );
    expect(shape(context)).toEqual(['go', 'call(k)', 'result(k: first)', 'next']);
  });

  it('pairs each call of a reused id with its own result (r17)', () => {
    const history = [
      user('u0'),
      call('c0', 'call_0'),
      result('r0', 'call_0', 'zero'),
      user('u1'),
      call('c1', 'call_0'),
      user('u2'),
      call('c2', 'call_0'),
      result('r2', 'call_0', 'two'),
    ];
    const context = repairToolPairs(history);
    expect(shape(context)).toEqual([
      'u0',
      'call(call_0)',
      'result(call_0: zero)',
      'u1',
      'call(call_0)',
      `result(call_0: ${MISSING_RESULT_OUTPUT})`,
      'u2',
      'call(call_0)',
      'result(call_0: two)',
    ]);
    // The cut is free between turns, even though every call shares an id.
    const blocked = straddledCuts(history);
    expect([...blocked.slice(0, history.length)]).toEqual([0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('a result that arrives after the next message is moved back to its call', () => {
    const context = repairToolPairs([user('go'), call('c', 'k'), user('still there?'), result('r', 'k', 'late')]);
    expect(shape(context)).toEqual(['go', 'call(k)', 'result(k: late)', 'still there?']);
  });

  it('compaction stays possible when every call reuses "call_0" (r17)', async () => {
    const session = createCompactionSession({
      sessionId: 's',
      settings: { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000, pruneToolOutputs: false },
    });
    const errors: string[] = [];
    session.on((event) => {
      if (event.type === 'compaction:error') errors.push(event.message);
    });
    for (let turn = 0; turn < 30; turn += 1) {
      await session.append([
        user(`u${turn}`, `turn ${turn}`),
        {
          id: `c${turn}`,
          role: 'assistant',
          parts: [{ type: 'tool-call', toolCallId: 'call_0', toolName: 'read', input: { turn } }],
        },
        {
          id: `r${turn}`,
          role: 'tool',
          parts: [{ type: 'tool-result', toolCallId: 'call_0', toolName: 'read', output: 'x '.repeat(300) }],
        },
      ]);
    }
    const { messages, tokens } = await session.prepare();
    expect(errors).toEqual([]);
    expect(tokens).toBeLessThan(8000 - 1000);
    expect(providerProblems(messages)).toEqual([]);
    // The kept turns keep their own outputs.
    expect(messages.at(-1)).toMatchObject({ id: 'r29' });
  });

  // Random pairing orders: calls (ids drawn from a small pool, so they repeat), results
  // before, after, twice or never, orphans, user turns in between.
  const event = fc.oneof(
    fc.record({ kind: fc.constant('user' as const) }),
    fc.record({
      kind: fc.constant('call' as const),
      ids: fc.uniqueArray(fc.constantFrom('a', 'b', 'call_0'), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({ kind: fc.constant('result' as const), id: fc.constantFrom('a', 'b', 'call_0', 'orphan') }),
  );
  const toMessages = (events: Array<{ kind: 'user' | 'call' | 'result'; ids?: string[]; id?: string }>) =>
    events.map(
      (item, index): Message =>
        item.kind === 'user'
          ? user(`m${index}`)
          : item.kind === 'call'
            ? call(`m${index}`, ...item.ids!)
            : result(`m${index}`, item.id!, `out${index}`),
    );

  it('property: any order of calls and results is repaired into what providers accept, idempotently', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const history = toMessages(events);
        const before = structuredClone(history);
        const repaired = repairToolPairs(history);
        expect(providerProblems(repaired)).toEqual([]);
        expect(repairToolPairs(repaired)).toBe(repaired);
        expect(history).toEqual(before);
        // Nothing is invented: every result is a real one or the marked synthetic one, each real one used once.
        const used = repaired.flatMap((message) => message.parts.filter((part) => part.type === 'tool-result'));
        const real = used.filter((part) => part.type === 'tool-result' && part.output !== MISSING_RESULT_OUTPUT);
        expect(new Set(real).size).toBe(real.length);
        for (const part of real) expect(history.some((message) => message.parts.includes(part))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: a result right after its call is never replaced by a synthetic one', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const history = toMessages(events);
        const repaired = repairToolPairs(history);
        for (let index = 0; index + 1 < history.length; index += 1) {
          const [first, second] = [history[index]!, history[index + 1]!];
          const ids = first.parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
          const answer = second.parts[0];
          if (answer?.type !== 'tool-result' || !ids.includes(answer.toolCallId)) continue;
          expect(repaired).toContain(second);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('property: wherever findCutPoint cuts, the built context pairs every call', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 4, maxLength: 30 }), fc.nat(2000), (events, keep) => {
        const history = toMessages(events);
        const cut = findCutPoint(history, {
          countTokens: () => 50,
          keepRecentTokens: keep,
          splitTurnMinMessages: 2,
          force: true,
        });
        if (!cut) return;
        const context = buildContext(history, {
          schema: COMPACTION_STATE_SCHEMA,
          version: 1,
          summary: 'S',
          firstKeptMessageId: history[cut.firstKeptIndex]!.id,
          summarizedRange: { fromIndex: 0, toIndex: cut.firstKeptIndex - 1, messageCount: cut.firstKeptIndex },
          prunedToolCallIds: [],
          fileOps: { read: [], modified: [] },
          tokensBefore: 1,
          tokensAfter: 1,
          strategy: 'structured',
          createdAt: '2026-01-01T00:00:00.000Z',
        });
        expect(providerProblems(context)).toEqual([]);
        // A kept call whose result exists right after it keeps that real result.
        expect(straddledCuts(history)[cut.firstKeptIndex]).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('repairToolPairs: provider-executed tools', () => {
  it('a result in the assistant message of its call stays there', () => {
    const history: Message[] = [
      user('search the web'),
      {
        id: 'a',
        role: 'assistant',
        parts: [
          { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: { query: 'x' } },
          { type: 'tool-result', toolCallId: 'ws', toolName: 'web_search', output: 'results' },
          { type: 'text', text: 'Found it.' },
        ],
      },
      user('thanks'),
    ];
    expect(repairToolPairs(history)).toBe(history);
    // With a client tool call beside it, only the client call needs its result.
    const mixed: Message[] = [
      history[0]!,
      {
        ...history[1]!,
        parts: [...history[1]!.parts, { type: 'tool-call', toolCallId: 'k', toolName: 'run', input: {} }],
      },
      result('r', 'k', 'ran'),
    ];
    expect(repairToolPairs(mixed)).toBe(mixed);
  });
});

describe('hasValidToolPairs', () => {
  /** The check as it was written first (a set per message with calls): the reference the indexed pass must match. */
  function withSets(messages: readonly Message[]): boolean {
    let pending: Set<string> | undefined;
    for (const message of messages) {
      const carrier =
        message.role === 'tool' ||
        (message.role === 'user' && message.parts.some((part) => part.type === 'tool-result'));
      if (carrier) {
        for (const part of message.parts) {
          if (part.type !== 'tool-result') continue;
          if (!pending?.delete(part.toolCallId)) return false;
        }
        continue;
      }
      if (pending && pending.size > 0) return false;
      pending = undefined;
      for (const part of message.parts) {
        if (part.type !== 'tool-call') continue;
        pending ??= new Set();
        if (pending.has(part.toolCallId)) return false;
        pending.add(part.toolCallId);
      }
      for (const part of message.parts) {
        if (part.type === 'tool-result' && !pending?.delete(part.toolCallId)) return false;
      }
    }
    return !pending || pending.size === 0;
  }

  // Ids from a small set (so calls and results meet), and up to 40 of them in one message
  // (past the 16 pending calls the indexed pass keeps in an array).
  const id = fc.oneof(
    fc.constantFrom('a', 'b', 'call_0'),
    fc.nat(39).map((n) => `c${n}`),
  );
  const part = fc.oneof(
    fc.constant({ type: 'text' as const, text: 't' }),
    id.map((toolCallId) => ({ type: 'tool-call' as const, toolCallId, toolName: 'run', input: {} })),
    id.map((toolCallId) => ({ type: 'tool-result' as const, toolCallId, toolName: 'run', output: 'o' })),
  );
  const message = fc.record({
    role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const, 'tool' as const),
    parts: fc.oneof(fc.array(part, { maxLength: 4 }), fc.array(part, { minLength: 17, maxLength: 45 })),
  });
  /**
   * A call block that pairs: `calls` distinct ids, answered in shuffled order by one or more tool
   * messages — or, with `repeat`, one id called twice in the message and answered twice (which
   * does not pair: a call's id is unique in its message).
   */
  const pairedBlock = fc
    .tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 3 }), fc.nat(), fc.boolean())
    .map(([calls, carriers, seed, repeat]): Omit<Message, 'id'>[] => {
      const distinct = Array.from({ length: calls }, (_, n) => `p${n}`);
      const answered = distinct
        .map((_, n) => distinct[(n * 7 + seed) % calls]!)
        .filter((v, n, all) => all.indexOf(v) === n);
      for (const left of distinct) if (!answered.includes(left)) answered.push(left);
      const ids = repeat ? [...distinct, distinct[seed % calls]!] : distinct;
      if (repeat) answered.push(distinct[seed % calls]!);
      const results = Array.from({ length: carriers }, (_, c) => ({
        role: 'tool' as const,
        parts: answered
          .filter((_, n) => n % carriers === c)
          .map((toolCallId) => ({ type: 'tool-result' as const, toolCallId, toolName: 'run', output: 'o' })),
      }));
      return [
        {
          role: 'assistant',
          parts: ids.map((toolCallId) => ({ type: 'tool-call', toolCallId, toolName: 'run', input: {} })),
        },
        ...results,
      ];
    });
  const conversation = fc
    .array(
      fc.oneof(
        message.map((one) => [one]),
        pairedBlock,
      ),
      { maxLength: 12 },
    )
    .map((blocks) => blocks.flat().map((one, index) => ({ id: `m${index}`, ...one }) as Message));

  it('property: agrees with the set-based check on any mix of calls and results, few or many a message', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        expect(hasValidToolPairs(messages)).toBe(withSets(messages));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts blocks of more calls than it keeps in an array, and refuses a repeated or a missing answer among them', () => {
    const ids = Array.from({ length: 30 }, (_, n) => `x${n}`);
    const calls: Message = {
      id: 'a',
      role: 'assistant',
      parts: ids.map((toolCallId) => ({ type: 'tool-call', toolCallId, toolName: 'run', input: {} })),
    };
    const answers = (list: string[]): Message => ({
      id: 'r',
      role: 'tool',
      parts: list.map((toolCallId) => ({ type: 'tool-result', toolCallId, toolName: 'run', output: 'o' })),
    });
    expect(hasValidToolPairs([calls, answers([...ids].reverse()), user('u')])).toBe(true);
    expect(hasValidToolPairs([calls, answers(ids.slice(1)), user('u')])).toBe(false);
    expect(hasValidToolPairs([calls, answers([...ids, 'x3'])])).toBe(false);
    expect(hasValidToolPairs([{ ...calls, parts: [...calls.parts, calls.parts[29]!] }, answers(ids)])).toBe(false);
  });
});
