/**
 * One measurement of the scale benchmark, in a process of its own (so its heap
 * is its own): `node --expose-gc src/scale/scale-run.ts <adapter> <conversations> <messages> <calls>`.
 * Prints one line of JSON ({@link ScaleRun}).
 */

import { conversationHistory } from '@compaction/bench-kit/synthetic-history';
import {
  countMessageTokens,
  gptTokenizerCounter,
  processConversationMemory,
  processCountedConversationMemory,
} from '@compaction/core';
import { aiSdkScale } from './ai-sdk-scale.ts';
import { langchainScale } from './langchain-scale.ts';
import { mastraScale } from './mastra-scale.ts';
import type { ScaleDriver } from './scale-driver.ts';

/** What one run reports. */
export type ScaleRun = {
  adapter: string;
  conversations: number;
  messages: number;
  /** Per-call milliseconds of the round-robin calls after every conversation was served once. */
  median: number;
  p90: number;
  calls: number;
  /** Median of each conversation's first call in this process (its session made, its record loaded). */
  firstCallMedian: number;
  /** Heap the adapter holds for all conversations, the framework's histories excluded (MB, after a full GC). */
  heapMB: number;
  /** Heap of the histories as the framework holds them (MB). */
  historiesMB: number;
  /**
   * Entries the process's conversation budgets (`processConversationMemory()`, and
   * `processCountedConversationMemory()` for conversations held counted, not loaded) kept
   * after the last call (one a conversation): past that many conversations, a round-robin
   * finds none kept.
   */
  keptConversations?: number;
};

export const ADAPTERS: Record<string, (countedTokens: (messages: number) => number) => ScaleDriver> = {
  'ai-sdk': aiSdkScale,
  langchain: langchainScale,
  mastra: mastraScale,
};

const gc = (globalThis as { gc?: () => void }).gc;

function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function median(sorted: readonly number[], q = 0.5): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const [adapter = 'ai-sdk', conversationsArg = '100', messagesArg = '200', callsArg = '2000'] = process.argv.slice(2);
  const makeDriver = ADAPTERS[adapter];
  if (!makeDriver) throw new Error(`unknown adapter "${adapter}": one of ${Object.keys(ADAPTERS).join(', ')}`);
  if (!gc) throw new Error('run with node --expose-gc: the heap figure needs a full GC');
  const conversations = Number(conversationsArg);
  const messages = Number(messagesArg);
  const calls = Number(callsArg);
  // Our count of conversation 0's history by length; every conversation costs the same but for its tag.
  const counter = gptTokenizerCounter();
  const prefix = [0];
  for (const message of conversationHistory(0, messages))
    prefix.push(prefix.at(-1)! + countMessageTokens(message, counter));
  const countedTokens = (length: number) => prefix[Math.min(length, prefix.length - 1)]!;

  const before = heap();
  const driver = makeDriver(countedTokens);
  await driver.setup(conversations, messages);
  const withHistories = heap();
  const profile = await startProfile();
  const first: number[] = [];
  for (let conversation = 0; conversation < conversations; conversation += 1)
    first.push(await driver.call(conversation));
  const timed: number[] = [];
  for (let call = 0; call < calls; call += 1) timed.push(await driver.call(call % conversations));
  await profile?.();
  // Each call appended one message to a history the framework holds: count those as histories.
  const grown = heap();
  first.sort((a, b) => a - b);
  timed.sort((a, b) => a - b);
  const run: ScaleRun = {
    adapter,
    conversations,
    messages,
    median: median(timed),
    p90: median(timed, 0.9),
    calls: timed.length,
    firstCallMedian: median(first),
    heapMB: round((grown - withHistories) / 2 ** 20),
    historiesMB: round((withHistories - before) / 2 ** 20),
    keptConversations: processConversationMemory().size + processCountedConversationMemory().size,
  };
  console.log(JSON.stringify(run));
}

/**
 * With `SCALE_PROFILE=<file>`, a CPU profile of the calls alone (not the set-up)
 * is written there (open it in Chrome DevTools). Returns the function that stops it.
 */
async function startProfile(): Promise<(() => Promise<void>) | undefined> {
  const file = process.env.SCALE_PROFILE;
  if (!file) return undefined;
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

await main();
