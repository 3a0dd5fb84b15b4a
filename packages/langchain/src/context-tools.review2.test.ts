import { initChatModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { checkChatModelId } from './check-chat-model-id.js';
import { type CompactionMiddlewareOptions, compactionMiddleware } from './compaction-middleware.js';
import { compactionContextTools } from './context-tools.js';

/**
 * Review (session 9, R2) of the checks added to the LangChain adapter, hunting false refusals:
 * inputs valid per LangChain and per our README that an upgrade must keep taking.
 */

/** initChatModel's two errors for an id whose provider it can never find (as check-chat-model-id.test.ts). */
const NEVER_RESOLVES = /Unable to infer model provider|Unsupported \{ modelProvider/;

async function initChatModelRefuses(id: string): Promise<boolean> {
  try {
    await initChatModel(id);
    return false;
  } catch (error) {
    return NEVER_RESOLVES.test((error as Error).message);
  }
}

describe('checkChatModelId on ids with versions, colons and deployments (sound)', () => {
  it.each([
    'bedrock:anthropic.claude-3-5-sonnet-20240620-v1:0',
    'ollama:llama3.1:8b',
    'openai:ft:gpt-4o-mini:org::abc123',
    'openai:ft:gpt-4o-mini-2024-07-18:my-org:custom-suffix:9x8y7z',
    'azure_openai:my-gpt4o-deployment',
    'groq:llama-3.3-70b-versatile',
    'fireworks:accounts/fireworks/models/llama-v3p1-70b-instruct',
    'accounts/fireworks/models/llama-v3p1-70b-instruct',
    'together:meta-llama/Llama-3.3-70B-Instruct-Turbo',
    'amazon.nova-pro-v1:0',
    'google-vertexai:gemini-2.5-pro',
    'deepseek:deepseek-chat',
    'xai:grok-4',
  ])('%s: accepted, as initChatModel accepts it (its provider is found)', async (id) => {
    expect(await initChatModelRefuses(id)).toBe(false);
    expect(() => checkChatModelId(id, 'summarizer')).not.toThrow();
  });

  it.each(['ft:gpt-4o-mini:org::abc123', 'llama3.1:8b', 'my-deployment'])(
    '%s: refused, as initChatModel refuses it (no provider prefix, none inferred)',
    async (id) => {
      expect(await initChatModelRefuses(id)).toBe(true);
      expect(() => checkChatModelId(id, 'summarizer')).toThrow(/initChatModel can/);
    },
  );
});

describe('compactionContextTools takes the middleware options the README tells to give it (R2 defect 1, fixed)', () => {
  // README ("Context tools for the model") and the JSDoc: "Give the tools the options you give the
  // middleware, so their figures agree". Before session 9 the tools read settings/model/counter and
  // ignored the rest; now every middleware-only key (summarizer, mode, name, onEvent) is "unknown".
  it.each<[string, CompactionMiddlewareOptions]>([
    ['summarizer', { summarizer: 'structured', settings: { historyTools: true } }],
    ['mode', { mode: 'replace', settings: { historyTools: true } }],
    ['name', { name: 'compaction-main', settings: { historyTools: true } }],
    ['onEvent', { onEvent: () => {}, settings: { historyTools: true } }],
  ])('one options object with %s, given to both', (_, options) => {
    expect(() => compactionMiddleware(options)).not.toThrow();
    expect(() => compactionContextTools(options)).not.toThrow(); // InvalidSettingsError: unknown option key
  });
});

describe('compactionContextTools with only the keys both take (sound)', () => {
  it('the README example: { settings: { historyTools: true } } for both', () => {
    const options = { settings: { historyTools: true } };
    expect(() => compactionMiddleware(options)).not.toThrow();
    expect(compactionContextTools(options).map((tool) => tool.name)).toEqual([
      'context_stats',
      'compact_context',
      'search_history',
      'read_message',
    ]);
  });
});

describe('requestCompaction(null) asks for a compaction without a focus, as before session 9 (R2 defect 5, fixed)', () => {
  // A tool of the user's own whose schema is OpenAI-strict (`focus: z.string().nullable()`: strict
  // tool schemas make optional fields nullable) hands the model's `focus: null` on. Before session 9
  // `instructions ? { instructions } : {}` made that a request without a focus; now core's
  // checkCompactOptions throws InvalidSettingsError "instructions must be a string" inside the tool.
  it('requestCompaction(null) asks for a compaction without a focus', async () => {
    const { requestCompaction } = await import('./request-compaction.js');
    expect(requestCompaction(null as unknown as string)).toEqual(requestCompaction());
  });
});
