import {
  type CompactionSession,
  type ContextTool,
  type ContextToolsOptions,
  createContextTools,
  describeValue,
  InvalidSettingsError,
  InvalidToolInputError,
} from '@compaction/core';
import { createTool } from '@mastra/core/tools';
import { checkContextToolsOptions } from './check-processor-options.js';
import { CompactionProcessor } from './compaction-processor.js';

/** The context tools as Mastra tools, by name: spread them into an agent's `tools`. */
export type MastraContextTools = {
  context_stats: ReturnType<typeof createTool>;
  compact_context: ReturnType<typeof createTool>;
  search_history: ReturnType<typeof createTool>;
  read_message: ReturnType<typeof createTool>;
};

/**
 * The context tools for an agent that runs `processor`: `context_stats`,
 * `compact_context` (takes effect before the model's next step), `search_history`
 * and `read_message` (over the messages summarized away). A tool finds its
 * conversation by the run's Memory thread, else by the processor's `sessionId` option.
 * Checked when made: anything but a `CompactionProcessor`, an unknown option or a blank
 * `sessionId` is an `InvalidSettingsError`.
 *
 * @example
 * ```ts
 * const compaction = new CompactionProcessor({ store });
 * const agent = new Agent(withCompaction({ id: 'coder', instructions, model, memory,
 *   tools: { ...myTools, ...compactionContextTools(compaction) } }, compaction));
 * ```
 */
export function compactionContextTools(
  processor: CompactionProcessor,
  options: ContextToolsOptions & {
    /**
     * The conversation when the run has no Memory thread (the processor's `sessionId` option).
     * @default undefined
     */
    sessionId?: string;
  } = {},
): MastraContextTools {
  if (!(processor instanceof CompactionProcessor)) {
    throw new InvalidSettingsError({
      setting: 'processor',
      problem: `compactionContextTools takes the CompactionProcessor the agent runs (compactionContextTools(compaction, options)), got ${describeValue(processor)}`,
    });
  }
  checkContextToolsOptions(options); // throws InvalidSettingsError now, not at the first tool call
  const { sessionId, ...toolOptions } = options;
  const sessionOf = (tool: string, threadId: string | undefined): CompactionSession => {
    const id = threadId ?? sessionId;
    const session = id === undefined ? undefined : processor.session(id);
    if (!session) {
      throw new InvalidToolInputError(
        tool,
        id === undefined
          ? 'this run has no Memory thread and no sessionId was given to compactionContextTools'
          : `no compaction session for conversation "${id}" yet (its first model call makes one)`,
      );
    }
    return session;
  };

  const definitions = createContextTools(() => {
    throw new Error('unreachable: definitions only');
  }, toolOptions);
  const wrap = (definition: ContextTool<unknown, unknown>) =>
    createTool({
      id: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
      execute: async (input, context) => {
        const tools = createContextTools(() => sessionOf(definition.name, context?.agent?.threadId), toolOptions);
        return tools[definition.name as keyof typeof tools].execute(input);
      },
    });
  return {
    context_stats: wrap(definitions.context_stats),
    compact_context: wrap(definitions.compact_context),
    search_history: wrap(definitions.search_history),
    read_message: wrap(definitions.read_message),
  };
}
