import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
});
