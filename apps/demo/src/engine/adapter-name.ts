/**
 * The ways a replay can reach the engine: core's session directly, or one framework
 * adapter (`langchain` is the agent middleware, `langchain-memory` the compacting chat history).
 */
export const ADAPTER_NAMES = ['core', 'ai-sdk', 'langchain', 'langchain-memory', 'mastra'] as const;

/** One of {@link ADAPTER_NAMES}. */
export type AdapterName = (typeof ADAPTER_NAMES)[number];

/** Whether `value` names an adapter. */
export function isAdapterName(value: string): value is AdapterName {
  return (ADAPTER_NAMES as readonly string[]).includes(value);
}
