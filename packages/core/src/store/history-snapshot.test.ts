import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { encodeMessages } from './codec/encode-messages.js';
import { appendHistoryFile, type FileStoreWarning, readHistoryFile } from './history-file.js';
import { decodeHistorySnapshot, encodeHistorySnapshot } from './history-snapshot.js';
import { parseHistoryFile } from './parse-history-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-history-snapshot-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Outcome = { messages?: Message[]; length?: number; error?: string; warnings: FileStoreWarning[] };

async function outcome(
  read: (warn: (warning: FileStoreWarning) => void) => Promise<{ messages: Message[]; length: number }>,
) {
  const warnings: FileStoreWarning[] = [];
  try {
    const { messages, length } = await read((warning) => warnings.push(warning));
    return { messages, length, warnings } as Outcome;
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}`, warnings } as Outcome;
  }
}

/** Messages of a few hundred KB each (so a few make a history past the 1 MiB a snapshot needs). */
const bigMessages = (prefix: string, texts: string[]): Message[] =>
  texts.map((text, index) => ({
    id: `${prefix}${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    parts: [{ type: 'text', text: `${text}\n`.repeat(Math.ceil(150_000 / (text.length + 1))) }],
    ...(index % 3 === 0 ? { metadata: { sent: new Date(index * 1_000), $tag: text.slice(0, 5) } } : {}),
  }));

const textArbitrary = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });

/** What may happen to the history file after a load wrote its snapshot. */
const changes = ['none', 'append', 'torn', 'uncommitted', 'edit-prefix', 'break-prefix', 'rewrite', 'cut'] as const;
const snapshotDamage = ['none', 'flip', 'truncate', 'garbage'] as const;

describe('a history read through its snapshot', () => {
  it('returns, warns and throws exactly what decoding the file does, whatever changed since the snapshot', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(textArbitrary, { minLength: 8, maxLength: 12 }),
        fc.array(textArbitrary, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...changes),
        fc.constantFrom(...snapshotDamage),
        fc.nat(),
        async (texts, more, change, damage, seed) => {
          run += 1;
          const file = join(dir, `h${run}.history.jsonl`);
          const snapshot = join(dir, `h${run}.history.snapshot`);
          const noWarnings = () => {};
          const first = bigMessages('m', texts);
          await appendHistoryFile(file, encodeMessages(first.slice(0, 4), file), noWarnings);
          await appendHistoryFile(file, encodeMessages(first.slice(4), file), noWarnings);
          // The first load decodes the JSON and writes the snapshot.
          const loaded = await readHistoryFile(file, noWarnings, 0, snapshot);
          expect(loaded.messages).toEqual(first);
          const size = (await stat(file)).size;
          expect((await stat(snapshot)).size).toBeGreaterThan(0);

          const extra = bigMessages('x', more);
          if (change === 'append') await appendHistoryFile(file, encodeMessages(extra, file), noWarnings);
          if (change === 'torn') await writeFile(file, '{"id":"torn","ro', { flag: 'a' });
          if (change === 'uncommitted')
            await writeFile(file, `${encodeMessages(extra, file).join('\n')}\n`, { flag: 'a' });
          if (change === 'edit-prefix' || change === 'break-prefix') {
            const bytes = await readFile(file);
            // A byte inside some message's text: another letter keeps valid JSON, a quote breaks it.
            const at = 40 + (seed % (size - 80));
            const text = bytes.toString('utf8');
            const inText = text.indexOf('"text":"', text.lastIndexOf('\n', at)) + 9;
            bytes[Math.min(inText, size - 3)] = change === 'edit-prefix' ? 0x5a : 0x22;
            await writeFile(file, bytes);
          }
          if (change === 'rewrite') {
            await rm(file);
            const other = bigMessages(
              'o',
              texts.map((text) => `${text}!`),
            );
            await appendHistoryFile(file, encodeMessages(other, file), noWarnings);
          }
          if (change === 'cut') await truncate(file, Math.floor(size / 2));
          if (damage !== 'none') {
            const bytes = await readFile(snapshot);
            if (damage === 'flip') bytes[seed % bytes.length] = (bytes[seed % bytes.length] as number) ^ 0x20;
            if (damage === 'truncate') await writeFile(snapshot, bytes.subarray(0, seed % bytes.length));
            else if (damage === 'garbage')
              await writeFile(snapshot, Buffer.from(`compaction-history-snapshot 1\n{}\n${seed}`));
            else await writeFile(snapshot, bytes);
          }

          const expected = await outcome(async (warn) => parseHistoryFile(await readFile(file), file, warn));
          const actual = await outcome((warn) => readHistoryFile(file, warn, 0, snapshot));
          expect(actual).toEqual(expected);
          // Read again: through the snapshot that load may have rewritten.
          const again = await outcome((warn) => readHistoryFile(file, warn, 0, snapshot));
          expect(again).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('uses a snapshot that stands for the bytes: one made of other messages is what a load returns', async () => {
    const file = join(dir, 'used.history.jsonl');
    const snapshot = join(dir, 'used.history.snapshot');
    const messages = bigMessages('m', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    await appendHistoryFile(file, encodeMessages(messages, file), () => {});
    const bytes = await readFile(file);
    const lines = bytes.toString('utf8').split('\n').length - 1;
    const stand = messages.map((message) => ({
      ...message,
      parts: [{ type: 'text' as const, text: 'from the snapshot' }],
    }));
    await writeFile(snapshot, encodeHistorySnapshot(bytes, bytes.length, lines, stand));
    expect((await readHistoryFile(file, () => {}, 0, snapshot)).messages).toEqual(stand);
    // Appended after it: decoded from the JSON, line numbers as in the file.
    await writeFile(file, '{"id":"bad","role":"user","parts":[{"type":"text","text":1}]}\n{"$commit":1}\n', {
      flag: 'a',
    });
    await expect(readHistoryFile(file, () => {}, 0, snapshot)).rejects.toThrow(`line ${lines + 1} is not a message`);
  });
});

describe('decodeHistorySnapshot', () => {
  const history = Buffer.from('{"$history":2}\n{"id":"a","role":"user","parts":[]}\n{"$commit":1}\n');
  const messages: Message[] = [{ id: 'a', role: 'user', parts: [] }];
  const snapshot = encodeHistorySnapshot(history, history.length, 3, messages);

  it('gives the messages back for the same bytes, and for a history that grew after them', () => {
    expect(decodeHistorySnapshot(snapshot, history)).toEqual({ bytes: history.length, lines: 3, messages });
    const grown = Buffer.concat([history, Buffer.from('{"id":"b","role":"user","parts":[]}\n{"$commit":1}\n')]);
    expect(decodeHistorySnapshot(snapshot, grown)?.messages).toEqual(messages);
  });

  it('refuses any other history, and any change to its own bytes', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (position, mask) => {
        const changedHistory = Buffer.from(history);
        const at = position % history.length;
        changedHistory[at] = (changedHistory[at] as number) ^ mask;
        expect(decodeHistorySnapshot(snapshot, changedHistory)).toBeUndefined();
        const changedSnapshot = Buffer.from(snapshot);
        const inSnapshot = position % snapshot.length;
        changedSnapshot[inSnapshot] = (changedSnapshot[inSnapshot] as number) ^ mask;
        expect(decodeHistorySnapshot(changedSnapshot, history)).toBeUndefined();
      }),
    );
    expect(decodeHistorySnapshot(snapshot, history.subarray(0, history.length - 1))).toBeUndefined();
    expect(decodeHistorySnapshot(snapshot.subarray(0, snapshot.length - 1), history)).toBeUndefined();
    expect(decodeHistorySnapshot(Buffer.from('not a snapshot'), history)).toBeUndefined();
  });
});
