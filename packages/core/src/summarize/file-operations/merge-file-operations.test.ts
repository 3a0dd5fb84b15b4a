import { describe, expect, it } from 'vitest';
import { mergeFileOperations } from './merge-file-operations.js';
import { parseFileOperations } from './parse-file-operations.js';
import { removeFileOperationBlocks } from './remove-file-operation-blocks.js';
import { renderFileOperations } from './render-file-operations.js';

describe('mergeFileOperations', () => {
  it('deduplicates, sorts, and promotes a file read earlier and modified now to modified only', () => {
    const previous = { read: ['src/b.ts', 'src/a.ts'], modified: ['README.md'] };
    const current = { read: ['src/a.ts', 'src/c.ts'], modified: ['src/b.ts', 'README.md'] };
    expect(mergeFileOperations(previous, current)).toEqual({
      read: ['src/a.ts', 'src/c.ts'],
      modified: ['README.md', 'src/b.ts'],
    });
  });

  it('keeps a file modified earlier and only read now as modified', () => {
    expect(mergeFileOperations({ read: [], modified: ['a.ts'] }, { read: ['a.ts'], modified: [] })).toEqual({
      read: [],
      modified: ['a.ts'],
    });
  });

  it('accepts a missing side', () => {
    expect(mergeFileOperations(undefined, { read: ['x'], modified: [] })).toEqual({ read: ['x'], modified: [] });
  });
});

describe('renderFileOperations / parseFileOperations', () => {
  it('renders both blocks, empty ones included', () => {
    expect(renderFileOperations({ read: ['README.md'], modified: [] })).toMatchInlineSnapshot(`
      "<read-files>
      README.md
      </read-files>
      <modified-files>
      </modified-files>"
    `);
  });

  it('reads rendered blocks back, skipping placeholders, and removes them from a text', () => {
    const fileOps = { read: ['a b/c.ts', 'z.md'], modified: ['src/[id].tsx'] };
    const text = `## Goal\nx\n\n${renderFileOperations(fileOps)}\n<read-files>\n[files that were read]\n- extra.ts\n</read-files>`;
    expect(parseFileOperations(text)).toEqual({ read: ['a b/c.ts', 'extra.ts', 'z.md'], modified: ['src/[id].tsx'] });
    expect(removeFileOperationBlocks(text)).toBe('## Goal\nx');
  });

  it('treats an unclosed block as running to the end, and ignores tags inside a line', () => {
    expect(parseFileOperations('text\n<modified-files>\na.ts\nb.ts')).toEqual({ read: [], modified: ['a.ts', 'b.ts'] });
    const inline = '1. please fix the <read-files> parser\n## Next';
    expect(parseFileOperations(inline)).toEqual({ read: [], modified: [] });
    expect(removeFileOperationBlocks(inline)).toBe(inline);
  });

  it('does not read file tags in the carried last request', () => {
    const text = `${renderFileOperations({ read: ['a.ts'], modified: [] })}\n\nLast request from user was: see\n<modified-files>\nfake.ts\n</modified-files>`;
    expect(parseFileOperations(text)).toEqual({ read: ['a.ts'], modified: [] });
  });
});
