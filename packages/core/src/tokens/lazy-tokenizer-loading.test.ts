import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HOOK = fileURLToPath(new URL('../../test/store-crash/resolve-ts.mjs', import.meta.url));
const INDEX = fileURLToPath(new URL('../index.ts', import.meta.url));

/**
 * Runs `steps` in a fresh Node process that records every module it resolves, and
 * returns which tokenizer modules (and `node:crypto`, which costs 15–40 ms to load)
 * were loaded after each step.
 */
function loadedAfter(steps: string[]): string[][] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.add(r.url); return r; } });
    const tokenizers = () => [...seen].filter((url) => url === 'node:crypto' || /node_modules\\/(gpt-tokenizer|tiktoken)\\//.test(url))
      .map((url) => url.replace(/^.*node_modules\\//, ''));
    const out = [];
    const core = await import(${JSON.stringify(INDEX)});
    out.push(tokenizers());
    ${steps.map((step) => `${step}; out.push(tokenizers());`).join('\n')}
    console.log(JSON.stringify(out));
  `;
  const result = spawnSync(process.execPath, ['--import', HOOK, '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as string[][];
}

describe('tokenizer loading', () => {
  it('importing core loads no tokenizer and not node:crypto; the first count loads only the encoding asked for', () => {
    const [atImport, afterCounter, afterCount, afterSecond] = loadedAfter([
      'const counter = core.gptTokenizerCounter()',
      'counter.countText("hello world")',
      'core.gptTokenizerCounter().countText("again")',
    ]);
    expect(atImport).toEqual([]);
    expect(afterCounter).toEqual([]);
    // The encoding tables (`bpeRanks`): o200k's only.
    expect(afterCount!.some((path) => path.includes('bpeRanks/o200k_base'))).toBe(true);
    expect(afterCount!.some((path) => path.includes('bpeRanks/cl100k_base'))).toBe(false);
    expect(afterCount!.some((path) => path.startsWith('tiktoken'))).toBe(false);
    expect(afterSecond).toEqual(afterCount);
  });

  it('a session counts with the default tokenizer only once it has something to count', () => {
    const [atImport, afterSession, afterPrepare] = loadedAfter([
      'const session = core.createCompactionSession({ sessionId: "s" })',
      `await session.append({ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }); await (await session.prepare()).tokens`,
    ]);
    expect(atImport).toEqual([]);
    expect(afterSession).toEqual([]);
    expect(afterPrepare!.some((path) => path.includes('bpeRanks/o200k_base'))).toBe(true);
    expect(afterPrepare!.some((path) => path.startsWith('tiktoken'))).toBe(false);
  });

  it('tiktoken loads on the first count of a tiktokenCounter, gpt-tokenizer not at all', () => {
    const [, afterCounter, afterCount] = loadedAfter([
      'const counter = core.tiktokenCounter("cl100k_base")',
      'counter.countText("hello world")',
    ]);
    expect(afterCounter).toEqual([]);
    expect(afterCount!.some((path) => path.startsWith('tiktoken'))).toBe(true);
    expect(afterCount!.some((path) => path.startsWith('gpt-tokenizer'))).toBe(false);
  });
});
