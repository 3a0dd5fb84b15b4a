import {
  type CompactionSession,
  type ContextToolsOptions,
  type ContextTool as CoreContextTool,
  createContextTools,
} from '@compaction/core';
import { jsonSchema, type Tool, tool } from 'ai';

/** The context tools as AI SDK tools, by name: spread them into `tools`. */
export type AiSdkContextTools = {
  context_stats: Tool;
  compact_context: Tool;
  search_history: Tool;
  read_message: Tool;
};

/**
 * The context tools of one conversation as AI SDK `tool()`s: `context_stats`,
 * `compact_context` (takes effect before the next step), `search_history` and
 * `read_message` (over the messages summarized away). Pass the conversation's
 * session — `compaction.session(chatId, model)` of a {@link compactionMiddleware}
 * — or a function that returns it.
 *
 * ```ts
 * const compaction = compactionMiddleware();
 * const model = wrapLanguageModel({ model: openai('gpt-5'), middleware: compaction });
 * await generateText({
 *   model,
 *   messages,
 *   tools: { ...myTools, ...contextTools(() => compaction.session(chatId, model)) },
 *   providerOptions: { compaction: { sessionId: chatId } },
 * });
 * ```
 */
export function contextTools(
  session: CompactionSession | (() => CompactionSession | Promise<CompactionSession>),
  options: ContextToolsOptions = {},
): AiSdkContextTools {
  const tools = createContextTools(session, options);
  return {
    context_stats: toAiSdkTool(tools.context_stats),
    compact_context: toAiSdkTool(tools.compact_context),
    search_history: toAiSdkTool(tools.search_history),
    read_message: toAiSdkTool(tools.read_message),
  };
}

function toAiSdkTool(definition: CoreContextTool<unknown, unknown>): Tool {
  return tool({
    description: definition.description,
    inputSchema: jsonSchema(definition.inputSchema),
    execute: (input: unknown) => definition.execute(input),
  }) as Tool;
}
