import type { CompactionEvent, Message, Summarizer } from '@compaction/core';
import { AIMessage, type BaseMessage, HumanMessage, RemoveMessage } from '@langchain/core/messages';
import { MemorySaver, REMOVE_ALL_MESSAGES } from '@langchain/langgraph';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { isSummaryMessage, pastConversation, prose, sentTokens, withoutSystem } from './__fixtures__/agent-fixtures.js';
import { recordingSummarizer } from './__fixtures__/recording-summarizer.js';
import { compactionMiddleware } from './compaction-middleware.js';

const settings = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };

/** A model that answers each call with `text` and reports what it was sent, as a provider does. */
function reportingModel(answers: string[]) {
  const model = fakeModel();
  for (const text of answers) {
    model.respond((messages: BaseMessage[]) => {
      const input = sentTokens(messages) + 50;
      return new AIMessage({
        content: text,
        usage_metadata: { input_tokens: input, output_tokens: 5, total_tokens: input + 5 },
      });
    });
  }
  return model;
}

function agentWith(
  model: ReturnType<typeof fakeModel>,
  events: CompactionEvent[],
  summarizer: Summarizer | 'structured' = 'structured',
) {
  return createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ settings, summarizer, onEvent: (event) => events.push(event) })],
    checkpointer: new MemorySaver(),
  });
}

describe('compactionMiddleware: a new run on a thread the checkpointer restored', () => {
  it('sends the thread as the checkpointer gave it back, run after run', async () => {
    const events: CompactionEvent[] = [];
    const model = reportingModel(['One.', 'Two.', 'Three.']);
    const agent = agentWith(model, events);
    const config = { configurable: { thread_id: 'runs' } };
    await agent.invoke({ messages: pastConversation(2) }, config);
    await agent.invoke({ messages: [new HumanMessage('Next?')] }, config);
    await agent.invoke({ messages: [new HumanMessage('And then?')] }, config);

    const state = (await agent.graph.getState(config)).values.messages as BaseMessage[];
    const sent = withoutSystem(model.calls[2]!.messages);
    expect(sent.map((message) => [message.id, message.type, message.text])).toEqual(
      state.slice(0, -1).map((message) => [message.id, message.type, message.text]),
    );
    expect(events).toEqual([]);
  });

  it('sees an old message edited under its id between runs: sent as it is now, and compacted for', async () => {
    const events: CompactionEvent[] = [];
    const model = reportingModel(['One.', 'Two.', 'Three.']);
    const agent = agentWith(model, events);
    const config = { configurable: { thread_id: 'edited' } };
    await agent.invoke({ messages: pastConversation(6) }, config);
    expect(events).toEqual([]);

    // LangGraph's update by id: the first question becomes far longer (about 3,500 tokens).
    const long = `Please look at every module. ${prose(7, 200)}`;
    await agent.graph.updateState(config, { messages: [new HumanMessage({ id: 'past_user_0', content: long })] });
    await agent.invoke({ messages: [new HumanMessage('Well?')] }, config);
    const second = withoutSystem(model.calls[1]!.messages);
    expect(second.find((message) => message.id === 'past_user_0')?.text).toBe(long);
    expect(sentTokens(second)).toBeGreaterThan(6_400);

    // Over the trigger with the edit (the provider reported as much): the next call compacts.
    await agent.invoke({ messages: [new HumanMessage('And now?')] }, config);
    expect(events.map((event) => event.type)).toContain('compaction:end');
    const third = withoutSystem(model.calls[2]!.messages);
    expect(isSummaryMessage(third[0]!)).toBe(true);
    expect(third.at(-1)!.text).toBe('And now?');
  });

  it('sends an edited message that keeps its shape as it is now', async () => {
    const events: CompactionEvent[] = [];
    const model = reportingModel(['One.', 'Two.']);
    const agent = agentWith(model, events);
    const config = { configurable: { thread_id: 'same-shape' } };
    const answer = pastConversation(1)[3]!;
    await agent.invoke({ messages: pastConversation(1) }, config);
    // The same length, another text: a shape check cannot tell, what is sent must.
    const edited = answer.text.replace(/[a-z]/, (letter) => (letter === 'z' ? 'y' : 'z'));
    expect(edited).not.toBe(answer.text);
    expect(edited).toHaveLength(answer.text.length);
    await agent.graph.updateState(config, { messages: [new AIMessage({ id: answer.id!, content: edited })] });
    await agent.invoke({ messages: [new HumanMessage('Well?')] }, config);

    const sent = withoutSystem(model.calls[1]!.messages);
    expect(sent.find((message) => message.id === answer.id)?.text).toBe(edited);
  });

  it('sees a message removed, and one inserted in the middle, between runs: sent as the thread holds them now', async () => {
    const events: CompactionEvent[] = [];
    const model = reportingModel(['One.', 'Two.', 'Three.', 'Four.']);
    const agent = agentWith(model, events);
    const config = { configurable: { thread_id: 'removed-inserted' } };
    const summary = (messages: readonly BaseMessage[]) => messages.map((message) => [message.id, message.text]);
    await agent.invoke({ messages: pastConversation(2) }, config);
    await agent.invoke({ messages: [new HumanMessage('Next?')] }, config);

    // LangGraph's RemoveMessage: the second turn's closing answer goes.
    await agent.graph.updateState(config, { messages: [new RemoveMessage({ id: 'past_answer_1' })] });
    await agent.invoke({ messages: [new HumanMessage('Still there?')] }, config);
    const afterRemoval = (await agent.graph.getState(config)).values.messages as BaseMessage[];
    expect(afterRemoval.some((message) => message.id === 'past_answer_1')).toBe(false);
    expect(summary(withoutSystem(model.calls[2]!.messages))).toEqual(summary(afterRemoval.slice(0, -1)));

    // The whole list rewritten with a message inserted after the first question.
    const inserted = new HumanMessage({ id: 'inserted', content: 'A note added later.' });
    const rewritten = [afterRemoval[0]!, inserted, ...afterRemoval.slice(1)];
    await agent.graph.updateState(config, {
      messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...rewritten],
    });
    await agent.invoke({ messages: [new HumanMessage('And the note?')] }, config);
    const now = (await agent.graph.getState(config)).values.messages as BaseMessage[];
    expect(now[1]!.id).toBe('inserted');
    expect(summary(withoutSystem(model.calls[3]!.messages))).toEqual(summary(now.slice(0, -1)));
    expect(events).toEqual([]);
  });

  it('takes an old message edited under its id (same length) as it is now when the thread next compacts', async () => {
    const events: CompactionEvent[] = [];
    const spans: Message[][] = [];
    const model = reportingModel(['One.', 'Two.', 'Three.', 'Four.']);
    const agent = agentWith(model, events, recordingSummarizer(spans));
    const config = { configurable: { thread_id: 'edited-then-compacted' } };
    await agent.invoke({ messages: pastConversation(6) }, config);
    await agent.invoke({ messages: [new HumanMessage('Next?')] }, config);
    expect(events).toEqual([]);

    // The first question edited under its id, to a text of the same length: the id pass takes the thread over.
    const edited = 'Please look at module Z.';
    expect(edited).toHaveLength('Please look at module 0.'.length);
    await agent.graph.updateState(config, { messages: [new HumanMessage({ id: 'past_user_0', content: edited })] });
    await agent.invoke({ messages: [new HumanMessage('Well?')] }, config);
    const sent = withoutSystem(model.calls[2]!.messages);
    expect(sent.find((message) => message.id === 'past_user_0')?.text).toBe(edited);
    expect(events).toEqual([]);

    // A long question takes the thread over the trigger: the compaction summarizes the question as edited.
    await agent.invoke({ messages: [new HumanMessage(`Now review all of it. ${prose(11, 220)}`)] }, config);
    expect(events.map((event) => event.type)).toContain('compaction:end');
    const summarized = spans.flat().filter((message) => message.id === 'past_user_0');
    expect(summarized.length).toBeGreaterThan(0);
    for (const message of summarized) expect(message.parts).toEqual([{ type: 'text', text: edited }]);
    expect(isSummaryMessage(withoutSystem(model.calls[3]!.messages)[0]!)).toBe(true);
  });
});
