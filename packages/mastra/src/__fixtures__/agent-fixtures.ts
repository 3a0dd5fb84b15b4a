import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import type { ModelPrompt } from './scripted-model.js';

/** The text of a file the `readFile` tool returns: about 700 tokens. */
export function fileText(path: string): string {
  return `// ${path}\n${'export const value = 1; // a line of code in the file\n'.repeat(60)}`;
}

/** A tool that returns a large file, so the history grows fast. */
export const readFile = createTool({
  id: 'readFile',
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => ({ path, text: fileText(path) }),
});

/**
 * The coding agent the tests run: id and name `coder`, its instructions and the
 * `readFile` tool; `config` sets the rest (model, memory, processors).
 */
export function coderAgent(config: Omit<ConstructorParameters<typeof Agent>[0], 'id' | 'name' | 'instructions'>) {
  return new Agent({ id: 'coder', name: 'coder', instructions: 'You are a coder.', tools: { readFile }, ...config });
}

/** Small settings, so a few turns cross the trigger (6,400 tokens). */
export const SMALL_WINDOW = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };

/** Every text of a prompt (user, assistant, system), joined. */
export function promptText(prompt: ModelPrompt): string {
  return prompt
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.map((part) => (part.type === 'text' || part.type === 'reasoning' ? part.text : '')),
    )
    .join('\n');
}

/** The tool calls of a prompt and the results that answer them, by call id. */
export function toolTraffic(prompt: ModelPrompt): { calls: Map<string, unknown>; results: Map<string, unknown> } {
  const calls = new Map<string, unknown>();
  const results = new Map<string, unknown>();
  for (const message of prompt) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.set(part.toolCallId, part.input);
      if (part.type === 'tool-result') results.set(part.toolCallId, part.output);
    }
  }
  return { calls, results };
}

/** Whether every tool call of a prompt is followed by its result and every result has its call. */
export function toolPairsIntact(prompt: ModelPrompt): boolean {
  const { calls, results } = toolTraffic(prompt);
  return calls.size === results.size && [...calls.keys()].every((id) => results.has(id));
}

/** The user's text of the last user message of a prompt. */
export function lastUserText(prompt: ModelPrompt): string {
  const user = prompt.findLast((message) => message.role === 'user');
  if (!user || typeof user.content === 'string') return '';
  return user.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
