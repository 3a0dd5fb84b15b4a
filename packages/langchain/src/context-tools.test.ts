import type { CompactionEndEvent, CompactionEvent } from '@compaction/core';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { isSummaryMessage, pastConversation, readFile, toolStep } from './__fixtures__/agent-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { compactionContextTools } from './context-tools.js';

const settings = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };

/** 30 past turns (over the trigger); the tool output of turn 4 holds a value nothing else mentions. */
function pastWithSecret(): BaseMessage[] {
  const messages = pastConversation(30);
  const index = messages.findIndex((message) => message.id === 'past_tool_4');
  messages[index] = new ToolMessage({
    id: 'past_tool_4',
    tool_call_id: 'past_call_4',
    name: 'read_file',
    content: 'export const STAGING_PORT = 48213; // only here',
  });
  return messages;
}

const lastTool = (messages: BaseMessage[]) => messages.findLast((message) => ToolMessage.isInstance(message));

describe('compactionContextTools in createAgent', () => {
  it('search_history gets back a value that only a summarized tool output held', async () => {
    const seen: BaseMessage[][] = [];
    const model = fakeModel()
      .respond((messages: BaseMessage[]) => {
        seen.push(messages);
        return toolStep([{ name: 'search_history', args: { query: 'staging port' }, id: 'search_1' }])(messages);
      })
      .respond((messages: BaseMessage[]) => {
        seen.push(messages);
        const found = lastTool(messages)?.text ?? '';
        return new AIMessage(found.includes('48213') ? 'The staging port is 48213.' : 'Not found.');
      });
    const options = { settings };
    const agent = createAgent({
      model,
      tools: [readFile, ...compactionContextTools(options)],
      middleware: [compactionMiddleware({ ...options, summarizer: 'structured' })],
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [...pastWithSecret(), new HumanMessage('Which port did staging use?')] },
      { configurable: { thread_id: 't1' } },
    );
    expect(isSummaryMessage(seen[0]![0]!)).toBe(true);
    expect(JSON.stringify(seen[0]!.map((message) => message.text))).not.toContain('48213');
    const toolMessage = lastTool(result.messages)!;
    expect(toolMessage.name).toBe('search_history');
    expect(JSON.parse(toolMessage.text).hits[0]).toMatchObject({ id: 'past_tool_4', role: 'tool' });
    expect(result.messages.at(-1)!.text).toBe('The staging port is 48213.');
  });

  it('compact_context compacts before the next model call, with the focus, not during the current step', async () => {
    const events: CompactionEvent[] = [];
    const calls: { messages: BaseMessage[]; endsSoFar: number }[] = [];
    const ends = () => events.filter((event): event is CompactionEndEvent => event.type === 'compaction:end');
    const model = fakeModel()
      .respond((messages: BaseMessage[]) => {
        calls.push({ messages, endsSoFar: ends().length });
        return toolStep([{ name: 'compact_context', args: { focus: 'the module list' }, id: 'compact_1' }])(messages);
      })
      .respond((messages: BaseMessage[]) => {
        calls.push({ messages, endsSoFar: ends().length });
        return new AIMessage('Compacted.');
      });
    const agent = createAgent({
      model,
      tools: compactionContextTools({ settings }),
      middleware: [
        compactionMiddleware({ settings, summarizer: 'structured', onEvent: (event) => events.push(event) }),
      ],
      checkpointer: new MemorySaver(),
    });
    // 6 turns: well under the trigger, so only the request compacts.
    await agent.invoke(
      { messages: [...pastConversation(6), new HumanMessage('Tidy up your context.')] },
      { configurable: { thread_id: 't2' } },
    );
    expect(calls[0]!.endsSoFar).toBe(0);
    expect(calls[1]!.endsSoFar).toBe(1);
    expect(ends()[0]!.trigger).toBe('manual');
    expect(isSummaryMessage(calls[1]!.messages[0]!)).toBe(true);
    expect(calls[1]!.messages[0]!.text).toContain('the module list');
  });

  it('context_stats reads the agent state: history, compactions and the window of the given settings', async () => {
    const model = fakeModel()
      .respond(toolStep([{ name: 'context_stats', args: {}, id: 'stats_1' }]))
      .respond(new AIMessage('ok'));
    const agent = createAgent({
      model,
      tools: compactionContextTools({ settings }),
      middleware: [compactionMiddleware({ settings, summarizer: 'structured' })],
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [...pastWithSecret(), new HumanMessage('How full is your context?')] },
      { configurable: { thread_id: 't3' } },
    );
    const stats = JSON.parse(lastTool(result.messages)!.text);
    expect(stats).toMatchObject({ contextWindow: 8000, compactions: 1, historyMessages: 30 * 4 + 2 });
    expect(stats.contextMessages).toBeLessThan(stats.historyMessages);
  });

  it('one options object serves the middleware and the tools: the middleware keys are its own, the tools leave them', async () => {
    const events: CompactionEvent[] = [];
    const model = fakeModel()
      .respond(toolStep([{ name: 'context_stats', args: {}, id: 'stats_1' }]))
      .respond(toolStep([{ name: 'compact_context', args: { focus: 'the module list' }, id: 'compact_1' }]))
      .respond(new AIMessage('ok'));
    const options = {
      settings,
      summarizer: 'structured',
      mode: 'context',
      name: 'compaction-main',
      onEvent: (event: CompactionEvent) => events.push(event),
    } as const;
    const agent = createAgent({
      model,
      tools: compactionContextTools(options),
      middleware: [compactionMiddleware(options)],
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [...pastConversation(6), new HumanMessage('How full is your context? Then tidy it up.')] },
      { configurable: { thread_id: 't4' } },
    );
    const stats = JSON.parse(result.messages.find((message) => message.name === 'context_stats')!.text);
    expect(stats).toMatchObject({ contextWindow: 8000, compactions: 0 });
    // The tools' sessions report nothing to onEvent: the one compaction is the middleware's, asked by the tool.
    const ends = events.filter((event): event is CompactionEndEvent => event.type === 'compaction:end');
    expect(ends.map((event) => event.trigger)).toEqual(['manual']);
    expect(result.messages.at(-1)!.text).toBe('ok');
  });
});
