import { countMessageTokens, type Message, tiktokenCounter } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { recordedReplies } from './recorded-replies.js';
import { ReplayExhaustedError } from './replay-exhausted-error.js';

const text = (id: string, role: Message['role'], body: string, usage?: Message['usage']): Message => ({
  id,
  role,
  parts: [{ type: 'text', text: body }],
  ...(usage ? { usage } : {}),
});

const conversation: Message[] = [
  text('u1', 'user', 'Read the gateway.'),
  text('a1', 'assistant', 'Reading it now.', { inputTokens: 900, outputTokens: 42 }),
  text('u2', 'user', 'And the store?'),
  text('a2', 'assistant', 'The store keeps one JSON file per session.'),
];

describe('recordedReplies', () => {
  it('answers calls with the recorded assistant messages in order, without their recorded usage', () => {
    const replies = recordedReplies(conversation);
    expect(replies.total).toBe(2);
    const first = replies.next([conversation[0]!]);
    const second = replies.next(conversation.slice(0, 3));
    expect([first.message.id, second.message.id]).toEqual(['a1', 'a2']);
    expect(first.message.usage).toBeUndefined();
    expect([first.call, second.call, replies.calls]).toEqual([1, 2, 2]);
  });

  it('computes input tokens from the prompt it received, not from the recording', () => {
    const counter = tiktokenCounter();
    const replies = recordedReplies(conversation, { counter });
    const prompt = conversation.slice(0, 1);
    const { usage } = replies.next(prompt);
    expect(usage.inputTokens).toBe(countMessageTokens(prompt[0]!, counter));
    expect(usage.outputTokens).toBe(42);
    const shorter = replies.next([conversation[2]!]).usage;
    expect(shorter.inputTokens).toBe(countMessageTokens(conversation[2]!, counter));
    expect(shorter.outputTokens).toBe(countMessageTokens(conversation[3]!, counter));
  });

  it('adds the overhead and scales by the token ratio', () => {
    const counter = tiktokenCounter();
    const prompt = conversation.slice(0, 1);
    const counted = countMessageTokens(prompt[0]!, counter);
    const { usage } = recordedReplies(conversation, { counter, overheadTokens: 1000, tokenRatio: 1.5 }).next(prompt);
    expect(usage.inputTokens).toBe(1000 + Math.round(counted * 1.5));
  });

  it('throws ReplayExhaustedError after the last reply, or starts over with loop', () => {
    const replies = recordedReplies(conversation);
    replies.next([]);
    replies.next([]);
    expect(() => replies.next([])).toThrow(ReplayExhaustedError);
    const looping = recordedReplies(conversation, { loop: true });
    expect([1, 2, 3].map(() => looping.next([]).message.id)).toEqual(['a1', 'a2', 'a1']);
    expect(() => recordedReplies([conversation[0]!], { loop: true }).next([])).toThrow(/no assistant replies/);
  });

  it('reports every reply with the prompt to onReply', () => {
    const seen: string[] = [];
    const replies = recordedReplies(conversation, {
      onReply: (reply, prompt) => seen.push(`${reply.call}:${prompt.length}`),
    });
    replies.next(conversation.slice(0, 1));
    replies.next(conversation.slice(0, 3));
    expect(seen).toEqual(['1:1', '2:3']);
  });
});
