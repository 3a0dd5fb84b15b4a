import { oneLine, type TodoFact } from './summary-facts.js';

const TEXT_KEYS = ['content', 'text', 'title', 'subject', 'step', 'task', 'description'] as const;

/**
 * The todo list a tool call writes, when it writes one: Claude Code's `TodoWrite`
 * (`{ todos: [{ content, status }] }`), Codex's `update_plan` (`{ plan: [{ step, status }] }`)
 * and the like (`items`, `tasks`). Statuses other than `in_progress` and `completed`
 * (`done`, `complete`, `active`, …) are mapped onto them; anything else is `pending`.
 */
export function todosOf(input: unknown): TodoFact[] | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const record = input as Record<string, unknown>;
  for (const key of ['todos', 'plan', 'items', 'tasks']) {
    const list = record[key];
    if (!Array.isArray(list)) continue;
    const todos: TodoFact[] = [];
    for (const item of list) {
      if (typeof item !== 'object' || item === null) continue;
      const entry = item as Record<string, unknown>;
      const text = TEXT_KEYS.map((name) => entry[name]).find((value) => typeof value === 'string' && value.trim());
      if (typeof text === 'string') todos.push({ text: oneLine(text), status: status(entry.status) });
    }
    if (todos.length > 0 || list.length === 0) return todos;
  }
  return undefined;
}

function status(value: unknown): TodoFact['status'] {
  const text = typeof value === 'string' ? value.toLowerCase().replace(/[\s-]+/g, '_') : '';
  if (['completed', 'complete', 'done', 'finished', 'closed'].includes(text)) return 'completed';
  if (['in_progress', 'active', 'doing', 'started', 'running'].includes(text)) return 'in_progress';
  return 'pending';
}
