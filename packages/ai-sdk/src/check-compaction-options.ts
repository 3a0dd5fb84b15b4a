import { describeValue, InvalidSettingsError, type PeerOptionHint } from '@compaction/core';
import { checkAdapterOptions } from '@compaction/core/internal';
import { certainWindow } from './certain-window.js';
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

/** What the options are given to: the middleware, the prepareStep factory, or `compactionChat` (which adds `model`). */
export type CompactionOptionsOwner = 'compactionMiddleware' | 'compactionPrepareStep' | 'compactionChat';

/**
 * Checks `compactionMiddleware` / `compactionPrepareStep` / `compactionChat` options
 * when they are made, so a mistake fails at construction, not at the first model call:
 * known keys (LangChain's `trigger`/`keep` and the settings given at the top
 * level are told where they go), the settings (fully against the window when
 * `settings.contextWindow` is set, or for `compactionChat` the window of its model's
 * id when that id's window is known — built in or registered; an unknown id's window may
 * be registered before the first call, which checks it; the middleware and prepareStep
 * learn their model at the call, where the rest is checked), the summarizer (core's shared resolver: an AI SDK model is accepted and
 * wrapped), `summaryModel` a model object, the store, counter and callbacks. A `model`
 * given to the middleware or prepareStep (whose model is the one they wrap or the
 * step's) is told where it goes, and `compactionPrepareStep` itself passed as
 * `prepareStep` (then called by the AI SDK with the step) is told to be called.
 * Throws `InvalidSettingsError` naming the option.
 *
 * @param where - the function the options were given to, for messages.
 */
export function checkCompactionOptions(options: unknown, where: CompactionOptionsOwner): void {
  const model = (options as { model?: unknown } | null | undefined)?.model;
  if (where === 'compactionPrepareStep') checkNotAStep(options);
  if (where !== 'compactionChat' && model !== undefined) {
    fail(
      'model',
      `${where} takes no model: it compacts for the model ${where === 'compactionMiddleware' ? 'it wraps — give yours to wrapLanguageModel({ model, middleware })' : 'of each step — give yours to generateText / streamText'}; the model that writes summaries is summaryModel, the window settings.contextWindow; got ${describeValue(model)}`,
    );
  }
  if (model !== undefined && !isAiSdkModel(model)) {
    fail('model', `${where} wraps the model it is given to; set the summary model with summaryModel`);
  }
  const given = checkAdapterOptions(options, {
    where,
    shape: '{ store, summarizer, settings, … }',
    known:
      where === 'compactionPrepareStep'
        ? Object.keys(OPTIONS)
        : [
            ...Object.keys(OPTIONS).filter((key) => key !== 'sessionId'),
            ...(where === 'compactionChat' ? ['model'] : []),
          ],
    hints: HINTS,
    summarizer: aiSdkSummarizerResolver,
    // The chat's model is known now: its id gives the window the sessions will use — when that window
    // is certain (built in or registered already); an unknown id's window may still be registered
    // before the first call, where the sessions read it, so the check waits for that call.
    window: (values) => (isAiSdkModel(values.model) ? certainWindow(values.model.modelId) : undefined),
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

/**
 * `prepareStep: compactionPrepareStep` (the factory, not called): the AI SDK calls it with
 * the step (`{ model, steps, stepNumber, messages }`), which no options object has.
 */
function checkNotAStep(options: unknown): void {
  if (typeof options !== 'object' || options === null) return;
  if (!('stepNumber' in options) && !('steps' in options)) return;
  fail(
    'prepareStep',
    'compactionPrepareStep was called with a step ({ model, steps, stepNumber, messages }): it was passed as prepareStep without being called; call compactionPrepareStep({ sessionId, … }) and pass its result as prepareStep, e.g. prepareStep: compactionPrepareStep({ store, sessionId: chatId })',
  );
}

function fail(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}
