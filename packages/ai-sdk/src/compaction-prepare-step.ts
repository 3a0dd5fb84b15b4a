import type { CompactionSession } from '@compaction/core';
import type { LanguageModel, ModelMessage } from 'ai';
import { checkCompactionOptions } from './check-compaction-options.js';
import type { CompactionPrepareStepOptions } from './compaction-options.js';
import { convertInEntry } from './convert-in-entry.js';
import { messageConverter } from './message-converter.js';
import { placeConversation } from './place-conversation.js';
import { sessionRegistry } from './session-registry.js';

/** What {@link compactionPrepareStep} reads of `prepareStep`'s options. */
export type PrepareStepInput = {
  /** The steps so far; the last one's usage is recorded before the next call. */
  steps: readonly { usage: { inputTokens: number | undefined } }[];
  /** The step's model: its id selects the context window; it writes `'llm'` summaries unless `summaryModel` is set. */
  model: LanguageModel;
  /** The messages the call started with. */
  initialMessages: readonly ModelMessage[];
  /** Every response message so far (all steps). */
  responseMessages: readonly ModelMessage[];
  /** User messages steered into this step (experimental in `ai`); they follow the history. */
  experimental_steeringMessages?: readonly ModelMessage[];
};

/**
 * The compaction engine as a `prepareStep` function, for tool loops
 * (`generateText` / `streamText` with `stopWhen`, `ToolLoopAgent`) that compact
 * per step explicitly instead of wrapping the model.
 *
 * Each step it takes the full history (`initialMessages` + `responseMessages`,
 * never an earlier step's compacted messages), lets the session prepare the
 * context and returns it as `messages` — which `ai` 7 carries forward to later
 * steps. Pinned system messages stay first; `instructions` are not touched.
 *
 * @example
 * ```ts
 * await generateText({ model, tools, stopWhen: stepCountIs(50), messages,
 *   prepareStep: compactionPrepareStep({ store, sessionId: chatId }) });
 * ```
 */
export function compactionPrepareStep(
  options: CompactionPrepareStepOptions = {},
): (input: PrepareStepInput) => Promise<{ messages: ModelMessage[] } | undefined> {
  checkCompactionOptions(options, 'compactionPrepareStep'); // at construction, not at the first step
  const sessions = sessionRegistry(options);
  const converter = messageConverter();
  /** The session that prepared the last step of a run (keyed by the run's `steps` array). */
  const runs = new WeakMap<object, CompactionSession>();

  return async ({ steps, model, initialMessages, responseMessages, experimental_steeringMessages: steering = [] }) => {
    const incoming = [...initialMessages, ...responseMessages, ...steering];
    const conversation = convertInEntry(sessions, converter, incoming, options.sessionId, model);
    if (conversation === undefined) return undefined;
    const { session, history } = conversation;
    const previous = steps.at(-1);
    if (previous && runs.get(steps) === session) await session.recordUsage({ inputTokens: previous.usage.inputTokens });
    const prepared = await session.prepare({ history });
    placeConversation(sessions, converter, conversation, prepared.asIs === true);
    runs.set(steps, session);
    // The context is the history as it came: sent as it is, `messages` never read (`asIs`: reading
    // it would ask the history for all of it; `wholeHistory`: it would copy the context).
    if (prepared.asIs || prepared.wholeHistory === history.length) return { messages: incoming };
    return { messages: converter.fromCore(prepared.messages, history, incoming) as ModelMessage[] };
  };
}
