import { type CompactionEvent, type CompactionSession, InvalidSettingsError, resolveSettings } from '@compaction/core';
import { retryOnOverflow, shouldRetryOnOverflow } from '@compaction/core/internal';
import type { LanguageModelMiddleware } from 'ai';
import type { CallOptions, GenerateResult, ProviderPrompt, StreamPart, StreamResult } from './ai-sdk-types.js';
import type { AiSdkModel } from './as-language-model.js';
import { certainWindow } from './certain-window.js';
import { checkCompactionOptions } from './check-compaction-options.js';
import { checkProviderOptions } from './check-provider-options.js';
import { compactionMetadata } from './compaction-metadata.js';
import type { CompactionMiddlewareOptions } from './compaction-options.js';
import { type ConversationInEntry, convertInEntry } from './convert-in-entry.js';
import type { ConvertedHistory } from './converted-history.js';
import { type MessageConverter, messageConverter } from './message-converter.js';
import { placeConversation } from './place-conversation.js';
import { type SessionRegistry, sessionRegistry } from './session-registry.js';

/** {@link compactionMiddleware}'s middleware, with access to its conversations' sessions. */
export type CompactionMiddleware = LanguageModelMiddleware & {
  /**
   * The session this middleware keeps for a conversation (`providerOptions.compaction.sessionId`)
   * and model: what `contextTools` and a stats route read. Created on first use, its state loaded
   * from the store; the AI SDK re-sends the history, so it holds the messages of the last call.
   */
  session(sessionId: string, model: AiSdkModel | string): CompactionSession;
};

/**
 * Where `transformParams` leaves a call for `wrapGenerate` / `wrapStream`: a property
 * of the params object it returns (the very object they get), so the call lives
 * exactly as long as those params. Not a `WeakMap` keyed by them: V8's scavenges
 * keep the keys of an old map alive until a full collection, and the params hold
 * the call's whole prompt — a 10,000-message prompt a call, aged into the old heap.
 */
const CALL = Symbol('compaction.call');

function callOf(params: CallOptions): Call | undefined {
  return (params as CallOptions & { [CALL]?: Call })[CALL];
}

/** One model call in flight: the session that prepared it, its prompt as given and converted, and what happened. */
type Call = {
  session: CompactionSession;
  sessions: SessionRegistry;
  conversation: ConversationInEntry;
  converter: MessageConverter;
  prompt: ProviderPrompt;
  /** The prompt converted, as the session reads it (`prepare({ history })`). */
  history: ConvertedHistory;
  events: CompactionEvent[];
};

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
 * A conversation is keyed by `providerOptions.compaction.sessionId` when given
 * (checked at each call: `compaction` an object whose only key is `sessionId`, a
 * string with a visible character, or `undefined` for none; anything else is an `InvalidSettingsError`),
 * else by the content id of its opening exchange (first message and reply), so the re-sent
 * history of the next request finds the same state; its session and its last
 * conversion are one entry of the process's conversation budget. A call that compacted
 * carries `providerMetadata.compaction` ({@link CompactionMetadata}).
 *
 * Options are checked when it is made; settings that depend on the window (without
 * `settings.contextWindow`) when `wrapLanguageModel` wraps a model whose id's window is known
 * (built in or registered with `registerContextWindows`), else at the first call — before
 * anything is sent (a window registered after the wrap is the one checked).
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-5'), middleware: compactionMiddleware({ store }) });
 * ```
 */
export function compactionMiddleware(options: CompactionMiddlewareOptions = {}): CompactionMiddleware {
  checkCompactionOptions(options, 'compactionMiddleware'); // at construction, not at the first call
  return checkedCompactionMiddleware(options);
}

/**
 * `middleware: compactionMiddleware` (the factory, not called) would be a middleware with no
 * hooks, which the AI SDK runs as a no-op: no compaction, no error. `wrapLanguageModel` reads
 * the hooks off the middleware when it wraps, so the factory answers that read with an
 * `InvalidSettingsError` that says to call it — at once, when the model is wrapped.
 */
for (const hook of ['transformParams', 'wrapGenerate', 'wrapStream']) {
  Object.defineProperty(compactionMiddleware, hook, {
    get(): never {
      throw new InvalidSettingsError({
        setting: 'middleware',
        problem: `compactionMiddleware was given as a middleware without being called (the AI SDK read its ${hook}); call it and pass its result: wrapLanguageModel({ model, middleware: compactionMiddleware({ store, … }) })`,
      });
    },
  });
}

/**
 * {@link compactionMiddleware} over options its caller has checked already (`compactionChat`,
 * whose options also hold the chat's `model`, which the middleware itself refuses).
 */
export function checkedCompactionMiddleware(options: CompactionMiddlewareOptions): CompactionMiddleware {
  const sessions = sessionRegistry(options);
  const converter = messageConverter();

  return {
    specificationVersion: 'v4',

    session: (sessionId, model) => sessions.get(sessionId, model),

    // `wrapLanguageModel` asks this when it wraps (unless given a `modelId`): the first moment the
    // model is known. Window-dependent settings are checked there, at once, as the model's sessions
    // will resolve them — when the window is certain now (`settings.contextWindow`, or an id built in
    // or registered); an unknown id's window may be registered before the first call, which checks
    // it. The id is returned unchanged.
    overrideModelId({ model }) {
      const window = options.settings?.contextWindow ?? certainWindow(model.modelId);
      if (window !== undefined) resolveSettings(options.settings, window);
      return model.modelId;
    },

    async transformParams({ params, model }) {
      const explicit = checkProviderOptions(params.providerOptions); // at the call that receives it
      const conversation = convertInEntry(sessions, converter, params.prompt, explicit, model);
      if (conversation === undefined) return params;
      const { session, history } = conversation;
      const call: Call = { session, sessions, conversation, converter, prompt: params.prompt, history, events: [] };
      const prompt = await prepare(call, params.abortSignal);
      const transformed = { ...params, prompt };
      Object.defineProperty(transformed, CALL, { value: call }); // not enumerable: not copied, never sent
      return transformed;
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const call = callOf(params);
      if (!call) return doGenerate();
      const result = await retryOnOverflow({
        call: doGenerate,
        recover: (error) => recover(call, params, error),
        retry: async () => model.doGenerate({ ...params, prompt: await prepare(call, params.abortSignal) }),
      });
      await call.session.recordUsage({ inputTokens: result.usage.inputTokens.total });
      return withMetadata(result, call.events);
    },

    async wrapStream({ doStream, params, model }) {
      const call = callOf(params);
      if (!call) return doStream();
      const retry = (prompt: ProviderPrompt) => model.doStream({ ...params, prompt });
      const result = await recoverStreamErrorPart(
        call,
        params,
        await retryOnOverflow({
          call: doStream,
          recover: (error) => recover(call, params, error),
          retry: async () => retry(await prepare(call, params.abortSignal)),
        }),
        retry,
      );
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

/**
 * Runs the session's `prepare` and gives the context as a provider prompt. Only the
 * events of a compaction this call ran are kept for its metadata: concurrent calls of
 * one conversation wait for each other's compaction (single flight) and hear its
 * events, but only the call that compacted carries `providerMetadata.compaction`.
 */
async function prepare(call: Call, signal: AbortSignal | undefined): Promise<ProviderPrompt> {
  const heard: CompactionEvent[] = [];
  const prepared = await collecting(call.session, heard, () => call.session.prepare({ history: call.history, signal }));
  placeConversation(call.sessions, call.converter, call.conversation, prepared.asIs === true);
  const own = prepared.compaction;
  if (own) {
    call.events.push(
      ...heard.filter((event) => event.type !== 'compaction:end' || event.result.state.version === own.state.version),
    );
  }
  // The context is the prompt as it came: sent as it is, `messages` never read (`asIs`: reading
  // it would ask the history for all of it; `wholeHistory`: it would copy the context).
  if (prepared.asIs || prepared.wholeHistory === call.history.length) return call.prompt;
  return call.converter.fromCore(prepared.messages, call.history, call.prompt) as ProviderPrompt;
}

/** The emergency compaction after an overflow; its events go to this call (an overflow compaction is the caller's own). */
async function recover(call: Call, params: CallOptions, error: unknown): Promise<boolean> {
  const heard: CompactionEvent[] = [];
  const signal = params.abortSignal;
  const recovered = await collecting(call.session, heard, () => call.session.recoverFromOverflow(error, { signal }));
  if (recovered) call.events.push(...heard.filter((event) => 'trigger' in event && event.trigger === 'overflow'));
  return recovered;
}

/** Stream parts a provider sends before any content: a stream can still be retried after them. */
const LEADING_PARTS: ReadonlySet<string> = new Set(['stream-start', 'response-metadata', 'raw']);

/**
 * A provider that reports the overflow as an `error` part of the stream (Bedrock,
 * several gateways) instead of rejecting the call: the parts before any content are
 * read ahead; an overflow error among them gets one emergency compaction and one retry
 * on a new stream (whose own errors pass through: no loop). Any other stream is
 * returned as it is, its read-ahead parts first.
 */
async function recoverStreamErrorPart(
  call: Call,
  params: CallOptions,
  result: StreamResult,
  retry: (prompt: ProviderPrompt) => PromiseLike<StreamResult>,
): Promise<StreamResult> {
  const reader = result.stream.getReader();
  const readAhead: StreamPart[] = [];
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    const part = next.value;
    if (part.type === 'error' && (await shouldRetryOnOverflow(part.error, (error) => recover(call, params, error)))) {
      reader.cancel().catch(() => undefined);
      return retry(await prepare(call, params.abortSignal));
    }
    readAhead.push(part);
    if (!LEADING_PARTS.has(part.type)) break;
  }
  const stream = new ReadableStream<StreamPart>({
    start(controller) {
      for (const part of readAhead) controller.enqueue(part);
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { ...result, stream };
}

/** Runs `task` with the session's events collected into `into`. */
async function collecting<T>(session: CompactionSession, into: CompactionEvent[], task: () => Promise<T>): Promise<T> {
  const unsubscribe = session.on((event) => into.push(event));
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
