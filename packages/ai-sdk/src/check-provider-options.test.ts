import { InvalidSettingsError, memoryStore } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { generateText, NoOutputGeneratedError, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { asStream, textResult } from './__fixtures__/model-fixtures.js';
import { checkProviderOptions } from './check-provider-options.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { conversationKey } from './conversation-key.js';
import { promptToMessages } from './convert-prompt.js';

/** A mistaken `providerOptions.compaction` and the setting its error names. */
const MISTAKES: [unknown, string][] = [
  [{ sessionId: '' }, 'providerOptions.compaction.sessionId'],
  [{ sessionId: '   ' }, 'providerOptions.compaction.sessionId'],
  [{ sessionId: '\n\t' }, 'providerOptions.compaction.sessionId'],
  [{ sessionId: 42 }, 'providerOptions.compaction.sessionId'],
  [{ sessionId: null }, 'providerOptions.compaction.sessionId'],
  [{ sessionId: ['chat-1'] }, 'providerOptions.compaction.sessionId'],
  [{ sessionID: 'chat-1' }, 'providerOptions.compaction.sessionID'],
  [{ session_id: 'chat-1' }, 'providerOptions.compaction.session_id'],
  [{ sessionId: 'chat-1', instructions: 'keep the plan' }, 'providerOptions.compaction.instructions'],
  [{ sessionId: 'c', compact: true }, 'providerOptions.compaction.compact'],
  ['chat-1', 'providerOptions.compaction'],
  [42, 'providerOptions.compaction'],
  [null, 'providerOptions.compaction'],
  [['chat-1'], 'providerOptions.compaction'],
];

function wrapped() {
  const mock = new MockLanguageModelV4({
    provider: 'openai',
    modelId: 'gpt-5',
    doGenerate: async () => textResult('ok'),
    doStream: async () => asStream(textResult('ok')),
  });
  const middleware = compactionMiddleware({ store: memoryStore(), summarizer: 'structured' });
  return { mock, middleware, model: wrapLanguageModel({ model: mock, middleware }) };
}

describe('checkProviderOptions', () => {
  it.each(MISTAKES)('%o → InvalidSettingsError naming %s', (compaction, setting) => {
    expect(invalidSettingOf(() => checkProviderOptions({ compaction }))).toBe(setting);
  });

  it('says what to do: did you mean for a misspelled key, the object for a bare id', () => {
    expect(() => checkProviderOptions({ compaction: { sessionID: 'chat-1' } })).toThrow(/did you mean "sessionId"/);
    expect(() => checkProviderOptions({ compaction: 'chat-1' })).toThrow(/\{ sessionId: "chat-1" \}/);
    expect(() => checkProviderOptions({ compaction: { sessionId: '  ' } })).toThrow(/whitespace/);
  });

  it.each([
    [undefined, undefined],
    [{}, undefined],
    [{ openai: { reasoningEffort: 'low' } }, undefined],
    [{ compaction: undefined }, undefined],
    [{ compaction: {} }, undefined],
    [{ compaction: { sessionId: undefined } }, undefined],
    [{ compaction: { sessionId: 'chat-1' } }, 'chat-1'],
    [{ compaction: { sessionId: ' chat-1 ' } }, ' chat-1 '],
    [{ compaction: { sessionId: 'chat-1' }, openai: { store: false } }, 'chat-1'],
  ])('accepts %o (session %o)', (providerOptions, sessionId) => {
    expect(checkProviderOptions(providerOptions)).toBe(sessionId);
  });
});

describe('providerOptions.compaction checked at the call that receives it', () => {
  it.each(MISTAKES)(
    'generateText with %o rejects with our InvalidSettingsError (%s); nothing is sent',
    async (compaction, setting) => {
      const { mock, model } = wrapped();
      const error = await generateText({
        model,
        prompt: 'Where is the parser?',
        providerOptions: { compaction } as never,
      }).catch((caught: unknown) => caught);
      expect(InvalidSettingsError.isInstance(error)).toBe(true);
      expect((error as InvalidSettingsError).setting).toBe(setting);
      expect(mock.doGenerateCalls).toHaveLength(0);
    },
  );

  it.each(MISTAKES)(
    'streamText with %o: onError hears our InvalidSettingsError (%s); the text rejects with the AI SDK’s NoOutputGeneratedError',
    async (compaction, setting) => {
      const { mock, model } = wrapped();
      const heard: unknown[] = [];
      const result = streamText({
        model,
        prompt: 'Where is the parser?',
        providerOptions: { compaction } as never,
        onError: ({ error }) => {
          heard.push(error);
        },
      });
      const outcome = await Promise.resolve(result.text).catch((caught: unknown) => caught);
      expect(NoOutputGeneratedError.isInstance(outcome)).toBe(true);
      expect(heard).toHaveLength(1);
      expect(InvalidSettingsError.isInstance(heard[0])).toBe(true);
      expect((heard[0] as InvalidSettingsError).setting).toBe(setting);
      expect(mock.doStreamCalls).toHaveLength(0);
    },
  );

  it('a valid id keys the conversation the chat reads; an id with spaces around it is kept as given', async () => {
    for (const sessionId of ['chat-1', ' chat-1 ']) {
      const { mock, middleware, model } = wrapped();
      await generateText({ model, prompt: 'Where is the parser?', providerOptions: { compaction: { sessionId } } });
      expect(await middleware.session(sessionId, mock).history()).toHaveLength(1);
    }
  });

  it('no compaction options, or other providers’ options only: keyed by content, sent', async () => {
    const { mock, model } = wrapped();
    await generateText({ model, prompt: 'Where is the parser?' });
    await generateText({ model, prompt: 'Where is the parser?', providerOptions: { openai: { store: false } } });
    await generateText({ model, prompt: 'Where is the parser?', providerOptions: { compaction: {} } });
    expect(mock.doGenerateCalls).toHaveLength(3);
  });
});

describe('sessionId: undefined (an app’s optional chat id, not set yet) counts as none given', () => {
  it('the call is sent and keyed by its content, as without providerOptions; the next request finds that conversation', async () => {
    const chatId: string | undefined = undefined;
    const { mock, middleware, model } = wrapped();
    const providerOptions = { compaction: { sessionId: chatId } };
    const first = await generateText({ model, prompt: 'Where is the parser?', providerOptions });
    expect(first.text).toBe('ok');
    expect(mock.doGenerateCalls).toHaveLength(1);
    const key = conversationKey(promptToMessages(mock.doGenerateCalls[0]!.prompt))!;
    expect(await middleware.session(key, mock).history()).toHaveLength(1);
    await generateText({
      model,
      messages: [
        { role: 'user', content: 'Where is the parser?' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'And the lexer?' },
      ],
      providerOptions,
    });
    expect(mock.doGenerateCalls).toHaveLength(2);
    const next = conversationKey(promptToMessages(mock.doGenerateCalls[1]!.prompt))!;
    expect(await middleware.session(next, mock).history()).toHaveLength(3);
    // No session under the text "undefined": the value is not taken as an id.
    expect(await middleware.session('undefined', mock).history()).toHaveLength(0);
  });

  it('the same key as a call with no providerOptions at all', async () => {
    const one = wrapped();
    const other = wrapped();
    await generateText({
      model: one.model,
      prompt: 'Where is the parser?',
      providerOptions: { compaction: { sessionId: undefined } },
    });
    await generateText({ model: other.model, prompt: 'Where is the parser?' });
    const keyOf = (mock: MockLanguageModelV4) => conversationKey(promptToMessages(mock.doGenerateCalls[0]!.prompt));
    expect(keyOf(one.mock)).toBe(keyOf(other.mock));
  });

  it('its neighbours stay refused: an empty or blank string, null, a non-string — nothing is sent', async () => {
    for (const sessionId of ['', '  ', null, 0, false]) {
      const { mock, model } = wrapped();
      const error = await generateText({
        model,
        prompt: 'Where is the parser?',
        providerOptions: { compaction: { sessionId } } as never,
      }).catch((caught: unknown) => caught);
      expect((error as InvalidSettingsError).setting).toBe('providerOptions.compaction.sessionId');
      expect(mock.doGenerateCalls).toHaveLength(0);
    }
  });
});
