import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { sameMessageShape, WHOLE_TEXT_CHARS } from './same-message-shape.js';

const long = 'a'.repeat(WHOLE_TEXT_CHARS + 10);

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

  it('does not read a long text through: the same length is the same shape', () => {
    expect(
      sameMessageShape(
        new HumanMessage({ id: 'l', content: long }),
        new HumanMessage({ id: 'l', content: `b${long.slice(1)}` }),
      ),
    ).toBe(true);
  });
});
