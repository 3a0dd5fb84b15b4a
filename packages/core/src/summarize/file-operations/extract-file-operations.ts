import type { Message } from '../../messages/types.js';
import type { FileOperations } from '../types.js';
import { DEFAULT_FILE_TOOL_MAP, type FileToolMap, type FileToolRule, inputFilePaths } from './default-file-tool-map.js';
import { normalizeFileOperations } from './normalize-file-operations.js';

/**
 * The files the tool calls in `messages` read and modified, from each call's tool name
 * and input (a call counts whether or not its result was an error).
 *
 * @param toolMap - rules merged over {@link DEFAULT_FILE_TOOL_MAP}; an entry here replaces
 * the default entry of the same name (names match case-insensitively).
 * @default toolMap DEFAULT_FILE_TOOL_MAP
 * @example
 * ```ts
 * extractFileOperations(messages, {
 *   // a custom tool: `{ source, target }` copies one file to another
 *   copy_file: (input) => ({ read: [input.source], modified: [input.target] }),
 * });
 * ```
 */
export function extractFileOperations(messages: readonly Message[], toolMap?: FileToolMap): FileOperations {
  const rules = ruleLookup(toolMap);
  const read: unknown[] = [];
  const modified: unknown[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      const rule = rules.get(part.toolName.toLowerCase());
      if (!rule) continue;
      const paths = applyRule(rule, part.input);
      read.push(...(paths.read ?? []));
      modified.push(...(paths.modified ?? []));
    }
  }
  return normalizeFileOperations(read, modified);
}

function ruleLookup(toolMap: FileToolMap | undefined): Map<string, FileToolRule> {
  const rules = new Map<string, FileToolRule>();
  for (const map of [DEFAULT_FILE_TOOL_MAP, toolMap ?? {}]) {
    for (const [name, rule] of Object.entries(map)) rules.set(name.toLowerCase(), rule);
  }
  return rules;
}

function applyRule(rule: FileToolRule, input: unknown): { read?: unknown[]; modified?: unknown[] } {
  if (rule === 'read') return { read: inputFilePaths(input) };
  if (rule === 'modified') return { modified: inputFilePaths(input) };
  const paths = rule(input);
  return {
    read: Array.isArray(paths?.read) ? paths.read : [],
    modified: Array.isArray(paths?.modified) ? paths.modified : [],
  };
}
