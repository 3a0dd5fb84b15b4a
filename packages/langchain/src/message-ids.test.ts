import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { assignMessageIds, messageIds } from './message-ids.js';

describe('messageIds / assignMessageIds', () => {
  it('keeps given ids and derives the others from content, not from ids', () => {
    const plain = [new HumanMessage('hi'), new AIMessage('hello')];
    const mixed = [new HumanMessage({ id: 'given', content: 'hi' }), new AIMessage('hello')];
    const [, derived] = messageIds(plain);
    expect(messageIds(mixed)).toEqual(['given', derived]);
  });

  it('writes the derived ids onto the messages, where LangChain keeps and serializes them', () => {
    const messages = [new HumanMessage('hi'), new AIMessage({ id: 'a', content: 'hello' })];
    const ids = assignMessageIds(messages);
    expect(messages.map((message) => message.id)).toEqual(ids);
    expect(messages[0]!.toDict().data.id).toBe(ids[0]);
    expect(messages[1]!.id).toBe('a');
  });
});
