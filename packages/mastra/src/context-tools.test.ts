import { invalidSettingOf } from '@compaction/core/testing';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readFile, SMALL_WINDOW, toolTraffic } from './__fixtures__/agent-fixtures.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import { compactionContextTools } from './context-tools.js';

const readConfig = createTool({
  id: 'readConfig',
  description: 'Read the deployment config',
  inputSchema: z.object({}),
  execute: async () => ({ text: 'STAGING_PORT = 48213 # nowhere else' }),
});

const FILES = 12;

describe('compactionContextTools in a Mastra Agent', () => {
  it('search_history finds a value that only a summarized tool output held; stats agree with the session', async () => {
    const scripted = scriptedModel((prompt, call) => {
      if (call === 0) return { toolCalls: [{ toolName: 'readConfig', input: {} }] };
      if (call <= FILES) return { toolCalls: [{ toolName: 'readFile', input: { path: `file${call}.ts` } }] };
      if (call === FILES + 1) return { toolCalls: [{ toolName: 'search_history', input: { query: 'staging port' } }] };
      if (call === FILES + 2) return { toolCalls: [{ toolName: 'context_stats', input: {} }] };
      const { results } = toolTraffic(prompt);
      return { text: JSON.stringify([...results.values()]).includes('48213') ? 'Port 48213.' : 'Not found.' };
    });
    const processor = new CompactionProcessor({ settings: SMALL_WINDOW, sessionId: 'mastra-1' });
    const agent = new Agent({
      id: 'coder',
      name: 'coder',
      instructions: 'You are a coder.',
      model: scripted.model,
      tools: { readFile, readConfig, ...compactionContextTools(processor, { sessionId: 'mastra-1' }) },
      inputProcessors: [processor],
    });

    const result = await agent.generate('Read the config and the files, then tell me the staging port.', {
      maxSteps: FILES + 5,
    });
    const searchStep = scripted.agentPrompts[FILES + 1]!;
    expect(JSON.stringify(searchStep)).not.toContain('48213');
    expect(JSON.stringify(scripted.agentPrompts[FILES + 2])).toContain('48213');
    expect(result.text).toBe('Port 48213.');

    const statsResult = [...toolTraffic(scripted.agentPrompts[FILES + 3]!).results.values()].at(-1) as {
      value?: { contextWindow: number; compactions: number };
    };
    const stats = await processor.session('mastra-1')!.stats();
    expect(JSON.stringify(statsResult)).toContain(`"contextWindow":${stats.contextWindow}`);
    expect(stats.compactions).toBeGreaterThan(0);
  });

  it('compact_context compacts before the next step, with the focus', async () => {
    const scripted = scriptedModel((_prompt, call) =>
      call === 0
        ? { toolCalls: [{ toolName: 'readFile', input: { path: 'file0.ts' } }] }
        : call === 1
          ? { toolCalls: [{ toolName: 'readFile', input: { path: 'file1.ts' } }] }
          : call === 2
            ? { toolCalls: [{ toolName: 'compact_context', input: { focus: 'the file list' } }] }
            : { text: 'Compacted.' },
    );
    const events: string[] = [];
    const processor = new CompactionProcessor({
      settings: { contextWindow: 200_000 }, // far under the trigger: only the request compacts
      sessionId: 'mastra-2',
      onEvent: (event) => events.push(`${event.type}:${'trigger' in event ? event.trigger : ''}`),
    });
    const agent = new Agent({
      id: 'coder',
      name: 'coder',
      instructions: 'You are a coder.',
      model: scripted.model,
      tools: { readFile, ...compactionContextTools(processor, { sessionId: 'mastra-2' }) },
      inputProcessors: [processor],
    });
    const result = await agent.generate('Read two files, then tidy up your context.', { maxSteps: 6 });
    expect(result.text).toBe('Compacted.');
    expect(events).toEqual(['compaction:start:manual', 'compaction:end:manual']);
    expect(JSON.stringify(scripted.agentPrompts[2])).not.toContain('the file list');
    expect(JSON.stringify(scripted.agentPrompts[3])).toContain('the file list');
  });

  it('tells the model when its run has no conversation to look in', async () => {
    const processor = new CompactionProcessor({ settings: SMALL_WINDOW });
    const tools = compactionContextTools(processor);
    await expect(tools.context_stats.execute!({}, {} as never)).rejects.toThrow(/no Memory thread and no sessionId/);
  });
});

describe('compactionContextTools checks what it is given when made', () => {
  const processor = new CompactionProcessor({ settings: SMALL_WINDOW });
  const made = (target: unknown, options?: unknown) => () =>
    compactionContextTools(target as CompactionProcessor, options as Parameters<typeof compactionContextTools>[1]);

  it('refuses no processor, an unknown option, a blank sessionId and a bad budget', () => {
    expect(invalidSettingOf(made(undefined))).toBe('processor');
    expect(invalidSettingOf(made({ session() {} }))).toBe('processor');
    expect(invalidSettingOf(made(processor, { sesionId: 'c1' }))).toBe('sesionId');
    expect(made(processor, { sesionId: 'c1' })).toThrow(/did you mean "sessionId"\?/);
    expect(invalidSettingOf(made(processor, { sessionId: '' }))).toBe('sessionId');
    expect(invalidSettingOf(made(processor, { sessionId: '  ' }))).toBe('sessionId');
    expect(invalidSettingOf(made(processor, 'c1'))).toBe('options');
    expect(invalidSettingOf(made(processor, { snippetChars: -1 }))).toBe('snippetChars');
    expect(invalidSettingOf(made(processor, { settings: SMALL_WINDOW }))).toBe('settings');
    expect(made(processor, { settings: SMALL_WINDOW })).toThrow(/new CompactionProcessor\(\{ settings \}\)/);
  });

  it('accepts a processor with no options, a sessionId and the budgets', () => {
    expect(made(processor)).not.toThrow();
    expect(made(processor, { sessionId: 'chat-1', snippetChars: 200, maxToolOutputChars: 4000 })).not.toThrow();
  });
});
