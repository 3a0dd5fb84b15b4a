import { describe, expect, it } from 'vitest';
import { todosOf } from './todo-facts.js';

describe('todosOf', () => {
  it('reads Claude Code TodoWrite and Codex update_plan lists', () => {
    expect(
      todosOf({
        todos: [
          { content: 'Add the flag', status: 'completed', activeForm: 'Adding' },
          { content: 'Write the test', status: 'in_progress' },
          { content: 'Update the docs', status: 'pending' },
        ],
      }),
    ).toEqual([
      { text: 'Add the flag', status: 'completed' },
      { text: 'Write the test', status: 'in_progress' },
      { text: 'Update the docs', status: 'pending' },
    ]);
    expect(todosOf({ plan: [{ step: 'Run tests', status: 'done' }] })).toEqual([
      { text: 'Run tests', status: 'completed' },
    ]);
    expect(todosOf({ todos: [] })).toEqual([]);
    expect(todosOf({ command: 'ls' })).toBeUndefined();
    expect(todosOf('x')).toBeUndefined();
  });
});
