import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import type { Message } from '../messages/types.js';
import { countMessageTokens } from '../tokens/count-message-tokens.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { findCutPoint } from './find-cut-point.js';

const counter = heuristicCounter();
const countTokens = (message: Message) => countMessageTokens(message, counter);
const options = { countTokens, keepRecentTokens: 100, splitTurnMinMessages: 5 };

describe('findCutPoint', () => {
  it('keeps about keepRecentTokens and cuts at a turn boundary', () => {
    const c = conversation();
    const messages = [
      c.user(words(50)),
      c.assistant(words(50)),
      c.user(words(50)),
      c.assistant(words(50)),
      c.user(words(50)),
      c.assistant(words(50)),
    ];
    const cut = findCutPoint(messages, options);
    expect(cut).toEqual({ firstKeptIndex: 4, turnStartIndex: 4, isSplitTurn: false });
  });

  it('keeps the latest step whole, however large its result, with or without an empty reply after it', () => {
    for (const trailingEmptyReply of [false, true]) {
      const c = conversation();
      const messages: Message[] = [
        ...Array.from({ length: 8 }, (_, turn) => [
          c.user(`topic ${turn} ${words(20)}`),
          c.assistant(words(40)),
        ]).flat(),
        c.user('Search the docs.'),
        ...c.toolStep([{ name: 'search', input: { query: 'retries' }, output: words(900) }]),
        ...(trailingEmptyReply ? [{ id: 'reply', role: 'assistant' as const, parts: [] }] : []),
      ];
      const call = messages.findIndex((m) => m.parts.some((p) => p.type === 'tool-call'));
      // The result alone is over 1.5× the budget: the walk back overshoots, yet the cut may not pass the call.
      const cut = findCutPoint(messages, { ...options, keepRecentTokens: 300 });
      expect(cut!.firstKeptIndex, `trailing empty reply: ${trailingEmptyReply}`).toBeLessThanOrEqual(call);
    }
  });

  it('never cuts between a tool call and its result', () => {
    const c = conversation();
    const messages = [
      c.user(words(20)),
      ...c.toolStep([{ name: 'read', input: { path: 'a.ts' }, output: words(200) }]),
      c.assistant(words(30)),
    ];
    // The budget is reached inside the tool result; the cut moves back before the call.
    const cut = findCutPoint(messages, { ...options, splitTurnMinMessages: 1 });
    expect(cut).toBeDefined();
    const kept = messages.slice(cut!.firstKeptIndex);
    const callIds = new Set(
      kept.flatMap((m) => m.parts.filter((p) => p.type === 'tool-call').map((p) => p.toolCallId)),
    );
    for (const message of kept) {
      for (const part of message.parts)
        if (part.type === 'tool-result') expect(callIds.has(part.toolCallId)).toBe(true);
    }
  });

  it('treats a short turn prefix as a clean cut at the turn start', () => {
    const c = conversation();
    const messages = [
      c.user(words(200)),
      c.assistant(words(200)),
      c.user(words(10)),
      ...c.toolStep([{ name: 'bash', input: { command: 'ls' }, output: words(60) }]),
      c.assistant(words(60)),
    ];
    const cut = findCutPoint(messages, options);
    expect(cut).toEqual({ firstKeptIndex: 2, turnStartIndex: 2, isSplitTurn: false });
  });

  it('splits a short turn prefix that holds a large tool output (keeping it would keep the whole turn)', () => {
    const c = conversation();
    const messages = [
      c.user(words(200)),
      c.assistant(words(200)),
      c.user(words(10)),
      ...c.toolStep([{ name: 'read', input: { path: 'a.rs' }, output: words(400) }]),
      ...c.toolStep([{ name: 'read', input: { path: 'b.rs' }, output: words(400) }]),
    ];
    const cut = findCutPoint(messages, options);
    expect(cut).toEqual({ firstKeptIndex: 5, turnStartIndex: 2, isSplitTurn: true });
  });

  it('keeps a short prefix verbatim only while it holds at most half the budget, whatever its size', () => {
    for (let outputWords = 0; outputWords <= 300; outputWords += 5) {
      const c = conversation();
      const messages = [
        c.user(words(200)),
        c.assistant(words(200)),
        c.user(words(5)),
        ...c.toolStep([{ name: 'read', input: { path: 'a.rs' }, output: words(outputWords) }]),
        ...c.toolStep([{ name: 'read', input: { path: 'b.rs' }, output: words(200) }]),
      ];
      const cut = findCutPoint(messages, options)!;
      const prefix = messages.slice(cut.turnStartIndex, 5).reduce((sum, message) => sum + countTokens(message), 0);
      expect(cut.isSplitTurn).toBe(prefix > options.keepRecentTokens / 2);
      expect(cut.turnStartIndex).toBe(2);
    }
  });

  it('cuts after a large message at the budget boundary rather than keep twice the budget', () => {
    const c = conversation();
    const messages = [
      c.user(words(200)),
      c.assistant(words(200)),
      c.user(words(10)),
      ...c.toolStep([{ name: 'read', input: { path: 'big.rs' }, output: words(400) }]),
      c.assistant(words(20)),
      c.user(words(10)),
      c.assistant(words(60)),
    ];
    const cut = findCutPoint(messages, options)!;
    const kept = messages.slice(cut.firstKeptIndex).reduce((sum, message) => sum + countTokens(message), 0);
    expect(kept).toBeLessThanOrEqual(options.keepRecentTokens * 1.5);
    expect(cut.firstKeptIndex).toBeGreaterThan(4); // the 400-word tool output is summarized
  });

  it('never keeps more than 1.5 × the budget when a valid cut after the budget point exists (generated)', () => {
    let seed = 7;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) >>> 0;
      return (seed >>> 8) % limit;
    };
    for (let round = 0; round < 300; round += 1) {
      const c = conversation();
      const messages: Message[] = [];
      for (let turn = 0; turn < 1 + next(6); turn += 1) {
        messages.push(c.user(words(1 + next(40))));
        for (let step = 0; step < next(4); step += 1)
          messages.push(...c.toolStep([{ name: 'read', input: {}, output: words(next(300)) }]));
        messages.push(c.assistant(words(1 + next(60))));
      }
      const keepRecentTokens = 50 + next(400);
      const cut = findCutPoint(messages, { ...options, keepRecentTokens, splitTurnMinMessages: 1 });
      if (!cut) continue;
      const keptFrom = (index: number) => messages.slice(index).reduce((sum, message) => sum + countTokens(message), 0);
      const kept = keptFrom(cut.firstKeptIndex);
      if (kept <= keepRecentTokens * 1.5) continue;
      // Only when no valid cut (a user or assistant message: tool steps here are adjacent
      // call/result pairs) keeps less than the budget.
      const laterValid = messages.some(
        (message, index) => index > cut.firstKeptIndex && message.role !== 'tool' && keptFrom(index) < keepRecentTokens,
      );
      expect({ round, laterValid }).toEqual({ round, laterValid: false });
    }
  });

  it('splits a long turn and reports the turn start', () => {
    const c = conversation();
    const steps = Array.from({ length: 6 }, () =>
      c.toolStep([{ name: 'bash', input: { command: 'make' }, output: words(40) }]),
    ).flat();
    const messages = [c.user(words(200)), c.assistant(words(10)), c.user(words(10)), ...steps];
    const cut = findCutPoint(messages, options);
    expect(cut?.isSplitTurn).toBe(true);
    expect(cut?.turnStartIndex).toBe(2);
    expect(messages[cut!.firstKeptIndex]!.role).toBe('assistant');
  });

  it('keeps the last N messages with keepRecentMessages, moving to a valid cut', () => {
    const c = conversation();
    const messages = [
      c.user('a'),
      c.assistant('b'),
      c.user('c'),
      ...c.toolStep([{ name: 't', input: {}, output: 'x' }]),
    ];
    const cut = findCutPoint(messages, { ...options, keepRecentMessages: 1, splitTurnMinMessages: 1 });
    expect(cut?.firstKeptIndex).toBe(3); // not 4: the tool result stays with its call
  });

  it('returns undefined when everything fits in the kept range, unless forced', () => {
    const c = conversation();
    const messages = [c.user('hi'), c.assistant('hello'), c.user('how are you?')];
    expect(findCutPoint(messages, { ...options, keepRecentTokens: 10_000 })).toBeUndefined();
    expect(findCutPoint(messages, { ...options, keepRecentTokens: 10_000, force: true })).toEqual({
      firstKeptIndex: 2,
      turnStartIndex: 2,
      isSplitTurn: false,
    });
  });

  it('force cuts all but the last 2 messages inside a single turn', () => {
    const c = conversation();
    const steps = Array.from({ length: 4 }, () => c.toolStep([{ name: 'bash', input: {}, output: words(10) }])).flat();
    const messages = [c.user(words(10)), ...steps];
    const cut = findCutPoint(messages, { ...options, keepRecentTokens: 100_000, force: true });
    expect(cut?.firstKeptIndex).toBe(messages.length - 2);
  });

  it('never cuts before startIndex or at a pinned message', () => {
    const c = conversation();
    const messages = [c.system('rules'), c.user(words(100)), c.assistant(words(100)), c.user(words(100))];
    const cut = findCutPoint(messages, { ...options, startIndex: 1 });
    expect(cut!.firstKeptIndex).toBeGreaterThan(1);
    expect(findCutPoint(messages, { ...options, startIndex: 3 })).toBeUndefined();
  });
});
