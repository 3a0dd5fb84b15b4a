import { createCompactionSession, type Message, type SessionRecord } from '@compaction/core';
import { type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { agentStateStore } from './agent-state-store.js';
import { conversionSource } from './conversion-source.js';
import type { Conversion } from './extend-conversion.js';
import { releaseConversion } from './held-conversion.js';
import {
  COUNTED_MESSAGE_BYTES,
  COUNTED_THREAD_BYTES,
  canReuse,
  isCounted,
  type KeptThread,
  keptThreadBytes,
  threadSession,
  threadSessions,
} from './thread-sessions.js';

const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `message ${id}` }] });

/** A conversion whose core messages are `history` (its LangChain side plays no part here). */
const conversion = (history: Message[]): Conversion<BaseMessage, Message> => ({
  source: history.map((each) => new HumanMessage({ id: each.id, content: `message ${each.id}` })),
  result: history,
});

function kept(history: Message[], record: SessionRecord | undefined, setup: unknown[] = [8000, 'gpt-5']): KeptThread {
  return {
    thread: threadSession(agentStateStore(record), (store) => createCompactionSession({ store, sessionId: 't' })),
    setup,
    record,
    input: conversion(history),
    source: conversionSource(conversion(history)),
    output: { source: [], result: [] },
  };
}

describe('threadSessions', () => {
  it('hands a kept thread out once, and keeps the most recently used threads only', () => {
    const sessions = threadSessions(2);
    const [a, b, c] = [kept([], undefined), kept([], undefined), kept([], undefined)];
    sessions.keep('a', a);
    sessions.keep('b', b);
    expect(sessions.take('a')).toBe(a);
    expect(sessions.take('a')).toBeUndefined();
    sessions.keep('a', a);
    sessions.keep('c', c); // drops b, the least recently kept
    expect(sessions.take('b')).toBeUndefined();
    expect(sessions.take('a')).toBe(a);
    expect(sessions.take('c')).toBe(c);
  });
});

describe('canReuse', () => {
  const history = [message('1'), message('2')];
  const record: SessionRecord = {
    usage: { inputTokens: 500, contextMessageCount: 2, historyLength: 2, stateVersion: 0 },
  };

  it('reuses for the same setup and record (also a copy of it) and a history that only grew', () => {
    const thread = kept(history, record);
    expect(canReuse(thread, { setup: [8000, 'gpt-5'], record, input: conversion([...history, message('3')]) })).toBe(
      true,
    );
    expect(
      canReuse(thread, { setup: [8000, 'gpt-5'], record: structuredClone(record), input: conversion(history) }),
    ).toBe(true);
  });

  it('makes a new session for another setup, another record or a history that changed', () => {
    const thread = kept(history, record);
    const call = { setup: [8000, 'gpt-5'], record, input: conversion(history) };
    expect(canReuse(thread, { ...call, setup: [16000, 'gpt-5'] })).toBe(false);
    expect(canReuse(thread, { ...call, record: undefined })).toBe(false);
    expect(canReuse(thread, { ...call, record: { ...record, stuckAtHistoryLength: 2 } })).toBe(false);
    expect(canReuse(thread, { ...call, input: conversion([history[0]!, message('other')]) })).toBe(false);
    expect(canReuse(thread, { ...call, input: conversion([history[0]!, message('2')]) })).toBe(false); // replaced under its id
    expect(canReuse(thread, { ...call, input: conversion([history[0]!]) })).toBe(false);
  });
});

describe('canReuse, a kept conversion that let go of its core messages (its session held the history counted)', () => {
  const record: SessionRecord = {
    usage: { inputTokens: 500, contextMessageCount: 2, historyLength: 2, stateVersion: 0 },
  };

  it('reuses only for that very conversion, grown in place: an empty held prefix proves nothing', () => {
    const thread = kept([message('1'), message('2')], record);
    releaseConversion(thread.input);
    expect(isCounted(thread)).toBe(true);
    expect(canReuse(thread, { setup: [8000, 'gpt-5'], record, input: thread.input })).toBe(true);
    expect(canReuse(thread, { setup: [8000, 'gpt-5'], record, input: conversion([message('other')]) })).toBe(false);
  });

  it('sizes a counted thread by its few bytes a message, a loaded one by its core messages', () => {
    const many = Array.from({ length: 200 }, (_, index) => message(String(index)));
    const thread = kept(many, record);
    const loaded = keptThreadBytes(thread);
    releaseConversion(thread.input);
    expect(keptThreadBytes(thread)).toBe(COUNTED_THREAD_BYTES + 200 * COUNTED_MESSAGE_BYTES);
    expect(keptThreadBytes(thread)).toBeLessThan(loaded / 4);
  });

  it('keeps counted and loaded threads in their own budgets, and takes a thread out of either', () => {
    const sessions = threadSessions();
    const counted = kept([message('1')], record);
    releaseConversion(counted.input);
    const loaded = kept([message('1')], record);
    sessions.keep('counted', counted);
    sessions.keep('loaded', loaded);
    expect(sessions.take('counted')).toBe(counted);
    expect(sessions.take('loaded')).toBe(loaded);
    expect(sessions.take('counted')).toBeUndefined();
  });
});

describe('threadSession', () => {
  it('saves into the store of the call at hand', async () => {
    const first = agentStateStore(undefined);
    const thread = threadSession(first, (store) =>
      createCompactionSession({ store, sessionId: 't', persistHistory: false }),
    );
    await thread.session.prepare({ messages: [message('1')] });
    await thread.session.recordUsage({ inputTokens: 100 });
    expect(first.record?.usage?.inputTokens).toBe(100);

    const second = agentStateStore(first.record);
    thread.use(second);
    await thread.session.prepare({ messages: [message('1'), message('2')] });
    await thread.session.recordUsage({ inputTokens: 200 });
    expect(second.changed).toBe(true);
    expect(second.record?.usage).toMatchObject({ inputTokens: 200, historyLength: 2 });
    expect(first.record?.usage?.inputTokens).toBe(100);
  });
});
