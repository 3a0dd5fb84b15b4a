import { type CompactionEvent, memoryStore, SUMMARY_ACKNOWLEDGEMENT } from '@compaction/core';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { isSummaryMessage, prose, sentTokens, validSummary } from './__fixtures__/agent-fixtures.js';
import { countingCounter } from './__fixtures__/counting-counter.js';
import { CompactingChatMessageHistory } from './compacting-chat-message-history.js';

const settings = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };
const TURNS = 30;

function chainOver(getMessageHistory: (sessionId: string) => CompactingChatMessageHistory, model = replyModel()) {
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'You are a helpful assistant.'],
    new MessagesPlaceholder('history'),
    ['human', '{input}'],
  ]);
  return new RunnableWithMessageHistory({
    runnable: prompt.pipe(model),
    getMessageHistory,
    inputMessagesKey: 'input',
    historyMessagesKey: 'history',
  });
}

/** Answers every turn with ~ 8 sentences (~ 150 tokens). */
function replyModel() {
  const model = fakeModel();
  for (let turn = 0; turn < TURNS; turn += 1) model.respond(new AIMessage(`Answer ${turn}: ${prose(turn, 8)}`));
  return model;
}

describe('CompactingChatMessageHistory in RunnableWithMessageHistory', () => {
  it('sends summary + recent messages while the wrapped history keeps every message', async () => {
    const full = new InMemoryChatMessageHistory();
    const store = memoryStore();
    const events: CompactionEvent[] = [];
    const model = replyModel();
    // A new wrapper per call, as `getMessageHistory` usually does: the record lives in the store.
    const chain = chainOver(
      (sessionId) =>
        new CompactingChatMessageHistory({
          sessionId,
          history: full,
          store,
          settings,
          onEvent: (event) => events.push(event),
        }),
      model,
    );
    for (let turn = 0; turn < TURNS; turn += 1) {
      await chain.invoke(
        { input: `Question ${turn}: ${prose(turn + 40, 8)}` },
        { configurable: { sessionId: 'chat-1' } },
      );
    }

    expect(events.some((event) => event.type === 'compaction:end')).toBe(true);
    const stored = await full.getMessages();
    expect(stored).toHaveLength(TURNS * 2);
    expect(stored.every((message) => typeof message.id === 'string')).toBe(true);
    expect(new Set(stored.map((message) => message.id)).size).toBe(TURNS * 2);

    const last = model.calls.at(-1)!.messages;
    expect(last[0]!.type).toBe('system');
    expect(last[1]).toSatisfy(isSummaryMessage);
    expect(last.at(-1)!.text).toContain(`Question ${TURNS - 1}:`);
    // The model saw the summary and the recent turns: far fewer than the 60 stored messages.
    expect(last.length).toBeLessThan(stored.length / 2 + 2);
    expect(sentTokens(last)).toBeLessThanOrEqual(6400);
    // The kept messages are the last ones of the history before the last turn, as stored.
    const kept = last
      .slice(1, -1)
      .filter((message) => !isSummaryMessage(message) && message.text !== SUMMARY_ACKNOWLEDGEMENT);
    expect(kept.map((message) => message.id)).toEqual(stored.slice(-kept.length - 2, -2).map((message) => message.id));

    const history = new CompactingChatMessageHistory({ sessionId: 'chat-1', history: full, store, settings });
    expect(await history.getFullMessages()).toHaveLength(TURNS * 2);
    expect((await history.state())?.version).toBeGreaterThanOrEqual(1);
  });

  it('clear() clears the wrapped history and the compaction state', async () => {
    const full = new InMemoryChatMessageHistory();
    const store = memoryStore();
    const history = new CompactingChatMessageHistory({ sessionId: 's', history: full, store, settings });
    for (let turn = 0; turn < 20; turn += 1) {
      await history.addMessages([new HumanMessage(prose(turn, 10)), new AIMessage(prose(turn + 1, 10))]);
    }
    expect((await history.getMessages())[0]).toSatisfy(isSummaryMessage);
    expect(await store.loadRecord('s')).toBeDefined();

    await history.clear();
    expect(await full.getMessages()).toEqual([]);
    expect(await store.loadRecord('s')).toBeUndefined();
    expect(await history.getMessages()).toEqual([]);
  });

  it('summarizes with a chat model and compacts on request with a focus', async () => {
    const full = new InMemoryChatMessageHistory();
    const summaryModel = fakeModel().respond(
      (messages) =>
        new AIMessage(validSummary(`focus: ${messages.at(-1)!.text.includes('the names') ? 'names' : 'none'}`)),
    );
    const history = new CompactingChatMessageHistory({
      sessionId: 'manual',
      history: full,
      settings: { ...settings, keepRecentTokens: 200 },
      summarizer: summaryModel,
    });
    for (let turn = 0; turn < 4; turn += 1) {
      await history.addMessages([new HumanMessage(prose(turn, 6)), new AIMessage(prose(turn + 1, 6))]);
    }
    expect(await history.getMessages()).toHaveLength(8);

    const result = await history.compact('keep the names');
    expect(result?.strategy).toBe('llm');
    const context = await history.getMessages();
    expect(context[0]!.text).toContain('focus: names');
    expect(context.length).toBeLessThan(8);
    expect(await full.getMessages()).toHaveLength(8);
  });

  it('gives messages without ids the same content ids every time', async () => {
    const full = new InMemoryChatMessageHistory();
    const history = new CompactingChatMessageHistory({ sessionId: 'ids', history: full, settings });
    await history.addMessages([new HumanMessage('hi'), new AIMessage('hello')]);
    const ids = (await full.getMessages()).map((message) => message.id);
    expect(ids.every((id) => id?.startsWith('lc_'))).toBe(true);

    // The same conversation in another history gets the same ids.
    const other = new InMemoryChatMessageHistory();
    await new CompactingChatMessageHistory({ sessionId: 'ids-2', history: other, settings }).addMessages([
      new HumanMessage('hi'),
      new AIMessage('hello'),
    ]);
    expect((await other.getMessages()).map((message) => message.id)).toEqual(ids);
  });

  it('rejects invalid settings when it is made', () => {
    expect(
      () =>
        new CompactingChatMessageHistory({
          sessionId: 'bad',
          history: new InMemoryChatMessageHistory(),
          settings: { contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 9000 },
        }),
    ).toThrow(/keepRecentTokens/);
  });

  it('counts only the messages added since the last call, with a new wrapper per call too', async () => {
    const counter = countingCounter();
    const full = new InMemoryChatMessageHistory();
    const store = memoryStore();
    const open = () =>
      new CompactingChatMessageHistory({ sessionId: 'counting', history: full, store, settings, counter });
    const history = open();
    for (let turn = 0; turn < 6; turn += 1) {
      await history.addMessages([new HumanMessage(`Question ${turn}`), new AIMessage(prose(turn, 6))]);
    }
    await history.getMessages();
    expect(counter.texts).toEqual(expect.arrayContaining(['Question 0', 'Question 5']));

    const afterFirst = counter.texts.length;
    await history.addMessages([new HumanMessage('One more question')]);
    expect(await history.getMessages()).toHaveLength(13);
    // Far below the trigger, not even the new message is counted: core bounds it by size on top of
    // its count so far (issue 16, session 8; it counted it here before).
    expect(counter.texts.slice(afterFirst)).toEqual([]);

    // `getMessageHistory` usually makes a new wrapper per call: the counts are shared.
    const afterSecond = counter.texts.length;
    await open().addMessages([new AIMessage('An answer'), new HumanMessage('And another')]);
    expect(await open().getMessages()).toHaveLength(15);
    // The new wrapper's session counts what the shared counts lack: the message left uncounted above and the two new ones.
    expect(counter.texts.slice(afterSecond)).toEqual(['One more question', 'An answer', 'And another']);
  });

  it('goes on with its session after a usage report, on a store that stamps records with revisions', async () => {
    // The store gives the record back with the revision it stamped on the save: still the record the session left.
    const inner = memoryStore();
    let loads = 0;
    const store = {
      ...inner,
      loadRecord(sessionId: string) {
        loads += 1;
        return inner.loadRecord(sessionId);
      },
    };
    const full = new InMemoryChatMessageHistory();
    const history = new CompactingChatMessageHistory({ sessionId: 'stamped', history: full, store, settings });
    const perCall: number[] = [];
    for (let turn = 0; turn < 5; turn += 1) {
      await history.addMessages([new HumanMessage(`Question ${turn}`)]);
      const before = loads;
      const sent = await history.getMessages();
      perCall.push(loads - before);
      const input = sentTokens(sent) + 50;
      await history.addMessages([
        new AIMessage({
          content: `Answer ${turn}`,
          usage_metadata: { input_tokens: input, output_tokens: 5, total_tokens: input + 5 },
        }),
      ]);
    }
    expect((await inner.loadRecord('stamped'))?.revision).toEqual(expect.any(Number));
    // The first call's new session loads the record once; every later call only checks that the store still holds the
    // record its session left (one load), where a new session per call would load it a second time.
    expect(perCall).toEqual([1, 1, 1, 1, 1]);
  });

  it('sees a compaction another wrapper of the same conversation made in the meantime', async () => {
    const full = new InMemoryChatMessageHistory();
    const store = memoryStore();
    const open = () =>
      new CompactingChatMessageHistory({
        sessionId: 'two',
        history: full,
        store,
        settings: { ...settings, keepRecentTokens: 200 },
      });
    const history = open();
    for (let turn = 0; turn < 4; turn += 1) {
      await history.addMessages([new HumanMessage(prose(turn, 6)), new AIMessage(prose(turn + 1, 6))]);
    }
    expect(await history.getMessages()).toHaveLength(8);

    expect(await open().compact()).toBeDefined();
    const context = await history.getMessages();
    expect(context[0]).toSatisfy(isSummaryMessage);
    expect(context.length).toBeLessThan(8);
  });

  it('with usage reported and far below the trigger returns the wrapped messages themselves, and compacts once the reports cross it', async () => {
    const full = new InMemoryChatMessageHistory();
    const events: CompactionEvent[] = [];
    const history = new CompactingChatMessageHistory({
      sessionId: 'reported',
      history: full,
      store: memoryStore(),
      settings,
      onEvent: (event) => events.push(event),
    });
    const compacted = () => events.some((event) => event.type === 'compaction:end');
    for (let turn = 0; turn < 60 && !compacted(); turn += 1) {
      await history.addMessages([new HumanMessage(`Question ${turn}: ${prose(turn, 8)}`)]);
      const sent = await history.getMessages();
      if (!compacted()) {
        const stored = await full.getMessages();
        expect(sent).not.toBe(stored);
        expect(sent).toHaveLength(stored.length);
        for (const [index, message] of sent.entries()) expect(message).toBe(stored[index]);
      }
      const input = sentTokens(sent) + 50;
      await history.addMessages([
        new AIMessage({
          content: `Answer ${turn}: ${prose(turn + 40, 8)}`,
          usage_metadata: { input_tokens: input, output_tokens: 5, total_tokens: input + 5 },
        }),
      ]);
    }
    expect(compacted()).toBe(true);
    const after = await history.getMessages();
    expect(isSummaryMessage(after[0]!)).toBe(true);
    expect(after.length).toBeLessThan((await full.getMessages()).length);
  });
});
