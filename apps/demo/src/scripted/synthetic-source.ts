const WORDS = [
  'session',
  'message',
  'provider',
  'usage',
  'prompt',
  'trace',
  'gateway',
  'store',
  'context',
  'tool',
  'request',
  'response',
  'channel',
  'config',
  'budget',
  'summary',
  'history',
  'turn',
  'token',
  'event',
];
const TYPES = ['Session', 'Message', 'Usage', 'Prompt', 'Content', 'Role', 'SessionKey', 'ToolCall', 'Value'];

/**
 * Deterministic Rust-like source text of about `lines` lines, different for every
 * `path`: stands in for the files a coding agent reads. About 30 tokens a line.
 */
export function syntheticSource(path: string, lines: number): string {
  let seed = 0;
  for (const char of path) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    return seed >>> 8;
  };
  const pick = <T>(values: readonly T[]): T => values[next() % values.length]!;
  const out = [`// ${path}`, 'use anyhow::{Context, Result};', ''];
  for (let line = 0; out.length < lines; line += 1) {
    const word = pick(WORDS);
    const other = pick(WORDS);
    const type = pick(TYPES);
    if (line % 8 === 0) out.push(`/// Returns the ${word} ${other} for the given key (${line}).`);
    out.push(
      `    pub(crate) fn ${word}_${other}_${line}(&self, key: &${type}) -> Result<Vec<${pick(TYPES)}>> { self.${word}s.get(key).map(|v| v.${other}_${next() % 97}()).context("${word} ${other} missing for {key}") }`,
    );
  }
  return out.join('\n');
}
