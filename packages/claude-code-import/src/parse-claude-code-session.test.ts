import { describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from './parse-claude-code-session.js';

type Json = Record<string, unknown>;

const usage = { input_tokens: 2, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 7 };

function user(uuid: string, content: unknown, extra: Json = {}): string {
  return JSON.stringify({ type: 'user', uuid, timestamp: `t-${uuid}`, message: { role: 'user', content }, ...extra });
}

function assistant(uuid: string, id: string, block: Json, extra: Json = {}): string {
  const message = { id, role: 'assistant', model: 'claude-test', content: [block], usage };
  return JSON.stringify({ type: 'assistant', uuid, timestamp: `t-${uuid}`, message, ...extra });
}

const toolUse = (id: string, name = 'Bash') => ({ type: 'tool_use', id, name, input: { command: 'ls' } });
const toolResult = (id: string, content: unknown = 'ok', isError?: boolean) => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  ...(isError === undefined ? {} : { is_error: isError }),
});

describe('parseClaudeCodeSession', () => {
  it('warns about a malformed line with its 1-based number and imports the rest', () => {
    const text = [
      user('u1', 'hello'),
      '{"type": "user", "uuid": ',
      JSON.stringify({ type: 'user', uuid: 'u2' }),
      assistant('a1', 'msg_1', { type: 'text', text: 'hi' }),
      '',
      '[1, 2]',
      user('u3', 'bye'),
    ].join('\n');
    const session = parseClaudeCodeSession(text);
    expect(session.warnings).toEqual([
      { line: 2, problem: expect.stringMatching(/^invalid JSON/) },
      { line: 3, problem: 'user record has no "message" object' },
      { line: 6, problem: 'not a JSON object' },
    ]);
    expect(session.messages.map((message) => message.id)).toEqual(['u1', 'msg_1', 'u3']);
    expect(session.calls).toHaveLength(1);
  });

  it('splits a record holding tool results and text into a tool message then a user message', () => {
    const text = [
      user('u1', 'run it'),
      assistant('a1', 'msg_1', toolUse('call_1', 'Read')),
      user('u2', [
        toolResult('call_1', [
          { type: 'text', text: 'line 1' },
          { type: 'text', text: 'line 2' },
        ]),
        { type: 'text', text: 'and now?' },
      ]),
    ].join('\n');
    const { messages, warnings } = parseClaudeCodeSession(text);
    expect(warnings).toEqual([]);
    expect(messages.slice(2)).toEqual([
      {
        id: 'u2:tool',
        role: 'tool',
        parts: [
          { type: 'tool-result', toolCallId: 'call_1', toolName: 'Read', output: 'line 1\nline 2', isError: false },
        ],
        metadata: { claudeCode: { uuid: 'u2', timestamp: 't-u2' } },
      },
      {
        id: 'u2:text',
        role: 'user',
        parts: [{ type: 'text', text: 'and now?' }],
        metadata: { claudeCode: { uuid: 'u2', timestamp: 't-u2' } },
      },
    ]);
  });

  it('turns images into file parts, and into a note inside a tool result', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } };
    const text = [
      assistant('a1', 'msg_1', toolUse('call_1', 'Read')),
      user('u1', [toolResult('call_1', [image])]),
      user('u2', [{ type: 'text', text: 'look' }, image]),
    ].join('\n');
    const { messages } = parseClaudeCodeSession(text);
    expect(messages[1]?.parts).toEqual([expect.objectContaining({ output: '[image: image/png]' })]);
    expect(messages[2]?.parts).toEqual([
      { type: 'text', text: 'look' },
      { type: 'file', mediaType: 'image/png', data: 'iVBOR' },
    ]);
  });

  it('keeps a tool call without a result and drops an orphan result with a warning', () => {
    const text = [
      assistant('a1', 'msg_1', toolUse('call_1')),
      user('u1', [toolResult('call_404', 'lost', true)]),
      user('u2', [{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
    ].join('\n');
    const { messages, warnings } = parseClaudeCodeSession(text);
    expect(messages.map((message) => message.role)).toEqual(['assistant', 'user']);
    expect(messages[0]?.parts).toEqual([
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'Bash', input: { command: 'ls' } },
    ]);
    expect(warnings).toEqual([{ line: 2, problem: 'tool_result for unknown tool_use id call_404 (dropped)' }]);
  });

  it('merges streamed records by message.id, keeps the last usage, and drops the thinking signature', () => {
    const final = { ...usage, output_tokens: 321 };
    const text = [
      assistant('a1', 'msg_1', { type: 'thinking', thinking: 'hmm', signature: 'sig' }),
      assistant('a2', 'msg_1', toolUse('call_1')),
      user('u1', [toolResult('call_1')]),
      JSON.stringify({
        type: 'assistant',
        uuid: 'a3',
        message: { id: 'msg_1', model: 'claude-test', content: [toolUse('call_2', 'Grep')], usage: final },
      }),
      user('u2', [toolResult('call_2', 'no match', false)]),
    ].join('\n');
    const session = parseClaudeCodeSession(text);
    expect(session.messages.map((message) => message.id)).toEqual(['msg_1', 'u1', 'u2']);
    expect(session.messages[0]?.parts.map((part) => part.type)).toEqual(['reasoning', 'tool-call', 'tool-call']);
    expect(session.messages[0]?.parts[0]).toEqual({ type: 'reasoning', text: 'hmm' });
    expect(session.messages[0]?.usage).toEqual({ inputTokens: 1102, outputTokens: 321 });
    expect(session.calls).toEqual([
      {
        messageId: 'msg_1',
        index: 0,
        usage: { inputTokens: 2, cacheCreationInputTokens: 100, cacheReadInputTokens: 1000, outputTokens: 321 },
        contextTokens: 1102,
        model: 'claude-test',
        timestamp: 't-a1',
      },
    ]);
  });

  it('records a compact boundary with the summary that follows it', () => {
    const boundary = JSON.stringify({
      type: 'system',
      subtype: 'compact_boundary',
      uuid: 'b1',
      compactMetadata: { trigger: 'auto', preTokens: 1234 },
    });
    const text = [
      user('u1', 'first'),
      assistant('a1', 'msg_1', { type: 'text', text: 'done' }),
      boundary,
      user('u2', 'Summary: we did things.', { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
      user('u3', '<local-command-caveat>Caveat</local-command-caveat>', { isMeta: true }),
    ].join('\n');
    const session = parseClaudeCodeSession(text, { sessionName: 'demo' });
    expect(session.name).toBe('demo');
    expect(session.compactions).toEqual([
      {
        boundaryLine: 3,
        messageIndex: 2,
        preTokens: 1234,
        trigger: 'auto',
        summary: 'Summary: we did things.',
        summarizedMessageCount: 2,
      },
    ]);
    expect(session.messages[2]?.metadata).toEqual({
      claudeCode: { uuid: 'u2', timestamp: 't-u2', compactSummary: true },
      synthetic: true,
    });
    expect(session.messages[3]?.metadata).toEqual({
      claudeCode: { uuid: 'u3', timestamp: 't-u3', isMeta: true },
      synthetic: true,
    });
  });

  it('keeps a boundary no summary followed, with an empty summary and a warning', () => {
    const text = [user('u1', 'first'), JSON.stringify({ type: 'system', subtype: 'compact_boundary' })].join('\n');
    const session = parseClaudeCodeSession(text);
    expect(session.compactions).toEqual([{ boundaryLine: 2, messageIndex: 1, summary: '', summarizedMessageCount: 1 }]);
    expect(session.warnings).toEqual([
      { line: 2, problem: 'compact_boundary without an isCompactSummary record after it' },
    ]);
  });

  it('skips sidechain records by default and repeated records always', () => {
    const text = [user('u1', 'main'), user('s1', 'sub-agent prompt', { isSidechain: true }), user('u1', 'main')].join(
      '\r\n',
    );
    const session = parseClaudeCodeSession(text);
    expect(session.messages.map((message) => message.id)).toEqual(['u1']);
    expect(session.warnings).toEqual([{ line: 3, problem: 'duplicate record uuid u1 (skipped)' }]);
    const withSidechain = parseClaudeCodeSession(text, { includeSidechain: true });
    expect(withSidechain.messages.map((message) => message.id)).toEqual(['u1', 's1']);
  });

  it('keeps synthetic replies as messages but not as calls, and warns about unknown blocks and missing usage', () => {
    const synthetic = JSON.stringify({
      type: 'assistant',
      uuid: 'a1',
      message: { id: 'msg_s', model: '<synthetic>', content: [{ type: 'text', text: 'No response requested.' }] },
    });
    const noUsage = JSON.stringify({
      type: 'assistant',
      uuid: 'a2',
      message: {
        id: 'msg_2',
        content: [
          { type: 'redacted_thinking', data: 'x' },
          { type: 'text', text: 'ok' },
        ],
      },
    });
    const session = parseClaudeCodeSession([synthetic, noUsage].join('\n'));
    expect(session.messages.map((message) => message.id)).toEqual(['msg_s', 'msg_2']);
    expect(session.calls.map((call) => [call.messageId, call.contextTokens])).toEqual([['msg_2', 0]]);
    expect(session.warnings).toEqual([
      { line: 2, problem: 'unsupported assistant content block "redacted_thinking" (skipped)' },
      { line: 2, problem: 'assistant message msg_2 has no usage; its call counts 0 tokens' },
    ]);
  });

  it('makes message ids unique when a Claude id repeats one already taken', () => {
    const text = [user('msg_1', 'odd uuid'), assistant('a1', 'msg_1', { type: 'text', text: 'hi' })].join('\n');
    const session = parseClaudeCodeSession(text);
    expect(session.messages.map((message) => message.id)).toEqual(['msg_1', 'msg_1:2']);
    expect(session.calls[0]?.messageId).toBe('msg_1:2');
  });
});
