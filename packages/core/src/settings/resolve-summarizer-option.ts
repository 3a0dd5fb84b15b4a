import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { structuredSummarizer } from '../summarize/structured/structured-summarizer.js';
import type { Summarizer } from '../summarize/types.js';
import { describeValue } from './check-option-keys.js';

/**
 * How one framework's adapter reads its `summarizer` option: what counts as a
 * model of that framework, how a model becomes an LLM summarizer, and whether a
 * string is a model id it can resolve. Each adapter makes one and passes it to
 * {@link resolveSummarizerOption}, so the three adapters accept and reject alike.
 */
export type SummarizerOptionResolver<TModel> = {
  /** The option's name in the adapter, for errors (`summarizer`). */
  readonly option: string;
  /** What the option accepts, in the adapter's words, for errors. */
  readonly accepts: string;
  /** Whether `value` is a model of the framework (it is then wrapped with `fromModel`). */
  isModel(value: unknown): value is TModel;
  /** The framework's LLM summarizer writing with `model`. */
  fromModel(model: TModel): Summarizer;
  /**
   * A model id string (other than `'structured'` and `'llm'`) as a summarizer, the
   * way the framework resolves such ids (LangChain's `initChatModel`, Mastra's model
   * router); undefined when the framework takes no ids here (then it is an error).
   */
  fromModelId?(id: string): Summarizer;
};

/** Per resolver: the summarizer made for each model object, and for each model id. */
const made = new WeakMap<object, { byModel: WeakMap<object, Summarizer>; byId: Map<string, Summarizer> }>();

/**
 * The summarizer an adapter option asks for:
 * - a core `Summarizer` (`{ name, summarize }`) as it is;
 * - `'structured'`: core's deterministic summary;
 * - a model of the framework: its LLM summarizer (one per model and resolver, reused);
 * - a model id string, when the framework resolves ids (`fromModelId`): resolved once
 *   per id and resolver in the process, so every session of one id shares it;
 * - `'llm'` or nothing: an LLM summarizer over `defaultModel` when that is a model,
 *   else (nothing given) the structured summary;
 * anything else is an {@link InvalidSettingsError} naming the option and what it accepts.
 * Call it at construction with no `defaultModel` to check the option early.
 *
 * @param defaultModel - the model the adapter falls back to (the agent's or wrapped model).
 * @default defaultModel undefined
 */
export function resolveSummarizerOption<TModel>(
  value: unknown,
  resolver: SummarizerOptionResolver<TModel>,
  defaultModel?: unknown,
): Summarizer {
  if (typeof (value as { summarize?: unknown } | null)?.summarize === 'function') return value as Summarizer;
  if (value === 'structured') return structuredSummarizer();
  if (resolver.isModel(value)) return fromModel(value as TModel & object, resolver);
  const fromModelId = resolver.fromModelId;
  if (typeof value === 'string' && value !== 'llm' && value.trim() !== '' && fromModelId) {
    return remember(madeBy(resolver).byId, value, () => fromModelId.call(resolver, value));
  }
  if (value === undefined || value === 'llm') {
    if (resolver.isModel(defaultModel)) return fromModel(defaultModel as TModel & object, resolver);
    if (value === undefined) return structuredSummarizer();
    throw new InvalidSettingsError({
      setting: resolver.option,
      problem: `'llm' needs a model to write with, and none is known here; pass ${resolver.option}: <a model> or 'structured'`,
    });
  }
  throw new InvalidSettingsError({
    setting: resolver.option,
    problem: `must be ${resolver.accepts}; got ${describeValue(value)}`,
  });
}

function fromModel<TModel>(model: TModel & object, resolver: SummarizerOptionResolver<TModel>): Summarizer {
  return remember(madeBy(resolver).byModel, model, () => resolver.fromModel(model));
}

function madeBy(resolver: object) {
  let caches = made.get(resolver);
  if (!caches) {
    caches = { byModel: new WeakMap(), byId: new Map() };
    made.set(resolver, caches);
  }
  return caches;
}

function remember<TKey>(
  cache: { get(key: TKey): Summarizer | undefined; set(key: TKey, value: Summarizer): unknown },
  key: TKey,
  make: () => Summarizer,
): Summarizer {
  let summarizer = cache.get(key);
  if (!summarizer) {
    summarizer = make();
    cache.set(key, summarizer);
  }
  return summarizer;
}
