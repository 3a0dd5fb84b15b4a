import { describeValue, InvalidSettingsError } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { CompactionProcessor } from './compaction-processor.js';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';

type ProcessorList = unknown[] | ((context: never) => unknown[] | Promise<unknown[]>);

/**
 * An agent config with a {@link CompactionProcessor} added to both
 * `inputProcessors` and `errorProcessors` (after any already there, static or
 * dynamic). Mastra calls `processAPIError` only on `errorProcessors`, so a
 * processor listed only as an input processor never sees the provider's
 * context-overflow error; listed in both, it compacts and the step is retried.
 * Anything but a config object (nothing, an `Agent` already made) is an
 * `InvalidSettingsError`.
 *
 * @param options - the processor's options, or a processor to share.
 * @default options {}
 * @example
 * ```ts
 * const agent = new Agent(withCompaction({ id: 'coder', name: 'Coder', instructions, model, tools, memory }, { store }));
 * ```
 */
export function withCompaction<TConfig extends object>(
  config: TConfig,
  options: CompactionProcessorOptions | CompactionProcessor = {},
): TConfig {
  checkAgentConfig(config);
  const processor = options instanceof CompactionProcessor ? options : new CompactionProcessor(options);
  const lists = config as { inputProcessors?: ProcessorList; errorProcessors?: ProcessorList };
  return {
    ...config,
    inputProcessors: append(lists.inputProcessors, processor),
    errorProcessors: append(lists.errorProcessors, processor),
  };
}

/** The agent's config object, not nothing, not an `Agent` already made (its processors are fixed then). */
function checkAgentConfig(config: unknown): void {
  const made = config instanceof Agent;
  if (typeof config === 'object' && config !== null && !Array.isArray(config) && !made) return;
  throw new InvalidSettingsError({
    setting: 'config',
    problem: `withCompaction takes the config you would give new Agent(...) and returns it with the processor added — new Agent(withCompaction({ id, name, instructions, model }, options)) —, got ${
      made ? 'an Agent already made (its processors are fixed: wrap its config instead)' : describeValue(config)
    }`,
  });
}

function append(list: ProcessorList | undefined, processor: CompactionProcessor): ProcessorList {
  if (list === undefined) return [processor];
  if (Array.isArray(list)) return [...list, processor];
  return async (context: never) => [...(await list(context)), processor];
}
