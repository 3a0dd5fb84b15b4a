/**
 * Loading the bench's 10,002-message history from two layouts of the same file:
 * - JSON lines, one message a line, each line decoded and parsed on its own (as `fileStore`);
 * - texts kept out of the JSON: a line of the message's JSON with each `text` replaced by its
 *   length, then the raw texts, decoded as one string of the whole file and sliced from it.
 * Median and fastest of 15 loads each, alternating twice; checks both give the same messages
 * (up to lone surrogates, which raw UTF-8 cannot hold: the synthetic history has some).
 *
 * Usage: `node src/probes/restart-layouts.ts`
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticHistory } from '@compaction/bench-kit/synthetic-history';

const history = syntheticHistory(10_000);
const dir = mkdtempSync(join(tmpdir(), 'compaction-probe-layouts-'));
const jsonLines = join(dir, 'history.jsonl');
const slicedTexts = join(dir, 'history.sliced');

writeFileSync(jsonLines, `${history.map((message) => JSON.stringify(message)).join('\n')}\n`);
let sliced = '';
for (const message of history) {
  const texts: string[] = [];
  const header = JSON.stringify(message, (key, value) => {
    if (key !== 'text' || typeof value !== 'string') return value;
    texts.push(value);
    return value.length;
  });
  sliced += `${header}\n${texts.join('')}\n`;
}
writeFileSync(slicedTexts, sliced);

function loadJsonLines(): unknown[] {
  const bytes = readFileSync(jsonLines);
  const messages: unknown[] = [];
  for (let start = 0, end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) {
    messages.push(JSON.parse(bytes.toString('utf8', start, end)));
  }
  return messages;
}

function loadSlicedTexts(): unknown[] {
  const whole = readFileSync(slicedTexts, 'utf8');
  const messages: unknown[] = [];
  for (let at = 0; at < whole.length; ) {
    const newline = whole.indexOf('\n', at);
    let text = newline + 1;
    const message = JSON.parse(whole.slice(at, newline));
    const fill = (value: unknown): void => {
      if (!value || typeof value !== 'object') return;
      const record = value as Record<string, unknown>;
      for (const key in record) {
        const field = record[key];
        if (key === 'text' && typeof field === 'number') {
          record[key] = whole.slice(text, text + field);
          text += field;
        } else fill(field);
      }
    };
    fill(message);
    messages.push(message);
    at = text + 1;
  }
  return messages;
}

try {
  // Raw UTF-8 cannot hold a lone surrogate (JSON escapes it; written raw it becomes U+FFFD):
  // the sliced layout would need an escape of its own for those. Compared here as UTF-8 round-trips them.
  const wellFormed = (_key: string, value: unknown) =>
    typeof value === 'string' ? Buffer.from(value, 'utf8').toString('utf8') : value;
  if (JSON.stringify(loadJsonLines(), wellFormed) !== JSON.stringify(loadSlicedTexts(), wellFormed)) {
    throw new Error('the layouts differ');
  }
  const held: unknown[][] = []; // the last loads stay alive, as a session holds its history
  for (const [name, load] of [
    ['JSON lines', loadJsonLines],
    ['texts sliced', loadSlicedTexts],
    ['JSON lines', loadJsonLines],
    ['texts sliced', loadSlicedTexts],
  ] as const) {
    const times: number[] = [];
    for (let round = 0; round < 15; round += 1) {
      const started = performance.now();
      held.push(load());
      times.push(performance.now() - started);
      if (held.length > 2) held.shift();
    }
    times.sort((a, b) => a - b);
    console.log(`${name.padEnd(12)} median ${times[7]!.toFixed(1)} ms · fastest ${times[0]!.toFixed(1)} ms`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
