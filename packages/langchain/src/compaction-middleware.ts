import {
  type AdapterOptions,
  conversationCacheKey,
  conversationTokenCache,
  createCompactionSession,
  type HistorySource,
  InvalidMessageError,
  type Message,
} from '@compaction/core';
import { retryOnOverflow } from '@compaction/core/internal';
import { type AIMessage, type BaseMessage, RemoveMessage } from '@langchain/core/messages';
import { Command, REMOVE_ALL_MESSAGES } from '@langchain/langgraph';
import { createMiddleware } from 'langchain';
import { agentStateStore } from './agent-state-store.js';
import { checkCompactionMiddlewareOptions } from './check-langchain-options.js';
import { compactionStateSchema } from './compaction-state-schema.js';
import type { Conversion } from './extend-conversion.js';
import { extendFromCore, fromCoreContext } from './from-core-messages.js';
import { loadConversion } from './held-conversion.js';
import { modelIdOf } from './model-id-of.js';
import { prepareGrown } from './prepare-grown.js';
import { profileContextWindow } from './profile-context-window.js';
import { COMPACTION_REQUEST_KEY, COMPACTION_STATE_KEY } from './request-compaction.js';
import { resolveSummarizer, type SummarizerOption } from './resolve-summarizer.js';
import { canReuse, type ThreadSession, threadSession, threadSessions } from './thread-sessions.js';
import { extendToCore } from './to-core-messages.js';

/**
 * Options of {@link compactionMiddleware}: core's `settings`, `counter` and `onEvent`
 * (`AdapterOptions`; without `settings.contextWindow` the window comes from the model's
 * profile, `profile.maxInputTokens`, else from core's table for the model id), and
 * LangChain's own. Counters are core's, never LangChain's (which downloads tables).
 */
export type CompactionMiddlewareOptions = AdapterOptions & {
  /**
   * Model id, for the context window and usage calibration.
   * @default the agent model's `model` / `modelName`
   */
  model?: string;
  /**
   * What makes the summaries: a core `Summarizer`, a LangChain chat model, or
   * `'structured'` (deterministic, no model call). Whatever it is, a failing
   * summarizer falls back to the structured one.
   * @default the agent's model (`request.model`) when it is a chat model, else 'structured'
   */
  summarizer?: SummarizerOption;
  /**
   * `'context'`: the agent state keeps every message and each model call sees the
   * compacted context. `'replace'`: a compaction also rewrites the state
   * (`RemoveMessage(REMOVE_ALL_MESSAGES)` + summary + kept messages), like
   * LangChain's `summarizationMiddleware`.
   * @default 'context'
   */
  mode?: 'context' | 'replace';
  /**
   * The middleware's name (unique within an agent).
   * @default 'CompactionMiddleware'
   */
  name?: string;
};

/**
 * Agent middleware for `createAgent` that compacts before every model call,
 * between the tool calls of one run too (`wrapModelCall`). The model sees
 * `[summary] + [recent messages]` with every tool result next to its call; the
 * compaction record (core's `CompactionState`, usage, calibration) lives in the
 * agent state under `_compaction`, so a checkpointer persists it and a resumed
 * thread gets the same context. A context-overflow error from the model (also
 * wrapped in a `MiddlewareError`) triggers one emergency compaction and one retry.
 * `requestCompaction()` asks for a manual compaction before the next call.
 *
 * @example
 * ```ts
 * const agent = createAgent({
 *   model: 'openai:gpt-5',
 *   tools,
 *   middleware: [compactionMiddleware({ settings: { keepRecentTokens: 20_000 } })],
 *   checkpointer: new MemorySaver(),
 * });
 * ```
 */
export function compactionMiddleware(options: CompactionMiddlewareOptions = {}) {
  const { settings, mode = 'context' } = options;
  checkCompactionMiddlewareOptions(options); // fail at setup, not mid-run
  // Shared by every call, thread, middleware and adapter: a call counts only the messages no call counted before.
  const tokenCache = conversationTokenCache(options.counter);
  const sessions = threadSessions();
  return createMiddleware({
    name: options.name ?? 'CompactionMiddleware',
    stateSchema: compactionStateSchema,
    wrapModelCall: async (request, handler) => {
      const signal = request.runtime.signal;
      const sessionId = String(request.runtime.configurable?.thread_id ?? 'default');
      const incoming = request.state[COMPACTION_STATE_KEY];
      const store = agentStateStore(incoming);
      const window = settings?.contextWindow ?? profileContextWindow(request.model);
      const model = options.model ?? modelIdOf(request.model);
      const setup = [window, model, options.summarizer ?? request.model];
      const manual = request.state[COMPACTION_REQUEST_KEY];
      const threadKey = conversationCacheKey(sessionId, model);
      const kept = sessions.take(threadKey);
      let thread: ThreadSession | undefined;
      let input: Conversion<BaseMessage, Message>;
      let output: Conversion<Message, BaseMessage> | undefined;
      let source: HistorySource;
      let sent: BaseMessage[];
      try {
        input = extendToCore(kept?.input, request.messages);
        // A manual compaction appends the history to a new session; other calls reuse the thread's while they can.
        if (kept && !manual && canReuse(kept, { setup, record: incoming, input })) thread = kept.thread;
        thread ??= threadSession(store, (sessionStore) =>
          createCompactionSession({
            store: sessionStore,
            sessionId,
            summarizer: resolveSummarizer(options.summarizer, request.model),
            settings: window === undefined ? { ...settings } : { ...settings, contextWindow: window },
            ...(model !== undefined ? { model } : {}),
            tokenCache,
            persistHistory: false,
            ...(options.onEvent ? { onEvent: options.onEvent } : {}),
          }),
        );
        thread.use(store);
        if (manual) {
          loadConversion(input);
          await thread.session.append(input.result);
          await thread.session.compact({
            ...(manual.instructions ? { instructions: manual.instructions } : {}),
            signal,
          });
        }
        // A kept session holds the kept source's messages, the first of `history` (`canReuse`): it reads only the rest.
        const grown = await prepareGrown(
          thread.session,
          input,
          thread === kept?.thread ? kept.source : undefined,
          signal,
        );
        source = grown.source;
        const { prepared } = grown;
        if (prepared.asIs || prepared.wholeHistory === input.source.length) {
          // The context is the state's messages as they are (restored ones too): sent as they came, nothing converted back.
          output = undefined;
          sent = request.messages;
        } else {
          loadConversion(input); // core loaded the history from the source (this does nothing then)
          // A thread restored from a checkpointer is sent as restored, not as it was converted.
          output = input.restored
            ? fromCoreContext(prepared.messages, input)
            : extendFromCore(kept?.output, prepared.messages);
          // A copy: what the handler does with its messages must not reach the kept conversion.
          sent = output.result.slice();
        }
      } catch (error) {
        // Messages core cannot take (a legacy type, duplicate ids): the call goes out as it came.
        if (!InvalidMessageError.isInstance(error)) throw error;
        options.onEvent?.({
          type: 'compaction:error',
          sessionId,
          trigger: manual ? 'manual' : 'auto',
          message: `messages not compacted: ${error.message}`,
          tokensBefore: 0,
          error,
        });
        return handler(request);
      }
      const { session } = thread;
      const response: AIMessage = await retryOnOverflow({
        call: () => handler({ ...request, messages: sent }),
        recover: (error) => session.recoverFromOverflow(error, { signal }),
        retry: async () => {
          const context = await session.context();
          loadConversion(input);
          sent = fromCoreContext(context, input).result;
          return handler({ ...request, messages: sent }); // a second overflow surfaces
        },
      });
      const inputTokens = response.usage_metadata?.input_tokens;
      if (inputTokens) await session.recordUsage({ inputTokens });
      const update: Record<string, unknown> = {};
      const record = store.changed ? store.record : incoming;
      if (store.changed) update[COMPACTION_STATE_KEY] = record;
      if (manual) update[COMPACTION_REQUEST_KEY] = null;
      if (mode === 'replace' && !sameMessages(sent, request.messages)) {
        update.messages = [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...sent, response];
        // The rewritten state is the context: the reported usage now covers its first `sent.length` messages.
        if (record?.usage)
          update[COMPACTION_STATE_KEY] = { ...record, usage: { ...record.usage, historyLength: sent.length } };
      } else {
        // The state keeps its messages and gets this record: the thread's next call can go on from here.
        sessions.keep(threadKey, { thread, setup, record, input, source, ...(output ? { output } : {}) });
      }
      return Object.keys(update).length > 0 ? new Command({ update }) : response;
    },
  });
}

function sameMessages(sent: readonly BaseMessage[], history: readonly BaseMessage[]): boolean {
  return sent.length === history.length && sent.every((message, index) => message === history[index]);
}
