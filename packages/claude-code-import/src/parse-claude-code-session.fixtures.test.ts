import type { Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { claudeCodeFixture, claudeCodeFixtureNames } from '../test/fixtures.js';
import { parseClaudeCodeSession } from './parse-claude-code-session.js';
import type { ImportedSession } from './types.js';

const longSessions = {
  '258c7280-ae70-4798-800f-63464d01a85d.jsonl': {
    calls: 152,
    // 344 records' messages + the 2 prompts Claude Code took from its queue mid-turn (before the boundary).
    messages: 346,
    firstContexts: [25882, 27337, 31180, 50681, 51162],
    maxBefore: 166759,
    firstAfter: 33960,
    compaction: {
      boundaryLine: 1256,
      messageIndex: 231,
      summarizedMessageCount: 231,
      preTokens: 167094,
      trigger: 'auto',
    },
  },
  'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl': {
    calls: 217,
    messages: 466,
    firstContexts: [26010, 27539, 28616, 28727, 32460],
    maxBefore: 141787,
    firstAfter: 45263,
    compaction: {
      boundaryLine: 1481,
      messageIndex: 288,
      summarizedMessageCount: 288,
      preTokens: 142431,
      trigger: 'manual',
    },
  },
};

function roles(messages: Message[]): string {
  return messages.map((message) => message.role[0]).join('');
}

/** Problems with tool pairing: every result must follow a call with the same id and name. */
function pairingProblems(messages: Message[]): string[] {
  const calls = new Map<string, string>();
  const problems: string[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') calls.set(part.toolCallId, part.toolName);
      if (part.type === 'tool-result' && calls.get(part.toolCallId) !== part.toolName) {
        problems.push(`${message.id}: ${part.toolCallId}`);
      }
    }
  }
  return problems;
}

function countParts(session: ImportedSession, type: string): number {
  return session.messages.reduce((sum, message) => sum + message.parts.filter((part) => part.type === type).length, 0);
}

describe('parseClaudeCodeSession on the recorded sessions', () => {
  it.each(claudeCodeFixtureNames())('imports %s without warnings, with unique ids and paired tool results', (name) => {
    const session = parseClaudeCodeSession(claudeCodeFixture(name), {
      includeSidechain: name.includes('compaction-agent'),
    });
    expect(session.warnings).toEqual([]);
    expect(session.messages.length).toBeGreaterThan(0);
    expect(new Set(session.messages.map((message) => message.id)).size).toBe(session.messages.length);
    expect(pairingProblems(session.messages)).toEqual([]);
    for (const call of session.calls) expect(session.messages[call.index]?.id).toBe(call.messageId);
  });

  it('imports short.jsonl: one reply of five blocks, two rejected tool calls, the interruption', () => {
    const session = parseClaudeCodeSession(claudeCodeFixture('short.jsonl'));
    expect(session.name).toBe('55604662-cf2a-4331-851a-ec234028f8ca');
    expect(roles(session.messages)).toBe('uattu');
    const [request, reply, rejected] = session.messages;
    expect(request).toMatchObject({
      id: '7d48cbd2-6615-4dd8-87f6-38f12b8167d6',
      parts: [{ type: 'text', text: 'mix phx.server doesnt seem to start' }],
      metadata: { claudeCode: { uuid: '7d48cbd2-6615-4dd8-87f6-38f12b8167d6', timestamp: '2026-02-10T21:11:56.846Z' } },
    });
    expect(reply?.id).toBe('msg_01MKH1ccEGrZGNPvu8pYiiQa');
    expect(reply?.parts.map((part) => part.type)).toEqual(['text', 'reasoning', 'text', 'tool-call', 'tool-call']);
    expect(reply?.parts[3]).toEqual({
      type: 'tool-call',
      toolCallId: 'toolu_0116Hyi5v8ut7Ffb7d8qV1Sc',
      toolName: 'Bash',
      input: { command: 'mix phx.server 2>&1 | head -80', timeout: 30000 },
    });
    expect(reply?.metadata).toEqual({
      claudeCode: {
        uuid: '1b7d717f-d6a2-46a6-8575-fa4f937450ea',
        timestamp: '2026-02-10T21:11:59.186Z',
        model: 'claude-opus-4-6',
      },
    });
    expect(rejected?.parts).toEqual([
      expect.objectContaining({ toolCallId: 'toolu_0116Hyi5v8ut7Ffb7d8qV1Sc', toolName: 'Bash', isError: true }),
    ]);
    expect(session.calls).toEqual([
      {
        messageId: 'msg_01MKH1ccEGrZGNPvu8pYiiQa',
        index: 1,
        usage: { inputTokens: 3, cacheCreationInputTokens: 13835, cacheReadInputTokens: 11515, outputTokens: 13 },
        contextTokens: 25353,
        model: 'claude-opus-4-6',
        timestamp: '2026-02-10T21:11:59.186Z',
      },
    ]);
    expect(reply?.usage).toEqual({ inputTokens: 25353, outputTokens: 13 });
    expect(session.compactions).toEqual([]);
  });

  it('imports tool_heavy.jsonl: 17 messages, 4 calls, 6 tool pairs, the meta caveat kept and marked', () => {
    const session = parseClaudeCodeSession(claudeCodeFixture('tool_heavy.jsonl'));
    expect(roles(session.messages)).toBe('uatatuuuuuattattu');
    expect(session.calls.map((call) => call.contextTokens)).toEqual([25801, 26007, 26507, 27666]);
    expect(countParts(session, 'tool-call')).toBe(6);
    expect(countParts(session, 'tool-result')).toBe(6);
    const meta = session.messages.filter((message) => (message.metadata?.claudeCode as { isMeta?: boolean })?.isMeta);
    expect(meta).toEqual([
      expect.objectContaining({
        role: 'user',
        parts: [expect.objectContaining({ text: expect.stringMatching(/^<local-command-caveat>/) })],
      }),
    ]);
    // The last reply streamed a Read call, got its result, then streamed a WebFetch call: one message, both calls.
    const last = session.messages.find((message) => message.id === 'msg_019BN3FRqb7NU4DgBN5jdsym');
    expect(last?.parts.map((part) => (part.type === 'tool-call' ? part.toolName : part.type))).toEqual([
      'Read',
      'WebFetch',
    ]);
    expect(session.calls.at(-1)?.usage.outputTokens).toBe(173);
  });

  it.each(Object.entries(longSessions))('reproduces the calls and the compaction of %s', (name, expected) => {
    const session = parseClaudeCodeSession(claudeCodeFixture(name));
    expect(session.calls).toHaveLength(expected.calls);
    expect(session.messages).toHaveLength(expected.messages);
    expect(session.calls.slice(0, 5).map((call) => call.contextTokens)).toEqual(expected.firstContexts);
    expect(session.compactions).toHaveLength(1);
    const [compaction] = session.compactions;
    expect(compaction).toMatchObject(expected.compaction);
    expect(compaction?.summary).toMatch(/^This session is being continued from a previous conversation/);
    const summaryMessage = session.messages[compaction?.messageIndex ?? -1];
    expect(summaryMessage?.role).toBe('user');
    expect(summaryMessage?.metadata?.claudeCode).toMatchObject({ compactSummary: true });
    const before = session.calls.filter((call) => call.index < (compaction?.messageIndex ?? 0));
    const after = session.calls.filter((call) => call.index > (compaction?.messageIndex ?? 0));
    expect(Math.max(...before.map((call) => call.contextTokens))).toBe(expected.maxBefore);
    expect(before.at(-1)?.contextTokens).toBe(expected.maxBefore);
    expect(after[0]?.contextTokens).toBe(expected.firstAfter);
  });

  it('merges a reply whose tool results arrived between its streamed records, keeping the last usage', () => {
    const session = parseClaudeCodeSession(claudeCodeFixture('258c7280-ae70-4798-800f-63464d01a85d.jsonl'));
    const index = session.messages.findIndex((message) => message.id === 'msg_01GGLGCJ9sN12iKQZvVorFAw');
    const reply = session.messages[index];
    expect(reply?.parts.map((part) => part.type)).toEqual(['reasoning', 'text', ...Array(8).fill('tool-call')]);
    expect(roles(session.messages.slice(index, index + 9))).toBe('atttttttt');
    const call = session.calls.find((recorded) => recorded.messageId === 'msg_01GGLGCJ9sN12iKQZvVorFAw');
    expect(call?.usage).toEqual({
      inputTokens: 1,
      cacheCreationInputTokens: 3843,
      cacheReadInputTokens: 27336,
      outputTokens: 780,
    });
  });

  it('skips the sub-agent (sidechain) records of a compaction-agent file unless asked', () => {
    const text = claudeCodeFixture('ae4a77f8-aedd-4bc1-888f-c94edc91af04.compaction-agent.jsonl');
    expect(parseClaudeCodeSession(text).messages).toEqual([]);
    const session = parseClaudeCodeSession(text, { includeSidechain: true });
    expect(roles(session.messages)).toBe('ua');
    expect(session.calls).toHaveLength(1);
    expect(session.messages[0]?.metadata?.claudeCode).toMatchObject({ isSidechain: true });
    expect(session.messages[1]?.parts.some((part) => part.type === 'text' && part.text.includes('<summary>'))).toBe(
      true,
    );
  });
});
