import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { buildContext, PRUNED_OUTPUT_MARKER } from './build-context.js';
import { compact } from './compact.js';
import { compactWith } from './compact-with.js';
import { prunableToolCallIds } from './prunable-tool-call-ids.js';

const counter = heuristicCounter(4);

function turn(
  index: number,
  options: { tool?: string; pinned?: boolean; callId?: string; size?: number } = {},
): Message[] {
  const callId = options.callId ?? `k${index}`;
  const tool = options.tool ?? 'read';
  return [
    { id: `u${index}`, role: 'user', parts: [{ type: 'text', text: `turn ${index}` }] },
    {
      id: `c${index}`,
      role: 'assistant',
      parts: [{ type: 'tool-call', toolCallId: callId, toolName: tool, input: {} }],
    },
    {
      id: `r${index}`,
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          toolCallId: callId,
          toolName: tool,
          output: `${tool} ${index} ${'x '.repeat(options.size ?? 600)}`,
        },
      ],
      ...(options.pinned ? { metadata: { pinned: true } } : {}),
    },
    { id: `a${index}`, role: 'assistant', parts: [{ type: 'text', text: `done ${index}` }] },
  ];
}

const outputOf = (context: Message[], id: string) =>
  context.find((message) => message.id === id)?.parts.find((part) => part.type === 'tool-result')?.output;

describe('prunableToolCallIds', () => {
  it('never clears a pinned output, a protected tool or an id reused after the span', () => {
    const history = [
      ...turn(0),
      ...turn(1, { pinned: true }),
      ...turn(2, { tool: 'read_plan' }),
      ...turn(3, { callId: 'call_0' }),
      ...turn(4, { callId: 'call_0' }),
    ];
    expect(prunableToolCallIds(history, { startIndex: 0, endIndex: 16, protectedTools: ['read_plan'] })).toEqual([
      'k0',
    ]);
    expect(prunableToolCallIds(history, { startIndex: 0, endIndex: 20 })).toEqual(['k0', 'k2', 'call_0']);
    expect(prunableToolCallIds(history, { startIndex: 0, endIndex: 20, alreadyPruned: new Set(['k0']) })).toEqual([
      'k2',
      'call_0',
    ]);
  });

  it('a compaction that only prunes leaves a pinned tool message and a protected tool verbatim', async () => {
    const history = [
      ...turn(0, { pinned: true }),
      ...turn(1, { tool: 'read_plan' }),
      ...turn(2),
      ...turn(3),
      ...turn(4, { size: 20 }),
    ];
    const settings = resolveSettings(
      { contextWindow: 8000, keepRecentTokens: 100, reserveTokens: 500, minMessages: 2, protectedTools: ['read_plan'] },
      8000,
    );
    const result = await compact(history, { settings, counter });
    expect(result?.strategy).toBe('prune');
    const context = buildContext(history, result!.state);
    expect(outputOf(context, 'r0')).toContain('read 0');
    expect(outputOf(context, 'r1')).toContain('read_plan 1');
    expect(outputOf(context, 'r2')).toBe(PRUNED_OUTPUT_MARKER);
  });

  it('a pinned tool result before the cut reaches the model with its call', async () => {
    const history = [...turn(0, { pinned: true }), ...Array.from({ length: 8 }, (_, index) => turn(index + 1)).flat()];
    const settings = resolveSettings(
      { contextWindow: 8000, keepRecentTokens: 300, reserveTokens: 500, minMessages: 2, pruneToolOutputs: false },
      8000,
    );
    const result = await compactWith(history, { settings, counting: { counter }, force: true });
    const context = buildContext(history, result!.state);
    const index = context.findIndex((message) => message.id === 'r0');
    expect(index).toBeGreaterThan(0);
    expect(context[index - 1]).toMatchObject({
      id: 'c0:pinned-call',
      parts: [{ type: 'tool-call', toolCallId: 'k0' }],
    });
    expect(outputOf(context, 'r0')).toContain('read 0');
  });

  it('property: whatever is pinned or protected, no such output is ever cleared', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            pinned: fc.boolean(),
            tool: fc.constantFrom('read', 'bash', 'read_plan'),
            reuse: fc.boolean(),
            size: fc.integer({ min: 10, max: 800 }),
          }),
          { minLength: 3, maxLength: 12 },
        ),
        fc.subarray(['read', 'bash', 'read_plan']),
        async (turns, protectedTools) => {
          const history = turns.flatMap((options, index) =>
            turn(index, { ...options, ...(options.reuse ? { callId: 'call_0' } : {}) }),
          );
          const settings = resolveSettings(
            { contextWindow: 8000, keepRecentTokens: 200, reserveTokens: 500, minMessages: 2, protectedTools },
            8000,
          );
          const result = await compact(history, { settings, counter });
          if (!result) return;
          const context = buildContext(history, result.state);
          for (const message of context) {
            for (const part of message.parts) {
              if (part.type !== 'tool-result' || part.output !== PRUNED_OUTPUT_MARKER) continue;
              const original = history.find((candidate) => candidate.id === message.id)!;
              expect(original.metadata?.pinned).not.toBe(true);
              expect(protectedTools).not.toContain(part.toolName);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('protectedTools setting', () => {
  it('is validated: an array of tool names', () => {
    expect(() => resolveSettings({ protectedTools: 'read' as never }, 8000)).toThrow(
      /protectedTools.*array of tool names/,
    );
    expect(() => resolveSettings({ protectedTools: [1] as never }, 8000)).toThrow(/protectedTools/);
    expect(resolveSettings({}, 8000).protectedTools).toEqual([]);
  });
});
