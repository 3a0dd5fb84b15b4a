import type { CompactionEvent } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage } from '@langchain/core/messages';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { answer, pastConversation, validSummary } from './__fixtures__/agent-fixtures.js';
import {
  CompactingChatMessageHistory,
  type CompactingChatMessageHistoryOptions,
} from './compacting-chat-message-history.js';
import { type CompactionMiddlewareOptions, compactionMiddleware } from './compaction-middleware.js';
import { lazyChatModel } from './lazy-chat-model.js';
import { resolveSummarizer } from './resolve-summarizer.js';

const middleware = (options: unknown) => () => compactionMiddleware(options as CompactionMiddlewareOptions);
const history = (options: unknown) => () =>
  new CompactingChatMessageHistory({
    history: new InMemoryChatMessageHistory(),
    sessionId: 's',
    ...(options as object),
  } as CompactingChatMessageHistoryOptions);

describe('compactionMiddleware checks its options when it is made', () => {
  it.each([
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
  ])('%o → InvalidSettingsError naming %s', (options, setting) => {
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
    [{ summarizer: 'openai' }, undefined],
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

  it("an id LangChain cannot resolve falls back to the structured summary, with LangChain's error reported", async () => {
    const events: CompactionEvent[] = [];
    const agent = createAgent({
      model: fakeModel().respond(answer('fine')),
      tools: [],
      middleware: [
        compactionMiddleware({
          settings: { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 },
          summarizer: 'no-such-provider:some-model',
          onEvent: (event) => events.push(event),
        }),
      ],
    });
    await agent.invoke({ messages: pastConversation(20) });
    const end = events.find((event) => event.type === 'compaction:end');
    expect(end).toMatchObject({ strategy: 'structured' });
    expect(end?.type === 'compaction:end' && end.fallbacks[0]?.error).toMatch(/no-such-provider/i);
  });
});
