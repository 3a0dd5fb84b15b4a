import {
  type CompactionSession,
  createConversationCache,
  type HistorySource,
  type PreparedContext,
} from '@compaction/core';
import { shouldRetryOnOverflow } from '@compaction/core/internal';
import type { MastraDBMessage, MessageList } from '@mastra/core/agent/message-list';
import type { LanguageModel as MastraLanguageModel } from '@mastra/core/llm';
import type {
  ProcessAPIErrorArgs,
  ProcessAPIErrorResult,
  ProcessInputArgs,
  ProcessInputStepArgs,
  ProcessLLMRequestArgs,
  ProcessLLMRequestResult,
  ProcessLLMResponseArgs,
  Processor,
} from '@mastra/core/processors';
import type { RequestContext } from '@mastra/core/request-context';
import { checkProcessorOptions } from './check-processor-options.js';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';
import { memoryThread } from './memory-thread.js';
import { type ThreadKey, type ThreadSession, type ThreadSessions, threadSessions } from './thread-sessions.js';
import { type RunThreadStores, runThreadStores } from './thread-store/run-thread-stores.js';
import { toCoreMessages } from './to-core-messages.js';

/** One agent run: its conversation's session and what the run last prepared. */
type Run = {
  thread: ThreadSession;
  /**
   * What the thread's `owner` holds for this run: a token, not the run, so a thread does not
   * keep its last run's message list and prepared context alive once the run is over.
   */
  token: object;
  /**
   * What the last prepared context was made from: the history source (the same object again
   * when nothing changed) and the first `length` of the run's Mastra messages `list`.
   */
  input?: { history: HistorySource; list: readonly MastraDBMessage[]; length: number };
  prepared?: PreparedContext;
  /** Whether the session had a compaction state when `prepared` was made. */
  compacted?: boolean;
};

/** What every hook that compacts has. */
type HookArgs = {
  state: Record<string, unknown>;
  messageList?: MessageList | undefined;
  requestContext?: RequestContext | undefined;
  abortSignal?: AbortSignal | undefined;
};

/**
 * A Mastra input (and error) processor that keeps an agent's context inside its
 * window by summarizing old messages instead of dropping them. Before the first
 * model call of a run (`processInput`) and before every step of the tool loop
 * (`processInputStep`) it hands the whole history — what `Memory` recalled, the
 * new input, this run's own steps — to a core compaction session, which
 * compacts when the policy says so. The model then receives the summary plus
 * the recent messages verbatim (`processLLMRequest`, built by Mastra's own
 * prompt conversion). A tool call always travels with its result, and the
 * latest ones are always kept (unlike `TokenLimiterProcessor`, which can drop
 * the run's own fresh call and result, mastra-ai/mastra#24110); what is cut
 * is summarized, not dropped. The message list and the stored messages are left
 * untouched: the full history stays stored, the summary is never saved as a message.
 * The compaction state goes in the Memory thread's metadata (key `compaction`,
 * see `threadMetadataStore`) unless a `store` is given.
 *
 * List it in `errorProcessors` too (or use `withCompaction`): then a
 * context-overflow error from the provider triggers one emergency compaction
 * and a retry.
 *
 * @example
 * ```ts
 * const compaction = new CompactionProcessor(); // state in the thread's metadata, next to the messages
 * const agent = new Agent({ id: 'coder', instructions, model, tools, memory,
 *   inputProcessors: [compaction], errorProcessors: [compaction] });
 * ```
 */
export class CompactionProcessor implements Processor {
  readonly id: string;
  readonly name = 'Compaction';
  readonly #options: CompactionProcessorOptions;
  readonly #sessions: ThreadSessions;
  /** Where a conversation's record is kept when the options name no store: its Mastra thread's metadata. */
  readonly #threadStores: RunThreadStores = runThreadStores();
  readonly #runs = new WeakMap<object, Run>();
  /** The key of each conversation's last run, so `session(id)` finds its session (bounded: one small entry a conversation). */
  readonly #lastKeys = createConversationCache<ThreadKey>({ maxBytes: 100_000, sizeOf: () => 1 });

  constructor(options: CompactionProcessorOptions = {}) {
    checkProcessorOptions(options); // throws InvalidSettingsError now, not mid-run
    this.id = options.id ?? 'compaction';
    this.#options = options;
    this.#sessions = threadSessions(options);
  }

  /**
   * The session of a conversation — its Memory thread id, or the `sessionId` option — as
   * its last run left it (the history of that run's last step), for `compactionContextTools`
   * and stats routes. Undefined before the conversation's first run in this process.
   */
  session(sessionId: string): CompactionSession | undefined {
    const key = this.#lastKeys.get(sessionId);
    return key ? this.#sessions.get(key).session : undefined;
  }

  /** Before the first model call: compacts the history the run is about to send. */
  async processInput(args: ProcessInputArgs): Promise<MessageList> {
    await this.#prepare(args, await agentModel(args));
    return args.messageList;
  }

  /** Before every step of the tool loop: compacts when the run has grown past the trigger. */
  async processInputStep(args: ProcessInputStepArgs): Promise<undefined> {
    await this.#prepare(args, args.model);
    return undefined;
  }

  /** Sends the model the compacted context: summary plus recent messages (this call only). */
  async processLLMRequest(args: ProcessLLMRequestArgs): Promise<ProcessLLMRequestResult> {
    const run = await this.#prepare(args, args.model);
    if (!run?.prepared || !run.compacted) return undefined;
    // Converted incrementally: a step costs what is new since the conversation's last step, not the whole context.
    const options = { prompt: args.prompt, model: args.model, live: args.messageList };
    return { prompt: await run.thread.prompts.build(run.prepared.messages, options) };
  }

  /** Records the input tokens the provider reported, for the next estimate. */
  async processLLMResponse(args: ProcessLLMResponseArgs): Promise<void> {
    const run = this.#runs.get(args.state);
    if (!run || args.fromCache) return;
    const finish = args.chunks.findLast((chunk) => chunk.type === 'finish');
    const usage = (finish?.payload as { output?: { usage?: { inputTokens?: unknown; outputTokens?: unknown } } })
      ?.output?.usage;
    if (typeof usage?.inputTokens !== 'number') return;
    const inputTokens = usage.inputTokens;
    await run.thread.exclusive(async () => {
      // The session's last prepared context is another run's (runs of one thread overlapped): not this usage's.
      if (run.thread.owner !== run.token) return;
      await run.thread.session.recordUsage({
        inputTokens,
        ...(typeof usage.outputTokens === 'number' ? { outputTokens: usage.outputTokens } : {}),
      });
      run.input = undefined; // the next prepare must look at the usage
    });
  }

  /** A context-overflow error: compacts in emergency mode and asks Mastra to retry the step. */
  async processAPIError(args: ProcessAPIErrorArgs): Promise<ProcessAPIErrorResult | undefined> {
    const run = this.#runs.get(args.state);
    if (!run) return undefined; // not in `inputProcessors`: the retried call could not be compacted
    const retry = await shouldRetryOnOverflow(args.error, (error) =>
      run.thread.exclusive(async () => {
        const { session } = run.thread;
        if (run.thread.owner !== run.token && run.input) {
          const history = run.thread.coreMessages.view(run.input.list.slice(0, run.input.length));
          await run.thread.prepare(history, signalOption(args.abortSignal));
          run.thread.owner = run.token;
        }
        run.input = undefined;
        return session.recoverFromOverflow(error, signalOption(args.abortSignal));
      }),
    );
    return retry ? { retry: true } : undefined;
  }

  /**
   * Brings the run's session in line with the message list and compacts if needed.
   * When neither the messages nor the session changed since the run's last prepare
   * (`processLLMRequest` right after `processInputStep`), that context is reused.
   */
  async #prepare(args: HookArgs, model: MastraLanguageModel | undefined): Promise<Run | undefined> {
    const { messageList } = args;
    if (!messageList) return undefined;
    let run = this.#runs.get(args.state);
    if (!run) {
      run = this.#startRun(args.requestContext, messageList, model);
      if (!run) return undefined;
      this.#runs.set(args.state, run);
    }
    const current = run;
    const { thread } = current;
    await thread.exclusive(async () => {
      const list = messageList.get.all.db();
      const history = thread.coreMessages.view(list);
      const { input } = current;
      const unchanged = input?.history === history && input.length === list.length;
      if (current.prepared && unchanged && thread.owner === current.token) return;
      current.input = undefined;
      current.prepared = await thread.prepare(history, signalOption(args.abortSignal));
      current.compacted = (await thread.session.state()) !== undefined;
      current.input = { history, list, length: list.length };
      thread.owner = current.token;
    });
    return current;
  }

  /** The run's conversation and its session, or undefined while the model it needs is not known yet. */
  #startRun(
    requestContext: RequestContext | undefined,
    messageList: MessageList,
    model: MastraLanguageModel | undefined,
  ): Run | undefined {
    const modelId = this.#options.model ?? model?.modelId;
    if (this.#options.summarizer === undefined && !model) return undefined;
    if (modelId === undefined && this.#options.settings?.contextWindow === undefined) return undefined;
    const thread = memoryThread(requestContext, messageList);
    const ids = thread.stored ? 'message' : 'content';
    const sessionId = thread.threadId ?? this.#options.sessionId ?? conversationId(messageList);
    if (sessionId === undefined) return undefined;
    const store = this.#options.store ? undefined : this.#threadStores.storeOf(thread);
    const key: ThreadKey = { sessionId, ids, modelId, model, ...(store ? { store } : {}) };
    this.#lastKeys.put(sessionId, key);
    return { thread: this.#sessions.get(key), token: {} };
  }
}

/** The agent's model in `processInput`, where Mastra passes the agent only sometimes. */
async function agentModel(args: ProcessInputArgs): Promise<MastraLanguageModel | undefined> {
  try {
    const model = await args.agent?.getModel(args.requestContext ? { requestContext: args.requestContext } : {});
    return model && typeof model === 'object' && 'doGenerate' in model ? (model as MastraLanguageModel) : undefined;
  } catch {
    return undefined; // a dynamic model that cannot be resolved here: processInputStep has it
  }
}

/** A conversation's id without memory: the content id of its first message. */
function conversationId(messageList: MessageList): string | undefined {
  const first = messageList.get.all.db()[0];
  const [id] = first ? toCoreMessages([first], { ids: 'content' }) : [];
  return id ? `mastra-${id.id}` : undefined;
}

function signalOption(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}
