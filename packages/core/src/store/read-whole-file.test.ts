import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWholeFile } from './read-whole-file.js';

describe('readWholeFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-read-whole-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const versionOf = (file: string) => {
    const stats = statSync(file, { bigint: true });
    return { ino: stats.ino, size: stats.size, mtime: stats.mtimeNs };
  };

  it('reads every byte (multi-byte text, an empty file, a file past one read buffer) and the version stat gives', async () => {
    const cases = { text: '{"a":"é→✓"}\n', empty: '', long: `${'x'.repeat(700_000)}→\n`.repeat(3) };
    for (const [name, text] of Object.entries(cases)) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const { data, version, closed } = await readWholeFile(file);
      expect(data.toString('utf8')).toBe(text);
      expect(version).toEqual(versionOf(file));
      await expect(closed).resolves.toBeUndefined();
    }
  });

  it('tells one version of a file from the next: an append changes its size, a rewritten file reads as stat describes it', async () => {
    const file = join(dir, 'grows');
    writeFileSync(file, 'a\n');
    const first = (await readWholeFile(file)).version;
    writeFileSync(file, 'a\nb\n', { flag: 'a' });
    const appended = (await readWholeFile(file)).version;
    expect(appended.ino).toBe(first.ino);
    expect(appended.size).not.toBe(first.size);
    rmSync(file);
    writeFileSync(join(dir, 'other'), 'keeps the old inode in use');
    writeFileSync(file, 'a\nb\n');
    expect((await readWholeFile(file)).version).toEqual(versionOf(file));
  });

  it('throws ENOENT for a missing file', async () => {
    await expect(readWholeFile(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
