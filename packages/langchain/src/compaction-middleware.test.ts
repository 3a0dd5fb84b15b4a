import type { CompactionEvent } from '@compaction/core';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import {
  answer,
  isSummaryCall,
  isSummaryMessage,
  pairingError,
  pastConversation,
  prose,
  readFile,
  sentTokens,
  toolStep,
  validSummary,
  withoutSystem,
} from './__fixtures__/agent-fixtures.js';
import { countingCounter } from './__fixtures__/counting-counter.js';
import { compactionMiddleware } from './compaction-middleware.js';

const settings = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };
/** min(0.8 × 8000, 8000 − 1000) */
const TRIGGER = 6400;
const STEPS = 30;

/** A run of `steps` tool-call turns (every third one with three parallel reads), then an answer. */
function scriptedModel(steps: number, prefix = 'call') {
  const model = fakeModel();
  for (let step = 0; step < steps; step += 1) {
    const count = step % 3 === 2 ? 3 : 1;
    model.respond(
      toolStep(
        Array.from({ length: count }, (_, index) => ({
          name: 'read_file',
          args: { path: `src/module-${step}-${index}.ts` },
          id: `${prefix}_${step}_${index}`,
        })),
        prose(step, 8),
      ),
    );
  }
  return model.respond(answer('All files read.'));
}

/** A response that reports input tokens the way a provider does (what was sent, plus tool definitions). */
function withUsage(response: AIMessage | Error, messages: BaseMessage[]): AIMessage | Error {
  if (!AIMessage.isInstance(response)) return response;
  const input = sentTokens(messages) + 120;
  response.usage_metadata = { input_tokens: input, output_tokens: 10, total_tokens: input + 10 };
  return response;
}

function threadConfig(threadId: string) {
  return { configurable: { thread_id: threadId }, recursionLimit: 200 };
}

describe('compactionMiddleware in createAgent', () => {
  it('compacts a long tool run at the trigger, keeps every tool result with its call and the full state', async () => {
    const model = scriptedModel(STEPS);
    const events: CompactionEvent[] = [];
    const checkpointer = new MemorySaver();
    const agent = createAgent({
      model,
      tools: [readFile],
      systemPrompt: 'You read files.',
      middleware: [
        compactionMiddleware({ settings, summarizer: 'structured', onEvent: (event) => events.push(event) }),
      ],
      checkpointer,
    });

    const result = await agent.invoke({ messages: [new HumanMessage('Read every module.')] }, threadConfig('long'));

    const ends = events.filter((event) => event.type === 'compaction:end');
    const starts = events.filter((event) => event.type === 'compaction:start');
    expect(ends.map((event) => event.strategy)).toContain('structured');
    // It compacts when the context passes the trigger, and only then.
    for (const start of starts) expect(start.tokens).toBeGreaterThan(TRIGGER);
    const calls = model.calls.map((call) => call.messages);
    for (const messages of calls) {
      expect(sentTokens(messages)).toBeLessThanOrEqual(TRIGGER);
      expect(pairingError(messages)).toBeNull();
      expect(messages[0]?.type).toBe('system');
    }
    const firstSummarized = calls.findIndex((messages) => messages.some(isSummaryMessage));
    expect(firstSummarized).toBeGreaterThan(0);
    for (const messages of calls.slice(firstSummarized)) expect(withoutSystem(messages)[0]).toSatisfy(isSummaryMessage);
    expect(calls.at(-1)!.length).toBeLessThan(result.messages.length / 2);

    // Non-destructive: the state holds every message, no summary.
    const toolCalls = STEPS + Math.floor(STEPS / 3) * 2;
    expect(result.messages).toHaveLength(1 + STEPS + toolCalls + 1);
    expect(result.messages.some(isSummaryMessage)).toBe(false);
    const snapshot = await agent.graph.getState(threadConfig('long'));
    expect(snapshot.values._compaction.state.version).toBe(ends.length);
    expect(snapshot.values._compaction.state.summary).toContain('Read every module.');
  });

  it('compacts between the tool calls of one run (respondWithTools)', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'read_file', args: { path: 'src/a.ts' }, id: 'read_a' }])
      .respondWithTools([{ name: 'read_file', args: { path: 'src/b.ts' }, id: 'read_b' }])
      .respond(answer('Both read.'));
    const events: CompactionEvent[] = [];
    const agent = createAgent({
      model,
      tools: [readFile],
      middleware: [
        compactionMiddleware({ settings, summarizer: 'structured', onEvent: (event) => events.push(event) }),
      ],
    });
    const history = pastConversation(6);
    const result = await agent.invoke({ messages: [...history, new HumanMessage('Read a.ts, then b.ts.')] });

    expect(result.messages.at(-1)!.text).toBe('Both read.');
    const [first, second, third] = model.calls.map((call) => withoutSystem(call.messages));
    expect(first).toHaveLength(history.length + 1);
    // Before the second call of the run the context is over the trigger: it is summarized
    // (the turn split), and the run's own tool call and its result are kept verbatim.
    expect(second![0]).toSatisfy(isSummaryMessage);
    expect(second!.slice(-2).map((message) => message.id ?? '')).toEqual(['0', expect.any(String)]);
    expect(second!.length).toBeLessThan(first!.length);
    // Before the third: still summary + the latest tool calls and results, never an orphan.
    expect(third![0]).toSatisfy(isSummaryMessage);
    expect(third!.slice(-2).map((message) => message.id)).toEqual(['1', result.messages.at(-2)!.id]);
    for (const messages of [first, second, third]) expect(pairingError(messages!)).toBeNull();
    expect(events.filter((event) => event.type === 'compaction:end').length).toBeGreaterThanOrEqual(1);
    expect(result.messages).toHaveLength(history.length + 1 + 4 + 1);
  });

  it('resumes from a checkpointer with the same context', async () => {
    const checkpointer = new MemorySaver();
    const config = threadConfig('resume');
    const first = scriptedModel(STEPS);
    const firstAgent = createAgent({
      model: first,
      tools: [readFile],
      middleware: [compactionMiddleware({ settings, summarizer: 'structured' })],
      checkpointer,
    });
    const before = await firstAgent.invoke({ messages: [new HumanMessage('Read every module.')] }, config);
    const lastContext = withoutSystem(first.calls.at(-1)!.messages);
    expect(lastContext[0]).toSatisfy(isSummaryMessage);

    // A new process: new model, new middleware, same checkpointer and thread.
    const second = fakeModel().respond(answer('Nothing else.'));
    const events: CompactionEvent[] = [];
    const secondAgent = createAgent({
      model: second,
      tools: [readFile],
      middleware: [
        compactionMiddleware({ settings, summarizer: 'structured', onEvent: (event) => events.push(event) }),
      ],
      checkpointer,
    });
    const after = await secondAgent.invoke({ messages: [new HumanMessage('Anything else?')] }, config);

    expect(events).toEqual([]);
    const resumed = withoutSystem(second.calls[0]!.messages);
    expect(resumed[0]!.text).toBe(lastContext[0]!.text);
    expect(resumed.map((message) => message.id)).toEqual([
      ...lastContext.map((message) => message.id),
      before.messages.at(-1)!.id,
      after.messages.at(-2)!.id,
    ]);
    expect(after.messages).toHaveLength(before.messages.length + 2);
  });

  it("mode 'replace' rewrites the state to summary + kept messages", async () => {
    const model = scriptedModel(STEPS);
    const agent = createAgent({
      model,
      tools: [readFile],
      middleware: [compactionMiddleware({ settings, summarizer: 'structured', mode: 'replace' })],
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig('replace');
    const result = await agent.invoke({ messages: [new HumanMessage('Read every module.')] }, config);

    const fullLength = 1 + STEPS + STEPS + Math.floor(STEPS / 3) * 2 + 1;
    expect(result.messages.length).toBeLessThan(fullLength / 2);
    expect(result.messages[0]).toSatisfy(isSummaryMessage);
    expect(result.messages[0]!.additional_kwargs.lc_source).toBe('compaction');
    expect(result.messages.at(-1)!.text).toBe('All files read.');
    expect(pairingError(result.messages)).toBeNull();
    for (const call of model.calls) expect(pairingError(call.messages)).toBeNull();
    const record = (await agent.graph.getState(config)).values._compaction;
    // The summary message in the state is not summarized again as if the user had written it.
    expect(record.state.summary).not.toContain('[Conversation summary]');
    // The last call saw exactly the (rewritten) state.
    const lastSent = withoutSystem(model.calls.at(-1)!.messages).map((message) => message.id);
    expect(result.messages.slice(0, -1).map((message) => message.id)).toEqual(lastSent);
  });

  it("mode 'replace' keeps the reported usage in step with the rewritten state", async () => {
    const model = fakeModel();
    for (let step = 0; step < STEPS; step += 1) {
      const call = { name: 'read_file', args: { path: `src/u${step}.ts` }, id: `usage_${step}` };
      model.respond((messages) => withUsage(toolStep([call], prose(step, 8))(messages), messages));
    }
    model.respond((messages) => withUsage(answer('Done.')(messages), messages));
    const events: CompactionEvent[] = [];
    const agent = createAgent({
      model,
      tools: [readFile],
      middleware: [
        compactionMiddleware({
          settings,
          summarizer: 'structured',
          mode: 'replace',
          onEvent: (event) => events.push(event),
        }),
      ],
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig('replace-usage');
    const result = await agent.invoke({ messages: [new HumanMessage('Read them.')] }, config);

    expect(events.filter((event) => event.type === 'compaction:end').length).toBeGreaterThanOrEqual(2);
    const record = (await agent.graph.getState(config)).values._compaction;
    // The last call was sent every message of the state but its own answer.
    expect(record.usage.historyLength).toBe(result.messages.length - 1);
    // At every checkpoint, right after a rewrite too, the usage covers messages that are in the state.
    let rewritten = 0;
    for await (const snapshot of agent.graph.getStateHistory(config)) {
      const { messages, _compaction } = snapshot.values as { messages: BaseMessage[]; _compaction?: typeof record };
      if (messages[0] && isSummaryMessage(messages[0])) rewritten += 1;
      if (_compaction?.usage) expect(_compaction.usage.historyLength).toBeLessThan(messages.length);
    }
    expect(rewritten).toBeGreaterThan(0);
    for (const start of events.filter((event) => event.type === 'compaction:start')) {
      expect(start.tokens).toBeGreaterThan(TRIGGER);
    }
    for (const call of model.calls) expect(sentTokens(call.messages)).toBeLessThanOrEqual(TRIGGER);
  });

  it("summarizes with the agent's own model by default", async () => {
    const steps = Array.from({ length: 12 }, (_, step) =>
      toolStep([{ name: 'read_file', args: { path: `lib/part-${step}.ts` }, id: `own_${step}` }], prose(step, 8)),
    );
    steps.push(answer('Done.'));
    let next = 0;
    const model = fakeModel();
    for (let entry = 0; entry < steps.length * 2; entry += 1) {
      model.respond((messages) =>
        isSummaryCall(messages)
          ? new AIMessage(validSummary('summarized by the agent model'))
          : steps[next++]!(messages),
      );
    }
    const agent = createAgent({
      model,
      tools: [readFile],
      middleware: [compactionMiddleware({ settings: { ...settings, pruneToolOutputs: false } })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Read the parts.')] }, threadConfig('own'));

    expect(result.messages.at(-1)!.text).toBe('Done.');
    const summaryCalls = model.calls.filter((call) => isSummaryCall(call.messages));
    expect(summaryCalls.length).toBeGreaterThanOrEqual(1);
    const lastAgentCall = model.calls.filter((call) => !isSummaryCall(call.messages)).at(-1)!;
    expect(withoutSystem(lastAgentCall.messages)[0]!.text).toContain('summarized by the agent model');
  });

  it('falls back to the structured summary when the summarizer fails, and the run succeeds', async () => {
    const events: CompactionEvent[] = [];
    const model = scriptedModel(STEPS);
    const agent = createAgent({
      model,
      tools: [readFile],
      middleware: [
        compactionMiddleware({
          settings: { ...settings, pruneToolOutputs: false },
          summarizer: fakeModel().alwaysThrow(new Error('summary model is down')),
          onEvent: (event) => events.push(event),
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Read every module.')] }, threadConfig('fail'));

    expect(result.messages.at(-1)!.text).toBe('All files read.');
    const ends = events.filter((event) => event.type === 'compaction:end');
    expect(ends.length).toBeGreaterThanOrEqual(1);
    for (const end of ends) {
      expect(end.strategy).toBe('structured');
      expect(end.fallbacks).toEqual([{ strategy: 'llm', error: expect.stringContaining('summary model is down') }]);
    }
    const lastContext = withoutSystem(model.calls.at(-1)!.messages);
    expect(lastContext[0]).toSatisfy(isSummaryMessage);
    expect(lastContext[0]!.text).toContain('## Goal');
    expect(lastContext[0]!.text).not.toContain('summary model is down');
  });

  it('records the usage the model reports in the agent state', async () => {
    const model = fakeModel().respond(
      new AIMessage({ content: 'hi', usage_metadata: { input_tokens: 1234, output_tokens: 5, total_tokens: 1239 } }),
    );
    const agent = createAgent({
      model,
      tools: [],
      middleware: [compactionMiddleware({ settings })],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke({ messages: [new HumanMessage('hello')] }, threadConfig('usage'));
    const record = (await agent.graph.getState(threadConfig('usage'))).values._compaction;
    expect(record.usage).toMatchObject({ inputTokens: 1234, historyLength: 1, stateVersion: 0 });
  });

  it('counts only the messages no earlier call counted, between the calls of a run and across turns', async () => {
    const counter = countingCounter();
    /** Where the counted texts stood when each model call was made. */
    const marks: number[] = [];
    const mark = (response: AIMessage) => () => {
      marks.push(counter.texts.length);
      return response;
    };
    const model = fakeModel()
      .respond(
        mark(
          new AIMessage({
            content: '',
            tool_calls: [{ name: 'read_file', args: { path: 'src/counted.ts' }, id: 'count_1', type: 'tool_call' }],
          }),
        ),
      )
      .respond(mark(new AIMessage('Read it.')))
      .respond(mark(new AIMessage('Nothing more.')));
    const agent = createAgent({
      model,
      tools: [readFile],
      middleware: [compactionMiddleware({ settings, summarizer: 'structured', counter })],
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig('counting');
    const history = pastConversation(5);
    const first = await agent.invoke({ messages: [...history, new HumanMessage('Read counted.ts.')] }, config);
    await agent.invoke({ messages: [new HumanMessage('Anything else?')] }, config);

    expect(marks).toHaveLength(3);
    const firstCall = counter.texts.slice(0, marks[0]);
    const secondCall = counter.texts.slice(marks[0], marks[1]);
    const thirdCall = counter.texts.slice(marks[1], marks[2]);
    // The first call counts the whole history once.
    expect(firstCall).toContain(history[0]!.text);
    expect(firstCall).toContain(history.at(-1)!.text);
    // The second call of the run counts the tool call and its result, nothing before them.
    const toolResult = first.messages.findLast((message) => ToolMessage.isInstance(message))!;
    expect(secondCall).toContain(toolResult.text);
    expect(secondCall).not.toContain(history[0]!.text);
    expect(secondCall).not.toContain('Read counted.ts.');
    // The next turn (the state read back from the checkpointer), far below the trigger, counts nothing:
    // core bounds the answer and the new question by size on top of its count so far (issue 16,
    // session 8; it counted those two before).
    expect(thirdCall).toEqual([]);
  });

  it('reads the record from the state when it changed between calls', async () => {
    const model = fakeModel()
      .respond(
        new AIMessage({
          content: 'First.',
          usage_metadata: { input_tokens: 100, output_tokens: 1, total_tokens: 101 },
        }),
      )
      .respond(new AIMessage('Second.'));
    const events: CompactionEvent[] = [];
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        compactionMiddleware({ settings, summarizer: 'structured', onEvent: (event) => events.push(event) }),
      ],
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig('external-record');
    const before = await agent.invoke({ messages: [...pastConversation(6), new HumanMessage('First?')] }, config);
    expect(events).toEqual([]);

    // Another writer (an older checkpoint, a migration) puts a record saying the context is nearly full.
    const last = before.messages.at(-1)!;
    const usage = {
      inputTokens: 7_500,
      contextMessageCount: before.messages.length,
      historyLength: before.messages.length,
      stateVersion: 0,
      lastMessageId: last.id,
    };
    await agent.graph.updateState(config, { _compaction: { usage } });
    await agent.invoke({ messages: [new HumanMessage('Second?')] }, config);

    // The second call estimates from that record (7,500 + the new question > 6,400) and compacts.
    const [start, end] = events;
    expect(start).toMatchObject({ type: 'compaction:start', tokens: expect.toSatisfy((tokens) => tokens > 7_500) });
    expect(end?.type).toBe('compaction:end');
    expect(sentTokens(model.calls[1]!.messages)).toBeLessThan(sentTokens(model.calls[0]!.messages));
  });

  it('sends a message replaced under its id (LangGraph update by id) as it is now', async () => {
    const model = fakeModel().respond(new AIMessage('Four.')).respond(new AIMessage('Six.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [compactionMiddleware({ settings, summarizer: 'structured' })],
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig('replaced');
    await agent.invoke({ messages: [new HumanMessage({ id: 'question', content: 'What is 2 + 2?' })] }, config);
    await agent.graph.updateState(config, {
      messages: [new HumanMessage({ id: 'question', content: 'What is 3 + 3?' })],
    });
    await agent.invoke({ messages: [new HumanMessage('Well?')] }, config);

    expect(withoutSystem(model.calls[1]!.messages).map((message) => message.text)).toEqual([
      'What is 3 + 3?',
      'Four.',
      'Well?',
    ]);
  });
});
