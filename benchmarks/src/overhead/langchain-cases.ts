import { measure } from '@compaction/bench-kit/measure';
import { appendedMessage } from '@compaction/bench-kit/synthetic-history';
import { type CompactionEvent, type CompactionSettings, memoryStore } from '@compaction/core';
import { CompactingChatMessageHistory, compactionMiddleware, fromCoreMessages } from '@compaction/langchain';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage, trimMessages } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import { countTokensApproximately, createAgent, createMiddleware, fakeModel, summarizationMiddleware } from 'langchain';
import {
  type BenchCase,
  type CaseInput,
  type CaseOutcome,
  compactAfter,
  expectCompaction,
  NO_COMPACTION,
} from './bench-case.ts';

type State = { messages: BaseMessage[]; [key: string]: unknown };
type Handler = (request: unknown) => Promise<AIMessage>;
type WrapModelCall = (request: unknown, handler: Handler) => Promise<AIMessage | Command>;
type BeforeModel = (state: State, runtime: unknown) => Promise<unknown>;

/**
 * A growing LangChain conversation: the history, then one new message per call
 * (of content of its own with a `variant`: see `appendedMessage`).
 */
function conversation(input: CaseInput, start = input.history.length, variant?: string) {
  let messages = fromCoreMessages(input.history);
  let next = start;
  return {
    messages: () => messages,
    next: () => next,
    grow(): BaseMessage[] {
      messages = messages.concat(fromCoreMessages([appendedMessage(next++, variant)]));
      return messages;
    },
  };
}

/**
 * Our agent middleware's `wrapModelCall`, called the way the agent calls it: a
 * request with the state, and a handler standing for the model that returns at
 * once with reported usage. A returned `Command` updates the state, as the graph would.
 */
function agentMiddleware(settings: Partial<CompactionSettings>, onEvent?: (event: CompactionEvent) => void) {
  const mw = compactionMiddleware({
    summarizer: 'structured',
    model: 'gpt-5',
    settings,
    ...(onEvent ? { onEvent } : {}),
  }) as unknown as { wrapModelCall: WrapModelCall };
  const model = fakeModel();
  let state: State = { messages: [] };
  return async (messages: BaseMessage[], inputTokens: number): Promise<BaseMessage[]> => {
    state = { ...state, messages };
    let sent: BaseMessage[] = [];
    const handler: Handler = async (request) => {
      sent = (request as { messages: BaseMessage[] }).messages;
      return new AIMessage({
        content: 'ok',
        usage_metadata: { input_tokens: inputTokens, output_tokens: 1, total_tokens: inputTokens + 1 },
      });
    };
    const request = {
      model,
      messages,
      systemPrompt: '',
      tools: [],
      state,
      runtime: { configurable: { thread_id: 'bench' }, context: {} },
    };
    const result = await mw.wrapModelCall(request, handler);
    if (result instanceof Command) {
      const update = (result as Command & { update?: Record<string, unknown> }).update ?? {};
      const { messages: _ignored, ...rest } = update;
      state = { ...state, ...rest };
    }
    return sent;
  };
}

/**
 * A real `createAgent` with our middleware and a `MemorySaver` checkpointer, and
 * two probes around our middleware: the outer one is entered before ours and left
 * after it, the inner one is what ours calls as the model. Two figures per model call:
 * `hook`, the time inside our middleware's `wrapModelCall` itself (from LangChain's call
 * into it to its return, the handler it awaits taken out: conversion, compaction check,
 * usage record), and `around`, the rest of the time between the probes — LangChain's own
 * work for a middleware in that call (it parses the state against the middleware's state
 * schema, makes the request and runtime, checks what the middleware hands its handler).
 */
function checkpointedAgent(calls: number, inputTokens: number) {
  let entered = 0;
  let reached = 0;
  let answered = 0;
  let hookTime = 0;
  let timed: { hook: number; around: number }[] = [];
  const outer = createMiddleware({
    name: 'BenchOuterProbe',
    wrapModelCall: async (request, handler) => {
      entered = performance.now();
      const result = await handler(request);
      const between = reached - entered + (performance.now() - answered);
      timed.push({ hook: hookTime, around: between - hookTime });
      return result;
    },
  });
  const inner = createMiddleware({
    name: 'BenchInnerProbe',
    wrapModelCall: async (request, handler) => {
      reached = performance.now();
      const result = await handler(request);
      answered = performance.now();
      return result;
    },
  });
  const ours = compactionMiddleware({
    summarizer: 'structured',
    model: 'gpt-5',
    settings: NO_COMPACTION,
  }) as unknown as {
    wrapModelCall: WrapModelCall;
  };
  const wrapModelCall = ours.wrapModelCall;
  // LangChain reads `wrapModelCall` off the middleware at each call: ours, timed from its start to its end, its handler taken out.
  ours.wrapModelCall = async (request, handler) => {
    const started = performance.now();
    let called = started;
    let returned = started;
    const result = await wrapModelCall(request, async (inner) => {
      called = performance.now();
      const response = await handler(inner);
      returned = performance.now();
      return response;
    });
    hookTime = called - started + (performance.now() - returned);
    return result;
  };
  const model = fakeModel();
  for (let index = 0; index < calls; index += 1) {
    model.respond(
      new AIMessage({
        content: 'ok',
        usage_metadata: { input_tokens: inputTokens, output_tokens: 1, total_tokens: inputTokens + 1 },
      }),
    );
  }
  const agent = createAgent({
    model,
    tools: [],
    middleware: [outer, ours as unknown as ReturnType<typeof compactionMiddleware>, inner],
    checkpointer: new MemorySaver(),
  });
  return {
    /** Runs the agent once on a thread with `messages` as input; returns the two figures of each model call (ms). */
    async run(
      messages: BaseMessage[],
      threadId: string,
    ): Promise<{ timed: { hook: number; around: number }[]; messages: number }> {
      timed = [];
      const state = await agent.invoke({ messages }, { configurable: { thread_id: threadId } });
      return { timed, messages: state.messages.length };
    },
  };
}

/**
 * The new-run cases: a new `invoke` on a checkpointed thread per sample, one new human
 * message each; `figure` picks what is reported of that run's (only) model call. With more
 * than one thread (one agent: one middleware, one `MemorySaver`, each thread holding the
 * history), each sample first runs the others (untimed), as a chat server's conversations
 * alternate: their runs allocate their own restored state and checkpoints in between.
 * The first thread is the timed one; each thread's id tags its new messages.
 */
async function newRuns(
  id: string,
  input: CaseInput,
  figure: 'hook' | 'window',
  threads: readonly string[] = ['new-run'],
): Promise<CaseOutcome> {
  const runs = input.samples + input.warmup;
  const agent = checkpointedAgent(threads.length * (runs + 1), input.tokens);
  const lengths = new Map<string, number>();
  for (const thread of threads)
    lengths.set(thread, (await agent.run(fromCoreMessages(input.history), thread)).messages);
  let next = input.history.length;
  const runOnce = async (thread: string) => {
    const { text } = appendedMessage(next++, thread).parts[0] as { text: string };
    const run = await agent.run([new HumanMessage(text)], thread);
    const length = lengths.get(thread)!;
    if (run.timed.length !== 1 || run.messages !== length + 2)
      throw new Error(`langchain new run (${thread}): ${run.timed.length} model calls, ${run.messages} messages`);
    lengths.set(thread, run.messages);
    return run.timed[0]!;
  };
  const [timed, ...others] = threads as [string, ...string[]];
  const stats = await measure(
    id,
    async () => {
      for (const thread of others) await runOnce(thread);
      const { hook, around } = await runOnce(timed);
      return { overriddenDuration: figure === 'hook' ? hook : hook + around };
    },
    input,
  );
  return { stats, messagesAtEnd: lengths.get(timed)! - 2 };
}

function compactingHistory(
  settings: Partial<CompactionSettings>,
  messages: BaseMessage[],
  onEvent?: (event: CompactionEvent) => void,
) {
  return new CompactingChatMessageHistory({
    history: new InMemoryChatMessageHistory(messages.slice()),
    sessionId: 'bench',
    store: memoryStore(),
    summarizer: 'structured',
    model: 'gpt-5',
    settings,
    ...(onEvent ? { onEvent } : {}),
  });
}

/** `@compaction/langchain` and LangChain's own ways to keep a history short. */
export const langchainCases: BenchCase[] = [
  {
    id: 'langchain',
    label: 'LangChain `compactionMiddleware` `wrapModelCall`',
    framework: 'langchain',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'fast', // tens of µs a call: 200 calls at 2,004 and 10,002 (40 read a Mastra step at 0.022–0.082 ms at 2,004)
    note: 'the middleware hook with one new message in the state; the handler (the model) returns at once',
    async run(input) {
      const call = agentMiddleware(NO_COMPACTION);
      const calls = conversation(input, input.history.length, this.id); // new messages of its own (a shared token cache)
      await call(calls.messages(), input.tokens);
      let messages: BaseMessage[] = [];
      const stats = await measure(
        this.id,
        async () => {
          const sent = await call(messages, input.tokens);
          if (sent.length !== messages.length) throw new Error('langchain: the context changed without a compaction');
        },
        {
          ...input,
          beforeEach: () => {
            messages = calls.grow();
          },
        },
      );
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'langchain-history',
    label: 'LangChain `CompactingChatMessageHistory.getMessages`',
    framework: 'langchain',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'fast', // tens of µs a call: 200 calls at 2,004 and 10,002 (40 read a Mastra step at 0.022–0.082 ms at 2,004)
    note: '`getMessages()` after one new message was added to the wrapped in-memory history',
    async run(input) {
      // New messages of its own: the middleware case ran first in this process and counted the plain ones.
      const calls = conversation(input, input.history.length, 'history');
      const history = compactingHistory(NO_COMPACTION, calls.messages());
      await history.getMessages();
      const stats = await measure(
        this.id,
        async () => {
          const sent = await history.getMessages();
          if (sent.length !== calls.messages().length) throw new Error('langchain history: context changed');
        },
        { ...input, beforeEach: () => history.addMessages(calls.grow().slice(-1)) },
      );
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'langchain-new-run',
    label: 'LangChain `compactionMiddleware`, first model call of a new run (MemorySaver)',
    framework: 'langchain',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'slow',
    note: "a real `createAgent` with our middleware and a `MemorySaver` checkpointer; each call is a new `invoke` on the thread with one new human message, so the state comes back from the checkpointer as new message objects; timed: what our middleware adds to that run's first model call — the time between probes just outside and just inside it (our `wrapModelCall`, and LangChain's work for a middleware with a state schema: it parses our state keys on every model call), the model's answer (which comes at once) taken out",
    run(input) {
      return newRuns(this.id, input, 'window');
    },
  },
  {
    id: 'langchain-new-run-hook',
    label: '… of which our `wrapModelCall` itself',
    framework: 'langchain',
    kind: 'variant',
    baseline: 'langchain-new-run',
    scenario: 'per-call',
    cost: 'slow',
    note: "the same runs: our middleware's `wrapModelCall` alone, from LangChain's call into it to its return, the handler it awaits taken out; the rest of the row above is LangChain's work for our middleware (parsing its state schema, making the request and runtime, checking what it hands the model)",
    run(input) {
      return newRuns(this.id, input, 'hook');
    },
  },
  {
    id: 'langchain-new-run-interleaved',
    label:
      'LangChain `compactionMiddleware`, first model call of a new run with another thread’s run in between (MemorySaver)',
    framework: 'langchain',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'slow',
    note: "two threads of one agent (our middleware, one `MemorySaver`), each holding the history; per sample a new run of the other thread (untimed), then a new run of this one with one new human message; timed as `langchain-new-run`: what our middleware adds to that run's first model call (our `wrapModelCall` and LangChain's work for its state schema), the model's answer taken out. The other thread's run allocates its restored state and checkpoints in between, as a chat server's other conversations do",
    run(input) {
      return newRuns(this.id, input, 'window', ['bench-new-run-timed', 'bench-new-run-other']);
    },
  },
  {
    id: 'langchain-summarization-check',
    label: 'LangChain `summarizationMiddleware` `beforeModel`, not triggered',
    framework: 'langchain',
    kind: 'peer',
    scenario: 'per-call',
    cost: 'medium',
    baseline: 'langchain',
    note: 'its trigger check (`countTokensApproximately` over the state) with a `tokens` trigger it does not reach; its model throws if called',
    async run(input) {
      const model = fakeModel().alwaysThrow(new Error('the summarization model must not be called'));
      const mw = summarizationMiddleware({
        model,
        trigger: { tokens: 50_000_000 },
        keep: { messages: 20 },
      }) as unknown as {
        beforeModel: BeforeModel | { hook: BeforeModel };
      };
      const hook = typeof mw.beforeModel === 'function' ? mw.beforeModel : mw.beforeModel.hook;
      const calls = conversation(input);
      const runtime = { context: {} };
      let messages: BaseMessage[] = [];
      const stats = await measure(
        this.id,
        async () => {
          if ((await hook({ messages }, runtime)) !== undefined) throw new Error('summarizationMiddleware triggered');
        },
        {
          ...input,
          beforeEach: () => {
            messages = calls.grow();
          },
        },
      );
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'langchain-trim-none',
    label: 'LangChain `trimMessages`, nothing to trim',
    framework: 'langchain',
    kind: 'peer',
    scenario: 'per-call',
    cost: 'medium',
    baseline: 'langchain-history',
    note: '`trimMessages(messages, { strategy: "last", startOn: "human", tokenCounter: countTokensApproximately })` with a limit above the history',
    async run(input) {
      const calls = conversation(input);
      let messages: BaseMessage[] = [];
      const stats = await measure(
        this.id,
        async () => {
          const kept = await trimMessages(messages, trimOptions(50_000_000));
          if (kept.length !== messages.length) throw new Error('trimMessages trimmed');
        },
        {
          ...input,
          beforeEach: () => {
            messages = calls.grow();
          },
        },
      );
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'langchain-trim-half',
    label: 'LangChain `trimMessages`, half must go',
    framework: 'langchain',
    kind: 'peer',
    scenario: 'trimming',
    cost: 'quadratic',
    baseline: 'langchain-history-after-compaction',
    note: 'the same with `maxTokens` at half the history (chars/4): it trims on every call',
    async run(input) {
      const calls = conversation(input);
      const limit = Math.round(countTokensApproximately(calls.messages()) / 2);
      let messages: BaseMessage[] = [];
      const stats = await measure(
        this.id,
        async () => {
          const kept = await trimMessages(messages, trimOptions(limit));
          if (kept.length >= messages.length || kept.length === 0) throw new Error('trimMessages did not trim');
        },
        {
          ...input,
          beforeEach: () => {
            messages = calls.grow();
          },
        },
      );
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'langchain-compaction',
    label: 'LangChain middleware: the call that compacts',
    framework: 'langchain',
    kind: 'ours',
    scenario: 'compaction',
    cost: 'one-off',
    note: 'a state just under the trigger gets one more message: `wrapModelCall` compacts (structured summarizer)',
    async run(input) {
      let call: ReturnType<typeof agentMiddleware> | undefined;
      let strategy = '';
      let messages: BaseMessage[] = [];
      const stats = await measure(
        this.id,
        async () => {
          const sent = await call!(messages, input.tokens + 300);
          expectCompaction(sent.length < messages.length, true, 'langchain compaction');
        },
        {
          ...input,
          beforeEach: async () => {
            call = agentMiddleware(compactAfter(input.tokens), (event) => {
              if (event.type === 'compaction:end') strategy = event.strategy;
            });
            const calls = conversation(input);
            await call(calls.messages(), input.tokens);
            messages = calls.grow();
          },
        },
      );
      return { stats, messagesAtEnd: input.history.length + 1, strategy };
    },
  },
  {
    id: 'langchain-history-compaction',
    label: 'LangChain history: the `getMessages` that compacts',
    framework: 'langchain',
    kind: 'ours',
    scenario: 'compaction',
    cost: 'one-off',
    note: 'a history just under the trigger gets one more message: `getMessages()` compacts (structured summarizer)',
    async run(input) {
      let history: CompactingChatMessageHistory | undefined;
      let strategy = '';
      const stats = await measure(
        this.id,
        async () => {
          const sent = await history!.getMessages();
          expectCompaction(sent.length <= input.history.length, true, 'langchain history compaction');
        },
        {
          ...input,
          beforeEach: async () => {
            const calls = conversation(input);
            history = compactingHistory(compactAfter(input.tokens), calls.messages(), (event) => {
              if (event.type === 'compaction:end') strategy = event.strategy;
            });
            await history.getMessages();
            await history.addMessages(calls.grow().slice(-1));
          },
        },
      );
      return { stats, messagesAtEnd: input.history.length + 1, strategy };
    },
  },
  {
    id: 'langchain-after-compaction',
    label: 'LangChain `wrapModelCall` once compacted',
    framework: 'langchain',
    kind: 'ours',
    scenario: 'after-compaction',
    cost: 'slow',
    note: 'per call once the state holds a compaction: summary + kept messages sent',
    async run(input) {
      let strategy = '';
      const call = agentMiddleware(compactAfter(input.tokens), (event) => {
        if (event.type === 'compaction:end') strategy = event.strategy;
      });
      const calls = conversation(input, input.history.length, this.id);
      await call(calls.messages(), input.tokens);
      const first = calls.grow();
      expectCompaction((await call(first, input.tokens + 300)).length < first.length, true, 'langchain setup');
      let messages: BaseMessage[] = [];
      const stats = await measure(
        this.id,
        async () => {
          const sent = await call(messages, 30_000);
          if (sent.length >= messages.length) throw new Error('langchain: the compacted context was not used');
        },
        {
          ...input,
          beforeEach: () => {
            messages = calls.grow();
          },
        },
      );
      return { stats, messagesAtEnd: calls.next(), strategy };
    },
  },
  {
    id: 'langchain-history-after-compaction',
    label: 'LangChain history `getMessages` once compacted',
    framework: 'langchain',
    kind: 'ours',
    scenario: 'after-compaction',
    cost: 'slow',
    note: 'per call once the history was compacted: summary + kept messages returned',
    async run(input) {
      let strategy = '';
      const calls = conversation(input, input.history.length, this.id);
      const history = compactingHistory(compactAfter(input.tokens), calls.messages(), (event) => {
        if (event.type === 'compaction:end') strategy = event.strategy;
      });
      await history.getMessages();
      await history.addMessages(calls.grow().slice(-1));
      expectCompaction((await history.getMessages()).length <= input.history.length, true, 'langchain history setup');
      const stats = await measure(
        this.id,
        async () => {
          const sent = await history.getMessages();
          if (sent.length >= calls.messages().length) throw new Error('langchain history: not compacted');
        },
        { ...input, beforeEach: () => history.addMessages(calls.grow().slice(-1)) },
      );
      return { stats, messagesAtEnd: calls.next(), strategy };
    },
  },
];

function trimOptions(maxTokens: number) {
  return {
    maxTokens,
    strategy: 'last' as const,
    startOn: 'human' as const,
    tokenCounter: (messages: BaseMessage[]) => countTokensApproximately(messages),
  };
}
