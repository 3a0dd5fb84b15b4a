import { codeIdentifiers } from './code-identifiers.js';

/** What one file-modifying call did to one file. */
export type FileChange = {
  path: string;
  created: boolean;
  /** Code-like names of the new text that the replaced text did not hold. */
  added: string[];
  /** Definition lines of the new text that the replaced text did not hold, trimmed. */
  definitions: string[];
};

const NEW_TEXT_KEYS = ['new_string', 'newString', 'new_str', 'new_text', 'newText', 'replacement'] as const;
const OLD_TEXT_KEYS = ['old_string', 'oldString', 'old_str', 'old_text', 'oldText'] as const;
const CONTENT_KEYS = ['content', 'contents', 'file_text', 'text', 'new_source', 'code'] as const;
const PATH_KEYS = ['file_path', 'path', 'filePath', 'filename', 'notebook_path'] as const;
const CODEX_FILE = /^\*\*\* (Update|Add|Delete) File: (.+)$/;
const DIFF_FILE = /^\+\+\+ (?:b\/)?(.+?)(?:\t.*)?$/;

/**
 * A line that defines or declares something, in the common languages: functions, classes,
 * modules, types, constants, methods, schema and routing declarations.
 */
const DEFINITION =
  /^\s*(?:export\s+|pub(?:\(crate\))?\s+|public\s+|private\s+|protected\s+|static\s+|async\s+|default\s+|abstract\s+|final\s+|override\s+)*(?:def|defp|defmodule|defmacro|defstruct|defimpl|defprotocol|function\*?|class|interface|type|enum|struct|trait|impl|fn|func|const|let|var|val|module|namespace|record|object|package|alias|import|use|require|attribute|field|has_many|has_one|belongs_to|many_to_many|create|update|read|destroy|action|argument|calculation|aggregate|identity|live|get|post|put|patch|delete|scope|pipe_through|plug|describe|test|it|CREATE|ALTER|#define)\b/;
const MAX_DEFINITION_CHARS = 100;

/**
 * The files a modifying tool call changed and what it brought in, from its input:
 * `Edit`-like inputs (`old_string` → `new_string`, also `edits: [...]` of `MultiEdit`), whole
 * writes (`content`, `file_text`), and patches (`apply_patch` `*** Update File:` sections,
 * unified diffs: `+` lines against `-` lines). Names the file already held when last seen
 * (`known`, e.g. from reading it) are not counted as added. An input it cannot read gives a
 * change with no names, so the file is still counted.
 */
export function fileChangesOf(
  input: unknown,
  paths: readonly string[],
  known: (path: string) => ReadonlySet<string> | undefined = () => undefined,
): FileChange[] {
  const patch = patchText(input);
  if (patch !== undefined) return patchChanges(patch, paths, known);
  if (!isRecord(input)) return paths.map((path) => ({ path, created: false, added: [], definitions: [] }));
  const pairs: { before: string; after: string }[] = [];
  const edits = Array.isArray(input.edits) ? input.edits : [];
  for (const edit of [input, ...edits]) {
    if (!isRecord(edit)) continue;
    const after = firstString(edit, NEW_TEXT_KEYS);
    if (after !== undefined) pairs.push({ before: firstString(edit, OLD_TEXT_KEYS) ?? '', after });
  }
  const content = firstString(input, CONTENT_KEYS);
  const created = pairs.length === 0 && content !== undefined;
  if (created) pairs.push({ before: '', after: content });
  const before = pairs.map((pair) => pair.before).join('\n');
  const after = pairs.map((pair) => pair.after).join('\n');
  return paths.map((path) => ({ path, created, ...difference(before, after, known(path)) }));
}

function patchChanges(
  patch: string,
  paths: readonly string[],
  known: (path: string) => ReadonlySet<string> | undefined,
): FileChange[] {
  const sections = new Map<string, { removed: string[]; addedLines: string[]; created: boolean }>();
  let current: { removed: string[]; addedLines: string[]; created: boolean } | undefined;
  for (const line of patch.split('\n')) {
    const codex = CODEX_FILE.exec(line);
    const diff = codex ? undefined : DIFF_FILE.exec(line);
    const path = codex?.[2]?.trim() ?? diff?.[1]?.trim();
    if (path) {
      current = sections.get(path) ?? { removed: [], addedLines: [], created: codex?.[1] === 'Add' };
      sections.set(path, current);
      continue;
    }
    if (!current || line.startsWith('---') || line.startsWith('+++')) continue;
    if (line.startsWith('+')) current.addedLines.push(line.slice(1));
    else if (line.startsWith('-')) current.removed.push(line.slice(1));
  }
  const changes: FileChange[] = [];
  for (const path of paths) {
    const section = sections.get(path) ?? [...sections].find(([name]) => path.endsWith(name))?.[1];
    const change = section
      ? difference(section.removed.join('\n'), section.addedLines.join('\n'), known(path))
      : { added: [], definitions: [] };
    changes.push({ path, created: section?.created ?? false, ...change });
  }
  return changes;
}

/** The names and definition lines of `after` that `before` (and the file as last seen, `known`) did not hold. */
function difference(
  before: string,
  after: string,
  known: ReadonlySet<string> | undefined,
): { added: string[]; definitions: string[] } {
  const replaced = new Set(codeIdentifiers(before));
  const added = codeIdentifiers(after).filter((name) => !replaced.has(name) && !known?.has(name));
  const oldLines = new Set(before.split('\n').map((line) => line.trim()));
  const definitions: string[] = [];
  for (const line of after.split('\n')) {
    const trimmed = line.trim().replace(/\s+/g, ' ');
    if (!trimmed || oldLines.has(trimmed) || !DEFINITION.test(trimmed)) continue;
    const cut = trimmed.length > MAX_DEFINITION_CHARS ? `${trimmed.slice(0, MAX_DEFINITION_CHARS)}…` : trimmed;
    if (!definitions.includes(cut)) definitions.push(cut);
  }
  return { added, definitions };
}

function patchText(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!isRecord(input) || firstString(input, PATH_KEYS) !== undefined) return undefined;
  for (const key of ['patch', 'input', 'diff']) {
    const value = input[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function firstString(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
