import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from './create-compaction-session.js';

const message = (index: number): Message => ({
  id: `m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text: `message ${index}: ${'word '.repeat(40)}` }],
});

describe('a session without a store', () => {
  it('holds its history itself and behaves as with one: history, context, compaction, clear', async () => {
    const session = createCompactionSession({ sessionId: 'private' });
    const other = createCompactionSession({ sessionId: 'private' });
    const messages = Array.from({ length: 40 }, (_, index) => message(index));
    await session.append(messages.slice(0, 20));
    expect((await session.history()).map((item) => item.id)).toEqual(messages.slice(0, 20).map((item) => item.id));
    expect(await other.history()).toEqual([]); // no store shared behind the scenes
    await session.append(messages.slice(20));
    const compaction = await session.compact({ keepRecentTokens: 300 });
    expect(compaction).toBeDefined();
    const prepared = await session.prepare();
    expect(prepared.messages.length).toBeLessThan(40);
    expect(prepared.messages.at(-1)!.id).toBe('m39');
    expect((await session.history()).length).toBe(40);
    await session.clear();
    expect(await session.history()).toEqual([]);
    expect(await session.context()).toEqual([]);
  });
});
