import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createAgent, fakeModel, summarizationMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { answer, isSummaryMessage, pairingError, prose, withoutSystem } from './__fixtures__/agent-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';

/**
 * The shape that still breaks `summarizationMiddleware` in langchain 1.5.14
 * (langchain-ai/langchain#34282, python #38352): the run of ToolMessages at the
 * cut holds results of two different AIMessages. Its backward search stops at the
 * first AIMessage that owns any of them, so Tool(c1) is kept without its call and
 * the provider answers "No tool call found for function call output with call_id c1".
 * The contents are long enough for our token trigger; theirs counts messages.
 */
function mixedToolRun() {
  return [
    new HumanMessage({ id: 'h1', content: `q: ${prose(1, 30)}` }),
    new AIMessage({ id: 'ai1', content: '', tool_calls: [{ id: 'c1', name: 'read', args: {}, type: 'tool_call' }] }),
    new HumanMessage({ id: 'h2', content: `interjection: ${prose(2, 30)}` }),
    new AIMessage({ id: 'ai2', content: '', tool_calls: [{ id: 'c2', name: 'read', args: {}, type: 'tool_call' }] }),
    new ToolMessage({ id: 't2', tool_call_id: 'c2', content: `r2: ${prose(3, 30)}` }),
    new ToolMessage({ id: 't1', tool_call_id: 'c1', content: `r1: ${prose(4, 30)}` }),
    new AIMessage({ id: 'ai3', content: 'done' }),
    new HumanMessage({ id: 'h3', content: 'next question' }),
  ];
}

describe('the same conversation through summarizationMiddleware and compactionMiddleware', () => {
  it('theirs sends an orphan ToolMessage (the provider rejects it), ours a paired context', async () => {
    const theirModel = fakeModel().respond(answer('fine'));
    const theirs = createAgent({
      model: theirModel,
      tools: [],
      middleware: [
        summarizationMiddleware({
          model: fakeModel().respond(new AIMessage('SUMMARY')),
          trigger: { messages: 3 },
          keep: { messages: 4 },
        }),
      ],
    });
    await expect(theirs.invoke({ messages: mixedToolRun() })).rejects.toThrow(
      'No tool call found for function call output with call_id c1',
    );
    const theirSent = theirModel.calls[0]!.messages;
    expect(theirSent.map((message) => message.id)).toEqual([expect.any(String), 'ai2', 't2', 't1', 'ai3', 'h3']);
    expect(pairingError(theirSent)?.message).toContain('c1');

    const ourModel = fakeModel().respond(answer('fine'));
    const ours = createAgent({
      model: ourModel,
      tools: [],
      middleware: [
        compactionMiddleware({
          settings: {
            contextWindow: 8000,
            reserveTokens: 1000,
            trigger: 1000,
            keepRecentTokens: 500,
            keepRecentMessages: 4,
            minMessages: 3,
          },
          summarizer: 'structured',
        }),
      ],
    });
    const result = await ours.invoke({ messages: mixedToolRun() });
    expect(result.messages.at(-1)!.text).toBe('fine');
    const ourSent = withoutSystem(ourModel.calls[0]!.messages);
    expect(ourSent[0]).toSatisfy(isSummaryMessage);
    expect(ourSent.length).toBeLessThan(mixedToolRun().length);
    expect(pairingError(ourSent)).toBeNull();
    // The state still holds the whole conversation.
    expect(result.messages.map((message) => message.id).slice(0, 8)).toEqual(
      mixedToolRun().map((message) => message.id),
    );
  });
});
