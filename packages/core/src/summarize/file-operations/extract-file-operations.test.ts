import { describe, expect, it } from 'vitest';
import type { Message } from '../../messages/types.js';
import { extractFileOperations } from './extract-file-operations.js';

function calls(...list: { name: string; input: unknown }[]): Message[] {
  return [
    {
      id: 'a',
      role: 'assistant',
      parts: list.map((call, index) => ({
        type: 'tool-call' as const,
        toolCallId: `c${index}`,
        toolName: call.name,
        input: call.input,
      })),
    },
  ];
}

describe('extractFileOperations', () => {
  it('maps common agent tools, case-insensitively, from every path key', () => {
    const messages = calls(
      { name: 'Read', input: { file_path: '/repo/README.md' } },
      { name: 'read_file', input: { path: 'src/a.ts' } },
      { name: 'VIEW', input: { filePath: 'src/b.ts' } },
      { name: 'cat', input: { filename: 'notes.txt' } },
      { name: 'Write', input: { file_path: 'src/new.ts', content: 'x' } },
      { name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } },
      { name: 'MultiEdit', input: { file_path: 'src/c.ts', edits: [] } },
      { name: 'NotebookEdit', input: { notebook_path: 'analysis.ipynb' } },
      { name: 'Bash', input: { command: 'cat src/ignored.ts' } },
      { name: 'Grep', input: { path: 'src/', pattern: 'x' } },
    );
    expect(extractFileOperations(messages)).toEqual({
      read: ['/repo/README.md', 'notes.txt', 'src/b.ts'],
      modified: ['analysis.ipynb', 'src/a.ts', 'src/c.ts', 'src/new.ts'],
    });
  });

  it('reads the command of str_replace_based_edit_tool: view reads, create/str_replace/insert modify', () => {
    const messages = calls(
      { name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'a.py' } },
      { name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'b.py', file_text: '' } },
      { name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'c.py' } },
      { name: 'str_replace_based_edit_tool', input: { command: 'insert', path: 'd.py' } },
    );
    expect(extractFileOperations(messages)).toEqual({ read: ['a.py'], modified: ['b.py', 'c.py', 'd.py'] });
  });

  it('takes the files of a patch from its headers (apply_patch and unified diff)', () => {
    const codexPatch = [
      '*** Begin Patch',
      '*** Update File: src/app.ts',
      '@@ function main',
      '-old',
      '+new',
      '*** Add File: src/util.ts',
      '+export const x = 1;',
      '*** Delete File: src/old.ts',
      '*** Update File: src/name.ts',
      '*** Move to: src/renamed.ts',
      '*** End Patch',
    ].join('\n');
    const unified = [
      'diff --git a/lib/x.js b/lib/x.js',
      '--- a/lib/x.js',
      '+++ b/lib/x.js',
      '@@ -1 +1 @@',
      '--- a comment line removed',
      '--- /dev/null',
      '+++ b/lib/created.js\t2024-01-01 10:00:00',
    ].join('\n');
    const messages = calls(
      { name: 'apply_patch', input: { input: codexPatch } },
      { name: 'apply_patch', input: { patch: unified } },
    );
    expect(extractFileOperations(messages).modified).toEqual([
      'lib/created.js',
      'lib/x.js',
      'src/app.ts',
      'src/name.ts',
      'src/old.ts',
      'src/renamed.ts',
      'src/util.ts',
    ]);
  });

  it('lists a file read and later modified as modified only', () => {
    const messages = calls(
      { name: 'Read', input: { file_path: 'a.ts' } },
      { name: 'Edit', input: { file_path: 'a.ts' } },
      { name: 'Read', input: { file_path: 'b.ts' } },
      { name: 'Read', input: { file_path: 'b.ts' } },
    );
    expect(extractFileOperations(messages)).toEqual({ read: ['b.ts'], modified: ['a.ts'] });
  });

  it('merges a user tool map over the default: new tools, overrides, functions', () => {
    const messages = calls(
      { name: 'copy_file', input: { source: 'in.csv', target: 'out.csv' } },
      { name: 'open', input: { path: 'opened-for-writing.txt' } },
      { name: 'Read', input: { file_path: 'still-read.ts' } },
    );
    const fileOps = extractFileOperations(messages, {
      copy_file: (input) => {
        const { source, target } = input as { source: string; target: string };
        return { read: [source], modified: [target] };
      },
      OPEN: 'modified',
    });
    expect(fileOps).toEqual({ read: ['in.csv', 'still-read.ts'], modified: ['opened-for-writing.txt', 'out.csv'] });
  });

  it('ignores inputs without paths and non-string paths', () => {
    const messages = calls(
      { name: 'Read', input: undefined },
      { name: 'Write', input: { file_path: 42 } },
      { name: 'Edit', input: 'not a patch' },
      { name: 'Read', input: { path: '   ' } },
    );
    expect(extractFileOperations(messages)).toEqual({ read: [], modified: [] });
  });
});
