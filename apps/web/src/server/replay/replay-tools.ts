import { jsonSchema, type ToolSet, tool } from 'ai';
import { recordedCallId } from './replay-model.js';
import type { ReplayStep } from './replay-steps.js';

/**
 * One tool per tool name of the recording, each answering a replayed call with the
 * result recorded for it (a recorded error is thrown, so it shows as a tool error).
 */
export function replayTools(steps: readonly ReplayStep[]): ToolSet {
  const results = new Map<string, { output: string; isError: boolean }>();
  const names = new Set<string>();
  for (const step of steps) {
    for (const [id, result] of step.results) results.set(id, result);
    for (const part of step.message.parts) if (part.type === 'tool-call') names.add(part.toolName);
  }
  const tools: ToolSet = {};
  for (const name of names) {
    tools[name] = tool({
      description: `${name} (replays the recorded result)`,
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
      execute: async (_input, { toolCallId }) => {
        const result = results.get(recordedCallId(toolCallId));
        if (!result) throw new Error(`no recorded result for ${toolCallId}`);
        if (result.isError) throw new Error(result.output);
        return result.output;
      },
    });
  }
  return tools;
}
