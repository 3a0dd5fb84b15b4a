import {
  type CompactionSession,
  type ContextTool,
  type ContextToolsOptions,
  createCompactionSession,
  createContextTools,
  type SessionRecord,
} from '@compaction/core';
import { type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { type DynamicStructuredTool, type ToolRuntime, tool } from '@langchain/core/tools';
import { Command } from '@langchain/langgraph';
import { agentStateStore } from './agent-state-store.js';
import { checkContextToolsOptions } from './check-langchain-options.js';
import type { CompactionMiddlewareOptions } from './compaction-middleware.js';
import { COMPACTION_STATE_KEY, requestCompaction } from './request-compaction.js';
import { toCoreMessages } from './to-core-messages.js';

/**
 * Options of {@link compactionContextTools}: the middleware's own options, plus the tools' budgets.
 * The tools read `settings`, `model` and `counter`; `summarizer`, `mode`, `name` and `onEvent`
 * are checked as the middleware checks them, then unused (one options object serves both).
 */
export type CompactionContextToolsOptions = CompactionMiddlewareOptions & ContextToolsOptions;

/** What a context tool reads from the agent state. */
type AgentState = { messages?: BaseMessage[]; [COMPACTION_STATE_KEY]?: SessionRecord };

/**
 * The context tools for a `createAgent` agent that runs {@link compactionMiddleware}:
 * `context_stats`, `compact_context` (a `Command` that sets `requestCompaction(focus)`,
 * so the middleware compacts before the next model call), `search_history` and
 * `read_message` (over the messages summarized away, from the agent state). Give
 * them the options you give the middleware, so the figures agree (checked when the tools
 * are made: an unknown key or a bad setting is an `InvalidSettingsError`). In `mode: 'replace'`
 * the state no longer holds summarized messages, so there is nothing to search.
 *
 * @example
 * ```ts
 * const options = { settings: { contextWindow: 200_000 } };
 * const agent = createAgent({
 *   model,
 *   tools: [...myTools, ...compactionContextTools(options)],
 *   middleware: [compactionMiddleware(options)],
 * });
 * ```
 */
export function compactionContextTools(options: CompactionContextToolsOptions = {}): DynamicStructuredTool[] {
  checkContextToolsOptions(options); // throws InvalidSettingsError now, not at the first tool call
  const { settings, model, counter, maxToolOutputChars, snippetChars } = options; // the middleware's other keys: unused
  const toolOptions: ContextToolsOptions = {
    ...(maxToolOutputChars !== undefined ? { maxToolOutputChars } : {}),
    ...(snippetChars !== undefined ? { snippetChars } : {}),
  };

  /** A session over this call's agent state: its messages and its compaction record. Nothing is saved. */
  const viewOf = async (state: AgentState, threadId: string): Promise<CompactionSession> => {
    const session = createCompactionSession({
      store: agentStateStore(state[COMPACTION_STATE_KEY]),
      sessionId: threadId,
      persistHistory: false,
      ...(settings ? { settings } : {}),
      ...(model ? { model } : {}),
      ...(counter ? { counter } : {}),
    });
    await session.append(toCoreMessages(state.messages ?? []));
    return session;
  };

  const wrap = (definition: ContextTool<unknown, unknown>) =>
    tool(
      async (input: unknown, runtime: ToolRuntime<AgentState>) => {
        const state = (runtime.state ?? {}) as AgentState;
        const threadId = String(runtime.configurable?.thread_id ?? 'default');
        const tools = createContextTools(() => viewOf(state, threadId), toolOptions);
        if (definition.name !== 'compact_context') {
          return JSON.stringify(await tools[definition.name as keyof typeof tools].execute(input));
        }
        const output = await tools.compact_context.execute(input);
        const focus = output.focus ?? undefined;
        return new Command({
          update: {
            ...requestCompaction(focus),
            messages: [
              new ToolMessage({
                content: JSON.stringify(output),
                tool_call_id: runtime.toolCallId,
                name: definition.name,
              }),
            ],
          },
        });
      },
      { name: definition.name, description: definition.description, schema: definition.inputSchema },
    ) as DynamicStructuredTool;

  const definitions = createContextTools(() => {
    throw new Error('unreachable: definitions only');
  }, toolOptions);
  return [
    wrap(definitions.context_stats),
    wrap(definitions.compact_context),
    wrap(definitions.search_history),
    wrap(definitions.read_message),
  ];
}
