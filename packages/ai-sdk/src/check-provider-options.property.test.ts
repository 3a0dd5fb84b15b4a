import { InvalidMessageError, InvalidSettingsError, isBlankString, memoryStore } from '@compaction/core';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textResult } from './__fixtures__/model-fixtures.js';
import type { ProviderPrompt } from './ai-sdk-types.js';
import { checkProviderOptions } from './check-provider-options.js';
import { compactionMiddleware } from './compaction-middleware.js';

/** Whether `compaction` is what the middleware takes: nothing, or an object of `sessionId` only, the id a string with a visible character or `undefined` (none). */
function isValid(compaction: unknown): boolean {
  if (compaction === undefined) return true;
  if (typeof compaction !== 'object' || compaction === null || Array.isArray(compaction)) return false;
  const keys = Object.keys(compaction).filter((key) => (compaction as Record<string, unknown>)[key] !== undefined);
  if (keys.some((key) => key !== 'sessionId')) return false;
  const { sessionId } = compaction as { sessionId?: unknown };
  if (sessionId === undefined) return true; // none given, or an optional chat id not set: keyed by content
  return typeof sessionId === 'string' && !isBlankString(sessionId);
}

/** Ids as apps make them, blanks, and look-alike keys. */
const sessionIds = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '\t', '\n \r', '\u00a0', '\u2003', 'chat-1', ' chat-1 '),
  fc.integer(),
  fc.constantFrom(undefined, null, true, ['chat-1'], { id: 'chat-1' }),
);
const keys = fc.constantFrom(
  'sessionId',
  'sessionID',
  'session_id',
  'sessionid',
  'id',
  'chatId',
  'instructions',
  'focus',
);
const compactions = fc.oneof(
  fc.record({ sessionId: sessionIds }),
  fc.dictionary(keys, sessionIds, { maxKeys: 3 }),
  fc.record({ sessionId: sessionIds }, { requiredKeys: [] }),
  fc.oneof(fc.string(), fc.integer(), fc.constantFrom(null, true, undefined), fc.array(fc.string(), { maxLength: 2 })),
);

describe('providerOptions.compaction, every value (property)', () => {
  it('is taken iff valid: the session id as given, else an InvalidSettingsError naming providerOptions.compaction…', () => {
    fc.assert(
      fc.property(compactions, (compaction) => {
        let outcome: { sessionId: string | undefined } | { setting: string };
        try {
          outcome = { sessionId: checkProviderOptions({ compaction }) };
        } catch (error) {
          expect(InvalidSettingsError.isInstance(error)).toBe(true);
          outcome = { setting: (error as InvalidSettingsError).setting };
        }
        if (isValid(compaction)) {
          const given = (compaction as { sessionId?: string } | undefined)?.sessionId;
          expect(outcome).toEqual({ sessionId: given });
        } else {
          expect('setting' in outcome && outcome.setting.startsWith('providerOptions.compaction')).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a file's url, every string (property)", () => {
  it('through the middleware: sent when it is an absolute URL, else InvalidMessageError — never a TypeError', async () => {
    const urls = fc.oneof(
      fc.string(),
      fc.webUrl(),
      fc.constantFrom('img/a.png', '/a.png', '//cdn/a.png', 'data:,x', 'file:///tmp/a.png', 'mailto:a@b.c', 'http://'),
    );
    await fc.assert(
      fc.asyncProperty(urls, async (url) => {
        const model = wrapLanguageModel({
          model: new MockLanguageModelV4({ doGenerate: async () => textResult('ok') }),
          middleware: compactionMiddleware({ store: memoryStore(), summarizer: 'structured' }),
        });
        const prompt = [
          {
            role: 'assistant',
            content: [
              { type: 'tool-result', toolCallId: 'gone', toolName: 'read', output: { type: 'text', value: 'x' } },
              { type: 'file', mediaType: 'image/png', data: { type: 'url', url } },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
        ] as unknown as ProviderPrompt;
        const outcome = await model.doGenerate({ prompt, providerOptions: { compaction: { sessionId: 'c' } } }).then(
          () => 'sent',
          (error: unknown) => (InvalidMessageError.isInstance(error) ? 'refused' : String(error)),
        );
        expect(outcome).toBe(URL.canParse(url) ? 'sent' : 'refused');
      }),
      { numRuns: 300 },
    );
  });

  it('generateText with a valid id and an image URL the provider fetches itself answers', async () => {
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        supportedUrls: { 'image/*': [/^https:/] },
        doGenerate: async () => textResult('ok'),
      }),
      middleware: compactionMiddleware({ summarizer: 'structured' }),
    });
    const result = await generateText({
      model,
      messages: [{ role: 'user', content: [{ type: 'image', image: new URL('https://example.com/a.png') }] }],
      providerOptions: { compaction: { sessionId: 'chat-1' } },
    });
    expect(result.text).toBe('ok');
  });
});
