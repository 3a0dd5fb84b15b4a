import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileStore, InvalidSettingsError, memoryStore, type SessionStore } from '@compaction/core';
import {
  convertToModelMessages,
  createUIMessageStream,
  type InferUIMessageChunk,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  type UIMessage,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fileContent, promptTokens, textResult, toolCallResult } from '../__fixtures__/model-fixtures.js';
import type { GenerateResult, ProviderPrompt, StreamPart } from '../ai-sdk-types.js';
import { type CompactionChat, compactionChat } from './compaction-chat.js';
import type { CompactionUIMessage } from './compaction-data.js';
import { compactionView } from './compaction-view.js';
import { latestCompactionData } from './latest-compaction-data.js';

const settings = { contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 1500, trigger: 0.5 };
const instructions = 'You are a code assistant.';
const tools = {
  read: tool({
    description: 'Reads a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `${path}: ${fileContent(path.length, 120)}`,
  }),
};

/** Streams an answer in small chunks, as a provider would. */
function streamed(result: GenerateResult) {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const [index, part] of result.content.entries()) {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: `t${index}` });
      for (const word of part.text.split(/(?<= )/)) parts.push({ type: 'text-delta', id: `t${index}`, delta: word });
      parts.push({ type: 'text-end', id: `t${index}` });
    } else if (part.type === 'tool-call') parts.push(part);
  }
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return { stream: simulateReadableStream({ chunks: parts, initialDelayInMs: null, chunkDelayInMs: null }) };
}

/** A model that reads a file (first step of each turn), then answers at length; usage from the prompt it got. */
function chatModel() {
  const prompts: ProviderPrompt[] = [];
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      prompts.push(prompt);
      const last = prompt.at(-1);
      const turn = prompts.length;
      if (last?.role === 'user')
        return streamed(toolCallResult(`call-${turn}`, `src/file-${turn}.ts`, promptTokens(prompt)));
      return streamed(textResult(`Answer ${turn}: ${fileContent(turn, 150)}`, promptTokens(prompt)));
    },
  });
  return { model, prompts };
}

type Chunk = InferUIMessageChunk<CompactionUIMessage>;

/** One request of a chat route: the user's text in, the finished history and the chunks out. */
async function turn(chat: CompactionChat, chatId: string, history: CompactionUIMessage[], text: string) {
  const messages: CompactionUIMessage[] = [
    ...history,
    { id: `u${history.length}`, role: 'user', parts: [{ type: 'text', text }] },
  ];
  const responseMessageId = `a${history.length}`;
  let finished: CompactionUIMessage[] = [];
  const stream = createUIMessageStream<CompactionUIMessage>({
    originalMessages: messages,
    execute: async ({ writer }) => {
      const parts = chat.streamCompaction(writer, { chatId, messages, instructions, tools, responseMessageId });
      const result = streamText({
        model: chat.model,
        instructions,
        messages: await convertToModelMessages(messages, { tools }),
        tools,
        stopWhen: stepCountIs(4),
        providerOptions: chat.providerOptions(chatId),
      });
      writer.merge(
        result.toUIMessageStream({
          originalMessages: messages,
          generateMessageId: () => responseMessageId,
          onFinish: parts.onFinish,
        }),
      );
    },
    onFinish: ({ messages: all }) => {
      finished = all;
    },
  });
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { messages: finished, chunks };
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function newChat(store: SessionStore) {
  const { model, prompts } = chatModel();
  return { chat: compactionChat({ model, store, settings, summarizer: 'structured' }), prompts };
}

/** Turns until a `data-compaction` part arrives (at most `limit`). */
async function untilCompaction(chat: CompactionChat, chatId: string, limit = 12) {
  let messages: CompactionUIMessage[] = [];
  for (let index = 0; index < limit; index += 1) {
    const result = await turn(chat, chatId, messages, `Question ${index}: what does file ${index} do?`);
    messages = result.messages;
    if (result.chunks.some((chunk) => chunk.type === 'data-compaction')) return { ...result, turns: index + 1 };
  }
  throw new Error(`no compaction in ${limit} turns`);
}

describe('compactionChat', () => {
  it('streams a data-compaction part whose boundary is a UI message, and context figures that match stats', async () => {
    const { chat } = newChat(memoryStore());
    const { messages, chunks } = await untilCompaction(chat, 'chat-1');

    const part = chunks.find((chunk) => chunk.type === 'data-compaction');
    expect(part?.type === 'data-compaction' && part.data).toMatchObject({
      sessionId: 'chat-1',
      trigger: 'auto',
      strategy: 'structured',
      version: 1,
    });
    const data = part?.type === 'data-compaction' ? part.data : undefined;
    expect(data!.tokensAfter).toBeLessThan(data!.tokensBefore);
    expect(data!.notice).toMatch(/^Conversation compacted: \d+ messages → summary, /);
    expect(data!.summary.length).toBeGreaterThan(0);
    const keptIndex = messages.findIndex((message) => message.id === data!.firstKeptMessageId);
    expect(keptIndex).toBeGreaterThan(0);

    // The parts land in the finished messages, so a client needs nothing else.
    const latest = latestCompactionData(messages);
    expect(latest.compaction).toEqual(data);
    const stats = await chat.stats('chat-1', { messages, instructions, tools });
    expect(latest.context).toEqual(stats.context);
    expect(stats.compaction?.firstKeptMessageId).toBe(data!.firstKeptMessageId);
    expect(stats.compaction?.summary).toBe(data!.summary);

    const view = compactionView(messages, { compaction: stats.compaction, context: stats.context });
    expect(view.boundaryIndex).toBe(keptIndex);
    expect(view.summarizedCount).toBe(keptIndex);
    expect(data!.notice).toContain(`: ${keptIndex} messages → summary, `); // the marker's figure
    expect([...view.summarizedIds]).toEqual(messages.slice(0, keptIndex).map((message) => message.id));
    expect(view.usage?.tokens).toBe(stats.context.contextTokens);
    expect(view.usage?.trigger).toBe(stats.context.triggerTokens);
  });

  it('gives every notice the count of UI messages the marker shows, a stacked compaction included', async () => {
    const { chat } = newChat(memoryStore());
    let { messages } = await untilCompaction(chat, 'chat-stack');
    let notices = 0;
    for (let index = 0; index < 24; index += 1) {
      const result = await turn(chat, 'chat-stack', messages, `Follow-up ${index}: and file ${index + 20}?`);
      messages = result.messages;
      const part = result.chunks.find((chunk) => chunk.type === 'data-compaction');
      if (part?.type !== 'data-compaction') continue;
      const view = compactionView(messages, latestCompactionData(messages));
      expect(part.data.notice).toContain(`: ${view.summarizedCount} messages → summary, `);
      notices += 1;
      if (part.data.version >= 2) break;
    }
    expect(latestCompactionData(messages).compaction?.version).toBeGreaterThanOrEqual(2);
    expect(notices).toBeGreaterThan(0);
  });

  it('compacts on demand with a focus, and the next model call sends that summary (one set of sessions)', async () => {
    const { chat, prompts } = newChat(memoryStore());
    let messages: CompactionUIMessage[] = [];
    for (let index = 0; index < 4; index += 1) {
      messages = (await turn(chat, 'chat-2', messages, `Question ${index} about src/file-${index}.ts`)).messages;
    }
    const before = await chat.stats('chat-2', { messages, instructions, tools });
    expect(before.compaction).toBeUndefined();

    const manual = await chat.compact('chat-2', { messages, instructions, tools, focus: 'the date helpers' });
    expect(manual.compacted ? '' : manual.reason).toBe('');
    if (!manual.compacted) return;
    expect(manual.compaction).toMatchObject({ trigger: 'manual', version: 1, sessionId: 'chat-2' });
    expect(manual.context.compactions).toBe(1);
    expect(manual.context.contextTokens).toBeLessThan(before.context.contextTokens);
    const kept = messages.findIndex((message) => message.id === manual.compaction.firstKeptMessageId);
    expect(kept).toBeGreaterThan(0);

    const calls = prompts.length;
    const next = await turn(chat, 'chat-2', messages, 'And now?');
    const sent = prompts[calls]!;
    expect(JSON.stringify(sent)).toContain(JSON.stringify(manual.compaction.summary).slice(1, -1));
    const verbatim = sent.filter(
      (message) =>
        message.role === 'user' &&
        message.content.some((part) => part.type === 'text' && part.text === 'Question 0 about src/file-0.ts'),
    );
    expect(verbatim).toEqual([]);
    const after = await chat.stats('chat-2', { messages: next.messages, instructions, tools });
    expect(after.compaction?.version).toBe(1);
    expect(after.compaction?.firstKeptMessageId).toBe(manual.compaction.firstKeptMessageId);
  });

  it('finds the same boundary and figures after a restart on a file store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'compaction-chat-'));
    dirs.push(dir);
    const first = newChat(fileStore(dir)).chat;
    const { messages } = await untilCompaction(first, 'chat-3');
    const before = await first.stats('chat-3', { messages, instructions, tools });

    const restarted = newChat(fileStore(dir)).chat;
    const after = await restarted.stats('chat-3', { messages, instructions, tools });
    expect(after.compaction).toEqual(before.compaction);
    expect(after.context).toEqual(before.context);
  });

  it('says there is nothing to compact on a short conversation, and keeps it as it was', async () => {
    const { chat } = newChat(memoryStore());
    const { messages } = await turn(chat, 'chat-4', [], 'Hi');
    const result = await chat.compact('chat-4', { messages, instructions, tools });
    expect(result.compacted).toBe(false);
    if (result.compacted) return;
    expect(result.reason).toMatch(/nothing to compact/);
    expect(result.context.compactions).toBe(0);
  });

  it('reports a summarizer that failed (the fallback that wrote the summary) and answers all the same', async () => {
    const { model } = chatModel();
    const broken = {
      name: 'broken',
      summarize: async () => {
        throw new Error('the summarizer is down');
      },
    };
    const chat = compactionChat({ model, settings, summarizer: broken });
    const { chunks, messages } = await untilCompaction(chat, 'chat-5');
    const part = chunks.find((chunk) => chunk.type === 'data-compaction');
    const data = part?.type === 'data-compaction' ? part.data : undefined;
    expect(data?.fallbacks).toEqual([{ strategy: 'broken', error: expect.stringContaining('the summarizer is down') }]);
    expect(messages.at(-1)?.role).toBe('assistant');
  });

  it('reports a compaction that cannot help as a transient part, never stored, and answers all the same', async () => {
    const { model } = chatModel();
    const chat = compactionChat({ model, settings, summarizer: 'structured' });
    // A short exchange (enough messages for the policy to try), then one message over the
    // trigger on its own: summarizing what comes before it cannot bring the context under.
    const earlier: CompactionUIMessage[] = Array.from({ length: 10 }, (_, index) => ({
      id: `e${index}`,
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      parts: [{ type: 'text' as const, text: `short message ${index}` }],
    }));
    const { chunks, messages } = await turn(chat, 'chat-6', earlier, `Review this: ${fileContent(1, 5000)}`);
    const errors = chunks.filter((chunk) => chunk.type === 'data-compaction-error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatchObject({
      type: 'data-compaction-error',
      transient: true,
      data: { sessionId: 'chat-6', trigger: 'auto', message: expect.any(String) },
    });
    expect(messages.at(-1)?.role).toBe('assistant');
    expect(chunks.some((chunk) => chunk.type === 'data-compaction-context')).toBe(true);
    expect(messages.flatMap((message) => message.parts).some((part) => part.type === 'data-compaction-error')).toBe(
      false,
    );
  });

  it('names the message being streamed when a compaction during its tool loop cuts inside it', async () => {
    let step = 0;
    const model = new MockLanguageModelV4({
      doStream: async ({ prompt }) => {
        step = prompt.at(-1)?.role === 'user' ? 0 : step + 1;
        return step < 5
          ? streamed(toolCallResult(`call-${step}`, `src/big-${step}.ts`, promptTokens(prompt)))
          : streamed(textResult('All read.', promptTokens(prompt)));
      },
    });
    const bigTools = {
      read: tool({
        description: 'Reads a file',
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => `${path}: ${fileContent(path.length, 900)}`,
      }),
    };
    // No prune pass: the compaction must summarize, and the cut falls inside the turn.
    const chat = compactionChat({
      model,
      settings: { ...settings, pruneToolOutputs: false },
      summarizer: 'structured',
    });
    const messages: CompactionUIMessage[] = [
      { id: 'u0', role: 'user', parts: [{ type: 'text', text: 'Read the big files one by one.' }] },
    ];
    const chunks: Chunk[] = [];
    let finished: CompactionUIMessage[] = [];
    const stream = createUIMessageStream<CompactionUIMessage>({
      originalMessages: messages,
      execute: async ({ writer }) => {
        const parts = chat.streamCompaction(writer, {
          chatId: 'chat-7',
          messages,
          instructions,
          tools: bigTools,
          responseMessageId: 'a1',
        });
        const result = streamText({
          model: chat.model,
          instructions,
          messages: await convertToModelMessages(messages, { tools: bigTools }),
          tools: bigTools,
          stopWhen: stepCountIs(8),
          providerOptions: chat.providerOptions('chat-7'),
        });
        writer.merge(
          result.toUIMessageStream({
            originalMessages: messages,
            generateMessageId: () => 'a1',
            onFinish: parts.onFinish,
          }),
        );
      },
      onFinish: ({ messages: all }) => {
        finished = all;
      },
    });
    for await (const chunk of stream) chunks.push(chunk);

    const part = chunks.find((chunk) => chunk.type === 'data-compaction');
    const data = part?.type === 'data-compaction' ? part.data : undefined;
    expect(data?.strategy).not.toBe('prune');
    expect(data?.firstKeptMessageId).toBe('a1');
    const stats = await chat.stats('chat-7', { messages: finished, instructions, tools: bigTools });
    expect(stats.compaction?.firstKeptMessageId).toBe('a1');
    expect(compactionView(finished, stats).summarizedCount).toBe(1);
  });

  it('refuses bad input at once with a typed error that says what to pass', async () => {
    const { model } = chatModel();
    expect(() => compactionChat({ model: 'openai/gpt-5' as never })).toThrow(InvalidSettingsError);
    const chat = compactionChat({ model, settings, summarizer: 'structured' });
    expect(() => chat.providerOptions('')).toThrow(/chatId/);
    await expect(chat.stats('chat', { messages: 'hi' as never })).rejects.toThrow(/UI messages/);
    await expect(chat.compact('chat', { messages: [], focus: 3 as never })).rejects.toThrow(InvalidSettingsError);
    await expect(chat.compact('chat', { messages: [], focus: 'x'.repeat(2001) })).rejects.toThrow(/at most 2000/);
  });

  it('refuses ModelMessages where UI messages go, and a blank chat id, at the call that receives them', async () => {
    const { model } = chatModel();
    const chat = compactionChat({ model, settings, summarizer: 'structured' });
    const modelMessages = [{ role: 'user', content: 'hi' }] as never;
    for (const call of [
      () => chat.stats('chat', { messages: modelMessages }),
      () => chat.compact('chat', { messages: modelMessages }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(InvalidSettingsError.isInstance(error)).toBe(true);
      expect((error as InvalidSettingsError).setting).toBe('messages[0]');
      expect((error as Error).message).toMatch(/is a ModelMessage .*UI messages useChat sends/);
    }
    const ui: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
    await expect(chat.stats('chat', { messages: [...ui, 'hi'] as never })).rejects.toThrow(/messages\[1\]/);
    for (const blank of ['', '   ', '\n']) {
      await expect(chat.stats(blank, { messages: [...ui] })).rejects.toThrow(/"chatId"/);
      expect(() => chat.providerOptions(blank)).toThrow(/"chatId"/);
    }
    // The valid neighbours: UI messages (none yet, or one) and an id with a visible character.
    expect((await chat.stats('chat', { messages: [] })).context.sessionId).toBe('chat');
    expect((await chat.stats(' chat ', { messages: [...ui] })).context.sessionId).toBe(' chat ');
    expect(chat.providerOptions(' chat ')).toEqual({ compaction: { sessionId: ' chat ' } });
  });
});
