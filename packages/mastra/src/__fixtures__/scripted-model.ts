import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { MastraModelConfig } from '@mastra/core/llm';
import { MockLanguageModelV4 } from 'ai/test';

/** The prompt a mock model receives (the provider prompt of the AI SDK spec). */
export type ModelPrompt = LanguageModelV4Prompt;

/** What {@link scriptedModel} returns. */
export type ScriptedModel = {
  /**
   * The mock, typed as a Mastra model: Mastra declares the AI SDK's model spec
   * with its own bundled copy of the types, which TypeScript does not match.
   */
  model: MastraModelConfig;
  /** Every prompt the agent sent, in order (rejected ones too). */
  agentPrompts: ModelPrompt[];
  /** Every summarization prompt. */
  summaryPrompts: ModelPrompt[];
};

/** What the scripted model answers: text, or tool calls (`input` as an object). */
export type Reply = { text: string } | { toolCalls: { toolName: string; input: unknown }[] };

/** A summary that passes core's quality gate (every heading of a history and of a turn-prefix summary). */
export const SCRIPTED_SUMMARY = [
  '## Turn Request',
  'Read the files.',
  '## Goal',
  'Read the project files.',
  '## Constraints & Preferences',
  '- (none)',
  '## Progress',
  'Several files were read.',
  '## Key Decisions',
  '- (none)',
  '## Next Steps',
  'Continue reading.',
  '## Critical Context',
  'SCRIPTED-SUMMARY',
].join('\n');

/** Tokens the scripted model reports for a prompt: about 4 characters a token, like a real tokenizer. */
export function promptTokens(prompt: ModelPrompt): number {
  return Math.ceil(JSON.stringify(prompt).length / 4);
}

/**
 * A `MockLanguageModelV4` (from `ai/test`) that plays the agent from a script and
 * answers summarization requests (recognised by core's system prompt) with a valid
 * summary. Every prompt is recorded; usage reports {@link promptTokens}.
 */
export function scriptedModel(
  reply: (prompt: ModelPrompt, call: number) => Reply,
  options: { reject?: (prompt: ModelPrompt) => Error | undefined } = {},
): ScriptedModel {
  const agentPrompts: ModelPrompt[] = [];
  const summaryPrompts: ModelPrompt[] = [];
  let calls = 0;

  const respond = (prompt: ModelPrompt): LanguageModelV4GenerateResult => {
    const system = prompt.find((message) => message.role === 'system');
    const isSummary = typeof system?.content === 'string' && system.content.includes('context summarization assistant');
    const rejection = isSummary ? undefined : options.reject?.(prompt);
    if (rejection) {
      agentPrompts.push(prompt);
      throw rejection;
    }
    const usage = {
      inputTokens: { total: promptTokens(prompt), noCache: promptTokens(prompt), cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 20, text: 20, reasoning: 0 },
    };
    if (isSummary) {
      summaryPrompts.push(prompt);
      return {
        // Each answer notes which request it answers, as a real summary of new messages differs from the last one.
        content: [{ type: 'text' as const, text: `${SCRIPTED_SUMMARY}\n- Summary request ${summaryPrompts.length}.` }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      };
    }
    agentPrompts.push(prompt);
    const answer = reply(prompt, calls++);
    if ('text' in answer) {
      return {
        content: [{ type: 'text' as const, text: answer.text }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      };
    }
    return {
      content: answer.toolCalls.map(({ toolName, input }, index) => ({
        type: 'tool-call' as const,
        toolCallId: `call-${calls}-${index}`,
        toolName,
        input: JSON.stringify(input),
      })),
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      usage,
      warnings: [],
    };
  };

  const model = new MockLanguageModelV4({
    provider: 'mock',
    modelId: 'mock-model',
    doGenerate: async ({ prompt }) => respond(prompt),
    doStream: async ({ prompt }) => {
      const result = respond(prompt);
      const chunks: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of result.content) {
        if (part.type === 'text') {
          chunks.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
        } else if (part.type === 'tool-call') {
          chunks.push(part);
        }
      }
      chunks.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
      };
    },
  });
  return { model: model as unknown as MastraModelConfig, agentPrompts, summaryPrompts };
}
