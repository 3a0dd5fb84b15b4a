import type { Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { ADAPTER_NAMES } from '../src/engine/adapter-name.js';
import { replayRecording } from '../src/engine/replay-recording.js';
import type { Recording } from '../src/recording/recording.js';
import { scriptedRecording } from '../src/scripted/scripted-recording.js';
import { SCRIPTED_SETTINGS } from '../src/scripted/scripted-session.js';
import { syntheticSource } from '../src/scripted/synthetic-source.js';

const TRIGGER = 40_000;

/**
 * A coding session generated from `seed`: turns of one to five steps, each step reading
 * one to three synthetic files of 40–200 lines (about 30 tokens a line): a single step
 * can be larger than half the kept budget (20K) and a turn larger than the trigger (40K),
 * but no step is larger than the budget itself, so a compaction can always get under the
 * trigger.
 */
function generatedSession(seed: number): Recording {
  let state = seed >>> 0 || 1;
  const next = (limit: number): number => {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    return (state >>> 8) % limit;
  };
  const messages: Message[] = [
    { id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are a coding agent.' }] },
  ];
  let callId = 0;
  for (let turn = 1; turn <= 8; turn += 1) {
    messages.push({
      id: `t${turn}-user`,
      role: 'user',
      parts: [{ type: 'text', text: `Task ${turn}: read and fix.` }],
    });
    const steps = 1 + next(5);
    for (let step = 1; step <= steps; step += 1) {
      const reads = Array.from({ length: 1 + next(3) }, (_, index) => ({
        toolCallId: `call-${++callId}`,
        path: `src/t${turn}s${step}f${index}.rs`,
        lines: 40 + next(161),
      }));
      messages.push({
        id: `t${turn}-a${step}`,
        role: 'assistant',
        parts: [
          { type: 'text', text: `Reading ${reads.length} files.` },
          ...reads.map((read) => ({
            type: 'tool-call' as const,
            toolCallId: read.toolCallId,
            toolName: 'Read',
            input: { file_path: read.path },
          })),
        ],
      });
      messages.push({
        id: `t${turn}-r${step}`,
        role: 'tool',
        parts: reads.map((read) => ({
          type: 'tool-result' as const,
          toolCallId: read.toolCallId,
          toolName: 'Read',
          output: syntheticSource(read.path, read.lines),
        })),
      });
    }
    messages.push({ id: `t${turn}-done`, role: 'assistant', parts: [{ type: 'text', text: `Task ${turn} done.` }] });
  }
  return { ...scriptedRecording(), file: `generated session ${seed}`, messages };
}

describe('the scripted session compacts without errors', () => {
  it.each(ADAPTER_NAMES)(
    'through %s: no compaction:error, and no call above the trigger once it compacted',
    async (adapter) => {
      const figures = await replayRecording(scriptedRecording(), { adapter, settings: SCRIPTED_SETTINGS });
      expect(figures.compactionErrors).toEqual([]);
      const firstCompaction = figures.compactions[0]!.beforeCall;
      const overTrigger = figures.calls.filter((call) => call.call >= firstCompaction && call.ours > TRIGGER);
      // Call 8 read two more files (26K tokens) into a turn whose prefix held two others:
      // the compaction before it splits that turn instead of keeping the whole of it.
      expect(overTrigger.map((call) => call.call)).toEqual([]);
      expect(figures.compactions.map((compaction) => compaction.beforeCall)).toContain(8);
    },
    60_000,
  );

  it('generated sessions: every compaction the engine starts shrinks the context', async () => {
    for (let seed = 1; seed <= 16; seed += 1) {
      const recording = generatedSession(seed);
      const figures = await replayRecording(recording, { adapter: 'core', settings: SCRIPTED_SETTINGS });
      const shrinkErrors = figures.compactionErrors.filter((error) =>
        /did not shrink|could not bring/.test(error.message),
      );
      expect({ seed, shrinkErrors }).toEqual({ seed, shrinkErrors: [] });
      expect(figures.compactions.length).toBeGreaterThan(0);
    }
  }, 120_000);
});
