import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTempFileOf, tempFileOf, writeFileAtomic } from './write-file-atomic.js';

describe('tempFileOf', () => {
  it('names a temp file isTempFileOf recognizes, never the same twice in a process', () => {
    // As the store names them: a file's base name, and the temp files the folder holds beside it.
    const file = 'a.state.json';
    const names = Array.from({ length: 20_000 }, () => tempFileOf(file));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(isTempFileOf(file, name)).toBe(true);
    expect(names[0]).toMatch(new RegExp(`^a\\.state\\.json\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
  });
});

describe('writeFileAtomic', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-atomic-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets overlapping writes of one file each finish, leaves one whole text and no temp file', async () => {
    const file = join(dir, 'a.state.json');
    const texts = Array.from({ length: 50 }, (_, index) => `{"write":${index}}\n`);
    await Promise.all(texts.map((text) => writeFileAtomic(file, text)));
    expect(texts).toContain(readFileSync(file, 'utf8'));
    expect(readdirSync(dir)).toEqual(['a.state.json']);
  });

  it('skips temp names that exist already (a crashed save, another process with the same pid) and leaves them alone', async () => {
    const file = join(dir, 'b.state.json');
    writeFileSync(file, 'old\n');
    // The names the next saves will draw: the suffix counts up from the last one drawn.
    const drawn = /\.(\d+)\.([0-9a-f]{8})\.tmp$/.exec(tempFileOf(file))!;
    const theirs = [1, 2, 3].map(
      (step) =>
        `${file}.${drawn[1]}.${((Number.parseInt(drawn[2]!, 16) + step) % 0x1_0000_0000).toString(16).padStart(8, '0')}.tmp`,
    );
    for (const name of theirs) writeFileSync(name, "another save's temp file\n");
    await writeFileAtomic(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    for (const name of theirs) expect(readFileSync(name, 'utf8')).toBe("another save's temp file\n");
    for (const name of theirs) rmSync(name);
  });

  it('fails with the file system error, and deletes nothing, when every name it tries exists', async () => {
    const file = join(dir, 'c.state.json');
    writeFileSync(file, 'old\n');
    const drawn = /\.(\d+)\.([0-9a-f]{8})\.tmp$/.exec(tempFileOf(file))!;
    const theirs = Array.from(
      { length: 16 },
      (_, step) =>
        `${file}.${drawn[1]}.${((Number.parseInt(drawn[2]!, 16) + step + 1) % 0x1_0000_0000).toString(16).padStart(8, '0')}.tmp`,
    );
    for (const name of theirs) writeFileSync(name, 'x');
    await expect(writeFileAtomic(file, 'new\n')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    for (const name of theirs) expect(readFileSync(name, 'utf8')).toBe('x');
    for (const name of theirs) rmSync(name);
  });
});
