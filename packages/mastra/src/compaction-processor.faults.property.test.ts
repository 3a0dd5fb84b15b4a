import { heuristicCounter, type Message, memoryStore, type Summarizer, structuredSummarizer } from '@compaction/core';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coderAgent, lastUserText, SMALL_WINDOW } from './__fixtures__/agent-fixtures.js';
import { faultyStore } from './__fixtures__/faulty-store.js';
import { ListRecorder } from './__fixtures__/list-recorder.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import { toCoreMessages } from './to-core-messages.js';

/** What goes wrong during a run: nothing, the store's n-th record write or a record read, the agent's model, the summarizer, or the caller aborts. */
const fault = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('store' as const), write: fc.nat({ max: 2 }) }) },
  // A record read fails: only a session made now reads it (the thread's first run, or after a restart).
  { weight: 1, arbitrary: fc.constant({ kind: 'store-load' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('model' as const), call: fc.nat({ max: 1 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'summarizer' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('abort' as const),
      at: fc.constantFrom('model' as const, 'summary' as const),
    }),
  },
);

/** A run of the thread: a note (one step) or a file to read (a tool call, then an answer), with as many recalled messages. */
const run = fc.record({
  task: fc.constantFrom('note' as const, 'read' as const, 'read' as const),
  lastMessages: fc.constantFrom(2, 3, 5, 1000, 1000),
  fault,
  /** Whether to read the session after the run when it succeeded (reading loads a history held counted). */
  inspect: fc.boolean(),
  /** Whether the server restarts before the run: a new processor over the same store (its session reads the record). */
  restart: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

/** A window two or three file reads cross. */
const TINY_WINDOW = { contextWindow: 2400, keepRecentTokens: 500, reserveTokens: 400 };

/** A window no run comes near. */
const FAR_BELOW = { contextWindow: 1_000_000 };

/** Each core message's role and id. (Content is not compared: see `compaction-processor.faults.test.ts`.) */
const ids = (messages: readonly Message[]) => messages.map((message) => `${message.role} ${message.id}`);

describe('CompactionProcessor with faults at any step of a thread’s runs (property)', () => {
  it('after every run, failed or not, the session holds the last list it took, reading it never writes, and nothing is lost', async () => {
    let failedRuns = 0;
    let summaries = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(run, { minLength: 3, maxLength: 8 }),
        // Half the threads far below the trigger: held counted, not loaded, between calls.
        fc.constantFrom(TINY_WINDOW, SMALL_WINDOW, FAR_BELOW, FAR_BELOW),
        async (runs, settings) => {
          const storage = new InMemoryStore();
          const faults = faultyStore(memoryStore());
          let armed: (typeof runs)[number]['fault'] = { kind: 'none' };
          let controller = new AbortController();
          let modelCalls = 0;
          const scripted = scriptedModel(
            (prompt) =>
              prompt.at(-1)?.role === 'tool'
                ? { text: 'Done reading.' }
                : lastUserText(prompt).startsWith('Read ')
                  ? {
                      toolCalls: [{ toolName: 'readFile', input: { path: lastUserText(prompt).replace('Read ', '') } }],
                    }
                  : { text: `Reply to ${lastUserText(prompt)}` },
            {
              reject() {
                const call = modelCalls;
                modelCalls += 1;
                if (armed.kind === 'model' && armed.call === call)
                  return new Error('model unavailable (injected fault)');
                if (armed.kind === 'abort' && armed.at === 'model' && call === 0) {
                  controller.abort();
                  return new DOMException('aborted by the caller', 'AbortError');
                }
                return undefined;
              },
            },
          );
          const structured = structuredSummarizer();
          const summarizer: Summarizer = {
            name: 'faulty',
            async summarize(request) {
              summaries += 1;
              if (armed.kind === 'summarizer') throw new Error('summary model unavailable (injected fault)');
              if (armed.kind === 'abort' && armed.at === 'summary') {
                controller.abort();
                throw new DOMException('aborted by the caller', 'AbortError');
              }
              return structured.summarize(request);
            },
          };
          const about = new ListRecorder('about-to-take');
          const taken = new ListRecorder('taken');
          /** A server (re)started over the same store and Mastra storage: its processor and agent. */
          const start = () => {
            const made = new CompactionProcessor({
              counter: heuristicCounter(),
              summarizer,
              store: faults.store,
              settings,
            });
            const madeAgent = coderAgent({
              model: scripted.model,
              memory: new Memory({ storage, options: { lastMessages: 1000 } }),
              inputProcessors: [about, made, taken],
            });
            return { processor: made, agent: madeAgent, takenBefore: taken.lists.length };
          };
          let server = start();
          const thread = { thread: 't-prop', resource: 'u1' };
          const all = [
            ...runs,
            {
              task: 'note' as const,
              lastMessages: 1000,
              fault: { kind: 'none' as const },
              inspect: true,
              restart: false,
            },
          ];
          for (const [index, each] of all.entries()) {
            armed = each.fault;
            controller = new AbortController();
            modelCalls = 0;
            if (each.restart) server = start();
            const { processor, agent } = server;
            if (each.fault.kind === 'store') faults.failWriteAt(each.fault.write);
            if (each.fault.kind === 'store-load') faults.failNextLoad();
            const input = each.task === 'read' ? `Read f${index}.ts` : `Note ${index}`;
            const failed = await agent
              .generate(input, {
                memory: { ...thread, options: { lastMessages: each.lastMessages } },
                abortSignal: controller.signal,
              })
              .then(
                // Mastra reports a model's error in the result, and a processor's by rejecting.
                (result) => result.error !== undefined,
                () => true,
              );
            faults.disarm();
            armed = { kind: 'none' };
            if (failed) failedRuns += 1;
            // A run with no fault succeeds, whatever earlier runs left behind.
            if (each.fault.kind === 'none') expect(failed).toBe(false);
            const session = processor.session('t-prop');
            // After a failed run always: the session must hold what it held, whatever reads it first.
            if (!session || taken.lists.length === server.takenBefore || !(failed || each.inspect)) continue;

            const before = await faults.inner.loadRecord('t-prop');
            const history = ids(await session.history());
            const last = ids(toCoreMessages(taken.lists.at(-1)!));
            if (failed) {
              // The session holds the list it last took, or the one it failed on if it took it before failing: never a mix.
              const failedOn = ids(toCoreMessages(about.lists.at(-1)!));
              expect([last, failedOn]).toContainEqual(history);
            } else expect(history).toEqual(last);
            expect((await session.stats()).historyMessages).toBe(history.length);
            // Reading the history never writes: the record (and its usage) is what it was; memory and store agree.
            const after = await faults.inner.loadRecord('t-prop');
            expect(after).toEqual(before);
            expect(await session.state()).toEqual(after?.state);
          }

          // Nothing lost: the last run recalled the whole thread, and the session holds every stored message
          // but the answer Mastra saved after the run's last model call.
          const session = server.processor.session('t-prop')!;
          const held = new Set(ids(await session.history()));
          const memoryStoreOfThread = (await storage.getStore('memory'))!;
          const stored = (await memoryStoreOfThread.listMessages({ threadId: 't-prop', perPage: false })).messages;
          const answer = stored.at(-1)!;
          for (const message of toCoreMessages(stored)) {
            if (message.id === answer.id || message.id.startsWith(`${answer.id}#`)) continue;
            expect(held).toContain(`${message.role} ${message.id}`);
          }
        },
      ),
      { numRuns: 80 },
    );
    expect(failedRuns).toBeGreaterThan(0);
    expect(summaries).toBeGreaterThan(0);
  }, 240_000);
});
