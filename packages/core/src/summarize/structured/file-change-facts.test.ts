import { describe, expect, it } from 'vitest';
import { fileChangesOf } from './file-change-facts.js';

describe('fileChangesOf', () => {
  it('an edit: the names and definitions its new text brings in', () => {
    const [change] = fileChangesOf(
      {
        file_path: 'lib/app.ex',
        old_string: 'def render(assigns) do\n  ~H"<div/>"\nend',
        new_string:
          'def render(assigns) do\n  ~H"<div/>"\nend\n\ndef handle_event("close_review", _params, socket) do\n  {:noreply, put_flash(socket, :info, "ok")}\nend',
      },
      ['lib/app.ex'],
    );
    expect(change).toEqual({
      path: 'lib/app.ex',
      created: false,
      added: ['handle_event', 'close_review', '_params', 'put_flash'],
      definitions: ['def handle_event("close_review", _params, socket) do'],
    });
  });

  it('a MultiEdit, a whole write against what was read, and a patch', () => {
    const [multi] = fileChangesOf(
      {
        file_path: 'a.ts',
        edits: [
          { old_string: 'x', new_string: 'export function parseArgs() {}' },
          { old_string: 'y', new_string: 'const MAX_DEPTH = 3;' },
        ],
      },
      ['a.ts'],
    );
    expect(multi?.added).toEqual(['parseArgs', 'MAX_DEPTH']);
    const [write] = fileChangesOf(
      { file_path: 'b.ts', content: 'export const oldName = 1;\nexport const newName = 2;' },
      ['b.ts'],
      () => new Set(['oldName']),
    );
    expect(write).toMatchObject({ created: true, added: ['newName'] });
    const patch =
      '*** Begin Patch\n*** Update File: src/c.ts\n@@\n-const a_b = 1;\n+const a_b = 1;\n+export function runJob() {}\n*** Add File: src/d.ts\n+export class JobQueue {}\n*** End Patch';
    expect(fileChangesOf({ input: patch }, ['src/c.ts', 'src/d.ts'])).toEqual([
      { path: 'src/c.ts', created: false, added: ['runJob'], definitions: ['export function runJob() {}'] },
      { path: 'src/d.ts', created: true, added: ['JobQueue'], definitions: ['export class JobQueue {}'] },
    ]);
  });

  it('an input it cannot read still counts the file', () => {
    expect(fileChangesOf({ file_path: 'x' }, ['x'])).toEqual([
      { path: 'x', created: false, added: [], definitions: [] },
    ]);
    expect(fileChangesOf(null, ['x'])).toEqual([{ path: 'x', created: false, added: [], definitions: [] }]);
  });
});
