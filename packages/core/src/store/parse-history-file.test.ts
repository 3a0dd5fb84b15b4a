import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import { decodeMessage } from './codec/decode-message.js';
import { encodeValue } from './codec/encode-value.js';
import { type FileStoreWarning, readHistoryFile } from './history-file.js';
import { COMMIT_LINE, HISTORY_FORMAT_LINE, newerHistoryFormatError } from './history-format.js';
import { parseHistoryFile } from './parse-history-file.js';

const FILE = '/sessions/s.history.jsonl';

/**
 * How the history file was read before `parseHistoryFile` (one string of the whole file,
 * split on newlines, every line tested): the reference the byte-level reader must match.
 */
function lineByLine(text: string, warn: (warning: FileStoreWarning) => void): Message[] {
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  // A complete first line naming a format above 2 is a newer release's file: refused before anything else.
  const format = /^\{"\$history":(\d+)\}$/.exec(lines[0] ?? '');
  if (format && Number(format[1]) > 2) throw newerHistoryFormatError(FILE, format[1] as string);
  if (tail !== '') {
    warn({
      file: FILE,
      message:
        `ignored an incomplete last line (line ${lines.length + 1}, ${Buffer.byteLength(tail)} bytes without a newline): ` +
        'an append was interrupted; the next append drops it',
    });
  }
  let end = lines.length;
  if (lines[0] === HISTORY_FORMAT_LINE) {
    let committed = 0;
    for (let index = lines.length - 1; index > 0; index -= 1) {
      if (COMMIT_LINE.test(lines[index] as string)) {
        committed = index + 1;
        break;
      }
    }
    if (committed < lines.length) {
      warn({
        file: FILE,
        message: `ignored ${lines.length - Math.max(committed, 1)} line(s) after the last commit: an append was interrupted; the next append drops them`,
      });
    }
    end = Math.max(committed, 1);
  }
  const messages: Message[] = [];
  for (let index = 0; index < end; index += 1) {
    const line = lines[index] as string;
    if (line.trim() === '' || line === HISTORY_FORMAT_LINE || COMMIT_LINE.test(line)) continue;
    messages.push(decodeMessage(line, FILE, `line ${index + 1}`));
  }
  return messages;
}

type Outcome<T> = { messages?: T; error?: string; warnings: FileStoreWarning[] };

function outcome<T>(read: (warn: (warning: FileStoreWarning) => void) => T): Outcome<T> {
  const warnings: FileStoreWarning[] = [];
  try {
    return { messages: read((warning) => warnings.push(warning)), warnings };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}`, warnings };
  }
}

const line = (message: unknown) => JSON.stringify(encodeValue(message));

const messageLine = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 8 }),
    role: fc.constantFrom('user', 'assistant', 'tool', 'system'),
    text: fc.string({ unit: 'binary', maxLength: 40 }),
    dollarFirst: fc.boolean(),
    bytes: fc.boolean(),
  })
  .map(({ id, role, text, dollarFirst, bytes }) =>
    line({
      // A user key starting with `$` first: the line opens with `{"$$`, like a marker, and is a message.
      ...(dollarFirst ? { $note: text } : {}),
      id,
      role,
      parts: [
        { type: 'text', text },
        ...(bytes ? [{ type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) }] : []),
      ],
      ...(dollarFirst ? { metadata: { sent: new Date(0), $commit: 1 } } : {}),
    }),
  );

/** Every kind of line a history file can hold, good or bad. */
const anyLine = fc.oneof(
  { weight: 8, arbitrary: messageLine },
  { weight: 3, arbitrary: fc.nat({ max: 20 }).map((count) => `{"$commit":${count}}`) },
  { weight: 1, arbitrary: fc.constant(HISTORY_FORMAT_LINE) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('', '  ', '\t', '\r', '\u00a0', '\u2028', ' \u3000 '),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '{"id": "m2", "ro',
      '{"id":"x"}',
      '[1]',
      '42',
      '{"$commit":"7"}',
      '{"$commit":3} ',
      ' {"$commit":3}',
      '{"$history":1}',
      '{"$history":3}',
      '{"$history":02}',
      '{"$history":2 }',
      '{"$c":"nope","v":"x"}',
      '{"$c":"date","v":1}',
      '{"$',
      '{"',
      '{',
      '\u00e9{"id":"a"}',
    ),
  },
  { weight: 1, arbitrary: messageLine.map((text) => `${text}\r`) },
);

/** The format line of a newer release than this one: `{"$history":n}`, n above 2. */
const newerFormatLine = fc
  .oneof(fc.integer({ min: 3, max: 12 }), fc.integer({ min: 3 }), fc.bigInt({ min: 10n ** 20n, max: 10n ** 40n }))
  .map((format) => `{"$history":${format}}`);

/** A file: maybe a format line (this release's, or now and then a newer one's), lines, and maybe an unterminated tail cut from a line at a character boundary. */
const historyFile = fc
  .record({
    formatted: fc.boolean(),
    newer: fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: newerFormatLine }),
    lines: fc.array(anyLine, { maxLength: 12 }),
    tail: fc.option(
      fc.tuple(messageLine, fc.nat()).map(([text, cut]) => [...text].slice(0, 1 + (cut % text.length)).join('')),
      { nil: undefined },
    ),
  })
  .map(
    ({ formatted, newer, lines, tail }) =>
      [...(newer !== undefined ? [newer] : formatted ? [HISTORY_FORMAT_LINE] : []), ...lines]
        .map((text) => `${text}\n`)
        .join('') + (tail ?? ''),
  );

describe('parseHistoryFile', () => {
  it('reads every file (good, torn, cut short, corrupt) exactly as the line-by-line reader: messages, errors, warnings', () => {
    fc.assert(
      fc.property(historyFile, (text) => {
        const bytes = Buffer.from(text, 'utf8');
        expect(outcome((warn) => parseHistoryFile(bytes, FILE, warn).messages)).toEqual(
          outcome((warn) => lineByLine(text, warn)),
        );
      }),
      { numRuns: 1500 },
    );
  });

  it('from a message index, decodes only the messages from it and counts the whole history', () => {
    fc.assert(
      fc.property(historyFile, fc.nat({ max: 14 }), (text, from) => {
        const bytes = Buffer.from(text, 'utf8');
        const whole = outcome((warn) => parseHistoryFile(bytes, FILE, warn).messages);
        const part = outcome((warn) => parseHistoryFile(bytes, FILE, warn, from));
        // The same warnings either way: they are about the file, not about what is decoded.
        expect(part.warnings).toEqual(whole.warnings);
        if (whole.messages) {
          expect(part.messages).toEqual({ messages: whole.messages.slice(from), length: whole.messages.length });
          return;
        }
        // A bad line is reported when it holds a message from `from` on; before it, it is only counted.
        const badLine = Number(/line (\d+)/.exec(whole.error as string)?.[1]);
        const before = lineByLine(
          text
            .split('\n')
            .slice(0, badLine - 1)
            .map((line) => `${line}\n`)
            .join(''),
          () => {},
        ).length;
        if (before >= from) expect(part.error).toBe(whole.error);
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts any Uint8Array view, not only a Buffer', () => {
    const text = `${HISTORY_FORMAT_LINE}\n${line({ id: 'm1', role: 'user', parts: [] })}\n{"$commit":1}\n`;
    const backing = new Uint8Array(Buffer.byteLength(text) + 10);
    backing.set(Buffer.from(text), 5);
    const view = backing.subarray(5, 5 + Buffer.byteLength(text));
    expect(parseHistoryFile(view, FILE, () => {}).messages.map((message) => message.id)).toEqual(['m1']);
  });

  it('reports the bytes of a torn tail cut inside a character as written, and keeps the lines before it', () => {
    const warnings: FileStoreWarning[] = [];
    const whole = Buffer.from(
      `${line({ id: 'm1', role: 'user', parts: [] })}\n${line({ id: 'm2', role: 'user', parts: [{ type: 'text', text: '│' }] })}\n`,
    );
    // Cut one byte into the three bytes of "│".
    const torn = whole.subarray(0, whole.indexOf(Buffer.from('│')) + 1);
    expect(
      parseHistoryFile(torn, FILE, (warning) => warnings.push(warning)).messages.map((message) => message.id),
    ).toEqual(['m1']);
    const tailBytes = torn.length - (torn.indexOf(0x0a) + 1);
    expect(warnings).toEqual([
      { file: FILE, message: expect.stringContaining(`(line 2, ${tailBytes} bytes without a newline)`) },
    ]);
  });

  it('names the line of a corrupt message after 10,000 good ones', () => {
    const good = Array.from({ length: 10_000 }, (_, index) => line({ id: `m${index}`, role: 'user', parts: [] }));
    const text = `${HISTORY_FORMAT_LINE}\n${good.join('\n')}\n{"id":"bad","role":"user","parts":[{"type":"text","text":1}]}\n{"$commit":10001}\n`;
    expect(() => parseHistoryFile(Buffer.from(text), FILE, () => {})).toThrow(`${FILE}: line 10002 is not a message`);
  });
});

describe('a history file a newer release wrote', () => {
  it('is refused whatever follows its format line and from whatever message, saying to upgrade, with no warning', () => {
    fc.assert(
      fc.property(newerFormatLine, historyFile, fc.nat({ max: 14 }), (first, rest, from) => {
        const format = /\d+/.exec(first)?.[0] as string;
        const warnings: FileStoreWarning[] = [];
        let thrown: unknown;
        try {
          parseHistoryFile(Buffer.from(`${first}\n${rest}`, 'utf8'), FILE, (warning) => warnings.push(warning), from);
        } catch (error) {
          thrown = error;
        }
        expect(InvalidStateError.isInstance(thrown)).toBe(true);
        expect((thrown as InvalidStateError).source).toBe(FILE);
        expect((thrown as Error).message).toContain(`in format ${format}, written by a newer release`);
        expect((thrown as Error).message).toContain('Upgrade @compaction/core');
        expect(warnings).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('is told from files of this release and earlier ones, which load as before', () => {
    const body = `${line({ id: 'm1', role: 'user', parts: [] })}\n{"$commit":1}\n`;
    // Format 2 (commit lines) and a file with no format line (format 1) load.
    expect(parseHistoryFile(Buffer.from(`${HISTORY_FORMAT_LINE}\n${body}`), FILE, () => {}).length).toBe(1);
    expect(parseHistoryFile(Buffer.from(body), FILE, () => {}).length).toBe(1);
    // A first line that only looks like a format line is a line like any other: not a message.
    for (const first of ['{"$history":1}', '{"$history":0}', '{"$history":3} ', '{"$history":-3}', '{"$history":"3"}'])
      expect(() => parseHistoryFile(Buffer.from(`${first}\n${body}`), FILE, () => {})).toThrow(
        `${FILE}: line 1 is not`,
      );
    // A torn first line is an interrupted first append, whatever it names.
    expect(parseHistoryFile(Buffer.from('{"$history":3}'), FILE, () => {})).toEqual({ messages: [], length: 0 });
  });
});

describe('readHistoryFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-read-history-'));
  const versionOf = (file: string) => {
    const stats = statSync(file, { bigint: true });
    return { ino: stats.ino, size: stats.size, mtime: stats.mtimeNs };
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a real file (good, torn, cut short, corrupt) exactly as parseHistoryFile reads its bytes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(historyFile, fc.nat({ max: 14 }), async (text, from) => {
        const file = join(dir, `h${run++}.jsonl`);
        writeFileSync(file, text);
        const bytes = Buffer.from(text, 'utf8');
        const expected = outcome((warn) => parseHistoryFile(bytes, file, warn, from));
        const warnings: FileStoreWarning[] = [];
        let actual: Outcome<unknown>;
        try {
          const { version, ...read } = await readHistoryFile(file, (warning) => warnings.push(warning), from);
          // The version is the file's own, from the read's `fstat`.
          expect(version).toEqual(versionOf(file));
          actual = { messages: read, warnings };
        } catch (error) {
          actual = { error: `${(error as Error).name}: ${(error as Error).message}`, warnings };
        }
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a missing file as an empty history, and an empty file as one', async () => {
    expect(await readHistoryFile(join(dir, 'missing.jsonl'), () => {})).toEqual({ messages: [], length: 0 });
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(await readHistoryFile(empty, () => {})).toEqual({ messages: [], length: 0, version: versionOf(empty) });
  });

  it('reads a long history of multi-byte text whole, and names a corrupt line near its end', async () => {
    const good = Array.from({ length: 3_000 }, (_, index) =>
      line({ id: `m${index}`, role: 'user', parts: [{ type: 'text', text: `${index} ${'é→x'.repeat(300)}` }] }),
    );
    const file = join(dir, 'long.jsonl');
    writeFileSync(file, `${HISTORY_FORMAT_LINE}\n${good.join('\n')}\n{"$commit":3000}\n`);
    const { messages, length } = await readHistoryFile(file, () => {});
    expect(length).toBe(3_000);
    expect(messages.map((message) => message.id)).toEqual(good.map((_, index) => `m${index}`));
    const corrupt = join(dir, 'corrupt.jsonl');
    writeFileSync(corrupt, `${HISTORY_FORMAT_LINE}\n${good.join('\n')}\n{"id":"bad"}\n{"$commit":3001}\n`);
    await expect(readHistoryFile(corrupt, () => {})).rejects.toThrow(`${corrupt}: line 3002 is not a message`);
  });
});
