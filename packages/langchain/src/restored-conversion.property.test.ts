import {
  type CompactionSession,
  conversationTokenCache,
  createCompactionSession,
  type Message,
  memoryStore,
  type SessionStore,
} from '@compaction/core';
import {
  AIMessage,
  type BaseMessage,
  ChatMessage,
  HumanMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
  ToolMessage,
} from '@langchain/core/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/message-arbitraries.js';
import { recordingSummarizer } from './__fixtures__/recording-summarizer.js';
import { fromCoreContext } from './from-core-messages.js';
import { assignMessageIds } from './message-ids.js';
import { prepareGrown } from './prepare-grown.js';
import { extendToCore, ORIGINAL_MESSAGE_KEY, toCoreMessages } from './to-core-messages.js';

/** A core message without the LangChain original: what a comparison of values needs. */
function value(message: Message): Message {
  const { [ORIGINAL_MESSAGE_KEY]: _original, ...metadata } = message.metadata ?? {};
  return JSON.parse(JSON.stringify({ ...message, metadata }));
}

/** The messages as a checkpointer or a database-backed history gives them back: new objects of the same value. */
function restored(messages: readonly BaseMessage[]): BaseMessage[] {
  return mapStoredMessagesToChatMessages(JSON.parse(JSON.stringify(mapChatMessagesToStoredMessages([...messages]))));
}

type Fields = BaseMessage & { tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[] };

/** The usage report of an AI message, as constructor fields. */
function usageOf(message: BaseMessage): { usage_metadata?: AIMessage['usage_metadata'] } {
  const usage = (message as AIMessage).usage_metadata;
  return usage ? { usage_metadata: usage } : {};
}

/** Edits a message under its id the ways a thread can be changed between two runs (LangGraph's update by id). */
const edits: { name: string; applies: (message: Fields) => boolean; edit: (message: Fields) => BaseMessage }[] = [
  {
    name: 'a longer text',
    applies: () => true,
    edit: (message) => {
      const copy = restored([message])[0]!;
      copy.content = `${message.text} (edited)`;
      return copy;
    },
  },
  {
    name: 'another kind of message',
    applies: (message) => message.type !== 'tool',
    edit: (message) =>
      message.type === 'human'
        ? new AIMessage({ id: message.id!, content: message.text })
        : new HumanMessage({ id: message.id!, content: message.text }),
  },
  {
    name: 'a renamed tool call',
    applies: (message) => (message.tool_calls?.length ?? 0) > 0,
    edit: (message) =>
      new AIMessage({
        id: message.id!,
        content: message.content,
        tool_calls: message.tool_calls!.map((call, index) => ({
          ...call,
          name: index === 0 ? `${call.name}_renamed` : call.name,
        })),
      }),
  },
  {
    name: 'a text of the same length, one character changed',
    applies: (message) => typeof message.content === 'string' && message.content.length > 0,
    edit: (message) => {
      const copy = restored([message])[0]!;
      const text = message.content as string;
      const at = Math.floor(text.length / 2);
      copy.content = `${text.slice(0, at)}${text[at] === 'q' ? 'r' : 'q'}${text.slice(at + 1)}`;
      return copy;
    },
  },
  {
    name: 'a chat message of another role',
    applies: (message) => ChatMessage.isInstance(message),
    edit: (message) =>
      new ChatMessage({
        id: message.id!,
        content: message.content as string,
        role: (message as ChatMessage).role === 'assistant' ? 'user' : 'assistant',
      }),
  },
  {
    name: 'other tool arguments',
    applies: (message) => (message.tool_calls?.length ?? 0) > 0,
    edit: (message) =>
      new AIMessage({
        id: message.id!,
        content: message.content,
        tool_calls: message.tool_calls!.map((call, index) => ({
          ...call,
          args: index === 0 ? { ...call.args, edited: [1, 'two'] } : call.args,
        })),
        ...usageOf(message),
      }),
  },
  {
    name: 'a usage report changed, added or dropped',
    applies: (message) => message.type === 'ai',
    edit: (message) => {
      const usage = (message as AIMessage).usage_metadata;
      return new AIMessage({
        id: message.id!,
        content: message.content,
        ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
        ...(usage?.output_tokens === 0
          ? {}
          : {
              usage_metadata: {
                input_tokens: (usage?.input_tokens ?? 0) + 1,
                output_tokens: 0,
                total_tokens: (usage?.input_tokens ?? 0) + 1,
              },
            }),
      });
    },
  },
  {
    name: "core's own entry added to additional_kwargs",
    applies: (message) => message.type === 'human',
    edit: (message) =>
      new HumanMessage({
        id: message.id!,
        content: message.content as string,
        additional_kwargs: { compaction: { kind: 'summary', version: 1 } },
      }),
  },
  {
    name: 'a text block edited inside block content',
    applies: (message) =>
      message.type === 'human' &&
      Array.isArray(message.content) &&
      message.content.some((block) => (block as { type?: string }).type === 'text'),
    edit: (message) => {
      let edited = false;
      const content = (message.content as { type?: string; text?: string }[]).map((block) => {
        if (edited || block.type !== 'text') return block;
        edited = true;
        return { ...block, text: `${block.text}!` };
      });
      return new HumanMessage({ id: message.id!, content: content as HumanMessage['content'] });
    },
  },
  {
    name: "a result's status flipped",
    applies: (message) => message.type === 'tool',
    edit: (message) => {
      const result = message as ToolMessage;
      return new ToolMessage({
        id: result.id!,
        content: result.content,
        tool_call_id: result.tool_call_id,
        ...(result.name !== undefined ? { name: result.name } : {}),
        status: result.status === 'error' ? 'success' : 'error',
      });
    },
  },
  {
    name: 'a result named otherwise',
    applies: (message) => message.type === 'tool',
    edit: (message) => {
      const result = message as ToolMessage;
      return new ToolMessage({
        id: result.id!,
        content: result.content,
        tool_call_id: result.tool_call_id,
        name: `${result.name ?? 'tool'}_other`,
        ...(result.status ? { status: result.status } : {}),
      });
    },
  },
  {
    name: 'a result moved to another call',
    applies: (message) => message.type === 'tool',
    edit: (message) =>
      new ToolMessage({
        id: message.id!,
        content: message.content,
        tool_call_id: `${(message as ToolMessage).tool_call_id}_other`,
      }),
  },
];

describe('a conversation given back as new objects (property)', () => {
  it('goes on from its conversion: the same core messages, only the new ones converted, the restored objects sent', () => {
    fc.assert(
      fc.property(conversation, fc.nat(), (messages, pick) => {
        assignMessageIds(messages);
        const at = messages.length === 0 ? 0 : pick % (messages.length + 1);
        const previous = extendToCore(undefined, messages.slice(0, at));
        const before = previous.result.slice();
        const now = restored(messages);
        // The premise: the round trip gives back the same values (LangChain's stored messages escape an
        // `lc` key in tool arguments, so those come back other values, and are rightly converted again).
        fc.pre(JSON.stringify(toCoreMessages(now).map(value)) === JSON.stringify(toCoreMessages(messages).map(value)));
        const grown = extendToCore(previous, now);

        expect(grown.restored).toBe(at > 0);
        for (const [index, message] of before.entries()) expect(grown.result[index]).toBe(message);
        // The same values as a conversion from scratch of what the thread holds now (`now` itself: a second
        // round trip through LangChain's stored messages escapes an `lc` key in tool arguments once more).
        expect(grown.result.map(value)).toEqual(toCoreMessages(now).map(value));
        const sent = fromCoreContext(grown.result, grown).result;
        expect(sent).toHaveLength(now.length);
        for (const [index, message] of sent.entries()) expect(message).toBe(now[index]);
      }),
    );
  });

  it('converts again when a message it held was edited under its id', () => {
    // Each kind of edit at any message it applies to: the position is picked among those.
    const editable = conversation
      .filter((messages) => messages.length > 0)
      .chain((messages) =>
        fc.tuple(fc.constant(messages), fc.nat(), fc.constantFrom(...edits.map((edit) => edit.name))),
      );
    fc.assert(
      fc.property(editable, ([messages, pick, name]) => {
        assignMessageIds(messages);
        const edit = edits.find((candidate) => candidate.name === name)!;
        const applicable = messages.flatMap((message, index) => (edit.applies(message as Fields) ? [index] : []));
        fc.pre(applicable.length > 0);
        const at = applicable[pick % applicable.length]!;
        const previous = extendToCore(undefined, messages);
        const held = previous.result[at];
        const now = restored(messages);
        now[at] = edit.edit(now[at] as Fields);

        const grown = extendToCore(previous, now);
        expect(grown.restored).not.toBe(true);
        expect(grown.result[at]).not.toBe(held);
        expect(grown.result.map(value)).toEqual(toCoreMessages(now).map(value));
        for (const [index, message] of fromCoreContext(grown.result, grown).result.entries())
          expect(message).toBe(now[index]);
      }),
      { numRuns: 400 },
    );
  });

  it('compares texts whole: an edit that keeps a long text length reaches the core copy too', () => {
    const short = new HumanMessage({ id: 'q', content: 'What is 2 + 2?' });
    const long = new HumanMessage({ id: 'l', content: 'x'.repeat(4_001) });
    const previous = extendToCore(undefined, [short, long]);
    const editedShort = extendToCore(previous, [new HumanMessage({ id: 'q', content: 'What is 3 + 3?' }), long]);
    expect(editedShort.restored).not.toBe(true);
    expect(editedShort.result[0]!.parts).toEqual([{ type: 'text', text: 'What is 3 + 3?' }]);

    const again = extendToCore(undefined, [short, long]);
    const sameLength = new HumanMessage({ id: 'l', content: `y${'x'.repeat(4_000)}` });
    const edited = extendToCore(again, [short, sameLength]);
    expect(edited.restored).not.toBe(true);
    expect(edited.result[1]!.parts).toEqual([{ type: 'text', text: `y${'x'.repeat(4_000)}` }]);
    expect(fromCoreContext(edited.result, edited).result[1]?.content).toBe(sameLength.content);
  });

  it('converts everything when the restored messages have no ids to match', () => {
    const messages = [new HumanMessage('first'), new AIMessage('second')];
    const previous = extendToCore(undefined, messages);
    const now = [new HumanMessage('first'), new AIMessage('second'), new HumanMessage('third')];
    const grown = extendToCore(previous, now);
    expect(grown).not.toBe(previous);
    expect(grown.result.map(value)).toEqual(toCoreMessages(now).map(value));
  });
});

/** Changes between two runs that touch ids: each must be seen at the very call that follows (core branches). */
const idEdits: { name: string; edit: (messages: BaseMessage[], at: number) => BaseMessage[] }[] = [
  {
    name: 'a message under a new id',
    edit: (messages, at) => {
      const copy = restored([messages[at]!])[0]!;
      copy.id = `${copy.id}_new`;
      return messages.map((message, index) => (index === at ? copy : message));
    },
  },
  { name: 'a message removed', edit: (messages, at) => messages.filter((_, index) => index !== at) },
  {
    name: 'a message inserted',
    edit: (messages, at) => [
      ...messages.slice(0, at),
      new HumanMessage({ id: `inserted_${at}`, content: 'A note added later.' }),
      ...messages.slice(at),
    ],
  },
];

function session(store: SessionStore, spans: Message[][]): CompactionSession {
  return createCompactionSession({
    store,
    sessionId: 'thread',
    persistHistory: false,
    tokenCache: conversationTokenCache(), // as the adapters count: by id and content
    summarizer: recordingSummarizer(spans),
    settings: { contextWindow: 400_000, keepRecentTokens: 20, reserveTokens: 1_000 },
  });
}

/** What core reads of a thread: the source, `history()`, `context()` and a compaction's input. */
async function whatCoreReads(reader: CompactionSession, source: { messages(from: number): readonly Message[] }) {
  const spans: Message[][] = [];
  const read = {
    source: source.messages(0).map(value),
    history: (await reader.history()).map(value),
    context: (await reader.context()).map(value),
  };
  return { read, spans };
}

describe('a thread held counted, given back as new objects (property)', () => {
  const kinds = [...edits.map((edit) => edit.name), ...idEdits.map((edit) => edit.name), 'nothing'];
  const generated = conversation
    .filter((messages) => messages.length > 0)
    .chain((messages) => fc.tuple(fc.constant(messages), fc.nat(), fc.constantFrom(...kinds)));

  it('whatever core reads (the source, history(), context(), a compaction) is a fresh conversion of the restored messages; an id change is a branch at once', async () => {
    let counted = 0;
    let adoptedWithEdit = 0;
    await fc.assert(
      fc.asyncProperty(generated, async ([messages, pick, kind]) => {
        assignMessageIds(messages);
        const store = memoryStore();
        const spans: Message[][] = [];
        const first = session(store, spans);
        // A run: the thread converted, the call's usage reported, a second call on the same objects.
        const input = extendToCore(undefined, messages);
        const one = await prepareGrown(first, input, undefined);
        await first.recordUsage({ inputTokens: 500 });
        expect(extendToCore(input, messages)).toBe(input);
        const two = await prepareGrown(first, input, one.source);
        if (two.prepared.asIs) {
          counted += 1;
          expect(input.result).toEqual([]); // let go: only the LangChain messages are held
        }

        // The next run: the checkpointer's new objects, changed between the runs one way or another.
        let now = restored(messages);
        const edit = edits.find((candidate) => candidate.name === kind);
        const idEdit = idEdits.find((candidate) => candidate.name === kind);
        let edited = false;
        if (edit) {
          const applicable = now.flatMap((message, index) => (edit.applies(message as Fields) ? [index] : []));
          if (applicable.length > 0) {
            const at = applicable[pick % applicable.length]!;
            now[at] = edit.edit(now[at] as Fields);
            edited = true;
          }
        } else if (idEdit) now = idEdit.edit(now, pick % now.length);
        now.push(new HumanMessage({ id: 'next_question', content: 'And now?' }));

        const grown = extendToCore(input, now);
        if (idEdit) expect(grown).not.toBe(input); // seen at once: converted again, a branch for core
        if (!two.prepared.asIs && edited) expect(grown).not.toBe(input); // a loaded session: every field compared
        if (grown === input && edited) adoptedWithEdit += 1;
        const reader = grown === input ? first : session(store, spans);
        const three = await prepareGrown(reader, grown, grown === input ? two.source : undefined);
        if (three.prepared.asIs) expect(three.prepared.messages.length).toBe(now.length);

        const fresh = toCoreMessages(now); // a conversion of the restored objects themselves
        const reference = session(memoryStore(), []);
        await reference.prepare({ messages: fresh });
        const { read } = await whatCoreReads(reader, three.source);
        expect(read.source).toEqual(fresh.map(value));
        expect(read.history).toEqual(fresh.map(value));
        expect(read.context).toEqual((await reference.context()).map(value));

        // A compaction summarizes the restored messages as they are now, as one over a fresh conversion does.
        const before = spans.length;
        const referenceSpans: Message[][] = [];
        // Its reference: a session over a fresh conversion with the same record (usage, calibration).
        const copy = memoryStore();
        const record = await store.loadRecord('thread');
        if (record) await copy.saveRecord('thread', structuredClone(record));
        const compacting = session(copy, referenceSpans);
        await compacting.prepare({ messages: fresh });
        const ours = await reader.compact();
        const theirs = await compacting.compact();
        expect(ours === undefined).toBe(theirs === undefined);
        expect(spans.slice(before).map((span) => span.map(value))).toEqual(
          referenceSpans.map((span) => span.map(value)),
        );
      }),
      { numRuns: 150 },
    );
    // The generated threads reach the counted path, and same-id edits are taken over there, not only refused.
    expect(counted).toBeGreaterThan(25);
    expect(adoptedWithEdit).toBeGreaterThan(5);
  }, 120_000);
});
