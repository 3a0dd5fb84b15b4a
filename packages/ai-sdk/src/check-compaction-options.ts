import { describeValue, InvalidSettingsError, type PeerOptionHint } from '@compaction/core';
import { checkAdapterOptions } from '@compaction/core/internal';
import type { CompactionPrepareStepOptions } from './compaction-options.js';
import { aiSdkSummarizerResolver, isAiSdkModel } from './resolve-summarizer.js';

/** Every option. Typed against the options type: a new option must be listed here, or the typecheck fails. */
const OPTIONS = {
  store: true,
  summarizer: true,
  summaryModel: true,
  settings: true,
  counter: true,
  onEvent: true,
  onCompaction: true,
  sessionId: true,
} satisfies Record<keyof CompactionPrepareStepOptions, true>;

/** What users copy from the AI SDK; LangChain's names and settings at the top level are core's (`ADAPTER_OPTION_HINTS`). */
const HINTS: Readonly<Record<string, PeerOptionHint>> = {
  onFinish: { from: 'streamText', use: 'onEvent (compaction events)' },
};

/**
 * Checks `compactionMiddleware` / `compactionPrepareStep` options when they are
 * made, so a mistake fails at construction, not at the first model call:
 * known keys (LangChain's `trigger`/`keep` and the settings given at the top
 * level are told where they go), the settings (fully against the window when
 * `settings.contextWindow` is set; the rest needs the model's window and is
 * checked when a conversation starts), the summarizer (core's shared resolver:
 * an AI SDK model is accepted and wrapped), `summaryModel` a model object, the
 * store, counter and callbacks. Throws `InvalidSettingsError` naming the option.
 *
 * @param where - the function the options were given to, for messages.
 */
export function checkCompactionOptions(options: unknown, where: string): void {
  // `compactionChat` hands its own options (with the chat `model`) to the middleware.
  const model = (options as { model?: unknown } | null | undefined)?.model;
  if (model !== undefined && !isAiSdkModel(model)) {
    fail('model', `${where} wraps the model it is given to; set the summary model with summaryModel`);
  }
  const given = checkAdapterOptions(options, {
    where,
    shape: '{ store, summarizer, settings, … }',
    known:
      where === 'compactionPrepareStep'
        ? Object.keys(OPTIONS)
        : [...Object.keys(OPTIONS).filter((key) => key !== 'sessionId'), 'model'],
    hints: HINTS,
    summarizer: aiSdkSummarizerResolver,
    callbacks: ['onEvent', 'onCompaction'],
    strings: { sessionId: 'your chat id' },
  });
  if (!given) return;
  if (given.summaryModel !== undefined && !isAiSdkModel(given.summaryModel)) {
    fail(
      'summaryModel',
      `must be an AI SDK model object (e.g. openai('gpt-5-mini')); a string id cannot be called directly; got ${describeValue(given.summaryModel)}`,
    );
  }
  if (given.onEvent !== undefined && given.onCompaction !== undefined) {
    fail('onCompaction', 'is the deprecated name of onEvent; give only onEvent');
  }
}

function fail(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}
