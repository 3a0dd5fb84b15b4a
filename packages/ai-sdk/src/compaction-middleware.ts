import type { CompactionEvent, CompactionSession, Message } from '@compaction/core';
import type { LanguageModelMiddleware } from 'ai';
import type { CallOptions, GenerateResult, ProviderPrompt, StreamPart } from './ai-sdk-types.js';
import type { AiSdkModel } from './as-language-model.js';
import { compactionMetadata } from './compaction-metadata.js';
import type { CompactionMiddlewareOptions } from './compaction-options.js';
import { conversationKey } from './conversation-key.js';
import { type MessageConverter, messageConverter } from './message-converter.js';
import { sessionRegistry } from './session-registry.js';

/** {@link compactionMiddleware}'s middleware, with access to its conversations' sessions. */
export type CompactionMiddleware = LanguageModelMiddleware & {
  /**
   * The session this middleware keeps for a conversation (`providerOptions.compaction.sessionId`)
   * and model: what `contextTools` and a stats route read. Created on first use, its state loaded
   * from the store; the AI SDK re-sends the history, so it holds the messages of the last call.
   */
  session(sessionId: string, model: AiSdkModel | string): CompactionSession;
};

/** One model call in flight: the session that prepared it and what happened. */
type Call = { session: CompactionSession; converter: MessageConverter; messages: Message[]; events: CompactionEvent[] };

/**
 * Compaction for any AI SDK model, in one line:
 * `wrapLanguageModel({ model, middleware: compactionMiddleware({ store }) })`.
 *
 * Before every model call — every step of a tool loop too — the prompt is
 * converted to core messages and the conversation's session prepares the
 * context: over the trigger it compacts (pinned system messages, a summary as a
 * user message, the recent messages verbatim with tool calls paired). After the
 * call the provider's input tokens are recorded. When the provider rejects the
 * prompt as too long, the session compacts in emergency mode and the call is
 * retried once; any other error passes through untouched.
 *
 * A conversation is keyed by `providerOptions.compaction.sessionId` when given,
 * else by the content id of its opening exchange (first message and reply), so the re-sent
 * history of the next request finds the same state. A call that compacted
 * carries `providerMetadata.compaction` ({@link CompactionMetadata}).
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-5'), middleware: compactionMiddleware({ store }) });
 * ```
 */
export function compactionMiddleware(options: CompactionMiddlewareOptions = {}): CompactionMiddleware {
  const sessions = sessionRegistry(options);
  const converter = messageConverter();
  const calls = new WeakMap<CallOptions, Call>();

  return {
    specificationVersion: 'v4',

    session: (sessionId, model) => sessions.get(sessionId, model),

    async transformParams({ params, model }) {
      const messages = converter.toCore(params.prompt);
      const sessionId = explicitSessionId(params) ?? conversationKey(messages);
      if (sessionId === undefined) return params;
      const call: Call = { session: sessions.get(sessionId, model, messages.length), converter, messages, events: [] };
      const prompt = await prepare(call, params.abortSignal);
      const transformed = { ...params, prompt };
      calls.set(transformed, call);
      return transformed;
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const call = calls.get(params);
      if (!call) return doGenerate();
      const result = await retryOnOverflow(call, params, doGenerate, (prompt) =>
        model.doGenerate({ ...params, prompt }),
      );
      await call.session.recordUsage({ inputTokens: result.usage.inputTokens.total });
      return withMetadata(result, call.events);
    },

    async wrapStream({ doStream, params, model }) {
      const call = calls.get(params);
      if (!call) return doStream();
      const result = await retryOnOverflow(call, params, doStream, (prompt) => model.doStream({ ...params, prompt }));
      const finish = new TransformStream<StreamPart, StreamPart>({
        async transform(part, controller) {
          if (part.type === 'finish') {
            await call.session.recordUsage({ inputTokens: part.usage.inputTokens.total });
            controller.enqueue(withMetadata(part, call.events));
          } else controller.enqueue(part);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(finish) };
    },
  };
}

/** Runs the session's `prepare` and gives the context as a provider prompt. */
async function prepare(call: Call, signal: AbortSignal | undefined): Promise<ProviderPrompt> {
  const prepared = await collecting(call, () => call.session.prepare({ messages: call.messages, signal }));
  return call.converter.fromCore(prepared.messages) as ProviderPrompt;
}

/** The call; on a context overflow, one emergency compaction and one retry with the new prompt. */
async function retryOnOverflow<T>(
  call: Call,
  params: CallOptions,
  run: () => PromiseLike<T>,
  retry: (prompt: ProviderPrompt) => PromiseLike<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const signal = params.abortSignal;
    const recovered = await collecting(call, () => call.session.recoverFromOverflow(error, { signal }));
    if (!recovered) throw error;
    return retry(await prepare(call, signal));
  }
}

/** Runs `task` with the session's events collected into the call. */
async function collecting<T>(call: Call, task: () => Promise<T>): Promise<T> {
  const unsubscribe = call.session.on((event) => call.events.push(event));
  try {
    return await task();
  } finally {
    unsubscribe();
  }
}

function withMetadata<T extends Pick<GenerateResult, 'providerMetadata'>>(
  result: T,
  events: readonly CompactionEvent[],
): T {
  const compaction = compactionMetadata(events);
  return compaction ? { ...result, providerMetadata: { ...result.providerMetadata, compaction } } : result;
}

function explicitSessionId(params: CallOptions): string | undefined {
  const sessionId = params.providerOptions?.compaction?.sessionId;
  return typeof sessionId === 'string' && sessionId.length > 0 ? sessionId : undefined;
}
