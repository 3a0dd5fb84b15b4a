import { AIMessage, AIMessageChunk, ChatMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { sameMessageShape } from './same-message-shape.js';

const long = 'a'.repeat(4_000);

describe('sameMessageShape', () => {
  it('takes another object of the same message', () => {
    const call = { id: 'c1', name: 'read_file', args: { path: 'a.ts' }, type: 'tool_call' as const };
    expect(
      sameMessageShape(
        new AIMessage({ id: 'a', content: 'Reading.', tool_calls: [call] }),
        new AIMessage({ id: 'a', content: 'Reading.', tool_calls: [{ ...call, args: { path: 'a.ts' } }] }),
      ),
    ).toBe(true);
    expect(
      sameMessageShape(
        new HumanMessage({
          id: 'h',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', url: 'x' },
          ],
        }),
        new HumanMessage({
          id: 'h',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', url: 'x' },
          ],
        }),
      ),
    ).toBe(true);
  });

  it('tells another id, class, tool call, tool result or text length apart', () => {
    const base = new AIMessage({ id: 'a', content: 'Reading.' });
    expect(sameMessageShape(base, new AIMessage({ id: 'b', content: 'Reading.' }))).toBe(false);
    expect(sameMessageShape(base, new AIMessageChunk({ id: 'a', content: 'Reading.' }))).toBe(false);
    expect(sameMessageShape(base, new HumanMessage({ id: 'a', content: 'Reading.' }))).toBe(false);
    expect(sameMessageShape(base, new AIMessage({ id: 'a', content: 'Reading!' }))).toBe(false);
    expect(
      sameMessageShape(
        base,
        new AIMessage({ id: 'a', content: 'Reading.', tool_calls: [{ id: 'c', name: 'n', args: {} }] }),
      ),
    ).toBe(false);
    const result = new ToolMessage({ id: 't', tool_call_id: 'c1', content: 'body' });
    expect(sameMessageShape(result, new ToolMessage({ id: 't', tool_call_id: 'c2', content: 'body' }))).toBe(false);
    expect(
      sameMessageShape(
        new HumanMessage({ id: 'l', content: long }),
        new HumanMessage({ id: 'l', content: `${long}b` }),
      ),
    ).toBe(false);
    expect(
      sameMessageShape(
        new HumanMessage({ id: 'h', content: [{ type: 'text', text: 'Look' }] }),
        new HumanMessage({ id: 'h', content: [{ type: 'text', text: 'Book' }] }),
      ),
    ).toBe(false);
  });

  it('sees an edit the length does not show: inside a long text, in tool arguments, name, status or usage', () => {
    expect(
      sameMessageShape(
        new HumanMessage({ id: 'l', content: long }),
        new HumanMessage({ id: 'l', content: `b${long.slice(1)}` }),
      ),
    ).toBe(false);
    const call = (path: string) => [{ id: 'c1', name: 'read_file', args: { path, lines: [1, 2] } }];
    expect(
      sameMessageShape(
        new AIMessage({ id: 'a', content: '', tool_calls: call('a.ts') }),
        new AIMessage({ id: 'a', content: '', tool_calls: call('b.ts') }),
      ),
    ).toBe(false);
    const result = (fields: Record<string, unknown>) =>
      new ToolMessage({ id: 't', tool_call_id: 'c1', content: 'body', name: 'read_file', ...fields });
    expect(sameMessageShape(result({}), result({ name: 'write_file' }))).toBe(false);
    expect(sameMessageShape(result({}), result({ status: 'error' }))).toBe(false);
    const usage = (output: number) => ({ input_tokens: 10, output_tokens: output, total_tokens: 10 + output });
    expect(
      sameMessageShape(
        new AIMessage({ id: 'a', content: 'x', usage_metadata: usage(5) }),
        new AIMessage({ id: 'a', content: 'x', usage_metadata: usage(6) }),
      ),
    ).toBe(false);
    expect(
      sameMessageShape(
        new HumanMessage({ id: 'h', content: [{ type: 'image', url: 'data:image/png;base64,AAAA' }] }),
        new HumanMessage({ id: 'h', content: [{ type: 'image', url: 'data:image/png;base64,AAAB' }] }),
      ),
    ).toBe(false);
  });

  it('takes a copy whose round trip dropped keys that held undefined', () => {
    const before = new AIMessage({
      id: 'a',
      content: 'x',
      tool_calls: [{ id: 'c', name: 'n', args: { a: 1, b: undefined } }],
    });
    const after = new AIMessage({ id: 'a', content: 'x', tool_calls: [{ id: 'c', name: 'n', args: { a: 1 } }] });
    expect(sameMessageShape(before, after)).toBe(true);
  });

  it("sees a chat message's role and a usage report added, dropped or changed, the fields the conversion reads", () => {
    expect(
      sameMessageShape(
        new ChatMessage({ id: 'c', content: 'x', role: 'user' }),
        new ChatMessage({ id: 'c', content: 'x', role: 'assistant' }),
      ),
    ).toBe(false);
    expect(
      sameMessageShape(
        new ChatMessage({ id: 'c', content: 'x', role: 'user' }),
        new ChatMessage({ id: 'c', content: 'x', role: 'user' }),
      ),
    ).toBe(true);
    const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
    const withUsage = new AIMessage({ id: 'a', content: 'x', usage_metadata: usage });
    expect(sameMessageShape(withUsage, new AIMessage({ id: 'a', content: 'x' }))).toBe(false);
    expect(sameMessageShape(new AIMessage({ id: 'a', content: 'x' }), withUsage)).toBe(false);
    expect(
      sameMessageShape(
        withUsage,
        new AIMessage({ id: 'a', content: 'x', usage_metadata: { ...usage, input_tokens: 11 } }),
      ),
    ).toBe(false);
    expect(sameMessageShape(withUsage, new AIMessage({ id: 'a', content: 'x', usage_metadata: { ...usage } }))).toBe(
      true,
    );
  });

  it('reads only what the conversion reads of each type: a name outside tool results, metadata and other kwargs do not count', () => {
    const fields = { id: 'a', content: 'x', response_metadata: { model: 'm1' }, additional_kwargs: { seed: 1 } };
    expect(
      sameMessageShape(
        new AIMessage({ ...fields, name: 'bot' }),
        new AIMessage({ ...fields, name: 'other', response_metadata: { model: 'm2' }, additional_kwargs: { seed: 2 } }),
      ),
    ).toBe(true);
    expect(
      sameMessageShape(
        new HumanMessage({ id: 'h', content: 'x', name: 'ann' }),
        new HumanMessage({ id: 'h', content: 'x', name: 'bob' }),
      ),
    ).toBe(true);
    // What the conversion does read of the same messages still counts.
    expect(
      sameMessageShape(
        new HumanMessage({ id: 'h', content: 'x' }),
        new HumanMessage({ id: 'h', content: 'x', additional_kwargs: { compaction: { kind: 'summary' } } }),
      ),
    ).toBe(false);
    const result = (name: string) => new ToolMessage({ id: 't', tool_call_id: 'c1', content: 'body', name });
    expect(sameMessageShape(result('read_file'), result('write_file'))).toBe(false);
  });

  it('compares tool arguments key by key: nested values, a key added or dropped, a key holding undefined as absent', () => {
    const withArgs = (args: Record<string, unknown>) =>
      new AIMessage({ id: 'a', content: '', tool_calls: [{ id: 'c1', name: 'edit', args }] });
    const args = { path: 'a.ts', range: { from: 1, to: [2, 3] }, dry: false };
    expect(sameMessageShape(withArgs(args), withArgs(JSON.parse(JSON.stringify(args))))).toBe(true);
    expect(sameMessageShape(withArgs(args), withArgs({ ...args, range: { from: 1, to: [2, 4] } }))).toBe(false);
    expect(sameMessageShape(withArgs(args), withArgs({ ...args, extra: 0 }))).toBe(false);
    expect(sameMessageShape(withArgs({ ...args, extra: 0 }), withArgs(args))).toBe(false);
    expect(sameMessageShape(withArgs({ path: 'a.ts' }), withArgs({ path: 'a.ts', note: undefined }))).toBe(true);
    expect(sameMessageShape(withArgs({ dry: false }), withArgs({ dry: 0 }))).toBe(false);
    // Arguments that are not plain objects are compared as core's generic comparison does.
    const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { path: 'a.ts' });
    expect(sameMessageShape(withArgs(nullPrototype), withArgs({ path: 'a.ts' }))).toBe(true);
    expect(sameMessageShape(withArgs(nullPrototype), withArgs({ path: 'b.ts' }))).toBe(false);
    class Args {
      path = 'a.ts';
    }
    expect(
      sameMessageShape(withArgs(new Args() as unknown as Record<string, unknown>), withArgs({ path: 'a.ts' })),
    ).toBe(false);
  });
});
