import { type CompactionEvent, InvalidSettingsError, memoryStore, SUMMARY_PREFIX } from '@compaction/core';
import { generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  asStream,
  conversation,
  fileContent,
  messageText,
  promptTokens,
  SUMMARY_TEXT,
  textResult,
  toolCallResult,
  unpairedToolParts,
} from './__fixtures__/model-fixtures.js';
import type { GenerateResult, ProviderPrompt } from './ai-sdk-types.js';
import { compactionPrepareStep } from './compaction-prepare-step.js';

const settings = { contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 1500, trigger: 0.5 };
const instructions = 'You are a code assistant.';
const readTool = tool({
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `${path}\n${fileContent(path.length, 400)}`,
});

function loopModel() {
  let step = 0;
  const answer = (prompt: ProviderPrompt): GenerateResult => {
    step += 1;
    return step <= 6
      ? toolCallResult(`loop-${step}`, `src/big-${step}.ts`, promptTokens(prompt))
      : textResult('All read.', promptTokens(prompt));
  };
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => answer(prompt),
    doStream: async ({ prompt }) => asStream(answer(prompt)),
  });
}

function summaryModel() {
  return new MockLanguageModelV4({ doGenerate: async () => textResult(SUMMARY_TEXT) });
}

const hasSummary = (prompt: ProviderPrompt) => messageText(prompt[1]).includes(SUMMARY_PREFIX);

describe('compactionPrepareStep', () => {
  const messages: ModelMessage[] = [...conversation(25), { role: 'user', content: 'Read the six big files.' }];

  it('compacts between the steps of a tool loop; the compacted messages carry forward', async () => {
    const store = memoryStore();
    const model = loopModel();
    const summaries = summaryModel();
    const events: CompactionEvent[] = [];
    const prepareStep = compactionPrepareStep({
      store,
      sessionId: 'run-1',
      settings,
      summaryModel: summaries,
      onCompaction: (event) => events.push(event),
    });
    const result = await generateText({
      model,
      instructions,
      messages,
      tools: { read: readTool },
      stopWhen: stepCountIs(10),
      prepareStep,
    });

    expect(result.text).toBe('All read.');
    const prompts = model.doGenerateCalls.map((call) => call.prompt);
    const firstCompacted = prompts.findIndex(hasSummary);
    expect(firstCompacted).toBeGreaterThan(0);
    for (const prompt of prompts.slice(firstCompacted)) {
      expect(hasSummary(prompt)).toBe(true);
      expect(prompt[0]).toEqual({ role: 'system', content: instructions });
      expect(unpairedToolParts(prompt)).toEqual([]);
    }
    expect(prompts.at(-1)!.length).toBeLessThan(messages.length);
    const compactions = events.filter((event) => event.type === 'compaction:end');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    // the usage of the step before the last was recorded for the session
    expect((await store.loadRecord('run-1'))?.usage?.inputTokens).toBe(promptTokens(prompts.at(-2)!));
  });

  it('works the same with streamText', async () => {
    const model = loopModel();
    const result = streamText({
      model,
      instructions,
      messages,
      tools: { read: readTool },
      stopWhen: stepCountIs(10),
      prepareStep: compactionPrepareStep({ settings, summaryModel: summaryModel() }),
    });

    expect(await result.text).toBe('All read.');
    const prompts = model.doStreamCalls.map((call) => call.prompt);
    expect(prompts.some(hasSummary)).toBe(true);
    expect(hasSummary(prompts.at(-1)!)).toBe(true);
    for (const prompt of prompts) expect(unpairedToolParts(prompt)).toEqual([]);
  });

  it('reuses the stored compaction when the next request re-sends the history', async () => {
    const store = memoryStore();
    const summaries = summaryModel();
    const first: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => textResult('Done.', promptTokens(prompt)),
    });
    const answer = await generateText({
      model,
      instructions,
      messages: first,
      prepareStep: compactionPrepareStep({ store, settings, summaryModel: summaries }),
    });
    const summaryCalls = summaries.doGenerateCalls.length;
    expect(summaryCalls).toBeGreaterThanOrEqual(1);

    await generateText({
      model,
      instructions,
      messages: [...first, ...answer.responseMessages, { role: 'user', content: 'More?' }],
      prepareStep: compactionPrepareStep({ store, settings, summaryModel: summaries }),
    });
    expect(summaries.doGenerateCalls).toHaveLength(summaryCalls);
    const [before, after] = model.doGenerateCalls.map((call) => call.prompt);
    expect(after![1]).toEqual(before![1]);
  });

  it('asks for a summaryModel when the step model is a string id', async () => {
    const prepareStep = compactionPrepareStep({ settings });
    await expect(
      prepareStep({ steps: [], model: 'openai/gpt-5', initialMessages: conversation(1), responseMessages: [] }),
    ).rejects.toSatisfy((error) => InvalidSettingsError.isInstance(error) && error.setting === 'summaryModel');
  });
});
