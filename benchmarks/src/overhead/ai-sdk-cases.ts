import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { compactionMiddleware, messagesToModelMessages, messagesToPrompt, promptToMessages } from '@compaction/ai-sdk';
import { measure } from '@compaction/bench-kit/measure';
import { appendedMessage } from '@compaction/bench-kit/synthetic-history';
import type { CompactionEvent, CompactionSettings } from '@compaction/core';
import { chainedContentIds } from '@compaction/core/internal';
import type { LanguageModelMiddleware, ModelMessage } from 'ai';
import { convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal';
import { MockLanguageModelV4 } from 'ai/test';
import { type BenchCase, type CaseInput, compactAfter, expectCompaction, NO_COMPACTION } from './bench-case.ts';

const model = new MockLanguageModelV4({ provider: 'openai', modelId: 'gpt-5' });

/**
 * The prompt the AI SDK hands a middleware on each call is built anew from the
 * `ModelMessage`s (`convertToLanguageModelPrompt` makes new message and part
 * objects), so every call here gets fresh message and part objects too.
 */
function freshPrompt(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  return prompt.map((message) =>
    typeof message.content === 'string'
      ? { ...message }
      : ({ ...message, content: message.content.map((part) => ({ ...part })) } as typeof message),
  );
}

/**
 * A growing conversation as provider prompts: the history, then one new message per call,
 * of content of its own with a `variant` (see `appendedMessage`): the token cache is shared
 * by every session of the process, so a case that appends the messages another case
 * counted before would never count its own and read too fast.
 */
function conversation(input: CaseInput, variant?: string, start = input.history.length) {
  let base = messagesToPrompt(input.history) as LanguageModelV4Prompt;
  let next = start;
  return {
    base: () => base,
    next: () => next,
    /** The prompt of the next call: everything so far plus one new message, as fresh objects. */
    grow(): LanguageModelV4Prompt {
      base = base.concat(messagesToPrompt([appendedMessage(next++, variant)]) as LanguageModelV4Prompt);
      return freshPrompt(base);
    },
  };
}

/**
 * The application's messages with every tool answering in `content` (a text item), as MCP
 * tools and `toModelOutput` do: a tool output the AI SDK rebuilds on every call
 * (`mapToolResultOutput` makes a new `{ type: 'content', value }` around the same items).
 */
function withContentOutputs(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((message) =>
    message.role !== 'tool'
      ? message
      : {
          ...message,
          content: message.content.map((part) =>
            part.type === 'tool-result' && part.output.type === 'text'
              ? {
                  ...part,
                  output: { type: 'content' as const, value: [{ type: 'text' as const, text: part.output.value }] },
                }
              : part,
          ),
        },
  );
}

/**
 * A growing conversation as the application holds it (`ModelMessage`s, tool outputs as
 * `content`), each call's prompt made by the AI SDK's own `convertToLanguageModelPrompt`, as
 * `generateText` makes it before the middleware runs (untimed): one new message per call.
 */
function applicationConversation(input: CaseInput, variant: string) {
  let messages = withContentOutputs(messagesToModelMessages(input.history));
  let next = input.history.length;
  const prompt = async () =>
    (await convertToLanguageModelPrompt({
      prompt: await standardizePrompt({ messages }),
      supportedUrls: {},
      download: undefined,
    })) as LanguageModelV4Prompt;
  return {
    next: () => next,
    prompt,
    async grow(): Promise<LanguageModelV4Prompt> {
      messages = messages.concat(messagesToModelMessages([appendedMessage(next++, variant)]));
      return prompt();
    },
  };
}

type Middleware = LanguageModelMiddleware & Required<Pick<LanguageModelMiddleware, 'transformParams'>>;

function middleware(settings: Partial<CompactionSettings>, onCompaction?: (event: CompactionEvent) => void) {
  return compactionMiddleware({
    summarizer: 'structured',
    settings,
    ...(onCompaction ? { onCompaction } : {}),
  }) as Middleware;
}

async function transform(mw: Middleware, prompt: LanguageModelV4Prompt): Promise<LanguageModelV4Prompt> {
  const params = { prompt } as LanguageModelV4CallOptions;
  return (await mw.transformParams({ type: 'generate', params, model })).prompt;
}

/**
 * Times `transformParams` on the prompt `next` makes before each call (untimed), checking that
 * nothing was compacted (the prompt goes back as long as it came).
 */
function measureTransform(
  id: string,
  mw: Middleware,
  next: () => LanguageModelV4Prompt | Promise<LanguageModelV4Prompt>,
  input: CaseInput,
) {
  let prompt: LanguageModelV4Prompt = [];
  return measure(
    id,
    async () => {
      const sent = await transform(mw, prompt);
      if (sent.length !== prompt.length) throw new Error('ai-sdk: the prompt changed without a compaction');
    },
    {
      ...input,
      beforeEach: async () => {
        prompt = await next();
      },
    },
  );
}

/** `@compaction/ai-sdk`'s middleware, and the two passes over the prompt it makes on every call. */
export const aiSdkCases: BenchCase[] = [
  {
    id: 'ai-sdk',
    label: 'AI SDK `compactionMiddleware` `transformParams`',
    framework: 'ai-sdk',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'fast', // well under a millisecond: 200 calls at 10,000 messages, for a median that GC pauses do not move
    note: 'the middleware hook on a provider prompt of fresh objects with one new message, as `wrapLanguageModel` calls it',
    async run(input) {
      const mw = middleware(NO_COMPACTION);
      const calls = conversation(input, this.id);
      await transform(mw, freshPrompt(calls.base()));
      const stats = await measureTransform(this.id, mw, () => calls.grow(), input);
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'ai-sdk-usage',
    label: 'AI SDK `compactionMiddleware`, a call and its usage report',
    framework: 'ai-sdk',
    kind: 'variant',
    scenario: 'per-call',
    cost: 'fast', // as `ai-sdk`: 200 calls at 10,000 messages
    baseline: 'ai-sdk',
    note: '`transformParams` + `wrapGenerate` (the model answers at once with its usage, which is recorded): after the first report the session holds the history counted, not loaded, and reads only the new message',
    async run(input) {
      const mw = middleware(NO_COMPACTION);
      const calls = conversation(input, this.id);
      let inputTokens = input.tokens;
      const answer = async () => ({
        content: [{ type: 'text' as const, text: 'ok' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage: {
          inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      });
      const wrapGenerate = mw.wrapGenerate!;
      const call = async (prompt: LanguageModelV4Prompt): Promise<LanguageModelV4Prompt> => {
        const params = await mw.transformParams({
          type: 'generate',
          params: { prompt } as LanguageModelV4CallOptions,
          model,
        });
        await wrapGenerate({
          doGenerate: answer,
          doStream: () => Promise.reject(new Error('not streamed')),
          params,
          model,
        });
        return params.prompt;
      };
      await call(freshPrompt(calls.base()));
      let prompt: LanguageModelV4Prompt = [];
      const stats = await measure(
        this.id,
        async () => {
          const sent = await call(prompt);
          if (sent.length !== prompt.length) throw new Error('ai-sdk: the prompt changed without a compaction');
        },
        {
          ...input,
          beforeEach: () => {
            prompt = calls.grow();
            inputTokens += 250;
          },
        },
      );
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'ai-sdk-content-outputs',
    label: 'AI SDK `transformParams`, tools answering in `content`',
    framework: 'ai-sdk',
    kind: 'variant',
    scenario: 'per-call',
    cost: 'fast', // as `ai-sdk`: 200 calls at 10,000 messages
    baseline: 'ai-sdk',
    note: "as `ai-sdk`, but every tool answers with a `content` output (MCP tools, `toModelOutput`) and the prompt is the AI SDK's own `convertToLanguageModelPrompt` of the application's messages (untimed), which rebuilds each such output on every call",
    async run(input) {
      const mw = middleware(NO_COMPACTION);
      const calls = applicationConversation(input, this.id);
      await transform(mw, await calls.prompt());
      const stats = await measureTransform(this.id, mw, () => calls.grow(), input);
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'ai-sdk-prompt-to-messages',
    label: 'AI SDK `promptToMessages` (part of each call)',
    framework: 'ai-sdk',
    kind: 'reference',
    scenario: 'per-call',
    cost: 'medium',
    note: 'the conversion of the whole prompt to core messages, content ids included, that the hook runs first',
    async run(input) {
      const calls = conversation(input);
      let prompt: LanguageModelV4Prompt = [];
      const stats = await measure(this.id, () => promptToMessages(prompt), {
        ...input,
        beforeEach: () => {
          prompt = calls.grow();
        },
      });
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'ai-sdk-content-ids',
    label: 'core `chainedContentIds` over the prompt (part of each call)',
    framework: 'ai-sdk',
    kind: 'reference',
    scenario: 'per-call',
    cost: 'medium',
    note: 'the content hashing alone: canonical JSON of every message, chained 64-bit hash',
    async run(input) {
      const calls = conversation(input);
      let prompt: LanguageModelV4Prompt = [];
      const stats = await measure(this.id, () => chainedContentIds(prompt), {
        ...input,
        beforeEach: () => {
          prompt = calls.grow();
        },
      });
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'ai-sdk-compaction',
    label: 'AI SDK: the call that compacts',
    framework: 'ai-sdk',
    kind: 'ours',
    scenario: 'compaction',
    cost: 'one-off',
    note: 'a warm middleware just under the trigger gets a prompt with one more message: `transformParams` compacts (structured summarizer)',
    async run(input) {
      let mw: Middleware | undefined;
      let strategy = '';
      let prompt: LanguageModelV4Prompt = [];
      const stats = await measure(
        this.id,
        async () => {
          const sent = await transform(mw!, prompt);
          expectCompaction(sent.length < prompt.length, true, 'ai-sdk compaction');
        },
        {
          ...input,
          beforeEach: async () => {
            mw = middleware(compactAfter(input.tokens), (event) => {
              if (event.type === 'compaction:end') strategy = event.strategy;
            });
            const calls = conversation(input);
            await transform(mw, freshPrompt(calls.base()));
            prompt = calls.grow();
          },
        },
      );
      return { stats, messagesAtEnd: input.history.length + 1, strategy };
    },
  },
  {
    id: 'ai-sdk-after-compaction',
    label: 'AI SDK `transformParams` once compacted',
    framework: 'ai-sdk',
    kind: 'ours',
    scenario: 'after-compaction',
    cost: 'fast', // as `ai-sdk`: 200 calls at 10,000 messages
    note: 'per call after a compaction: the hook still reads the whole prompt, and sends summary + kept messages',
    async run(input) {
      let strategy = '';
      const mw = middleware(compactAfter(input.tokens), (event) => {
        if (event.type === 'compaction:end') strategy = event.strategy;
      });
      const calls = conversation(input, this.id);
      await transform(mw, freshPrompt(calls.base()));
      const first = calls.grow();
      expectCompaction((await transform(mw, first)).length < first.length, true, 'ai-sdk setup');
      let prompt: LanguageModelV4Prompt = [];
      const stats = await measure(
        this.id,
        async () => {
          const sent = await transform(mw, prompt);
          if (sent.length >= prompt.length) throw new Error('ai-sdk: the compacted context was not used');
        },
        {
          ...input,
          beforeEach: () => {
            prompt = calls.grow();
          },
        },
      );
      return { stats, messagesAtEnd: calls.next(), strategy };
    },
  },
];
