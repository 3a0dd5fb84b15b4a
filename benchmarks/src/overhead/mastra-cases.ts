import { messagesToPrompt } from '@compaction/ai-sdk';
import { measure } from '@compaction/bench-kit/measure';
import { appendedMessage } from '@compaction/bench-kit/synthetic-history';
import {
  type CompactionEvent,
  type CompactionSettings,
  memoryStore,
  processCountedConversationMemory,
} from '@compaction/core';
import { CompactionProcessor, fromCoreMessages } from '@compaction/mastra';
import { MessageList } from '@mastra/core/agent';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import {
  type ProcessInputArgs,
  type ProcessInputStepArgs,
  type ProcessLLMRequestArgs,
  type ProcessLLMResponseArgs,
  TokenLimiterProcessor,
} from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { InMemoryStore } from '@mastra/core/storage';
import { MockLanguageModelV4 } from 'ai/test';
import { type BenchCase, type CaseInput, compactAfter, expectCompaction, NO_COMPACTION } from './bench-case.ts';

type Prompt = ProcessLLMRequestArgs['prompt'];
const model = new MockLanguageModelV4({ provider: 'openai', modelId: 'gpt-5' });
const PROMPT_OPTIONS = { supportedUrls: {}, targetProvider: 'openai' };
/** Steps a run takes after its compaction before `mastra-after-compaction-far` measures (the 300). */
const FAR_STEPS = 300;
/** Appended messages are dated after every history message (those date from 1970 + index ms). */
const APPENDED_FROM = Date.UTC(2030, 0, 1);
const abort = (reason?: string): never => {
  throw new Error(`processor aborted: ${reason}`);
};

/** A run's message list as `Memory` would load it: the whole history, from the `memory` source. */
function loadedList(input: CaseInput, appended: MastraDBMessage[] = []): MessageList {
  const list = new MessageList({ threadId: 'bench-thread', resourceId: 'bench-user' });
  list.add([...fromCoreMessages(input.history), ...appended], 'memory');
  return list;
}

function mastraMessage(index: number, variant?: string): MastraDBMessage {
  const [message] = fromCoreMessages([appendedMessage(index, variant)]);
  return { ...message!, createdAt: new Date(APPENDED_FROM + index) };
}

/**
 * What Mastra's `Memory` puts in the request context: the thread (so message ids are stable),
 * and with `storage` the run state through which the processor finds the Memory's storage.
 */
function memoryContext(storage?: InMemoryStore): RequestContext {
  const context = new RequestContext();
  const thread = { id: 'bench-thread', resourceId: 'bench-user' };
  const runState = storage ? { runState: () => ({ memory: { storage } }) } : {};
  context.set('MastraMemory', { thread, resourceId: 'bench-user', ...runState });
  return context;
}

/** Mastra's in-process storage holding the bench thread, as `Memory` creates it at a run's start. */
async function threadStorage(): Promise<InMemoryStore> {
  const storage = new InMemoryStore({ id: 'bench' });
  const memory = await storage.getStore('memory');
  const now = new Date();
  await memory!.saveThread({
    thread: { id: 'bench-thread', resourceId: 'bench-user', title: '', metadata: {}, createdAt: now, updatedAt: now },
  });
  return storage;
}

function processor(
  settings: Partial<CompactionSettings>,
  onEvent?: (event: CompactionEvent) => void,
  store: 'memory' | 'thread-metadata' = 'memory',
) {
  return new CompactionProcessor({
    summarizer: 'structured',
    model: 'gpt-5',
    ...(store === 'memory' ? { store: memoryStore() } : {}),
    settings,
    ...(onEvent ? { onEvent } : {}),
  });
}

/**
 * One agent step as the v1 Agent runs our input processor: `processInputStep`
 * on the message list, then `processLLMRequest` on the converted prompt. The
 * runner's own snapshot of the messages is taken before (not timed here).
 * Returns the prompt the model would get.
 */
function stepper(
  compaction: CompactionProcessor,
  list: () => MessageList,
  prompt: () => Prompt,
  storage?: InMemoryStore,
) {
  const requestContext = memoryContext(storage);
  let state: Record<string, unknown> = {};
  let stepNumber = 0;
  let args: ProcessInputStepArgs | undefined;
  return {
    newRun() {
      state = {};
      stepNumber = 0;
    },
    /** Builds the step's arguments (not timed): the runner's snapshot of the messages. */
    prepareStep() {
      const messageList = list();
      args = {
        messages: messageList.get.all.db(),
        messageList,
        stepNumber,
        steps: [],
        systemMessages: [],
        state,
        model,
        retryCount: 0,
        requestContext,
        llmRequestStage: true,
        abort,
      } as unknown as ProcessInputStepArgs;
    },
    async firstStepOfRun(): Promise<Prompt> {
      await compaction.processInput({ ...args!, agent: undefined } as unknown as ProcessInputArgs);
      return this.step();
    },
    async step(): Promise<Prompt> {
      await compaction.processInputStep(args!);
      const llmArgs = { ...args!, prompt: prompt() } as unknown as ProcessLLMRequestArgs;
      const result = await compaction.processLLMRequest(llmArgs);
      stepNumber += 1;
      return result?.prompt ?? llmArgs.prompt;
    },
    /** The provider's usage after the step (`processLLMResponse`): the session saves its record. */
    async reportUsage(inputTokens: number): Promise<void> {
      const chunks = [{ type: 'finish', payload: { output: { usage: { inputTokens, outputTokens: 20 } } } }];
      await compaction.processLLMResponse({ ...args!, chunks, fromCache: false } as unknown as ProcessLLMResponseArgs);
    },
  };
}

/** A run that grows by one message per step, on one message list. */
async function growingRun(
  input: CaseInput,
  settings: Partial<CompactionSettings>,
  onEvent?: (event: CompactionEvent) => void,
  store: 'memory' | 'thread-metadata' = 'memory',
  /** New messages of the run's own content: adapters share one token cache per process (see `appendedMessage`). */
  variant?: string,
) {
  const list = loadedList(input);
  const basePrompt = (await list.get.all.aiV7.llmPrompt(PROMPT_OPTIONS)) as Prompt;
  let next = input.history.length;
  const storage = store === 'thread-metadata' ? await threadStorage() : undefined;
  const steps = stepper(
    processor(settings, onEvent, store),
    () => list,
    () => basePrompt,
    storage,
  );
  return {
    steps,
    storage,
    list,
    basePrompt,
    next: () => next,
    grow() {
      list.add(mastraMessage(next++, variant), 'memory');
      steps.prepareStep();
    },
  };
}

/** A prompt that grows like the run's: the converted history, then one provider message per call. */
function growingPrompt(base: Prompt, start: number) {
  let prompt = base;
  let next = start;
  return {
    next: () => next,
    grow(): Prompt {
      prompt = prompt.concat(messagesToPrompt([appendedMessage(next++)]) as Prompt);
      return prompt;
    },
  };
}

/** `@compaction/mastra`'s processor, Mastra's `TokenLimiterProcessor`, and Mastra's own prompt conversion. */
export const mastraCases: BenchCase[] = [
  {
    id: 'mastra',
    label: 'Mastra `CompactionProcessor`, a step of a run',
    framework: 'mastra',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'fast', // tens of µs a call: 200 calls at 2,004 and 10,002 (40 read a Mastra step at 0.022–0.082 ms at 2,004)
    note: '`processInputStep` + `processLLMRequest` as the Agent runs them before each model call of a run, one new message each',
    async run(input) {
      const run = await growingRun(input, NO_COMPACTION, undefined, 'memory', this.id);
      run.steps.prepareStep();
      await run.steps.firstStepOfRun();
      const stats = await measure(
        this.id,
        async () => {
          const sent = await run.steps.step();
          if (sent !== run.basePrompt) throw new Error('mastra: the prompt changed without a compaction');
        },
        { ...input, beforeEach: () => run.grow() },
      );
      return { stats, messagesAtEnd: run.next() };
    },
  },
  {
    id: 'mastra-first-step',
    label: 'Mastra `CompactionProcessor`, first step of a new run',
    framework: 'mastra',
    kind: 'ours',
    scenario: 'per-call',
    // Cheap per call; 15 calls after 2 warm-ups read 0.20–0.42 ms at 2,004 messages from run to run.
    cost: 'fast', // tens of µs a call: 200 calls at 2,004 and 10,002 (40 read a Mastra step at 0.022–0.082 ms at 2,004)
    note: '`processInput` + `processInputStep` + `processLLMRequest` for a new `generate()` call on the same thread (a new run state)',
    async run(input) {
      const run = await growingRun(input, NO_COMPACTION, undefined, 'memory', this.id);
      run.steps.prepareStep();
      await run.steps.firstStepOfRun();
      const stats = await measure(
        this.id,
        async () => {
          const sent = await run.steps.firstStepOfRun();
          if (sent !== run.basePrompt) throw new Error('mastra: the prompt changed without a compaction');
        },
        {
          ...input,
          beforeEach: () => {
            run.grow();
            run.steps.newRun();
            run.steps.prepareStep();
          },
        },
      );
      return { stats, messagesAtEnd: run.next() };
    },
  },
  {
    id: 'mastra-first-step-recalled',
    label: 'Mastra `CompactionProcessor`, first step of a new run, the thread recalled from storage',
    framework: 'mastra',
    kind: 'variant',
    scenario: 'per-call',
    cost: 'medium',
    baseline: 'mastra-first-step',
    note: "as the first step of a new run, but the run's message list holds new message objects, as `Memory` recalls them from storage on every run (copies of the stored thread, made before the timed call), and each run's usage is recorded after it (not timed): the session holds the thread counted, not loaded",
    async run(input) {
      /** The thread as the storage holds it; each run recalls copies of it. */
      const stored = fromCoreMessages(input.history);
      let list = loadedList({ ...input, history: [] }, structuredClone(stored));
      const prompt = [] as unknown as Prompt;
      const steps = stepper(
        processor(NO_COMPACTION),
        () => list,
        () => prompt,
      );
      let next = input.history.length;
      let tokens = input.tokens;
      steps.prepareStep();
      await steps.firstStepOfRun();
      const stats = await measure(
        this.id,
        async () => {
          const sent = await steps.firstStepOfRun();
          if (sent !== prompt) throw new Error('mastra: the prompt changed without a compaction');
        },
        {
          ...input,
          beforeEach: async () => {
            await steps.reportUsage(tokens);
            stored.push(mastraMessage(next++, this.id));
            tokens += 260;
            list = loadedList({ ...input, history: [] }, structuredClone(stored));
            steps.newRun();
            steps.prepareStep();
          },
        },
      );
      // A benchmark must measure what it says: the thread was held counted, not loaded, after the last run.
      if (processCountedConversationMemory().size === 0)
        throw new Error('mastra: the recalled thread was not held counted');
      return { stats, messagesAtEnd: next };
    },
  },
  {
    id: 'mastra-recall-list',
    label: 'Mastra `MessageList` of a recalled thread (every new run with `Memory`)',
    framework: 'mastra',
    kind: 'reference',
    scenario: 'per-call',
    cost: 'medium',
    baseline: 'mastra-first-step-recalled',
    note: "Mastra's own work before a new run's first step, which `mastra-first-step-recalled` leaves out of its timing: `MessageList.add` of the recalled thread (`'memory'`), as the Agent adds what `Memory` recalled (the copies are made before, not timed)",
    async run(input) {
      const stored = fromCoreMessages(input.history);
      let next = input.history.length;
      let recalled: MastraDBMessage[] = [];
      const stats = await measure(
        this.id,
        () => {
          const list = loadedList({ ...input, history: [] }, recalled);
          if (list.get.all.db().length !== recalled.length)
            throw new Error('mastra: the recalled thread was not added');
        },
        {
          ...input,
          beforeEach: () => {
            stored.push(mastraMessage(next++, this.id));
            recalled = structuredClone(stored);
          },
        },
      );
      return { stats, messagesAtEnd: next };
    },
  },
  ...(['memory', 'thread-metadata'] as const).map(
    (store): BenchCase => ({
      id: store === 'memory' ? 'mastra-usage' : 'mastra-usage-thread-metadata',
      label:
        store === 'memory'
          ? 'Mastra `CompactionProcessor`, a step and its usage report (`memoryStore`)'
          : "Mastra `CompactionProcessor`, a step and its usage report (state in the thread's metadata)",
      framework: 'mastra',
      kind: 'variant',
      scenario: 'per-call',
      cost: 'medium',
      ...(store === 'memory' ? { baseline: 'mastra' } : { baseline: 'mastra-usage' }),
      note:
        store === 'memory'
          ? '`processInputStep` + `processLLMRequest` + `processLLMResponse` (the usage saved in the record), `store: memoryStore()`'
          : "the same with no `store` and a Memory on Mastra's `InMemoryStore`: the record is read from and saved in the thread's metadata (compare-and-set by revision)",
      async run(input) {
        const run = await growingRun(input, NO_COMPACTION, undefined, store, this.id);
        run.steps.prepareStep();
        await run.steps.firstStepOfRun();
        let tokens = input.tokens;
        const stats = await measure(
          this.id,
          async () => {
            const sent = await run.steps.step();
            if (sent !== run.basePrompt) throw new Error('mastra: the prompt changed without a compaction');
            await run.steps.reportUsage(tokens);
          },
          {
            ...input,
            beforeEach: () => {
              run.grow();
              tokens += 30;
            },
          },
        );
        if (run.storage) {
          const thread = await (await run.storage.getStore('memory'))?.getThreadById({ threadId: 'bench-thread' });
          const entry = thread?.metadata?.compaction as { record?: { usage?: { inputTokens?: number } } } | undefined;
          if (entry?.record?.usage?.inputTokens !== tokens)
            throw new Error('mastra: the usage was not saved in the thread');
        }
        return { stats, messagesAtEnd: run.next() };
      },
    }),
  ),
  {
    id: 'mastra-token-limiter',
    label: 'Mastra `TokenLimiterProcessor` `processLLMRequest`, nothing to trim',
    framework: 'mastra',
    kind: 'peer',
    scenario: 'per-call',
    cost: 'medium',
    baseline: 'mastra',
    note: 'the hook the v1 Agent uses for it (its `processInputStep` returns early there), on the provider prompt, limit above the history',
    async run(input) {
      const list = loadedList(input);
      const prompts = growingPrompt(
        (await list.get.all.aiV7.llmPrompt(PROMPT_OPTIONS)) as Prompt,
        input.history.length,
      );
      const limiter = new TokenLimiterProcessor({ limit: 50_000_000 });
      let prompt: Prompt = [];
      const stats = await measure(
        this.id,
        async () => {
          const result = await limiter.processLLMRequest(limiterArgs(prompt, list));
          if (result?.prompt) throw new Error('TokenLimiterProcessor trimmed');
        },
        {
          ...input,
          beforeEach: () => {
            prompt = prompts.grow();
          },
        },
      );
      return { stats, messagesAtEnd: prompts.next() };
    },
  },
  {
    id: 'mastra-prompt-rebuild',
    label: 'Mastra `MessageList` → provider prompt (every step)',
    framework: 'mastra',
    kind: 'reference',
    scenario: 'per-call',
    cost: 'medium',
    baseline: 'mastra',
    note: "Mastra's own conversion of the run's message list to the provider prompt (`get.all.aiV7.llmPrompt`), which it does before every model call",
    async run(input) {
      const list = loadedList(input);
      let next = input.history.length;
      const stats = await measure(this.id, () => list.get.all.aiV7.llmPrompt(PROMPT_OPTIONS), {
        ...input,
        beforeEach: () => void list.add(mastraMessage(next++), 'memory'),
      });
      return { stats, messagesAtEnd: next };
    },
  },
  {
    id: 'mastra-token-limiter-half',
    label: 'Mastra `TokenLimiterProcessor`, half must go',
    framework: 'mastra',
    kind: 'peer',
    scenario: 'trimming',
    cost: 'medium',
    baseline: 'mastra-after-compaction',
    note: 'the same hook with the limit at half the history: it trims on every call',
    async run(input) {
      const list = loadedList(input);
      const prompts = growingPrompt(
        (await list.get.all.aiV7.llmPrompt(PROMPT_OPTIONS)) as Prompt,
        input.history.length,
      );
      const limiter = new TokenLimiterProcessor({ limit: Math.round(input.tokens / 2) });
      let prompt: Prompt = [];
      const stats = await measure(
        this.id,
        async () => {
          const result = await limiter.processLLMRequest(limiterArgs(prompt, list));
          if (!result?.prompt || result.prompt.length >= prompt.length)
            throw new Error('TokenLimiterProcessor did not trim');
        },
        {
          ...input,
          beforeEach: () => {
            prompt = prompts.grow();
          },
        },
      );
      return { stats, messagesAtEnd: prompts.next() };
    },
  },
  {
    id: 'mastra-compaction',
    label: 'Mastra: the step that compacts',
    framework: 'mastra',
    kind: 'ours',
    scenario: 'compaction',
    cost: 'one-off',
    note: 'a run just under the trigger gets one more message: the step compacts (structured summarizer) and builds the prompt',
    async run(input) {
      let strategy = '';
      let run: Awaited<ReturnType<typeof growingRun>> | undefined;
      const stats = await measure(
        this.id,
        async () => {
          const sent = await run!.steps.step();
          expectCompaction(sent.length < run!.basePrompt.length, true, 'mastra compaction');
        },
        {
          ...input,
          beforeEach: async () => {
            run = await growingRun(input, compactAfter(input.tokens), (event) => {
              if (event.type === 'compaction:end') strategy = event.strategy;
            });
            run.steps.prepareStep();
            await run.steps.firstStepOfRun();
            run.grow();
          },
        },
      );
      return { stats, messagesAtEnd: input.history.length + 1, strategy };
    },
  },
  ...(
    [
      {
        id: 'mastra-after-compaction',
        label: 'Mastra `CompactionProcessor` step once compacted',
        note: 'per step once the run compacted: the processor also builds the prompt of summary + kept messages',
        stepsBefore: 0,
      },
      {
        id: 'mastra-after-compaction-far',
        label: `Mastra \`CompactionProcessor\` step ${FAR_STEPS} steps after compaction`,
        note: `as the step once compacted, after ${FAR_STEPS} more steps of the run (not timed): a step stays at its just-compacted cost however far the session runs`,
        stepsBefore: FAR_STEPS,
      },
    ] as const
  ).map(
    ({ id, label, note, stepsBefore }): BenchCase => ({
      id,
      label,
      framework: 'mastra',
      kind: 'ours',
      scenario: 'after-compaction',
      cost: 'medium',
      note,
      async run(input) {
        let strategy = '';
        const run = await growingRun(
          input,
          compactAfter(input.tokens),
          (event) => {
            if (event.type === 'compaction:end') strategy = event.strategy;
          },
          'memory',
          this.id,
        );
        run.steps.prepareStep();
        await run.steps.firstStepOfRun();
        run.grow();
        expectCompaction((await run.steps.step()).length < run.basePrompt.length, true, 'mastra setup');
        for (let step = 0; step < stepsBefore; step += 1) {
          run.grow();
          await run.steps.step();
        }
        const stats = await measure(
          this.id,
          async () => {
            const sent = await run.steps.step();
            if (sent.length >= run.basePrompt.length) throw new Error('mastra: the compacted prompt was not used');
          },
          { ...input, beforeEach: () => run.grow() },
        );
        return { stats, messagesAtEnd: run.next(), strategy };
      },
    }),
  ),
];

function limiterArgs(prompt: Prompt, messageList: MessageList): ProcessLLMRequestArgs {
  return {
    prompt,
    model,
    messageList,
    stepNumber: 0,
    steps: [],
    state: {},
    retryCount: 0,
    abort,
  } as unknown as ProcessLLMRequestArgs;
}
