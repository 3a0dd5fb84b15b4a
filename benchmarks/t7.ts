import { appendedMessage, syntheticHistory } from './src/shared/synthetic-history.ts';
import { compactionMiddleware, messagesToPrompt } from '@compaction/ai-sdk';
import * as lc from '@compaction/langchain';
import { AIMessage } from '@langchain/core/messages';
const n = Number(process.argv[2] ?? 2000);
const h = syntheticHistory(n);
// AI SDK
{
  const mw = compactionMiddleware({ summarizer: 'structured', settings: { contextWindow: 10_000_000 } });
  let prompt = messagesToPrompt(h) as any[];
  const model = { modelId: 'gpt-5', provider: 'openai', specificationVersion: 'v4' } as any;
  let next = h.length;
  for (let i = 0; i < 8; i++) {
    prompt = [...prompt, ...messagesToPrompt([appendedMessage(next++)])];
    const t = performance.now();
    const out = await mw.transformParams!({ params: { prompt } as any, model, type: 'generate' } as any);
    console.log('ai-sdk transformParams', (performance.now() - t).toFixed(2), (out as any).prompt.length);
  }
}
// LangChain middleware
{
  const mw = lc.compactionMiddleware({ summarizer: 'structured', settings: { contextWindow: 10_000_000 }, model: 'gpt-5' }) as any;
  let messages = lc.fromCoreMessages(h);
  let state: Record<string, unknown> = { messages };
  let next = h.length;
  for (let i = 0; i < 8; i++) {
    messages = [...messages, ...lc.fromCoreMessages([appendedMessage(next++)])];
    state = { ...state, messages };
    const request = { model: {}, messages, state, runtime: { configurable: { thread_id: 't' } }, systemPrompt: '', tools: [] };
    const t = performance.now();
    const out = await mw.wrapModelCall(request, async (req: any) => new AIMessage({ content: 'ok', usage_metadata: { input_tokens: 1000 + i, output_tokens: 1, total_tokens: 1 } }));
    console.log('lc wrapModelCall', (performance.now() - t).toFixed(2), out?.constructor?.name, Object.keys(out?.update ?? {}));
    if (out?.update?._compaction) state = { ...state, _compaction: out.update._compaction };
  }
}
