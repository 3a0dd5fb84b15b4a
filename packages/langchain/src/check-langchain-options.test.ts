import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CompactionEvent, fileStore, InvalidMessageError, memoryStore } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import fc from 'fast-check';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { answer, pastConversation, validSummary } from './__fixtures__/agent-fixtures.js';
import type { ChatModelLike } from './chat-model-like.js';
import {
  CompactingChatMessageHistory,
  type CompactingChatMessageHistoryOptions,
} from './compacting-chat-message-history.js';
import { type CompactionMiddlewareOptions, compactionMiddleware } from './compaction-middleware.js';
import { type CompactionContextToolsOptions, compactionContextTools } from './context-tools.js';
import { type LangchainSummarizerOptions, langchainSummarizer } from './langchain-summarizer.js';
import { lazyChatModel } from './lazy-chat-model.js';
import { requestCompaction } from './request-compaction.js';
import { resolveSummarizer } from './resolve-summarizer.js';

const middleware = (options: unknown) => () => compactionMiddleware(options as CompactionMiddlewareOptions);
const history = (options: unknown) => () =>
  new CompactingChatMessageHistory({
    history: new InMemoryChatMessageHistory(),
    sessionId: 's',
    ...(options as object),
  } as CompactingChatMessageHistoryOptions);

/** Middleware options refused, with the setting named; the context tools, given them, refuse them alike. */
const MIDDLEWARE_REFUSED: [Record<string, unknown>, string][] = [
  [{ settings: { trigger: -1 } }, 'trigger'],
  [{ settings: { trigger: 80 } }, 'trigger'],
  [{ settings: { trigger: 1.5 } }, 'trigger'],
  [{ trigger: { tokens: 100_000 } }, 'trigger'],
  [{ keep: { messages: 20 } }, 'keep'],
  [{ settings: { trigger: { tokens: 100_000 } } }, 'trigger'],
  [{ settings: { keep: { messages: 20 } } }, 'keep'],
  [{ maxTokensBeforeSummary: 4000 }, 'maxTokensBeforeSummary'],
  [{ summarizer: 42 }, 'summarizer'],
  [{ summarizer: { generate() {} } }, 'summarizer'],
  [{ mode: 'rewrite' }, 'mode'],
  [{ model: fakeModel() }, 'model'],
  [{ onEvent: true }, 'onEvent'],
  [{ reserveTokens: 2000 }, 'reserveTokens'],
];

describe('compactionMiddleware checks its options when it is made', () => {
  it.each(MIDDLEWARE_REFUSED)('%o → InvalidSettingsError naming %s', (options, setting) => {
    expect(invalidSettingOf(middleware(options))).toBe(setting);
  });

  it("accepts summarizer: 'llm' (the agent's model, known at the call)", () => {
    expect(middleware({ summarizer: 'llm' })).not.toThrow();
  });

  it("names ours for summarizationMiddleware's trigger and keep", () => {
    expect(middleware({ trigger: { tokens: 100_000 } })).toThrow(/settings: \{ trigger: N \}/);
    expect(middleware({ keep: { messages: 20 } })).toThrow(/keepRecentMessages/);
    expect(middleware({ settings: { trigger: 80 } })).toThrow(/trigger: 0\.8/);
  });
});

describe('CompactingChatMessageHistory checks its options in the constructor', () => {
  it.each([
    [{ sessionId: undefined }, 'sessionId'],
    [{ history: {} }, 'history'],
    [{ settings: { keepRecent: 10 } }, 'keepRecent'],
    // 'openai' alone was accepted here until session 9; initChatModel can never resolve it (no provider prefix,
    // none inferred: "Unable to infer model provider"), so it is refused now and an id it resolves is the accepted row.
    [{ summarizer: 'openai' }, 'summarizer'],
    [{ summarizer: 'openai:gpt-5-mini' }, undefined],
    [{ trigger: 0.5 }, 'trigger'],
  ])('%o', (options, setting) => {
    if (setting === undefined) expect(history(options)).not.toThrow();
    else expect(invalidSettingOf(history(options))).toBe(setting);
  });
});

describe('a model id as summarizer, resolved the way summarizationMiddleware resolves it', () => {
  it("'openai:gpt-5-mini' is accepted (no 'Invalid value used as weak map key')", () => {
    expect(middleware({ summarizer: 'openai:gpt-5-mini' })).not.toThrow();
    expect(resolveSummarizer('openai:gpt-5-mini').name).toBe('llm');
    expect(resolveSummarizer('openai:gpt-5-mini')).toBe(resolveSummarizer('openai:gpt-5-mini'));
  });

  it('the id goes through initChatModel, and the resolved model writes the summary', async () => {
    const resolved = fakeModel().respond(new AIMessage(validSummary('from the resolved model')));
    const seen: string[] = [];
    const model = lazyChatModel('openai:gpt-5-mini', async (id) => {
      seen.push(id);
      return resolved;
    });
    const reply = await model.invoke([]);
    expect(seen).toEqual(['openai:gpt-5-mini']);
    expect(reply.text).toContain('from the resolved model');
    expect(model.model).toBe('gpt-5-mini');
  });

  // Until session 9 this used 'no-such-provider:some-model', which is now refused when the middleware is made;
  // a provider LangChain knows whose integration package is not installed is what still fails only at the call.
  it("an id LangChain cannot resolve at the call falls back to the structured summary, with LangChain's error reported", async () => {
    const events: CompactionEvent[] = [];
    const agent = createAgent({
      model: fakeModel().respond(answer('fine')),
      tools: [],
      middleware: [
        compactionMiddleware({
          settings: { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 },
          summarizer: 'cohere:command-r', // @langchain/cohere is not installed
          onEvent: (event) => events.push(event),
        }),
      ],
    });
    await agent.invoke({ messages: pastConversation(20) });
    const end = events.find((event) => event.type === 'compaction:end');
    expect(end).toMatchObject({ strategy: 'structured' });
    expect(end?.type === 'compaction:end' && end.fallbacks[0]?.error).toMatch(/@langchain\/cohere/i);
  });
});

describe('a newcomer’s mistakes are refused when made, their valid neighbours accepted (session 9)', () => {
  it('the history refuses a sessionId of only whitespace (core’s checkSessionId), and keeps one with a visible character', () => {
    expect(invalidSettingOf(history({ sessionId: '   ' }))).toBe('sessionId');
    expect(invalidSettingOf(history({ sessionId: '\n\t' }))).toBe('sessionId');
    expect(history({ sessionId: '   ' })).toThrow(/only whitespace/);
    expect(history({ sessionId: ' chat-1' })).not.toThrow();
  });

  it('compactionContextTools checks its options when the tools are made', () => {
    const tools = (options: unknown) => () => compactionContextTools(options as CompactionContextToolsOptions);
    expect(invalidSettingOf(tools({ settigns: { contextWindow: 200_000 } }))).toBe('settigns');
    expect(tools({ settigns: {} })).toThrow(/did you mean "settings"\?/);
    expect(invalidSettingOf(tools('x'))).toBe('options');
    expect(invalidSettingOf(tools({ settings: { trigger: 80 } }))).toBe('trigger');
    expect(invalidSettingOf(tools({ model: fakeModel() }))).toBe('model');
    expect(invalidSettingOf(tools({ snippetChars: 0 }))).toBe('snippetChars');
    expect(invalidSettingOf(tools({ store: memoryStore() }))).toBe('store');
    expect(tools(undefined)).not.toThrow();
    expect(tools({})).not.toThrow();
    expect(
      tools({ settings: { contextWindow: 200_000 }, model: 'gpt-5', snippetChars: 200, maxToolOutputChars: 4000 }),
    ).not.toThrow();
    // The tools' sessions know no agent model: their window is model's (or 128K), so this is checked now.
    expect(invalidSettingOf(tools({ settings: { keepRecentTokens: 200_000 } }))).toBe('keepRecentTokens');
    expect(tools({ settings: { keepRecentTokens: 200_000 }, model: 'gpt-5' })).not.toThrow();
  });

  it.each(MIDDLEWARE_REFUSED)(
    'compactionContextTools refuses the middleware option %o as the middleware does, naming %s',
    (options, setting) => {
      expect(invalidSettingOf(() => compactionContextTools(options as CompactionContextToolsOptions))).toBe(setting);
    },
  );

  it('compactionContextTools takes the middleware options (one object for both) and still refuses the wrong ones', () => {
    const tools = (options: unknown) => () => compactionContextTools(options as CompactionContextToolsOptions);
    const shared = {
      settings: { contextWindow: 200_000 },
      model: 'gpt-5',
      summarizer: 'openai:gpt-5-mini',
      mode: 'replace',
      name: 'compaction-main',
      onEvent: () => {},
      counter: { name: 'chars', countText: (text: string) => text.length },
    };
    expect(middleware(shared)).not.toThrow();
    expect(tools(shared)).not.toThrow();
    expect(tools({ ...shared, summarizer: 'structured', mode: 'context', snippetChars: 100 })).not.toThrow();
    expect(tools({ summarizer: fakeModel() })).not.toThrow();
    expect(invalidSettingOf(tools({ mdoe: 'replace' }))).toBe('mdoe');
    expect(tools({ mdoe: 'replace' })).toThrow(/did you mean "mode"\?/);
    expect(invalidSettingOf(tools({ name: '   ' }))).toBe('name');
    expect(invalidSettingOf(tools({ name: 42 }))).toBe('name');
    expect(invalidSettingOf(tools({ summarizer: 'nosuchprovider:model' }))).toBe('summarizer');
    expect(invalidSettingOf(tools({ summaryPrompt: 'x' }))).toBe('summaryPrompt');
  });

  it('requestCompaction refuses a focus that is not a string (core’s rule for a manual compaction)', () => {
    expect(invalidSettingOf(() => requestCompaction(42 as unknown as string))).toBe('instructions');
    expect(invalidSettingOf(() => requestCompaction({ instructions: 'x' } as unknown as string))).toBe('instructions');
    expect(requestCompaction()).toEqual({ compactionRequest: {} });
    // null is no focus (a strict tool schema's nullable field); an object holding null is still no string.
    expect(requestCompaction(null)).toEqual({ compactionRequest: {} });
    expect(invalidSettingOf(() => requestCompaction({ instructions: null } as unknown as string))).toBe('instructions');
    expect(requestCompaction('keep the API decisions')).toEqual({
      compactionRequest: { instructions: 'keep the API decisions' },
    });
  });

  it('langchainSummarizer checks its model and options when made', () => {
    const made = (model: unknown, options?: unknown) => () =>
      langchainSummarizer(model as ChatModelLike, options as LangchainSummarizerOptions);
    expect(invalidSettingOf(made(42))).toBe('model');
    expect(invalidSettingOf(made({ model: 'gpt-5-mini' }))).toBe('model');
    expect(invalidSettingOf(made('nosuchprovider:model'))).toBe('model');
    expect(invalidSettingOf(made(fakeModel(), { maxTokens: 500 }))).toBe('maxTokens');
    expect(made(fakeModel(), { maxTokens: 500 })).toThrow(/use maxOutputTokens/);
    expect(invalidSettingOf(made(fakeModel(), 'x'))).toBe('options');
    expect(made(fakeModel(), { maxOutputTokens: 500, contextWindow: 32_000 })).not.toThrow();
    expect(made('gpt-5-mini')).not.toThrow(); // LangChain infers openai
    expect(made('openai:gpt-5-mini')).not.toThrow();
  });

  it('a summarizer id LangChain can never resolve is refused by the middleware and the history, with the providers', () => {
    for (const id of ['nosuchprovider:model', 'llama3', 'gpt5mini']) {
      expect(invalidSettingOf(middleware({ summarizer: id }))).toBe('summarizer');
      expect(invalidSettingOf(history({ summarizer: id }))).toBe('summarizer');
    }
    expect(middleware({ summarizer: 'nosuchprovider:model' })).toThrow(/"nosuchprovider" is not one of its providers/);
    for (const id of ['gpt-5-mini', 'anthropic:claude-sonnet-4-5', 'ollama:llama3:8b']) {
      expect(middleware({ summarizer: id })).not.toThrow();
      expect(history({ summarizer: id })).not.toThrow();
    }
  });
});

describe('CompactingChatMessageHistory.addMessages takes LangChain messages', () => {
  it('refuses a string or { role, content } with InvalidMessageError, storing nothing; LangChain messages are stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-add-messages-'));
    try {
      const wrapped = new InMemoryChatMessageHistory();
      const chat = new CompactingChatMessageHistory({ history: wrapped, sessionId: 'c1', store: fileStore(dir) });
      for (const bad of ['hi', [{ role: 'user', content: 'hi' }], [new HumanMessage('ok'), 'hi'], undefined]) {
        const error = await chat.addMessages(bad as unknown as BaseMessage[]).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(InvalidMessageError.isInstance(error)).toBe(true);
        expect(String((error as Error).message)).toMatch(/new HumanMessage\('hi'\)/);
      }
      const single = await chat.addMessage({ role: 'user', content: 'hi' } as unknown as BaseMessage).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(InvalidMessageError.isInstance(single)).toBe(true);
      expect(await wrapped.getMessages()).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);

      await chat.addMessages([new HumanMessage('hi'), new AIMessage('hello')]);
      await chat.addUserMessage('and again');
      expect((await chat.getMessages()).map((message) => message.text)).toEqual(['hi', 'hello', 'and again']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the history sessionId over generated strings', () => {
  it('is refused exactly when it has no visible character (core’s rule), and kept as given otherwise', () => {
    const whitespace = fc.array(fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\ufeff'), { maxLength: 6 });
    fc.assert(
      fc.property(whitespace, fc.string({ maxLength: 6 }), whitespace, (before, core, after) => {
        const sessionId = `${before.join('')}${core}${after.join('')}`;
        if (sessionId.trim() === '') expect(invalidSettingOf(history({ sessionId }))).toBe('sessionId');
        else expect(history({ sessionId })().sessionId).toBe(sessionId);
      }),
      { numRuns: 200 },
    );
  });
});
