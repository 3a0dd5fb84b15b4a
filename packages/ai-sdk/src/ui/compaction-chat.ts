import type { CompactionEndEvent, CompactionErrorEvent, CompactionSession, CompactionState } from '@compaction/core';
import { InvalidSettingsError } from '@compaction/core';
import { type UIMessage, type UIMessageStreamWriter, wrapLanguageModel } from 'ai';
import type { LanguageModelV4 } from '../ai-sdk-types.js';
import { type AiSdkModel, asLanguageModel } from '../as-language-model.js';
import { checkCompactionOptions } from '../check-compaction-options.js';
import { checkedCompactionMiddleware } from '../compaction-middleware.js';
import type { CompactionOptions } from '../compaction-options.js';
import { formatCompactionNotice } from '../format-compaction-notice.js';
import { sessionRegistry } from '../session-registry.js';
import { type ChatPrompt, chatCoreMessages, checkChatPrompt } from './chat-prompt.js';
import type {
  CompactionBoundary,
  CompactionContextData,
  CompactionData,
  CompactionUIMessage,
} from './compaction-data.js';
import { locateUiMessage } from './locate-ui-message.js';

/** The longest `focus` {@link CompactionChat.compact} takes: it goes into the summary request. */
export const MAX_FOCUS_CHARS = 2000;

/** Options of {@link compactionChat}: the middleware's options and the model to chat with. */
export type CompactionChatOptions = CompactionOptions & {
  /** The model the chat talks to (a model object, not a string id). */
  model: AiSdkModel;
};

/** What {@link CompactionChat.stats} returns: the usage bar's figures and where the last compaction cut. */
export type ChatStats = {
  context: CompactionContextData;
  /** The last compaction, when the conversation has one. */
  compaction: CompactionBoundary | undefined;
};

/** What {@link CompactionChat.compact} returns. */
export type ChatCompaction =
  | { compacted: true; compaction: CompactionData; context: CompactionContextData }
  | { compacted: false; reason: string; context: CompactionContextData };

/** Options of {@link CompactionChat.streamCompaction}: the request's prompt and ids. */
export type CompactionStreamOptions = ChatPrompt & {
  /** The conversation's id (the one given to `providerOptions`). */
  chatId: string;
  /**
   * The id of the message being streamed (`generateMessageId` of `toUIMessageStream`): the
   * boundary when a compaction during a tool loop cuts inside it.
   * @default undefined (such a boundary has no `firstKeptMessageId`)
   */
  responseMessageId?: string;
};

/** What {@link CompactionChat.streamCompaction} returns. */
export type CompactionStream = {
  /**
   * Give it as `onFinish` of `result.toUIMessageStream({ originalMessages, onFinish })`:
   * waits for the `data-compaction` parts still being written, then writes a
   * `data-compaction-context` part for the finished conversation, and stops listening.
   */
  onFinish(event: { messages: readonly UIMessage[] }): Promise<void>;
  /** Stops listening without writing (call it when the stream fails). */
  stop(): void;
};

/** The chunk writer {@link CompactionChat.streamCompaction} needs: any `UIMessageStreamWriter`. */
export type CompactionChunkWriter = Pick<UIMessageStreamWriter<CompactionUIMessage>, 'write'>;

/**
 * A chat app's compaction, server side: the model wrapped with
 * `compactionMiddleware`, the writer of `data-compaction` parts for a streaming
 * route, and `compact` / `stats` for a conversation id (what `POST …/compact` and
 * `GET …/stats` call). All four share one set of sessions, so a manual compaction is
 * what the next model call sends, and memory and the store never disagree.
 *
 * Give `compact` and `stats` the prompt you give `streamText` (messages, instructions,
 * tools): a conversation is found by the content ids of exactly that prompt.
 *
 * @throws InvalidSettingsError when `model` is missing or a string id, or a setting is invalid
 *   (window-dependent settings are checked against `settings.contextWindow`, else the window of
 *   the model's id when it is known — built in or registered; an unknown id's window may be
 *   registered before the first call, which checks it, before anything is sent).
 * @example
 * ```ts
 * const chat = compactionChat({ model: openai('gpt-5'), store: fileStore('.sessions') });
 * const result = streamText({ model: chat.model, messages, providerOptions: chat.providerOptions(chatId) });
 * ```
 */
export function compactionChat(options: CompactionChatOptions): CompactionChat {
  if (options?.model === undefined || typeof options.model === 'string') {
    throw new InvalidSettingsError({
      setting: 'model',
      problem: 'expected a model object (e.g. openai("gpt-5")); a string id cannot be wrapped with the middleware',
    });
  }
  checkCompactionOptions(options, 'compactionChat'); // the settings against the model's window too, when known
  const base = asLanguageModel(options.model);
  const middleware = checkedCompactionMiddleware(options);
  const registry = sessionRegistry(options);
  const model = wrapLanguageModel({ model: base, middleware });
  const sessionOf = (chatId: string) => registry.get(chatId, base);

  /** Brings the session's history in line with the prompt without compacting (appends what is new). */
  async function sync(chatId: string, prompt: ChatPrompt): Promise<CompactionSession> {
    const messages = await chatCoreMessages(prompt, base);
    const session = sessionOf(chatId);
    const history = await session.history();
    const extends_ =
      history.length <= messages.length && history.every((message, index) => message.id === messages[index]!.id);
    if (extends_) await session.append(messages.slice(history.length));
    else await session.prepare({ messages }); // the conversation branched: core decides what still holds
    return session;
  }

  async function contextOf(chatId: string, session: CompactionSession): Promise<CompactionContextData> {
    const stats = await session.stats();
    return { sessionId: chatId, ...stats };
  }

  async function boundaryOf(
    chatId: string,
    state: CompactionState,
    prompt: ChatPrompt,
    responseMessageId?: string,
  ): Promise<CompactionBoundary> {
    const index = await locateUiMessage(prompt, state.firstKeptMessageId, base);
    return boundaryAt(chatId, state, prompt, index, responseMessageId);
  }

  /** The boundary at UI message `index` of the prompt (-1: in none of them, e.g. the response being streamed). */
  function boundaryAt(
    chatId: string,
    state: CompactionState,
    prompt: ChatPrompt,
    index: number,
    responseMessageId?: string,
  ): CompactionBoundary {
    return {
      sessionId: chatId,
      version: state.version,
      strategy: state.strategy,
      firstKeptMessageId: index >= 0 ? prompt.messages[index]!.id : responseMessageId,
      messagesSummarized: state.summarizedRange.messageCount,
      tokensBefore: state.tokensBefore,
      tokensAfter: state.tokensAfter,
      summary: state.summary,
      createdAt: state.createdAt,
    };
  }

  async function dataOf(
    chatId: string,
    event: CompactionEndEvent,
    prompt: ChatPrompt,
    responseMessageId?: string,
  ): Promise<CompactionData> {
    const state = event.result.state;
    const index = await locateUiMessage(prompt, state.firstKeptMessageId, base);
    // The notice counts UI messages before the boundary, the figure the compaction marker shows.
    const uiSummarized = index >= 0 ? index : prompt.messages.length;
    return {
      ...boundaryAt(chatId, state, prompt, index, responseMessageId),
      messagesSummarized: event.messagesSummarized,
      tokensBefore: event.tokensBefore,
      tokensAfter: event.tokensAfter,
      trigger: event.trigger,
      messagesBefore: event.messagesBefore,
      messagesAfter: event.messagesAfter,
      durationMs: event.durationMs,
      fallbacks: event.fallbacks.map(({ strategy, error }) => ({ strategy, error })),
      notice: formatCompactionNotice({ ...event, messagesSummarized: uiSummarized, result: undefined }),
    };
  }

  return {
    model,

    providerOptions(chatId) {
      checkChatPrompt(chatId, { messages: [] });
      return { compaction: { sessionId: chatId } };
    },

    streamCompaction(writer, streamOptions) {
      const { chatId, responseMessageId, ...prompt } = streamOptions;
      checkChatPrompt(chatId, prompt);
      const writes: Promise<void>[] = [];
      const unsubscribe = sessionOf(chatId).on((event) => {
        if (event.type === 'compaction:error') {
          const { sessionId, trigger, message, tokensBefore } = event;
          const data = { sessionId, trigger, message, tokensBefore };
          writer.write({ type: 'data-compaction-error', data, transient: true });
          return;
        }
        if (event.type !== 'compaction:end') return;
        writes.push(
          dataOf(chatId, event, prompt, responseMessageId).then(
            (data) => writer.write({ type: 'data-compaction', id: `compaction-${data.version}`, data }),
            () => {}, // a UI part must never break the response
          ),
        );
      });
      return {
        async onFinish({ messages }) {
          unsubscribe();
          await Promise.all(writes);
          try {
            const session = await sync(chatId, { ...prompt, messages });
            const data = await contextOf(chatId, session);
            writer.write({ type: 'data-compaction-context', id: 'compaction-context', data });
          } catch {
            // The figures are informative: the response stands without them.
          }
        },
        stop: unsubscribe,
      };
    },

    async compact(chatId, compactOptions) {
      const { focus, signal, ...prompt } = compactOptions;
      checkChatPrompt(chatId, prompt);
      if (focus !== undefined && typeof focus !== 'string') {
        throw new InvalidSettingsError({
          setting: 'focus',
          problem: 'expected a string (what the summary should keep)',
        });
      }
      if (focus !== undefined && focus.length > MAX_FOCUS_CHARS) {
        throw new InvalidSettingsError({
          setting: 'focus',
          problem: `${focus.length} characters; a focus is a few words or sentences (at most ${MAX_FOCUS_CHARS})`,
        });
      }
      const session = await sync(chatId, prompt);
      let end: CompactionEndEvent | undefined;
      let error: CompactionErrorEvent | undefined;
      const unsubscribe = session.on((event) => {
        if (event.type === 'compaction:end') end = event;
        if (event.type === 'compaction:error') error = event;
      });
      try {
        await session.compact({
          ...(focus?.trim() ? { instructions: focus.trim() } : {}),
          ...(signal ? { signal } : {}),
        });
      } finally {
        unsubscribe();
      }
      const context = await contextOf(chatId, session);
      if (!end) return { compacted: false, reason: error?.message ?? 'nothing to compact', context };
      return { compacted: true, compaction: await dataOf(chatId, end, prompt), context };
    },

    async stats(chatId, prompt) {
      checkChatPrompt(chatId, prompt);
      const session = await sync(chatId, prompt);
      const state = await session.state();
      return {
        context: await contextOf(chatId, session),
        compaction: state ? await boundaryOf(chatId, state, prompt) : undefined,
      };
    },
  };
}

/** What {@link compactionChat} returns. */
export type CompactionChat = {
  /** The model wrapped with `compactionMiddleware`: give it to `streamText`. */
  readonly model: LanguageModelV4;
  /**
   * `providerOptions` for `streamText`, keying the conversation by your chat id:
   * `{ compaction: { sessionId: chatId } }`.
   * @throws InvalidSettingsError when `chatId` is not a non-empty string.
   */
  providerOptions(chatId: string): { compaction: { sessionId: string } };
  /**
   * Writes a `data-compaction` part into `writer` (of `createUIMessageStream`) as soon as a
   * compaction of this conversation ends while `streamText` runs (a transient
   * `data-compaction-error` part when one fails or cannot help), and, through the returned
   * `onFinish`, a `data-compaction-context` part with the figures of the finished conversation.
   * `responseMessageId` is the id of the message being streamed (the boundary when the cut
   * falls in it, during a tool loop).
   * @throws InvalidSettingsError when `chatId` or the prompt is malformed.
   */
  streamCompaction(writer: CompactionChunkWriter, options: CompactionStreamOptions): CompactionStream;
  /**
   * Manual compaction (`/compact [focus]`): summarizes all but the recent messages now,
   * with `focus` as extra instructions for the summary.
   * @throws InvalidSettingsError when `chatId`, the prompt or `focus` is malformed.
   */
  compact(
    chatId: string,
    options: ChatPrompt & {
      /**
       * What the summary should keep above all (at most {@link MAX_FOCUS_CHARS} characters).
       * @default undefined (the summarizer's own instructions)
       */
      focus?: string;
      /**
       * Aborts the summary.
       * @default undefined
       */
      signal?: AbortSignal;
    },
  ): Promise<ChatCompaction>;
  /**
   * The usage bar's figures and the last compaction's boundary, for a page (re)loading a conversation.
   * @throws InvalidSettingsError (the promise rejects) when `chatId` is blank or the prompt is
   *   malformed: `messages` must be UI messages, not `ModelMessage`s.
   */
  stats(chatId: string, prompt: ChatPrompt): Promise<ChatStats>;
};
