import { HISTORY_SUMMARY_HEADINGS, memoryStore } from '@compaction/core';
import { APICallError, generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import type { GenerateResult, ProviderPrompt, StreamPart, StreamResult } from '../ai-sdk-types.js';
import { type CompactionMiddleware, compactionMiddleware } from '../compaction-middleware.js';

/** V4 usage with the given input tokens. */
export function usage(inputTokens: number | undefined = 100): GenerateResult['usage'] {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 10, text: 10, reasoning: undefined },
  };
}

/** A text answer. */
export function textResult(text: string, inputTokens?: number): GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(inputTokens), warnings: [] };
}

/** A tool call (model output: `input` is a JSON string). */
export function toolCallResult(toolCallId: string, path: string, inputTokens?: number): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName: 'read', input: JSON.stringify({ path }) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: usage(inputTokens),
    warnings: [],
  };
}

/** The same answer as a stream. */
export function asStream(result: GenerateResult): StreamResult {
  const parts: StreamPart[] = [];
  for (const [index, part] of result.content.entries()) {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: `t${index}` }, { type: 'text-delta', id: `t${index}`, delta: part.text });
      parts.push({ type: 'text-end', id: `t${index}` });
    } else if (part.type === 'tool-call') parts.push(part);
  }
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return { stream: convertArrayToReadableStream(parts) };
}

/** What a provider might report as the input tokens of a prompt (about 4 characters a token). */
export function promptTokens(prompt: ProviderPrompt): number {
  return Math.ceil(JSON.stringify(prompt).length / 4);
}

/** A valid history summary (every required heading) that also passes as a turn-prefix summary. */
export const SUMMARY_TEXT = [
  ...HISTORY_SUMMARY_HEADINGS.map((heading) => `## ${heading}\n- Reviewed the project files one by one.`),
  '## Turn Request\n- Read the files.',
].join('\n\n');

/** The error a provider gives for a prompt over the context window. */
export function overflowError(): APICallError {
  return new APICallError({
    message: 'prompt is too long: 250000 tokens > 200000 maximum',
    url: 'https://api.example.com/v1/messages',
    requestBodyValues: {},
    statusCode: 400,
    responseBody: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } }),
  });
}

/** About `words` words of file content. */
export function fileContent(index: number, words: number): string {
  return Array.from({ length: words }, (_, word) => `token${(index * 7 + word) % 97}`).join(' ');
}

/**
 * A coding conversation of `turns` turns; each reads a file with a tool call
 * (input object, text output) and answers. About 110 tokens a turn.
 */
export function conversation(turns: number, from = 0): ModelMessage[] {
  return Array.from({ length: turns }, (_, offset): ModelMessage[] => {
    const turn = from + offset;
    const path = `src/file-${turn}.ts`;
    return [
      { role: 'user', content: `Turn ${turn}: what does ${path} do?` },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me read it.' },
          { type: 'tool-call', toolCallId: `call-${turn}`, toolName: 'read', input: { path } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: `call-${turn}`, toolName: 'read', output: { type: 'text', value: fileContent(turn, 40) } },
        ],
      },
      { role: 'assistant', content: `It exports the helper number ${turn}, which formats dates.` },
    ];
  }).flat();
}

/** Whether a prompt is core's summary request (system prompt + one user message asking for a summary). */
export function isSummaryRequest(prompt: ProviderPrompt): boolean {
  return prompt.length === 2 && prompt[0]?.role === 'system' && /summar/i.test(prompt[0].content);
}

/** Every tool call of the prompt has its result after it, and every result its call before it. */
export function unpairedToolParts(prompt: ProviderPrompt): string[] {
  const problems: string[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const message of prompt) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.add(part.toolCallId);
      if (part.type === 'tool-result') {
        if (!calls.has(part.toolCallId)) problems.push(`result without call: ${part.toolCallId}`);
        answered.add(part.toolCallId);
      }
    }
  }
  for (const id of calls) if (!answered.has(id)) problems.push(`call without result: ${id}`);
  return problems;
}

/** The text of a prompt message. */
export function messageText(message: ProviderPrompt[number] | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** What {@link chatSetup} makes. */
export type ChatSetup = {
  /** The model under the middleware (its `doGenerateCalls` are the prompts it was sent). */
  mock: MockLanguageModelV4;
  middleware: CompactionMiddleware;
  /** One `generateText` call in the session `chat`. */
  call(messages: ModelMessage[]): Promise<unknown>;
};

/**
 * A mock `openai` `gpt-5` that answers `ok`, wrapped in our middleware (a `memoryStore`, the
 * structured summarizer, a 128,000-token window), and `call`: `generateText` over `messages`
 * in the session `chat`.
 */
export function chatSetup(): ChatSetup {
  const mock = new MockLanguageModelV4({
    provider: 'openai',
    modelId: 'gpt-5',
    doGenerate: async () => textResult('ok'),
  });
  const middleware = compactionMiddleware({
    store: memoryStore(),
    summarizer: 'structured',
    settings: { contextWindow: 128_000 },
  });
  const model = wrapLanguageModel({ model: mock, middleware });
  const call = (messages: ModelMessage[]) =>
    generateText({ model, messages, providerOptions: { compaction: { sessionId: 'chat' } } });
  return { mock, middleware, call };
}
