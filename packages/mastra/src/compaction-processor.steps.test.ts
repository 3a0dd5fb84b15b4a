import { type CompactionEvent, memoryStore, PRUNED_OUTPUT_MARKER } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { describe, expect, it } from 'vitest';
import {
  coderAgent,
  fileText,
  promptText,
  SMALL_WINDOW,
  toolPairsIntact,
  toolTraffic,
} from './__fixtures__/agent-fixtures.js';
import { promptTokens, scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';

const FILES = 12;

describe('CompactionProcessor in the tool loop', () => {
  it.each([
    { pruneToolOutputs: false, strategy: 'llm', shows: 'SCRIPTED-SUMMARY' },
    { pruneToolOutputs: true, strategy: 'prune', shows: PRUNED_OUTPUT_MARKER },
  ])(
    'compacts between the steps of one long run ($strategy) and keeps the latest call with its result',
    async ({ pruneToolOutputs, strategy, shows }) => {
      // One request, one file per step: the run itself outgrows the trigger.
      const scripted = scriptedModel((_prompt, call) =>
        call < FILES
          ? { toolCalls: [{ toolName: 'readFile', input: { path: `file${call}.ts` } }] }
          : { text: 'All read.' },
      );
      const events: CompactionEvent[] = [];
      const processor = new CompactionProcessor({
        settings: { ...SMALL_WINDOW, pruneToolOutputs },
        onEvent: (event) => events.push(event),
      });
      const agent = coderAgent({ model: scripted.model, inputProcessors: [processor] });

      const stream = await agent.stream('Read all the files.', { maxSteps: FILES + 2 });
      expect(await stream.text).toBe('All read.');
      expect(await stream.finishReason).toBe('stop');

      const ends = events.filter((event) => event.type === 'compaction:end');
      expect(ends.length).toBeGreaterThan(0);
      expect(ends.every((event) => event.type === 'compaction:end' && event.strategy === strategy)).toBe(true);
      expect(scripted.agentPrompts).toHaveLength(FILES + 1);
      const firstCompacted = scripted.agentPrompts.findIndex((prompt) => JSON.stringify(prompt).includes(shows));
      expect(firstCompacted).toBeGreaterThan(1);
      for (const [step, prompt] of scripted.agentPrompts.entries()) {
        expect(promptTokens(prompt)).toBeLessThan(SMALL_WINDOW.contextWindow);
        expect(toolPairsIntact(prompt)).toBe(true);
        if (step === 0) continue;
        // The previous step's call and its full result are always in the prompt.
        const { calls, results } = toolTraffic(prompt);
        const latest = [...calls.entries()].find(
          ([, input]) => (input as { path: string }).path === `file${step - 1}.ts`,
        );
        expect(latest, `step ${step}`).toBeDefined();
        expect(JSON.stringify(results.get(latest![0]))).toContain(`// file${step - 1}.ts`);
      }
      // After the first compaction, the earliest reads are summarized or cleared, not sent.
      expect(JSON.stringify(scripted.agentPrompts.at(-1))).toContain(shows);
      expect(JSON.stringify(scripted.agentPrompts.at(-1))).not.toContain(
        JSON.stringify(fileText('file0.ts')).slice(1, 40),
      );
    },
  );

  it('compacts a conversation re-sent without Memory before the first call, and reuses it next time', async () => {
    const scripted = scriptedModel(() => ({ text: 'Noted.' }));
    const events: CompactionEvent[] = [];
    const store = memoryStore();
    const agent = () =>
      new Agent({
        id: 'chat',
        name: 'chat',
        instructions: 'Be brief.',
        model: scripted.model,
        inputProcessors: [
          new CompactionProcessor({ store, settings: SMALL_WINDOW, onEvent: (event) => events.push(event) }),
        ],
      });
    // The caller keeps the conversation and re-sends it: Mastra gives it new ids every time.
    const conversation: ({ role: 'user'; content: string } | { role: 'assistant'; content: string })[] = [];
    for (let turn = 0; turn < 14; turn += 1) {
      conversation.push({ role: 'user', content: `Note ${turn}: ${fileText(`note${turn}`).slice(0, 1600)}` });
      if (turn < 13) conversation.push({ role: 'assistant', content: 'Noted.' });
    }

    await agent().generate(conversation);
    expect(events.filter((event) => event.type === 'compaction:end')).toHaveLength(1);
    expect(scripted.summaryPrompts).toHaveLength(1);
    expect(promptText(scripted.agentPrompts[0]!)).toContain('SCRIPTED-SUMMARY');

    conversation.push({ role: 'assistant', content: 'Noted.' }, { role: 'user', content: 'Thanks.' });
    await agent().generate(conversation);
    expect(scripted.summaryPrompts).toHaveLength(1);
    expect(promptText(scripted.agentPrompts[1]!)).toContain('SCRIPTED-SUMMARY');
    expect(promptText(scripted.agentPrompts[1]!)).toContain('Thanks.');
  });
});
