import { InvalidMessageError } from '../errors/invalid-message-error.js';
import { type Message, PART_TYPES, ROLES } from './types.js';

const roles: ReadonlySet<string> = new Set(ROLES);
const partTypes: ReadonlySet<string> = new Set(PART_TYPES);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(record: Record<string, unknown>, key: string, where: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? undefined : `${where}: "${key}" must be a string, got ${describe(value)}`;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}

function partProblem(part: unknown, partIndex: number): string | undefined {
  const where = `part ${partIndex}`;
  if (!isRecord(part)) return `${where} must be an object, got ${describe(part)}`;
  const type = part.type;
  if (typeof type !== 'string' || !partTypes.has(type)) {
    return `${where} has unknown type ${describe(type)}; expected one of ${PART_TYPES.join(', ')}`;
  }
  switch (type) {
    case 'text':
    case 'reasoning':
      return requireString(part, 'text', where);
    case 'tool-call':
      return requireString(part, 'toolCallId', where) ?? requireString(part, 'toolName', where);
    case 'tool-result':
      return requireString(part, 'toolCallId', where) ?? requireString(part, 'toolName', where);
    case 'file':
      return requireString(part, 'mediaType', where);
    default:
      return undefined;
  }
}

/**
 * What makes `value` no message (the problem {@link parseMessages} reports for it,
 * without its index), or undefined when it is one. Ids are not compared with others.
 */
export function messageProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `must be an object, got ${describe(value)}`;
  if (typeof value.id !== 'string' || value.id.length === 0) {
    return `"id" must be a non-empty string, got ${describe(value.id)}; give every message a stable id`;
  }
  if (typeof value.role !== 'string' || !roles.has(value.role)) {
    return `unknown role ${describe(value.role)}; expected one of ${ROLES.join(', ')}`;
  }
  const parts = value.parts;
  if (!Array.isArray(parts)) return `"parts" must be an array, got ${describe(parts)}`;
  // Indexed, not `entries()`: a new process checks every stored message before its code is optimized,
  // where an iterator and a pair a part cost 2–8 ms over a 10,000-message history.
  for (let partIndex = 0; partIndex < parts.length; partIndex += 1) {
    const problem = partProblem(parts[partIndex], partIndex);
    if (problem) return problem;
  }
  if (value.metadata !== undefined && !isRecord(value.metadata)) {
    return `"metadata" must be an object when present, got ${describe(value.metadata)}`;
  }
  return undefined;
}

/**
 * Validates messages at the boundary. Throws {@link InvalidMessageError}
 * naming the index of the first bad message and what is wrong with it: an
 * unknown role or part type, a missing id, a duplicate id (also against
 * `existingIds`, e.g. a history being appended to).
 *
 * @returns the same messages, typed.
 */
export function parseMessages(input: unknown, options: { existingIds?: { has(id: string): boolean } } = {}): Message[] {
  if (!Array.isArray(input)) {
    throw new InvalidMessageError({ index: -1, problem: `expected an array of messages, got ${describe(input)}` });
  }
  const seen = new Set<string>();
  for (const [index, value] of input.entries()) {
    const problem = messageProblem(value);
    if (problem) throw new InvalidMessageError({ index, problem });
    const id = (value as Message).id;
    if (seen.has(id) || options.existingIds?.has(id)) {
      throw new InvalidMessageError({ index, problem: `duplicate id "${id}"; ids must be unique in a conversation` });
    }
    seen.add(id);
  }
  return input as Message[];
}
