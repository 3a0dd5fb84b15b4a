import { appendedMessage, syntheticHistory } from './src/shared/synthetic-history.ts';
import { CompactionProcessor, fromCoreMessages } from '@compaction/mastra';
import { memoryStore } from '@compaction/core';
import { MessageList } from '@mastra/core/agent';
import { RequestContext } from '@mastra/core/request-context';
import { TokenLimiterProcessor } from '@mastra/core/processors';
import { MockLanguageModelV4 } from 'ai/test';
const n = Number(process.argv[2] ?? 2000);
const h = syntheticHistory(n);
let t = performance.now();
const db = fromCoreMessages(h);
console.log('db msgs', db.length, 'fromCore ms', performance.now() - t, JSON.stringify(db[1]).slice(0, 400));
t = performance.now();
const list = new MessageList({ threadId: 't1', resourceId: 'u1' });
list.add(db, 'memory');
console.log('list add ms', performance.now() - t, list.get.all.db().length);
const model = new MockLanguageModelV4({ provider: 'openai', modelId: 'gpt-5' });
t = performance.now();
const prompt = await list.get.all.aiV7.llmPrompt({ supportedUrls: {}, targetProvider: 'openai' } as any);
console.log('llmPrompt ms', performance.now() - t, prompt.length, prompt.slice(0, 4).map((m: any) => m.role));
const requestContext = new RequestContext();
requestContext.set('MastraMemory', { thread: { id: 't1', resourceId: 'u1' }, resourceId: 'u1' });
const proc = new CompactionProcessor({ summarizer: 'structured', model: 'gpt-5', settings: { contextWindow: 50_000_000 }, store: memoryStore() });
const state = {};
let next = h.length;
for (let i = 0; i < 6; i++) {
  const [m] = fromCoreMessages([appendedMessage(next++)]);
  (m as any).createdAt = new Date(Date.now() + i * 1000);
  list.add(m!, 'memory');
  const args: any = { messages: list.get.all.db(), messageList: list, stepNumber: i, steps: [], systemMessages: [], state, model, retryCount: 0, requestContext, llmRequestStage: true, abort: () => { throw new Error('abort'); } };
  t = performance.now();
  await proc.processInputStep(args);
  const r = await proc.processLLMRequest({ prompt, model, messageList: list, stepNumber: i, steps: [], state, retryCount: 0, requestContext, abort: args.abort } as any);
  console.log('mastra step', (performance.now() - t).toFixed(2), r === undefined);
}
const lim = new TokenLimiterProcessor({ limit: 50_000_000 });
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const r = await lim.processLLMRequest({ prompt, model, messageList: list, stepNumber: 0, steps: [], state: {}, retryCount: 0, abort: () => { throw new Error('x'); } } as any);
  console.log('limiter', (performance.now() - t).toFixed(2), r);
}
const lim2 = new TokenLimiterProcessor({ limit: 300_000 });
t = performance.now();
const r2 = await lim2.processLLMRequest({ prompt, model, messageList: list, stepNumber: 0, steps: [], state: {}, retryCount: 0, abort: () => { throw new Error('x'); } } as any);
console.log('limiter half', (performance.now() - t).toFixed(2), r2?.prompt?.length);
