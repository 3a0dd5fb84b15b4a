import { describe, expect, it } from 'vitest';
import { claudeCodeFixture } from '../test/fixtures.js';
import { parseClaudeCodeSession } from './parse-claude-code-session.js';

type Json = Record<string, unknown>;

const usage = { input_tokens: 2, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 7 };
const user = (uuid: string, content: unknown) =>
  JSON.stringify({ type: 'user', uuid, timestamp: `t-${uuid}`, message: { role: 'user', content } });
const assistant = (uuid: string, id: string, block: Json) =>
  JSON.stringify({
    type: 'assistant',
    uuid,
    timestamp: `t-${uuid}`,
    message: { id, role: 'assistant', model: 'claude-test', content: [block], usage },
  });
const queue = (operation: string, content?: string) =>
  JSON.stringify({ type: 'queue-operation', operation, timestamp: `q-${operation}`, ...(content ? { content } : {}) });
const call = (id: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } });
const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: 'ok' }];

function texts(text: string): string[] {
  return parseClaudeCodeSession(text).messages.map((message) =>
    message.parts.map((part) => (part.type === 'text' ? `${message.role}:${part.text}` : part.type)).join(' '),
  );
}

describe('prompts typed while the agent works (queue-operation)', () => {
  it('puts a prompt handed over mid-turn after the tool result it reached the model with', () => {
    const text = [
      user('u1', 'run the tests'),
      assistant('a1', 'msg_1', call('c1')),
      queue('enqueue', 'check the logs too'),
      queue('remove'),
      user('u2', result('c1')),
      assistant('a2', 'msg_2', { type: 'text', text: 'done, and the logs are clean' }),
    ].join('\n');
    expect(texts(text)).toEqual([
      'user:run the tests',
      'tool-call',
      'tool-result',
      'user:check the logs too',
      'assistant:done, and the logs are clean',
    ]);
    const queued = parseClaudeCodeSession(text).messages[3];
    expect(queued).toMatchObject({
      id: 'u2:queued',
      metadata: { claudeCode: { queued: true, timestamp: 'q-enqueue' } },
    });
  });

  it('imports a prompt that waited for the end of the turn once, from its user record', () => {
    const text = [
      user('u1', 'run the tests'),
      assistant('a1', 'msg_1', call('c1')),
      queue('enqueue', 'then deploy'),
      user('u2', result('c1')),
      assistant('a2', 'msg_2', { type: 'text', text: 'tests pass' }),
      user('u3', 'then deploy'),
      queue('remove'),
      assistant('a3', 'msg_3', { type: 'text', text: 'deploying' }),
    ].join('\n');
    expect(texts(text).filter((line) => line === 'user:then deploy')).toHaveLength(1);
  });

  it('skips slash commands, which Claude Code runs itself, and prompts taken back with popAll', () => {
    const text = [
      user('u1', 'go'),
      assistant('a1', 'msg_1', call('c1')),
      queue('enqueue', '/mcp'),
      queue('remove'),
      queue('enqueue', 'never sent'),
      queue('popAll'),
      queue('remove'),
      user('u2', result('c1')),
    ].join('\n');
    expect(texts(text)).toEqual(['user:go', 'tool-call', 'tool-result']);
  });

  it('keeps a prompt handed over at the very end of the recording', () => {
    const text = [user('u1', 'go'), assistant('a1', 'msg_1', call('c1')), queue('enqueue', 'stop'), queue('remove')];
    expect(texts(text.join('\n')).at(-1)).toBe('user:stop');
  });

  it('recovers the requests of the recorded 258c7280 session that only its queue holds', () => {
    const session = parseClaudeCodeSession(claudeCodeFixture('258c7280-ae70-4798-800f-63464d01a85d.jsonl'));
    const queued = session.messages.filter((message) => (message.metadata?.claudeCode as Json)?.queued === true);
    expect(queued.map((message) => message.parts[0]?.type === 'text' && message.parts[0].text)).toEqual([
      'check again',
      'new beads for the epic were added. tackle them',
    ]);
    for (const message of queued) {
      expect(session.messages[session.messages.indexOf(message) - 1]?.role).toBe('tool');
    }
  });
});
