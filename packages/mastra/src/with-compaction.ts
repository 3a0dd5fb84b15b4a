import { CompactionProcessor } from './compaction-processor.js';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';

type ProcessorList = unknown[] | ((context: never) => unknown[] | Promise<unknown[]>);

/**
 * An agent config with a {@link CompactionProcessor} added to both
 * `inputProcessors` and `errorProcessors` (after any already there, static or
 * dynamic). Mastra calls `processAPIError` only on `errorProcessors`, so a
 * processor listed only as an input processor never sees the provider's
 * context-overflow error; listed in both, it compacts and the step is retried.
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
  const processor = options instanceof CompactionProcessor ? options : new CompactionProcessor(options);
  const lists = config as { inputProcessors?: ProcessorList; errorProcessors?: ProcessorList };
  return {
    ...config,
    inputProcessors: append(lists.inputProcessors, processor),
    errorProcessors: append(lists.errorProcessors, processor),
  };
}

function append(list: ProcessorList | undefined, processor: CompactionProcessor): ProcessorList {
  if (list === undefined) return [processor];
  if (Array.isArray(list)) return [...list, processor];
  return async (context: never) => [...(await list(context)), processor];
}
