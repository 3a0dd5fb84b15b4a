import { heuristicCounter } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { describe, expect, it } from 'vitest';

describe('workspace wiring', () => {
  it('resolves core from source and loads the Mastra agent', () => {
    expect(heuristicCounter().countText('abcd')).toBe(1);
    expect(typeof Agent).toBe('function');
  });
});
