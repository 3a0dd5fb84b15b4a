import { heuristicCounter } from '@compaction/core';
import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';

describe('workspace wiring', () => {
  it('resolves core from source and LangChain messages', () => {
    expect(heuristicCounter().countText('abcd')).toBe(1);
    expect(new HumanMessage('hi').text).toBe('hi');
  });
});
