import { checkCompactOptions } from '@compaction/core';

/** The agent-state key that holds the compaction record (private: checkpointed, not in invoke input or output). */
export const COMPACTION_STATE_KEY = '_compaction';

/** The agent-state key of a pending manual compaction (public: can be passed to `invoke`). */
export const COMPACTION_REQUEST_KEY = 'compactionRequest';

/** A manual compaction waiting for the next model call. */
export type CompactionRequest = {
  /** Focus for the summary, e.g. "keep the parser decisions". */
  instructions?: string;
};

/**
 * A state update that asks `compactionMiddleware` to compact before the next
 * model call, whatever the token count (`/compact [focus]`). Apply it however
 * the agent state is updated. `null` is no focus, as `undefined` is (OpenAI strict
 * tool schemas make an optional `focus` nullable, so a tool may pass the model's `null` on);
 * `instructions` that is anything else but a string is an `InvalidSettingsError` at this call:
 *
 * @example
 * ```ts
 * // with the next turn
 * await agent.invoke({ messages: [new HumanMessage('go on')], ...requestCompaction('keep the API decisions') }, config);
 * // or on its own, picked up by the next invoke of the thread
 * await agent.graph.updateState(config, requestCompaction());
 * // or from a tool
 * return new Command({ update: { ...requestCompaction(), messages: [toolMessage] } });
 * ```
 */
export function requestCompaction(instructions?: string | null): { [COMPACTION_REQUEST_KEY]: CompactionRequest } {
  const focus = instructions ?? undefined; // null: no focus, as before core's check was added
  checkCompactOptions({ instructions: focus }); // core's rule for a manual compaction's focus
  return { [COMPACTION_REQUEST_KEY]: focus ? { instructions: focus } : {} };
}
