import { type CompactionEndEvent, type CompactionEvent, memoryStore, SUMMARY_PREFIX } from '@compaction/core';
import {
  APICallError,
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  ToolLoopAgent,
  tool,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  asStream,
  conversation,
  fileContent,
  isSummaryRequest,
  messageText,
  overflowError,
  promptTokens,
  SUMMARY_TEXT,
  textResult,
  toolCallResult,
  unpairedToolParts,
} from './__fixtures__/model-fixtures.js';
import type { GenerateResult, ProviderPrompt } from './ai-sdk-types.js';
import type { CompactionMetadata } from './compaction-metadata.js';
import { compactionMiddleware } from './compaction-middleware.js';
import type { CompactionMiddlewareOptions } from './compaction-options.js';

const settings = { contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 1500, trigger: 0.5 };
const instructions = 'You are a code assistant.';

/**
 * A summary model's answer: the fixture summary plus the turns the request showed. A span
 * larger than the 8000-token window is summarized in chunks, each updating the last one;
 * an answer that ignored its chunk would be rejected as a stale echo.
 */
function summaryAnswer(prompt: ProviderPrompt) {
  const turns = [...JSON.stringify(prompt).matchAll(/Turn (\d+)/g)].map((match) => match[1]);
  return textResult(`${SUMMARY_TEXT}\n- Turns ${turns[0] ?? '?'}–${turns.at(-1) ?? '?'} read.`);
}

function summaryModel() {
  return new MockLanguageModelV4({ doGenerate: async ({ prompt }) => summaryAnswer(prompt) });
}

type Answer = (prompt: ProviderPrompt) => GenerateResult;
const done: Answer = (prompt) => textResult('Done.', promptTokens(prompt));

function setup(options: Partial<CompactionMiddlewareOptions> = {}, answer: Answer = done) {
  const summaries = summaryModel();
  const events: CompactionEvent[] = [];
  const mock = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => answer(prompt),
    doStream: async ({ prompt }) => asStream(answer(prompt)),
  });
  const model = wrapLanguageModel({
    model: mock,
    middleware: compactionMiddleware({
      settings,
      summaryModel: summaries,
      onCompaction: (event) => events.push(event),
      ...options,
    }),
  });
  return { mock, model, summaries, events };
}

const ends = (events: CompactionEvent[]) =>
  events.filter((event): event is CompactionEndEvent => event.type === 'compaction:end');

function expectCompacted(prompt: ProviderPrompt, original: number, maxShare = 1 / 3) {
  expect(prompt[0]).toEqual({ role: 'system', content: instructions });
  expect(messageText(prompt[1])).toContain(SUMMARY_PREFIX);
  expect(messageText(prompt[1])).toContain('## Goal');
  expect(prompt[1]!.role).toBe('user');
  expect(prompt.length).toBeLessThan(original * maxShare);
  expect(unpairedToolParts(prompt)).toEqual([]);
  expect(prompt.filter((message) => message.role === 'system')).toHaveLength(1);
}

describe('compactionMiddleware with generateText', () => {
  it('compacts a 60-turn conversation at the trigger: summary + recent messages, tool calls paired', async () => {
    const { mock, model, summaries, events } = setup();
    const messages: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    const result = await generateText({ model, instructions, messages });

    expect(result.text).toBe('Done.');
    const prompt = mock.doGenerateCalls[0]!.prompt;
    expectCompacted(prompt, messages.length + 1);
    expect(prompt.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'Turn 60: and now?' }] });
    expect(summaries.doGenerateCalls.length).toBeGreaterThanOrEqual(1);

    const [end] = ends(events);
    expect(end).toMatchObject({ trigger: 'auto', strategy: 'llm', messagesBefore: messages.length + 1 });
    const metadata = result.providerMetadata?.compaction as CompactionMetadata;
    expect(metadata).toMatchObject({ trigger: 'auto', strategy: 'llm', version: 1, fallbacks: [] });
    expect(metadata.tokensAfter).toBeLessThan(metadata.tokensBefore);
    expect(metadata.notice).toMatch(/^Conversation compacted: \d+ messages → summary, \d+K? → \d+K? tokens$/);
  });

  it('leaves a conversation under the trigger exactly as it was, with no metadata', async () => {
    const { mock, model, summaries, events } = setup();
    const messages = [...conversation(5), { role: 'user' as const, content: 'Next?' }];
    const result = await generateText({ model, instructions, messages });
    const unwrapped = new MockLanguageModelV4({ doGenerate: async () => textResult('Done.') });
    await generateText({ model: unwrapped, instructions, messages });

    expect(mock.doGenerateCalls[0]!.prompt).toStrictEqual(unwrapped.doGenerateCalls[0]!.prompt);
    expect(summaries.doGenerateCalls).toHaveLength(0);
    expect(events).toHaveLength(0);
    expect(result.providerMetadata?.compaction).toBeUndefined();
  });

  it('reuses the stored compaction for the re-sent history of the next request (useChat)', async () => {
    const { mock, model, summaries, events } = setup();
    const first: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    const answer = await generateText({ model, instructions, messages: first });
    const summaryCalls = summaries.doGenerateCalls.length;

    const second: ModelMessage[] = [
      ...first,
      ...answer.responseMessages,
      { role: 'user', content: 'Thanks. One more?' },
    ];
    const result = await generateText({ model, instructions, messages: second });

    expect(summaries.doGenerateCalls).toHaveLength(summaryCalls);
    expect(ends(events)).toHaveLength(1);
    expect(result.providerMetadata?.compaction).toBeUndefined();
    const [before, after] = mock.doGenerateCalls.map((call) => call.prompt);
    expect(after![1]).toEqual(before![1]); // the same summary
    expect(after!.slice(0, before!.length)).toEqual(before);
    expect(after!.slice(before!.length).map((message) => message.role)).toEqual(['assistant', 'user']);
  });

  it('reuses the state across two middlewares sharing a store (two processes)', async () => {
    const store = memoryStore();
    const one = setup({ store });
    const two = setup({ store });
    const first: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    const answer = await generateText({ model: one.model, instructions, messages: first });
    expect(one.summaries.doGenerateCalls.length).toBeGreaterThanOrEqual(1);

    const second: ModelMessage[] = [...first, ...answer.responseMessages, { role: 'user', content: 'And then?' }];
    await generateText({ model: two.model, instructions, messages: second });

    expect(two.summaries.doGenerateCalls).toHaveLength(0);
    expect(two.events).toHaveLength(0);
    const prompt = two.mock.doGenerateCalls[0]!.prompt;
    expect(prompt[1]).toEqual(one.mock.doGenerateCalls[0]!.prompt[1]);
    expect(unpairedToolParts(prompt)).toEqual([]);
  });

  it('records the provider-reported input tokens, which decide the next compaction', async () => {
    const store = memoryStore();
    const { model, events } = setup({ store }, () => textResult('Done.', 7000));
    const providerOptions = { compaction: { sessionId: 'chat-7' } };
    const first: ModelMessage[] = [...conversation(10), { role: 'user', content: 'Next?' }];
    const answer = await generateText({ model, instructions, messages: first, providerOptions });

    expect(events).toHaveLength(0); // counted, the conversation is far under the trigger
    expect((await store.loadRecord('chat-7'))?.usage?.inputTokens).toBe(7000);
    const second: ModelMessage[] = [...first, ...answer.responseMessages, { role: 'user', content: 'More?' }];
    await generateText({ model, instructions, messages: second, providerOptions });
    expect(ends(events)).toHaveLength(1);
  });

  it('keys the session by providerOptions.compaction.sessionId when given', async () => {
    const store = memoryStore();
    const { model, events } = setup({ store });
    const messages: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    await generateText({ model, instructions, messages, providerOptions: { compaction: { sessionId: 'chat-42' } } });

    expect(ends(events)[0]!.sessionId).toBe('chat-42');
    expect((await store.loadRecord('chat-42'))?.state?.version).toBe(1);
  });

  it('falls back to the structured summary when the summary model fails, and the call goes through', async () => {
    const failing = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('summary model is down');
      },
    });
    const { mock, model, events } = setup({ summaryModel: failing });
    const messages: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    const result = await generateText({ model, instructions, messages });

    expect(result.text).toBe('Done.');
    expect(failing.doGenerateCalls.length).toBeGreaterThanOrEqual(1);
    const [end] = ends(events);
    expect(end).toMatchObject({ strategy: 'structured' });
    expect(end!.fallbacks[0]).toMatchObject({ strategy: 'llm' });
    expect(result.providerMetadata?.compaction).toMatchObject({ strategy: 'structured' });
    expectCompacted(mock.doGenerateCalls[0]!.prompt, messages.length + 1);
  });

  it('summarizes with the wrapped model itself by default, called directly', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => (isSummaryRequest(prompt) ? summaryAnswer(prompt) : textResult('Done.')),
    });
    const model = wrapLanguageModel({ model: mock, middleware: compactionMiddleware({ settings }) });
    const messages: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    const result = await generateText({ model, instructions, messages });

    const calls = mock.doGenerateCalls.map((call) => call.prompt);
    const summaryCalls = calls.filter(isSummaryRequest);
    expect(summaryCalls.length).toBeGreaterThanOrEqual(1);
    expect(calls).toHaveLength(summaryCalls.length + 1);
    expect(mock.doGenerateCalls[0]!.maxOutputTokens).toBeGreaterThan(0);
    expectCompacted(calls.at(-1)!, messages.length + 1);
    expect(result.providerMetadata?.compaction).toMatchObject({ strategy: 'llm' });
  });

  it("with summarizer: 'structured' calls no model to summarize", async () => {
    const { mock, model, summaries, events } = setup({ summarizer: 'structured' });
    const messages: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    await generateText({ model, instructions, messages });

    expect(summaries.doGenerateCalls).toHaveLength(0);
    expect(mock.doGenerateCalls).toHaveLength(1);
    expect(ends(events)[0]).toMatchObject({ strategy: 'structured' });
  });
});

describe('compactionMiddleware in a tool loop', () => {
  const readTool = tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `${path}\n${fileContent(path.length, 400)}`,
  });

  function loopModel() {
    let step = 0;
    return setup({}, (prompt) => {
      step += 1;
      return step <= 6
        ? toolCallResult(`loop-${step}`, `src/big-${step}.ts`, promptTokens(prompt))
        : textResult('All read.', promptTokens(prompt));
    });
  }
  const messages: ModelMessage[] = [...conversation(25), { role: 'user', content: 'Read the six big files.' }];

  function expectCompactedBetweenSteps(prompts: ProviderPrompt[], events: CompactionEvent[]) {
    const firstCompacted = prompts.findIndex((prompt) => messageText(prompt[1]).includes(SUMMARY_PREFIX));
    expect(firstCompacted).toBeGreaterThan(0); // not before the loop grew the context
    expect(ends(events).length).toBeGreaterThanOrEqual(1);
    expect(ends(events).every((event) => event.trigger === 'auto')).toBe(true);
    for (const prompt of prompts.slice(firstCompacted)) {
      expect(messageText(prompt[1])).toContain(SUMMARY_PREFIX);
      expect(unpairedToolParts(prompt)).toEqual([]);
      expect(prompt[0]).toEqual({ role: 'system', content: instructions });
    }
    // the last step still sees the latest tool call and result of the turn
    expect(JSON.stringify(prompts.at(-1)!.slice(-2))).toContain('loop-6');
  }

  it('compacts between the steps of one long turn (generateText, stopWhen)', async () => {
    const { mock, model, events } = loopModel();
    const result = await generateText({
      model,
      instructions,
      messages,
      tools: { read: readTool },
      stopWhen: stepCountIs(10),
    });

    expect(result.text).toBe('All read.');
    expect(result.steps).toHaveLength(7);
    expectCompactedBetweenSteps(
      mock.doGenerateCalls.map((call) => call.prompt),
      events,
    );
    expect(result.steps.some((step) => step.providerMetadata?.compaction !== undefined)).toBe(true);
  });

  it('compacts between the steps of a ToolLoopAgent', async () => {
    const { mock, model, events } = loopModel();
    const agent = new ToolLoopAgent({ model, instructions, tools: { read: readTool } });
    const result = await agent.generate({ messages });

    expect(result.text).toBe('All read.');
    expectCompactedBetweenSteps(
      mock.doGenerateCalls.map((call) => call.prompt),
      events,
    );
  });
});

describe('compactionMiddleware on context overflow', () => {
  const under: ModelMessage[] = [...conversation(20), { role: 'user', content: 'Turn 20: and now?' }];

  it('compacts once and retries once when the provider rejects the prompt as too long', async () => {
    let calls = 0;
    const { mock, model, events } = setup({}, () => {
      calls += 1;
      if (calls === 1) throw overflowError();
      return textResult('Fits now.');
    });
    const result = await generateText({ model, instructions, messages: under });

    expect(result.text).toBe('Fits now.');
    expect(mock.doGenerateCalls).toHaveLength(2);
    const [first, retry] = mock.doGenerateCalls.map((call) => call.prompt);
    expect(first).toHaveLength(under.length + 1);
    expectCompacted(retry!, under.length + 1, 0.75);
    expect(ends(events)).toHaveLength(1);
    expect(ends(events)[0]).toMatchObject({ trigger: 'overflow' });
    expect(result.providerMetadata?.compaction).toMatchObject({ trigger: 'overflow' });
  });

  it('surfaces a second overflow to the caller', async () => {
    const { mock, model } = setup({}, () => {
      throw overflowError();
    });
    await expect(generateText({ model, instructions, messages: under })).rejects.toSatisfy(
      (error) => APICallError.isInstance(error) && /too long/.test(error.message),
    );
    expect(mock.doGenerateCalls).toHaveLength(2);
  });

  it('passes any other error through untouched, without compacting', async () => {
    const failure = new APICallError({ message: 'invalid api key', url: 'u', requestBodyValues: {}, statusCode: 401 });
    const { mock, model, events } = setup({}, () => {
      throw failure;
    });
    await expect(generateText({ model, instructions, messages: under })).rejects.toBe(failure);
    expect(mock.doGenerateCalls).toHaveLength(1);
    expect(events).toHaveLength(0);
  });

  it('retries a stream that overflows at its start', async () => {
    let calls = 0;
    const { mock, model } = setup({}, () => {
      calls += 1;
      if (calls === 1) throw overflowError();
      return textResult('Streamed after compaction.');
    });
    const result = streamText({ model, instructions, messages: under });

    expect(await result.text).toBe('Streamed after compaction.');
    expect(mock.doStreamCalls).toHaveLength(2);
    expectCompacted(mock.doStreamCalls[1]!.prompt, under.length + 1, 0.75);
    expect(await result.providerMetadata).toMatchObject({ compaction: { trigger: 'overflow' } });
  });
});

describe('compactionMiddleware with streamText', () => {
  it('compacts a 60-turn conversation and reports it on the finish part', async () => {
    const store = memoryStore();
    const { mock, model, events } = setup({ store }, () => textResult('Streamed.', 2500));
    const messages: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
    const result = streamText({ model, instructions, messages });

    expect(await result.text).toBe('Streamed.');
    expectCompacted(mock.doStreamCalls[0]!.prompt, messages.length + 1);
    const metadata = (await result.providerMetadata)?.compaction as CompactionMetadata;
    expect(metadata).toMatchObject({ trigger: 'auto', strategy: 'llm', version: 1 });
    expect(ends(events)).toHaveLength(1);
    expect((await store.loadRecord(metadata.sessionId))?.usage?.inputTokens).toBe(2500);
  });
});
