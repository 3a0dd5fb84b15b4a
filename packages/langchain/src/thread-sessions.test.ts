import { createCompactionSession, type Message, type SessionRecord } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { agentStateStore } from './agent-state-store.js';
import { conversionSource } from './conversion-source.js';
import { canReuse, type KeptThread, threadSession, threadSessions } from './thread-sessions.js';

const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `message ${id}` }] });

function kept(history: Message[], record: SessionRecord | undefined, setup: unknown[] = [8000, 'gpt-5']): KeptThread {
  return {
    thread: threadSession(agentStateStore(record), (store) => createCompactionSession({ store, sessionId: 't' })),
    setup,
    record,
    input: { source: [], result: history },
    source: conversionSource(history),
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
    expect(canReuse(thread, { setup: [8000, 'gpt-5'], record, history: [...history, message('3')] })).toBe(true);
    expect(canReuse(thread, { setup: [8000, 'gpt-5'], record: structuredClone(record), history })).toBe(true);
  });

  it('makes a new session for another setup, another record or a history that changed', () => {
    const thread = kept(history, record);
    const call = { setup: [8000, 'gpt-5'], record, history };
    expect(canReuse(thread, { ...call, setup: [16000, 'gpt-5'] })).toBe(false);
    expect(canReuse(thread, { ...call, record: undefined })).toBe(false);
    expect(canReuse(thread, { ...call, record: { ...record, stuckAtHistoryLength: 2 } })).toBe(false);
    expect(canReuse(thread, { ...call, history: [history[0]!, message('other')] })).toBe(false);
    expect(canReuse(thread, { ...call, history: [history[0]!, message('2')] })).toBe(false); // replaced under its id
    expect(canReuse(thread, { ...call, history: [history[0]!] })).toBe(false);
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
