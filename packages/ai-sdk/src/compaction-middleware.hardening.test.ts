import { APICallError } from '@ai-sdk/provider';
import type { CompactionEvent } from '@compaction/core';
import { generateText, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asStream, textResult } from './__fixtures__/model-fixtures.js';
import type { GenerateResult, StreamPart } from './ai-sdk-types.js';
import { compactionMiddleware } from './compaction-middleware.js';

const settings = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };
const longChat = (count = 40): ModelMessage[] =>
  Array.from({ length: count }, (_, index) => ({
    role: index % 2 ? 'assistant' : 'user',
    content: `m${index} ${'w '.repeat(250)}`,
  }));
const ok: GenerateResult = {
  content: [{ type: 'text', text: 'ok' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: {
    inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  },
  warnings: [],
};

describe('providerMetadata.compaction goes only to the call that compacted (r22)', () => {
  it('20 concurrent calls of one chat: one compaction, one result with the metadata', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => ok });
    let compactions = 0;
    const wrapped = wrapLanguageModel({
      model,
      middleware: compactionMiddleware({
        summarizer: 'structured',
        settings,
        onCompaction: (event) => {
          if (event.type === 'compaction:end') compactions += 1;
        },
      }),
    });
    const messages = longChat();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        generateText({ model: wrapped, messages, providerOptions: { compaction: { sessionId: 'chat' } } }),
      ),
    );
    expect(compactions).toBe(1);
    expect(results.filter((result) => result.providerMetadata?.compaction)).toHaveLength(1);
  });

  it('property: however many concurrent calls and chats, metadata count = compaction count', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }), async (callsPerChat, chats) => {
        const model = new MockLanguageModelV4({ doGenerate: async () => ok });
        const ends: CompactionEvent[] = [];
        const wrapped = wrapLanguageModel({
          model,
          middleware: compactionMiddleware({
            summarizer: 'structured',
            settings,
            onCompaction: (event) => {
              if (event.type === 'compaction:end') ends.push(event);
            },
          }),
        });
        const results = await Promise.all(
          Array.from({ length: chats * callsPerChat }, (_, index) =>
            generateText({
              model: wrapped,
              messages: longChat(),
              providerOptions: { compaction: { sessionId: `chat-${index % chats}` } },
            }),
          ),
        );
        expect(ends).toHaveLength(chats);
        const tagged = results.filter((result) => result.providerMetadata?.compaction);
        expect(tagged).toHaveLength(chats);
        expect(
          new Set(
            tagged.map(
              (result) => (result.providerMetadata?.compaction as { sessionId: string } | undefined)?.sessionId,
            ),
          ).size,
        ).toBe(chats);
      }),
      { numRuns: 10 },
    );
  });
});

describe('an overflow reported as an error part of the stream is recovered (r18)', () => {
  const bedrockOverflow = () =>
    new APICallError({
      message: 'The model returned the following errors: Input is too long for requested model.',
      url: 'u',
      requestBodyValues: {},
      statusCode: 400,
    });
  const erroring = (error: unknown, leading: StreamPart[] = []) =>
    new ReadableStream<StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        for (const part of leading) controller.enqueue(part);
        controller.enqueue({ type: 'error', error });
        controller.close();
      },
    });

  it('compacts and retries once; the caller gets the answer', async () => {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        calls += 1;
        return calls === 1 ? { stream: erroring(bedrockOverflow()) } : asStream(textResult('Recovered.'));
      },
    });
    const events: string[] = [];
    const wrapped = wrapLanguageModel({
      model,
      middleware: compactionMiddleware({ summarizer: 'structured', onCompaction: (event) => events.push(event.type) }),
    });
    let error: unknown;
    const result = streamText({
      model: wrapped,
      messages: longChat(),
      maxRetries: 0,
      onError: (event) => {
        error = event.error;
      },
    });
    expect(await result.text).toBe('Recovered.');
    expect(error).toBeUndefined();
    expect(calls).toBe(2);
    expect(events).toEqual(['compaction:start', 'compaction:end']);
    expect(await result.providerMetadata).toMatchObject({ compaction: { trigger: 'overflow' } });
  });

  it('property: any overflow wording, after any leading parts, as the error part: recovered; other errors pass through', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'Input is too long for requested model.',
          'too many total text bytes: 9865532 > 9000000',
          'prompt is too long: 250000 tokens > 200000 maximum',
          'model_context_window_exceeded',
          'Internal server error',
          'Rate limit exceeded: too many tokens per minute',
        ),
        fc.boolean(),
        fc.constantFrom('APICallError', 'Error', 'object'),
        async (message, withMetadata, shape) => {
          const overflow = !/Internal|Rate limit/.test(message);
          const error =
            shape === 'APICallError'
              ? new APICallError({ message, url: 'u', requestBodyValues: {}, statusCode: 400 })
              : shape === 'Error'
                ? new Error(message)
                : { message };
          let calls = 0;
          const model = new MockLanguageModelV4({
            doStream: async () => {
              calls += 1;
              if (calls === 1) {
                const leading: StreamPart[] = withMetadata ? [{ type: 'response-metadata', id: 'r1' }] : [];
                return { stream: erroring(error, leading) };
              }
              return asStream(textResult('Recovered.'));
            },
          });
          const wrapped = wrapLanguageModel({ model, middleware: compactionMiddleware({ summarizer: 'structured' }) });
          let seen: unknown;
          const result = streamText({
            model: wrapped,
            messages: longChat(),
            maxRetries: 0,
            onError: (event) => {
              seen = event.error;
            },
          });
          await result.consumeStream();
          expect(calls).toBe(overflow ? 2 : 1);
          if (overflow) expect(await result.text).toBe('Recovered.');
          else expect(seen).toBeDefined();
        },
      ),
      { numRuns: 24 },
    );
  });

  it('a second overflow in the retried stream reaches the caller: no loop', async () => {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        calls += 1;
        return { stream: erroring(bedrockOverflow()) };
      },
    });
    const wrapped = wrapLanguageModel({ model, middleware: compactionMiddleware({ summarizer: 'structured' }) });
    let seen: unknown;
    const result = streamText({
      model: wrapped,
      messages: longChat(),
      maxRetries: 0,
      onError: (event) => {
        seen = event.error;
      },
    });
    await result.consumeStream();
    expect(calls).toBe(2);
    expect(APICallError.isInstance(seen)).toBe(true);
  });
});
