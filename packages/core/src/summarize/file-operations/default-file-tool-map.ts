import { patchFilePaths } from './patch-file-paths.js';

/** The files one tool call touched. */
export type FileToolPaths = { read?: string[]; modified?: string[] };

/**
 * How a tool's calls count as file operations: every path the call names (`path`,
 * `file_path`, `filePath`, `filename`, `notebook_path`, and patch headers inside
 * `input.patch` / `input.input` / a string input) is `read` or `modified`; a function
 * decides from the call's input itself.
 */
export type FileToolRule = 'read' | 'modified' | ((input: unknown) => FileToolPaths);

/** Tool name → rule. Names match case-insensitively. */
export type FileToolMap = Readonly<Record<string, FileToolRule>>;

/** The `str_replace_based_edit_tool` / `str_replace_editor` rule: `view` reads, every other command modifies. */
function editorTool(input: unknown): FileToolPaths {
  const paths = inputFilePaths(input);
  const command = isRecord(input) ? input.command : undefined;
  return command === 'view' ? { read: paths } : { modified: paths };
}

/**
 * File tools of common agents (Claude Code, Codex, OpenHands, Anthropic's text editor tool, …).
 * Pass your own `toolMap` to {@link extractFileOperations} to add tools or override these.
 */
export const DEFAULT_FILE_TOOL_MAP: FileToolMap = Object.freeze({
  read: 'read',
  view: 'read',
  cat: 'read',
  open: 'read',
  read_file: 'read',
  write: 'modified',
  edit: 'modified',
  create: 'modified',
  apply_patch: 'modified',
  str_replace: 'modified',
  multi_edit: 'modified',
  multiedit: 'modified',
  notebookedit: 'modified',
  write_file: 'modified',
  edit_file: 'modified',
  str_replace_based_edit_tool: editorTool,
  str_replace_editor: editorTool,
});

const PATH_KEYS = ['path', 'file_path', 'filePath', 'filename', 'notebook_path'] as const;
const PATCH_KEYS = ['patch', 'input'] as const;

/**
 * Every file path a tool input names: the path keys, `paths` / `file_paths` arrays, and
 * the headers of a patch in `input.patch`, `input.input` or a string input.
 */
export function inputFilePaths(input: unknown): string[] {
  if (typeof input === 'string') return patchFilePaths(input);
  if (!isRecord(input)) return [];
  const paths: string[] = [];
  for (const key of PATH_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && value.trim()) paths.push(value.trim());
  }
  for (const key of ['paths', 'file_paths']) {
    const value = input[key];
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string' && item.trim()) paths.push(item.trim());
    }
  }
  for (const key of PATCH_KEYS) {
    const value = input[key];
    if (typeof value === 'string') paths.push(...patchFilePaths(value));
  }
  return [...new Set(paths)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
