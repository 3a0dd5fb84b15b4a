import type { Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { extendsHistory } from './extends-history.js';

const message = (id: string, text = id): Message => ({ id, role: 'user', parts: [{ type: 'text', text }] });

describe('extendsHistory', () => {
  const [a, b, c] = [message('a'), message('b'), message('c')];

  it('holds for the same messages, with more appended or none', () => {
    expect(extendsHistory([a, b], [a, b])).toBe(true);
    expect(extendsHistory([a, b], [a, b, c])).toBe(true);
    expect(extendsHistory([], [a])).toBe(true);
  });

  it('fails for a shorter history, another order, or a message replaced under the same id', () => {
    expect(extendsHistory([a, b], [a])).toBe(false);
    expect(extendsHistory([a, b], [b, a, c])).toBe(false);
    expect(extendsHistory([a, b], [a, message('b', 'edited'), c])).toBe(false);
  });
});
